r"""
# Does it extrapolate? Train on lengths up to L, test up to 4L

The experiment: the same tiny Transformer (`pelab.training.Trainer`),
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

from .checks import check_bool, check_choice, check_size
from .position_tasks import TASKS, task_lengths
from .training import Trainer

# (scheme, causal) for every run of the experiment, in the order they are trained.
RUNS = (
    ("none", False),
    ("none", True),
    ("learned", True),
    ("sinusoidal", True),
    ("rope", True),
    ("alibi", True),
)
# The two settings: steps per model, the fixed seed set, and evaluation batches per length.
SETTINGS = {
    "default": {"steps": 250, "seeds": (0, 1, 2), "eval_batches": 2},
    "quick": {"steps": 120, "seeds": (0, 1), "eval_batches": 1},
}
# The model and task every run shares (the training demo's model, the table sized 4L), with
# 8 heads: ALiBi's slopes are 2^(-8h/n), h = 1..n, so the head count sets the steepest one.
# With 2 heads they are 1/16 and 1/256, and no head prefers the previous key to the one
# before it by more than 1/16 of a logit; with 8 the steepest is 1/2. Every scheme gets the
# same 8 heads (of width 4), so the comparison stays fair.
MODEL = {
    "vocab_size": 8,
    "d_model": 32,
    "n_heads": 8,
    "n_layers": 1,
    "batch_size": 32,
    "learning_rate": 0.003,
    "shift": 1,
}


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


def experiment_trainer(scheme, causal, task, max_train_len, seed, n_heads=MODEL["n_heads"]):
    """
    A fresh `Trainer` of the experiment: `MODEL`, lengths from 4 (or L) to
    L = `max_train_len`, a learned table of 4L rows.  `pelab.stretch_experiment`
    trains its `rope` models with it too, with `n_heads` 2 (heads 16 wide).
    """
    return Trainer(
        scheme=scheme,
        causal=causal,
        task=task,
        max_train_len=max_train_len,
        min_len=min(4, max_train_len),
        table_len=4 * max_train_len,
        seed=seed,
        **{**MODEL, "n_heads": n_heads},
    )


class SlicedExperiment:
    """
    Models trained one after another in slices of steps (the page asks for
    one slice at a time, so it stays live), each tested as soon as it
    finishes: what `LengthExperiment` and
    `pelab.stretch_experiment.StretchExperiment` share.

    A subclass lists its models in `jobs`, a (scheme, causal, seed) each, and
    defines `_test()`, which records the finished model (`self._trainer`) as
    job number `self._job`.

    Args:
        quick: use `SETTINGS["quick"]` (fewer steps, two seeds) instead of
            `SETTINGS["default"]`.
        task: `copy` or `reverse`.
        max_train_len: $L$, from 4 to 64.
    """

    # The head count of every model trained; a subclass may choose another.
    n_heads = MODEL["n_heads"]

    def __init__(self, quick=False, task="copy", max_train_len=8):
        self.setting = "quick" if check_bool("quick", quick) else "default"
        self.task = check_choice("task", task, TASKS)
        self.max_train_len = check_size("max_train_len", max_train_len, 64, minimum=4)
        setting = SETTINGS[self.setting]
        self.steps, self.seeds = setting["steps"], setting["seeds"]
        self.eval_batches = setting["eval_batches"]
        self.vocab_size = MODEL["vocab_size"]
        self.jobs = []
        self.steps_done = 0
        self._job = 0
        self._trainer = None

    @property
    def total_steps(self):
        """The training steps of every model together."""
        return len(self.jobs) * self.steps

    @property
    def done(self):
        """Whether every model has been trained and tested."""
        return self._job >= len(self.jobs)

    def advance(self, n=50):
        """
        Run at most `n` more training steps (fewer when the experiment ends);
        a model that finishes is tested at once.

        Args:
            n: an integer from 1 to 100000.

        Returns:
            the number of steps run.
        """
        n = check_size("n", n, 100_000)
        ran = 0
        while ran < n and not self.done:
            if self._trainer is None:
                scheme, causal, seed = self.jobs[self._job]
                self._trainer = experiment_trainer(
                    scheme, causal, self.task, self.max_train_len, seed, self.n_heads
                )
            todo = min(n - ran, self.steps - self._trainer.steps_done)
            self._trainer.step(todo)
            ran += todo
            if self._trainer.steps_done == self.steps:
                self._test()
                self._trainer = None
                self._job += 1
        self.steps_done += ran
        return ran

    def _test(self):
        """Test the finished model `self._trainer` and record it as job `self._job`."""
        raise NotImplementedError


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
