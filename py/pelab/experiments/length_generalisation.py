r"""
# Does it extrapolate? Train on lengths up to L, test up to 4L

The experiment: the same tiny Transformer (`pelab.experiments.training.Trainer`),
trained the same way on the same task with each position scheme in turn,
on sequence lengths up to $L$ only, then evaluated on fresh sequences of
every length in `eval_lengths`, up to $4L$.  Each scheme is trained with
every seed of a fixed seed set, so that a difference between schemes can
be told from a difference between seeds.

The schemes, `RUNS`: `none` without a causal mask (order-blind), `none`
with a causal mask, `learned`, `sinusoidal`, `rope` and `alibi` (the last
four causal).

A learned table has rows only for the positions it was made with.  Here it
is made with $4L$ rows, so the model can be run at every test length, but
rows $L$ to $4L - 1$ never receive a gradient in training (no training
sequence reaches them): they keep their initial random values,
$\mathcal{N}(0, 0.02^2)$.  That is what a learned table "knows" about an
unseen position: nothing.

What this toy shows is what these models do on this task at this size; it
is not a measurement of large language models (for those see Press et al.
2022, Figure 1).  The settings are fixed in `SETTINGS` and were not tuned
to make any scheme win.

`LengthExperiment.advance(n)` runs at most $n$ training steps and
returns, so a page can show progress and stop between slices.
"""

import numpy as np

from .position_tasks import task_lengths
from .sliced import SlicedExperiment

# (scheme, causal) for every run of the experiment, in the order they are trained.
RUNS = (
    ("none", False),
    ("none", True),
    ("learned", True),
    ("sinusoidal", True),
    ("rope", True),
    ("alibi", True),
)
def run_name(scheme, causal):
    """The label of a run: the scheme, and "(causal)" for `none` with a mask."""
    return f"{scheme} (causal)" if scheme == "none" and causal else scheme


def eval_lengths(task, max_train_len):
    """
    The test lengths: from about L / 2 to 4L, every L / 4.

    Example:
        >>> eval_lengths("copy", 16)
        [8, 12, 16, 20, 24, 28, 32, 36, 40, 44, 48, 52, 56, 60, 64]
    """
    step = max(1, max_train_len // 4)
    wanted = range(max(2, max_train_len // 2), 4 * max_train_len + 1, step)
    valid = set(task_lengths(task, 2, 4 * max_train_len))
    return [n for n in wanted if n in valid]


class LengthExperiment(SlicedExperiment):
    """
    Every scheme of `RUNS`, every seed of the setting, trained on lengths up
    to `max_train_len` and tested up to four times that.

    Args:
        quick: use `SETTINGS["quick"]` (fewer steps, two seeds) instead of
            `SETTINGS["default"]`.
        task: `copy` or `reverse`.
        max_train_len: $L$, from 4 to 64.

    Example:
        >>> experiment = LengthExperiment(quick=True, max_train_len=4)
        >>> experiment.total_steps == len(RUNS) * 2 * 120
        True
    """

    def __init__(self, quick=False, task="copy", max_train_len=8):
        super().__init__(quick, task, max_train_len)
        self.lengths = eval_lengths(self.task, self.max_train_len)
        self.jobs = [(scheme, causal, seed) for scheme, causal in RUNS for seed in self.seeds]
        # accuracy[run][seed index][length index], filled as each model finishes.
        self.accuracy = np.full((len(RUNS), len(self.seeds), len(self.lengths)), np.nan)
        self.loss = np.full_like(self.accuracy, np.nan)

    def _test(self):
        """Test the finished model at every length."""
        run, seed_index = divmod(self._job, len(self.seeds))
        for column, seq_len in enumerate(self.lengths):
            # seed=0 for every model: all schemes are tested on the same sequences.
            loss, accuracy = self._trainer.evaluate(seq_len, self.eval_batches, seed=0)
            self.loss[run, seed_index, column] = loss
            self.accuracy[run, seed_index, column] = accuracy

    def current(self):
        """The run label and seed being trained now, or None when done."""
        if self.done:
            return None
        scheme, causal, seed = self.jobs[self._job]
        return run_name(scheme, causal), seed

    def summary(self):
        """
        The progress and the results so far.

        Returns:
            steps_done, total_steps: ints; done: bool; current: str or None, the run being
            trained ("rope, seed 1"); runs: list of str, the run labels; seeds: list of int;
            lengths: list of int, the test lengths; max_train_len: int, L;
            accuracy: float64 (runs, lengths), each the mean over the seeds of that run's
                accuracy (NaN until the run's models are all tested);
            accuracy_min, accuracy_max: the same shape, the lowest and highest seed;
            chance: float, 1 / vocab_size.
        """
        finished = ~np.isnan(self.accuracy).any(axis=(1, 2))  # every seed of the run tested
        accuracy = np.full(self.accuracy.shape[::2], np.nan)
        low, high = accuracy.copy(), accuracy.copy()
        accuracy[finished] = self.accuracy[finished].mean(axis=1)
        low[finished] = self.accuracy[finished].min(axis=1)
        high[finished] = self.accuracy[finished].max(axis=1)
        current = self.current()
        return {
            "steps_done": self.steps_done,
            "total_steps": self.total_steps,
            "done": self.done,
            "current": None if current is None else f"{current[0]}, seed {current[1]}",
            "runs": [run_name(scheme, causal) for scheme, causal in RUNS],
            "seeds": list(self.seeds),
            "lengths": list(self.lengths),
            "max_train_len": self.max_train_len,
            "accuracy": accuracy,
            "accuracy_min": low,
            "accuracy_max": high,
            "chance": 1.0 / self.vocab_size,
        }
