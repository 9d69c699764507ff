"""Tests for pelab.experiments.session: the training demo's model and both experiments offer the
one session interface, advance(n), summary() and done, and count their steps alike."""

import doctest
import importlib

import numpy as np
import pytest

from pelab.experiments import sliced
from pelab.experiments.length_generalisation import LengthExperiment
from pelab.experiments.session import Session
from pelab.experiments.stretch_experiment import StretchExperiment
from pelab.experiments.training import TrainingSession

pytestmark = pytest.mark.blas_numeric

SESSIONS = {
    "training": lambda: TrainingSession(seed=0, max_train_len=8, shift=1),
    "length": lambda: LengthExperiment(quick=True),
    "stretch": lambda: StretchExperiment(quick=True),
}


@pytest.fixture
def tiny_setting(monkeypatch):
    monkeypatch.setitem(sliced.SETTINGS, "quick", {"steps": 2, "seeds": (0,), "eval_batches": 1})


def test_docstring_examples_hold():
    for name in ("session", "sliced", "training"):
        module = importlib.import_module(f"pelab.experiments.{name}")
        assert doctest.testmod(module).failed == 0, name


@pytest.mark.parametrize("kind", sorted(SESSIONS))
def test_every_session_advances_in_slices_and_sums_itself_up(kind, tiny_setting):
    session = SESSIONS[kind]()
    assert isinstance(session, Session)
    assert session.steps_done == 0 and session.done is False
    first = session.summary()
    assert isinstance(first, dict) and first["steps_done"] == 0
    assert session.advance(1) == 1 and session.steps_done == 1
    assert session.summary()["steps_done"] == 1
    for value in session.summary().values():  # plain values, lists and arrays only
        assert value is None or isinstance(value, (int, float, str, bool, list, np.ndarray))


@pytest.mark.parametrize("kind", ["length", "stretch"])
def test_an_experiment_ends_and_says_so(kind, tiny_setting):
    session = SESSIONS[kind]()
    ran = session.advance(1000)
    assert ran == session.total_steps == session.steps_done and session.done
    assert session.advance(5) == 0 and session.summary()["done"] is True
    assert session.summary()["current"] is None


def test_the_training_demo_never_ends():
    session = SESSIONS["training"]()
    session.advance(3)
    assert session.done is False and session.summary()["losses"].shape == (3,)


def test_the_base_class_leaves_every_part_to_its_subclasses():
    session = Session()
    with pytest.raises(NotImplementedError):
        session.advance(1)
    with pytest.raises(NotImplementedError):
        session.summary()
    with pytest.raises(NotImplementedError):
        session.done  # noqa: B018
