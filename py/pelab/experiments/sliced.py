"""
# Models trained one after another, a slice of steps at a time

What both experiments share (`pelab.experiments.length_generalisation` and
`pelab.experiments.stretch_experiment`): the model every run trains (`MODEL`), the two settings
(`SETTINGS`), the trainer made for each run (`experiment_trainer`), and `SlicedExperiment`, the
base class that trains its models one after another in slices (the session interface of
`pelab.experiments.session`).
"""

from ..checks import check_bool, check_choice, check_size
from .position_tasks import TASKS
from .session import Session
from .tiny_transformer import TINY_MODEL
from .training import BATCH_SIZE, LEARNING_RATE, Trainer

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
    **TINY_MODEL,
    "n_heads": 8,
    "batch_size": BATCH_SIZE,
    "learning_rate": LEARNING_RATE,
    "shift": 1,
}


def experiment_trainer(scheme, causal, task, max_train_len, seed, n_heads=MODEL["n_heads"]):
    """
    A fresh `Trainer` of the experiment: `MODEL`, lengths from 4 (or L) to
    L = `max_train_len`, a learned table of 4L rows.  `pelab.experiments.stretch_experiment`
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


class SlicedExperiment(Session):
    """
    Models trained one after another in slices of steps (the page asks for
    one slice at a time, so it stays live), each tested as soon as it
    finishes: what `LengthExperiment` and
    `pelab.experiments.stretch_experiment.StretchExperiment` share.

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
