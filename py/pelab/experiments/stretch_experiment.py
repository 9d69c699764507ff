r"""
# Stretching a trained model: train RoPE at $L$, test at $2L$ and $4L$

The tiny Transformer with RoPE (`pelab.experiments.tiny_transformer`, scheme `rope`,
base 10000) is trained as in `pelab.experiments.length_generalisation` (the same
`MODEL`, `SETTINGS`, fixed seeds and `Trainer`), on lengths up to $L$, with
one difference: 2 heads of width $d_h$ = 16 (`n_heads`) where the length
experiment has 8 heads of width 4.  Each head then has 8 pairs for a method
to treat differently, fast from slow; with 2 pairs a head has little to
tell apart.  Then each trained model is tested at $L$, $2L$ and $4L$ with
each stretching method of `METHODS`, with the scale $s = L'/L$ of the
length $L'$ being tested (1, 2 and 4):

- `none`: the trained frequencies, $\omega_i = 10000^{-2i/d_h}$;
- `interpolation`: $\omega_i / s$ (Chen et al. 2023);
- `ntk`: the base raised to `ntk_scaled_base(10000, s, d_h)`;
- `yarn`: `yarn_frequencies(d_h, 10000, s, L)` ($\alpha = 1$,
  $\beta = 32$), YaRN as its authors' code and Hugging Face transformers run
  it, and every score multiplied by `yarn_attention_scale(s)**2`.  With
  $L = 8$ no pair turns 32 times within $L$, and only pair 0 turns more than
  once, so its ramp runs from pair 0 to pair 1: pair 0 keeps its frequency
  and pairs 1 to 7 are divided by $s$.  The paper's formula, linear in turns
  (`pelab.context_scaling.yarn_frequencies_by_turns`), would slow pair 0
  nearly as much as the others.

Every formula is `pelab.context_scaling`'s (`stretched_frequencies`); the
model only rotates with the frequencies it is given.  Nothing is trained
after the stretch.  Real models stretched by position interpolation or
YaRN are fine-tuned briefly at the new length (Chen et al. 2023: within
1000 steps; Peng et al. 2023: a few hundred); this experiment skips that
step, so it shows what a method does to a model that never saw it.

At $s = 1$ every method is the trained model: `none`, `interpolation` and
`ntk` bit for bit, `yarn` to rounding (bit for bit too at $L = 8$, where
each pair's share of its own frequency is exactly 0 or 1).
"""

import numpy as np

from ..checks import check_choice
from ..context_scaling import stretched_frequencies, yarn_attention_scale
from ..positional_encoding import DEFAULT_BASE
from .position_tasks import task_lengths
from .sliced import MODEL, SlicedExperiment

# The methods compared, in the order shown (names of context_scaling.METHODS).
METHODS = ("none", "interpolation", "ntk", "yarn")
# How much longer than L each test length is: s = L' / L.
SCALES = (1, 2, 4)


def method_stretch(method, head_dim, train_len, scale):
    """
    What `pelab.experiments.tiny_transformer.forward` needs to run a RoPE model trained
    at `train_len` stretched by `method` to `scale` times that length.

    Args:
        method: one of `METHODS`.
        head_dim: $d_h$, an even integer from 4.
        train_len: $L$, a positive integer.
        scale: $s$, a real number of at least 1.

    Returns:
        `(frequencies, logit_scale)`: float64 (head_dim / 2,) from
        `pelab.stretched_frequencies`, and YaRN's `yarn_attention_scale(s)**2`
        for `yarn`, 1.0 otherwise.

    Raises:
        ValueError: naming the argument that is out of range.

    Example:
        >>> method_stretch("interpolation", 4, 8, 2.0)[0].tolist()
        [0.5, 0.005]
    """
    method = check_choice("method", method, METHODS)
    frequencies = stretched_frequencies(method, head_dim, DEFAULT_BASE, train_len, scale)
    # YaRN multiplies the rotated q and k by sqrt(1/t), so each score by its square.
    logit_scale = yarn_attention_scale(scale) ** 2 if method == "yarn" else 1.0
    return frequencies, logit_scale


class StretchExperiment(SlicedExperiment):
    """
    The `rope` model of `pelab.experiments.length_generalisation`, with 2 heads of width
    16, trained with every seed of the setting on lengths up to
    `max_train_len`, then tested at $L$, $2L$, $4L$ with every method of
    `METHODS`.

    Args:
        quick: use `SETTINGS["quick"]` instead of `SETTINGS["default"]`.
        task: `copy` or `reverse`.
        max_train_len: $L$, from 4 to 64, such that $L$, $2L$ and $4L$ are
            lengths of the task.

    Raises:
        ValueError: naming the argument that is out of range.

    Example:
        >>> StretchExperiment(quick=True).total_steps == 2 * 120
        True
    """

    # 2 heads of width 16, not the length experiment's 8 of width 4: each head then has 8
    # pairs, so a method that treats fast and slow pairs differently has pairs to tell apart.
    n_heads = 2

    def __init__(self, quick=False, task="copy", max_train_len=8):
        super().__init__(quick, task, max_train_len)
        self.lengths = [scale * self.max_train_len for scale in SCALES]
        valid = set(task_lengths(self.task, 2, self.lengths[-1]))
        if not valid.issuperset(self.lengths):
            raise ValueError(
                f"max_train_len must make L, 2L and 4L lengths of the task {self.task}, "
                f"got {self.max_train_len}"
            )
        self.head_dim = MODEL["d_model"] // self.n_heads
        self.jobs = [("rope", True, seed) for seed in self.seeds]
        # accuracy[method][seed index][length index], filled as each model finishes.
        self.accuracy = np.full((len(METHODS), len(self.seeds), len(SCALES)), np.nan)
        self.loss = np.full_like(self.accuracy, np.nan)

    def _test(self):
        """Test the finished model with every method at every length."""
        for row, method in enumerate(METHODS):
            for column, (scale, seq_len) in enumerate(zip(SCALES, self.lengths)):
                frequencies, logit_scale = method_stretch(
                    method, self.head_dim, self.max_train_len, scale
                )
                # seed=0, as in length_generalisation: the same test sequences for every model.
                loss, accuracy = self._trainer.evaluate(
                    seq_len, self.eval_batches, 0, frequencies, logit_scale
                )
                self.loss[row, self._job, column] = loss
                self.accuracy[row, self._job, column] = accuracy

    def current(self):
        """The seed being trained now, or None when done."""
        return None if self.done else self.seeds[self._job]

    def summary(self):
        """
        The progress and the results so far.

        Returns:
            steps_done, total_steps: ints; done: bool; current: int or None, the seed being
            trained; methods: list of str; scales: list of int (1, 2, 4); lengths: list of int
            (L, 2L, 4L); max_train_len: int, L; seeds: list of int; seeds_done: int, the models
            tested so far; accuracy: float64 (methods, lengths), each the mean over the tested
            seeds (NaN before the first); accuracy_min, accuracy_max: the same shape, the
            lowest and highest seed; chance: float, 1 / vocab_size.
        """
        tested = self.accuracy[:, : self._job]  # the seeds whose models were tested
        shape = (len(METHODS), len(SCALES))
        mean, low, high = (np.full(shape, np.nan) for _ in range(3))
        if tested.shape[1]:
            mean, low, high = tested.mean(axis=1), tested.min(axis=1), tested.max(axis=1)
        return {
            "steps_done": self.steps_done,
            "total_steps": self.total_steps,
            "done": self.done,
            "current": self.current(),
            "methods": list(METHODS),
            "scales": list(SCALES),
            "lengths": list(self.lengths),
            "max_train_len": self.max_train_len,
            "seeds": list(self.seeds),
            "seeds_done": int(tested.shape[1]),
            "accuracy": mean,
            "accuracy_min": low,
            "accuracy_max": high,
            "chance": 1.0 / self.vocab_size,
        }
