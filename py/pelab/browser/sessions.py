"""
# The models the page trains in slices, kept between calls

A demo that trains (training, extrapolation, stretching) has two entry points, `NAME_reset` and
`NAME_step`. The reset makes a session (`pelab.experiments.session.Session`: `advance(n)`,
`summary()`, `done`) and keeps it here under NAME, replacing any this worker had; the step
advances it a slice; both return the session, whose summary the demo's module shapes for the
worker.
"""

from ..checks import check_size
from .plain import flat_arrays

# Most steps one NAME_step call may run (about a second).
MAX_SLICE_STEPS = 200

# The sessions being trained, one per NAME: the page trains in slices.
_SESSIONS: dict = {}


def start(name: str, session):
    """Keep `session` as NAME's, replacing any other, and return it."""
    _SESSIONS[name] = session
    return session


def advance(name: str, steps: int, missing: str = "no experiment to run"):
    """
    Run at most `steps` more steps of NAME's session, and return it.

    Raises:
        ValueError: if steps is not an integer from 1 to MAX_SLICE_STEPS, or NAME has no
            session: "`missing`: call NAME_reset first".
    """
    steps = check_size("steps", steps, MAX_SLICE_STEPS)
    if name not in _SESSIONS:
        raise ValueError(f"{missing}: call {name}_reset first")
    session = _SESSIONS[name]
    session.advance(steps)
    return session


def reset_experiment(name: str, experiment) -> dict:
    """Keep a fresh experiment as NAME's session; its summary, arrays flattened, nothing done."""
    return flat_arrays(start(name, experiment).summary())


def step_experiment(name: str, steps: int) -> dict:
    """Advance NAME's experiment a slice; its summary, arrays flattened row-major."""
    return flat_arrays(advance(name, steps).summary())
