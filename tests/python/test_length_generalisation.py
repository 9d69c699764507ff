"""Tests for pelab.length_generalisation: the experiment's bookkeeping (every run and seed
trained for its steps, tested at every length), on a shrunken setting."""

import doctest

import numpy as np
import pytest

import pelab.length_generalisation as experiment_module
from pelab.length_generalisation import RUNS, SETTINGS, LengthExperiment, eval_lengths, run_name
from pelab.training import Trainer


def test_docstring_examples_hold():
    assert doctest.testmod(experiment_module).failed == 0


@pytest.fixture
def tiny_setting(monkeypatch):
    monkeypatch.setitem(SETTINGS, "quick", {"steps": 3, "seeds": (0, 1), "eval_batches": 1})


def test_every_run_and_seed_is_trained_then_tested(tiny_setting):
    experiment = LengthExperiment(quick=True, max_train_len=4)
    assert experiment.lengths == eval_lengths("copy", 4) == list(range(2, 17))
    ran = []
    while not experiment.done:
        ran.append(experiment.advance(5))
    assert sum(ran) == experiment.steps_done == len(RUNS) * 2 * 3
    assert all(0 < r <= 5 for r in ran)
    assert experiment.accuracy.shape == (len(RUNS), 2, 15)
    assert np.isfinite(experiment.accuracy).all() and np.isfinite(experiment.loss).all()
    assert ((experiment.accuracy >= 0) & (experiment.accuracy <= 1)).all()
    assert experiment.current() is None and experiment.advance(5) == 0


def test_results_are_those_of_the_trainer_run_alone(tiny_setting):
    experiment = LengthExperiment(quick=True, max_train_len=4)
    experiment.advance(3 * 2 * 3)  # none, none (causal), and learned's two seeds
    trainer = Trainer(scheme="learned", causal=True, max_train_len=4, min_len=4, table_len=16,
                      seed=1, **experiment_module.MODEL)
    trainer.step(3)
    expected = [trainer.evaluate(n, 1, seed=0)[1] for n in experiment.lengths]
    # The same computation in the same process: equal by construction.
    assert experiment.accuracy[2, 1].tolist() == expected
    assert np.isnan(experiment.accuracy[3:]).all()
    assert experiment.current() == ("sinusoidal", 0)


def test_run_names():
    assert [run_name(s, c) for s, c in RUNS] == [
        "none", "none (causal)", "learned", "sinusoidal", "rope", "alibi"]


@pytest.mark.parametrize(
    "kwargs, name",
    [
        ({"quick": "yes"}, "quick"),
        ({"task": "sort"}, "task"),
        ({"max_train_len": 3}, "max_train_len"),
    ],
)
def test_bad_arguments_name_themselves(kwargs, name):
    with pytest.raises(ValueError, match=f"^{name} "):
        LengthExperiment(**kwargs)
