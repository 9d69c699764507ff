r"""
# Training the tiny Transformer, a slice at a time

`Trainer` trains a `pelab.experiments.tiny_transformer` model on a task of
`pelab.experiments.position_tasks` with Adam (Kingma and Ba 2015):

$$
m \leftarrow \beta_1 m + (1 - \beta_1) g, \quad
v \leftarrow \beta_2 v + (1 - \beta_2) g^2, \quad
\theta \leftarrow \theta - \eta \, \frac{\hat m}{\sqrt{\hat v} + \epsilon},
\quad \hat m = \frac{m}{1 - \beta_1^t}, \; \hat v = \frac{v}{1 - \beta_2^t}.
$$

Adam rather than SGD with momentum because it is what Transformers are
trained with, and because it scales each parameter's step by that
parameter's own gradient size: the position table's rows, each updated only
by the positions of the batch, learn at the same pace as the rest without
a learning rate tuned per parameter.

Each step draws a batch of one length, chosen uniformly from the task's
lengths between `min_len` and `max_train_len`, so the model sees every
length up to $L$ = `max_train_len` and none longer.  `step(n)` runs $n$
steps and returns, so a page can show progress between slices and stop
at any time.  Everything, the parameters and the batches, follows from
`seed`: the parameters from `numpy.random.default_rng([seed, 0])` (the
learned table from `pelab.learned(max_len, d_model, seed)`), the batches
from `numpy.random.default_rng([seed, 1])`.
"""

import numpy as np

from ..checks import check_choice, check_real, check_size
from ..similarity import similarity
from .position_tasks import MAX_BATCH, TASKS, task_batch, task_lengths
from .session import Session
from .table_structure import (
    STRUCTURED_CONTRAST,
    band_contrast,
    closest_sinusoid,
    principal_components,
)
from .tiny_transformer import (
    TINY_MODEL,
    cross_entropy,
    forward,
    init_parameters,
    loss_and_gradients,
    tiny_config,
)

# Adam's constants, the paper's defaults.
BETA1, BETA2, EPSILON = 0.9, 0.999, 1e-8
# Most steps one call of `step` may run.
MAX_STEPS = 100_000
# Sequences per training step, for every model the lesson trains.
BATCH_SIZE = 32
# Adam's step size for every model the lesson trains: the training demo's and both
# experiments' (`pelab.experiments.sliced.MODEL`).
LEARNING_RATE = 0.003
# `TrainingSession.summary`'s accuracy is the share of right answers over this many last steps.
RECENT_STEPS = 25


class Adam:
    """
    Adam over a dict of float64 arrays, updated in place.

    Example:
        >>> params = {"w": np.array([1.0])}
        >>> Adam(params, 0.1).update({"w": np.array([2.0])})
        >>> params["w"].round(6).tolist()     # the first step moves by about the learning rate
        [0.9]
    """

    def __init__(self, params, learning_rate):
        self.params = params
        self.learning_rate = check_real("learning_rate", learning_rate, 0.0, strict=True)
        self.t = 0
        self.m = {name: np.zeros_like(value) for name, value in params.items()}
        self.v = {name: np.zeros_like(value) for name, value in params.items()}

    def update(self, grads):
        """One step down `grads` (same keys and shapes as the parameters)."""
        self.t += 1
        for name, value in self.params.items():
            g = grads[name]
            m, v = self.m[name], self.v[name]
            m *= BETA1
            m += (1 - BETA1) * g  # m = b1 m + (1 - b1) g
            v *= BETA2
            v += (1 - BETA2) * g * g  # v = b2 v + (1 - b2) g^2
            m_hat = m / (1 - BETA1**self.t)  # the bias corrections: m and v start at 0
            v_hat = v / (1 - BETA2**self.t)
            value -= self.learning_rate * m_hat / (np.sqrt(v_hat) + EPSILON)


class Trainer:
    """
    A tiny Transformer, its task and its optimiser, trained `step(n)` steps
    at a time.

    Args:
        scheme: the position scheme (`pelab.experiments.tiny_transformer.SCHEMES`).
        causal: whether attention is causal.
        task: `copy` or `reverse` (`pelab.experiments.position_tasks.TASKS`).
        max_train_len: $L$, the longest training sequence, from 2 to 256.
        min_len: the shortest training sequence, from 2 to `max_train_len`.
        table_len: rows of the learned table (`learned` only), from
            `max_train_len` to 4096; rows past $L$ never get a gradient
            and keep their initial random values.
        shift: how far back `copy` looks, from 1 to `min_len - 1`.
        vocab_size, d_model, n_heads, n_layers: the model's shape
            (`pelab.experiments.tiny_transformer.tiny_config`).
        batch_size: sequences per step, from 1 to 1024.
        learning_rate: Adam's step size, > 0.
        seed: an integer from 0 to 2**64 - 1.

    Raises:
        ValueError: naming the argument that is out of range.

    Example:
        >>> trainer = Trainer(scheme="learned", max_train_len=8, d_model=8, seed=0)
        >>> losses = trainer.step(3)
        >>> len(losses), trainer.steps_done
        (3, 3)
    """

    def __init__(
        self,
        scheme="learned",
        causal=True,
        task="copy",
        max_train_len=16,
        min_len=4,
        table_len=None,
        shift=2,
        vocab_size=TINY_MODEL["vocab_size"],
        d_model=TINY_MODEL["d_model"],
        n_heads=TINY_MODEL["n_heads"],
        n_layers=TINY_MODEL["n_layers"],
        batch_size=BATCH_SIZE,
        learning_rate=0.01,
        seed=0,
    ):
        self.task = check_choice("task", task, TASKS)
        self.max_train_len = check_size("max_train_len", max_train_len, 256, minimum=2)
        self.min_len = check_size("min_len", min_len, self.max_train_len, minimum=2)
        self.shift = check_size("shift", shift, max(1, self.min_len - 1))
        table_len = self.max_train_len if table_len is None else table_len
        table_len = check_size("table_len", table_len, 4096, minimum=self.max_train_len)
        self.config = tiny_config(
            scheme, causal, vocab_size, d_model, n_heads, n_layers, max_len=table_len
        )
        self.batch_size = check_size("batch_size", batch_size, MAX_BATCH)
        self.seed = check_size("seed", seed, 2**64 - 1, minimum=0)
        self.lengths = task_lengths(self.task, self.min_len, self.max_train_len)
        if not self.lengths:
            raise ValueError(f"min_len {self.min_len} leaves no {self.task} length to train on")
        self.params = init_parameters(self.config, self.seed)
        self.initial_table = (
            self.params["position_table"].copy() if "position_table" in self.params else None
        )
        self.optimiser = Adam(self.params, learning_rate)
        self.rng = np.random.default_rng([self.seed, 1])
        self.losses = []
        self.accuracies = []

    @property
    def steps_done(self):
        """How many steps have been taken."""
        return len(self.losses)

    def batch(self, seq_len, rng):
        """A batch of this trainer's task at length `seq_len`, drawn from `rng`."""
        return task_batch(
            self.task, rng, self.batch_size, seq_len, self.config.vocab_size, self.shift
        )

    def step(self, n=1):
        """
        Train `n` more steps.

        Args:
            n: an integer from 1 to `MAX_STEPS`.

        Returns:
            list of the `n` training losses (each the loss of its batch
            before that step's update).
        """
        n = check_size("n", n, MAX_STEPS)
        new = []
        for _ in range(n):
            seq_len = self.lengths[int(self.rng.integers(len(self.lengths)))]
            batch = self.batch(seq_len, self.rng)
            loss, grads, accuracy = loss_and_gradients(
                self.config, self.params, batch.tokens, batch.targets, batch.mask
            )
            self.optimiser.update(grads)
            self.losses.append(loss)
            self.accuracies.append(accuracy)
            new.append(loss)
        return new

    def evaluate(self, seq_len, n_batches=1, seed=0, rope_frequencies=None, logit_scale=1.0):
        """
        Loss and accuracy on fresh batches of length `seq_len`, without training.

        The batches come from `numpy.random.default_rng([seed, 2, seq_len])`,
        the same for every model, so that schemes are compared on the same
        sequences.  `rope_frequencies` and `logit_scale` stretch a `rope`
        model for this evaluation only (`pelab.experiments.tiny_transformer.forward`).

        Returns:
            `(loss, accuracy)`, means over the batches.
        """
        n_batches = check_size("n_batches", n_batches, 1000)
        rng = np.random.default_rng([seed, 2, seq_len])
        losses, accuracies = [], []
        for _ in range(n_batches):
            batch = self.batch(seq_len, rng)
            logits, _ = forward(
                self.config, self.params, batch.tokens, rope_frequencies, logit_scale
            )
            loss, _, correct = cross_entropy(logits, batch.targets, batch.mask)
            losses.append(loss)
            accuracies.append(float(correct.sum() / batch.mask.sum()))
        return float(np.mean(losses)), float(np.mean(accuracies))


class TrainingSession(Session):
    """
    The training demo's model: a tiny Transformer with a learned position table (`Trainer`'s
    defaults but for these), trained on the `copy` task (predict the token `shift` places back)
    on lengths max(4, shift + 1) .. `max_train_len` with `LEARNING_RATE`, and its table measured
    after every slice. It never ends: `done` is always False.

    Args:
        seed: an integer from 0 to 2**64 - 1.
        max_train_len: L, the longest training sequence and the table's rows.
        shift: how far back to copy, from 1 to max(4, shift + 1) - 1.

    Example:
        >>> session = TrainingSession(seed=0, max_train_len=8, shift=1)
        >>> session.advance(2), session.steps_done, session.done
        (2, 2, False)
    """

    def __init__(self, seed=0, max_train_len=32, shift=1):
        self.trainer = Trainer(
            scheme="learned",
            task="copy",
            max_train_len=max_train_len,
            table_len=max_train_len,
            min_len=max(4, shift + 1),
            shift=shift,
            learning_rate=LEARNING_RATE,
            seed=seed,
        )
        self.structured_at = None

    @property
    def steps_done(self):
        """How many steps have been taken."""
        return self.trainer.steps_done

    @property
    def done(self):
        """Never: the table can always train more."""
        return False

    def advance(self, n):
        """Train `n` more steps (an integer from 1 to `MAX_STEPS`); returns `n`."""
        return len(self.trainer.step(n))

    def summary(self):
        """
        The model's progress and what its table has learned so far.

        Returns:
            steps_done: int, n: int (the table's rows, L), shift: int, seed: int,
            losses: float64 (steps_done,), the loss of every step so far,
            accuracy: float, the share of right answers over the last (up to)
                `RECENT_STEPS` steps, or None,
            cosine: float64 (n, n), the table's row-by-row cosine similarity,
            band_contrast: float, `band_contrast` of the table,
            structured: bool, band_contrast >= STRUCTURED_CONTRAST,
            structured_at: int or None, the first measured step at which it was,
            threshold: float, STRUCTURED_CONTRAST,
            components: float64 (2, n), the two leading principal components,
            component_shares: float64 (2,), the variance each explains,
            sinusoid_fits: float64 (2, n), the closest sinusoid to each component,
            sinusoid_periods, sinusoid_r_squared: float64 (2,), each fit's period (in
                positions) and the share of its component's variance it explains,
            sinusoid_at_longest: list of 2 ints, 1 where that fit is at the longest period
                tried, 4 (n - 1), the edge of closest_sinusoid's grid (a trend, not a wave),
                else 0.
        """
        trainer = self.trainer
        table = trainer.params["position_table"]
        cosine = similarity(table)[1]
        contrast = band_contrast(table)
        structured = contrast >= STRUCTURED_CONTRAST
        if structured and self.structured_at is None:
            self.structured_at = trainer.steps_done
        components, shares = principal_components(table, 2)
        fits = [closest_sinusoid(component) for component in components]
        recent = trainer.accuracies[-RECENT_STEPS:]
        return {
            "steps_done": trainer.steps_done,
            "n": int(table.shape[0]),
            "shift": trainer.shift,
            "seed": trainer.seed,
            "losses": np.array(trainer.losses, dtype=np.float64),
            "accuracy": float(np.mean(recent)) if recent else None,
            "cosine": cosine,
            "band_contrast": contrast,
            "structured": bool(structured),
            "structured_at": self.structured_at,
            "threshold": STRUCTURED_CONTRAST,
            "components": components,
            "component_shares": shares,
            "sinusoid_fits": np.stack([fit["fit"] for fit in fits]),
            "sinusoid_periods": np.array([fit["period"] for fit in fits]),
            "sinusoid_r_squared": np.array([fit["r_squared"] for fit in fits]),
            # Ints, not bools: a result's lists hold str or int only (pelab.browser.plain).
            "sinusoid_at_longest": [int(fit["at_longest"]) for fit in fits],
        }
