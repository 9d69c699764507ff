"""Tests for pelab.experiments.sliced: the model the experiments share is the training demo's,
with the settings the docstrings state, and each has one owner."""

import inspect

import pytest

from pelab.alibi import alibi_slopes
from pelab.experiments import sliced
from pelab.experiments.sliced import MODEL, SETTINGS, SlicedExperiment, experiment_trainer
from pelab.experiments.stretch_experiment import StretchExperiment
from pelab.experiments.tiny_transformer import TINY_MODEL, tiny_config
from pelab.experiments.training import BATCH_SIZE, LEARNING_RATE, Trainer, TrainingSession


def defaults(function):
    return {
        name: parameter.default
        for name, parameter in inspect.signature(function).parameters.items()
        if parameter.default is not inspect.Parameter.empty
    }


def test_the_tiny_model_is_owned_once_and_the_defaults_follow_it():
    assert TINY_MODEL == {"vocab_size": 8, "d_model": 32, "n_heads": 2, "n_layers": 1}
    for function in (tiny_config, Trainer):
        assert {key: defaults(function)[key] for key in TINY_MODEL} == TINY_MODEL, function
    assert defaults(Trainer)["batch_size"] == BATCH_SIZE == 32


def test_the_experiments_model_is_the_tiny_model_with_8_heads():
    """sliced.py: "the training demo's model ... with 8 heads ... (of width 4)"."""
    assert MODEL == {**TINY_MODEL, "n_heads": 8, "batch_size": BATCH_SIZE,
                     "learning_rate": LEARNING_RATE, "shift": 1}
    assert MODEL["d_model"] // MODEL["n_heads"] == 4
    # "With 2 heads they are 1/16 and 1/256 ...; with 8 the steepest is 1/2."
    assert alibi_slopes(2).tolist() == [1 / 16, 1 / 256] and alibi_slopes(8)[0] == 1 / 2
    assert "8 heads" in sliced.__doc__ + inspect.getsource(sliced)


def test_the_stretch_experiment_has_2_heads_of_width_16():
    """stretch_experiment.py: "2 heads of width d_h = 16 ... where the length experiment has 8
    heads of width 4. Each head then has 8 pairs"."""
    assert StretchExperiment.n_heads == 2 and SlicedExperiment.n_heads == MODEL["n_heads"] == 8
    head_dim = MODEL["d_model"] // StretchExperiment.n_heads
    assert head_dim == 16 and head_dim // 2 == 8


def test_every_model_trains_with_the_one_learning_rate():
    assert LEARNING_RATE == 0.003
    assert experiment_trainer("rope", True, "copy", 8, 0).optimiser.learning_rate == LEARNING_RATE
    trainer = TrainingSession(seed=0, max_train_len=8, shift=1).trainer
    assert trainer.optimiser.learning_rate == LEARNING_RATE


def test_the_training_demos_model_is_the_trainers_defaults_but_for_its_own():
    """TrainingSession: "`Trainer`'s defaults but for these"."""
    trainer = TrainingSession(seed=5, max_train_len=16, shift=2).trainer
    assert trainer.config == tiny_config("learned", True, max_len=16)
    assert (trainer.task, trainer.max_train_len, trainer.min_len, trainer.shift) == (
        "copy",
        16,
        4,
        2,
    )
    assert trainer.batch_size == BATCH_SIZE and trainer.seed == 5


@pytest.mark.parametrize("setting, seeds", [("default", (0, 1, 2)), ("quick", (0, 1))])
def test_the_settings(setting, seeds):
    assert SETTINGS[setting]["seeds"] == seeds
