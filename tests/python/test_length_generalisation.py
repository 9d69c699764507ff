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


def test_the_lessons_sentences_about_both_settings_hold():
    """The extrapolation section reports what the experiment gives in words ("98–100%", "about a
    third", "about 73% (64% with Quick)", "about 55%"): each is checked here against a full run.
    Training goes through BLAS products, so another kernel may move the last bits and, over
    hundreds of steps, a share of right answers by a little: the bounds leave a few points."""
    results = {}
    for quick in (False, True):
        experiment = LengthExperiment(quick=quick)
        while not experiment.done:
            experiment.advance(1000)
        at = {n: experiment.lengths.index(n) for n in (8, 32)}
        results[quick] = {run_name(s, c): experiment.accuracy[r].mean(axis=0) for r, (s, c) in enumerate(RUNS)}
        results[quick]["at"] = at
    default, quick = results[False], results[True]
    at_l, at_4l = default["at"][8], default["at"][32]
    for name in ("learned", "sinusoidal", "rope"):
        assert 0.97 <= default[name][at_l] <= 1.0, name               # "98–100% of the time"
        assert default[name][at_4l] < default[name][at_l] - 0.2, name  # "all three get worse past L"
    assert 0.72 <= quick["learned"][at_l] <= 0.88                     # Quick: "about 80% at L"
    for name in ("learned", "sinusoidal"):
        assert 0.27 <= default[name][at_4l] <= 0.42, name             # "about a third right at 4L"
    assert 0.68 <= default["rope"][at_4l] <= 0.78                     # "about 73%"
    assert 0.59 <= quick["rope"][at_4l] <= 0.69                       # "(64% with Quick)"
    assert default["rope"][at_4l] > default["sinusoidal"][at_4l] + 0.2  # "falls more slowly"
    assert (default["none"] < 0.5).all()                              # "well short at every length"
    assert (default["none (causal)"] > default["none"]).all()         # "does better"
    assert default["none (causal)"][at_l] < 0.6                       # "not well" (65% at length 4)
    assert 0.48 <= default["alibi"][at_l] <= 0.62                     # "about 55% right at L"
