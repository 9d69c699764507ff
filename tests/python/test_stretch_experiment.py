"""Tests for pelab.stretch_experiment and the stretch it passes to the tiny model: "none" is the
rope run of pelab.length_generalisation exactly, s = 1 changes nothing, each method's frequencies
are context_scaling's, and the numbers repeat."""

import doctest

import numpy as np
import pytest

import pelab.stretch_experiment as stretch_module
from pelab.context_scaling import (
    interpolated_positions,
    stretched_frequencies,
    yarn_attention_scale,
)
from pelab.length_generalisation import RUNS, LengthExperiment
from pelab.positional_encoding import angular_frequencies
from pelab.rope import rope_rotate
from pelab.stretch_experiment import METHODS, SCALES, StretchExperiment, method_stretch
from pelab.tiny_transformer import forward, init_parameters, tiny_config

HEAD_DIM = 16  # the experiment's d_model 32 over 2 heads


def test_docstring_examples_hold():
    assert doctest.testmod(stretch_module).failed == 0


def finished(quick=True, task="copy"):
    experiment = StretchExperiment(quick=quick, task=task)
    while not experiment.done:
        experiment.advance(50)
    return experiment


def test_none_is_the_rope_run_of_the_length_experiment_exactly():
    # Exact by construction: the same Trainer, seeds and test batches, and "none" hands the model
    # angular_frequencies(16, 10000), the very array rope_rotate computes without it.
    stretched = finished()
    lengths = LengthExperiment(quick=True)
    while not lengths.done:
        lengths.advance(500)
    rope_row = RUNS.index(("rope", True))
    columns = [lengths.lengths.index(n) for n in stretched.lengths]
    assert stretched.lengths == [8, 16, 32]
    np.testing.assert_array_equal(
        stretched.accuracy[METHODS.index("none")], lengths.accuracy[rope_row][:, columns]
    )
    np.testing.assert_array_equal(
        stretched.loss[METHODS.index("none")], lengths.loss[rope_row][:, columns]
    )


def test_at_scale_one_every_method_is_the_trained_model():
    experiment = finished()
    at_l = experiment.accuracy[:, :, SCALES.index(1)]
    # none, interpolation (w / 1.0) and ntk (base * 1 ** (d / (d - 2))) are exact at s = 1.
    for method in ("interpolation", "ntk"):
        np.testing.assert_array_equal(at_l[METHODS.index(method)], at_l[0])
        np.testing.assert_array_equal(
            method_stretch(method, HEAD_DIM, 8, 1.0)[0], angular_frequencies(HEAD_DIM)
        )
    # YaRN at s = 1 blends w with w / 1 (rounding only) and its attention factor is 1 exactly.
    frequencies, logit_scale = method_stretch("yarn", HEAD_DIM, 8, 1.0)
    assert logit_scale == 1.0
    np.testing.assert_allclose(frequencies, angular_frequencies(HEAD_DIM), rtol=1e-15, atol=0)
    # Its logits may differ from the trained model's in the last bits: a near-tie flipped by
    # that would move one prediction of the 32 x 7 scored at L, under 0.005 of the share.
    np.testing.assert_allclose(at_l[METHODS.index("yarn")], at_l[0], rtol=0, atol=0.005)


def test_interpolation_at_scale_one_leaves_the_logits_bit_for_bit():
    config = tiny_config("rope", d_model=32, n_heads=2)
    params = init_parameters(config, seed=3)
    tokens = np.random.default_rng(0).integers(0, 8, size=(4, 12))
    plain, _ = forward(config, params, tokens)
    frequencies, logit_scale = method_stretch("interpolation", HEAD_DIM, 12, 1.0)
    stretched, _ = forward(config, params, tokens, frequencies, logit_scale)
    np.testing.assert_array_equal(stretched, plain)


def test_the_numbers_repeat():
    first, second = finished(), finished()
    np.testing.assert_array_equal(first.accuracy, second.accuracy)
    np.testing.assert_array_equal(first.loss, second.loss)
    assert np.isfinite(first.accuracy).all()


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("scale", SCALES)
def test_each_methods_stretch_comes_from_context_scaling(method, scale):
    frequencies, logit_scale = method_stretch(method, HEAD_DIM, 8, scale)
    np.testing.assert_array_equal(
        frequencies, stretched_frequencies(method, HEAD_DIM, 10000.0, 8, scale)
    )
    assert logit_scale == (yarn_attention_scale(scale) ** 2 if method == "yarn" else 1.0)


def test_the_model_turns_with_the_frequencies_it_is_given():
    # Interpolation as frequencies w / s against interpolation as positions m / s
    # (context_scaling.interpolated_positions): the same angles, rounded in a different order,
    # so equal to a few ulps; 1e-12 leaves room for the BLAS products after them.
    config = tiny_config("rope", d_model=32, n_heads=2)
    params = init_parameters(config, seed=1)
    x = np.random.default_rng(2).standard_normal((2, 32, HEAD_DIM))
    positions = interpolated_positions(np.arange(32), 8, 32)
    np.testing.assert_allclose(
        rope_rotate(x, np.arange(32), frequencies=method_stretch("interpolation", 16, 8, 4)[0]),
        rope_rotate(x, positions),
        rtol=0, atol=1e-12,
    )
    # And the logit scale multiplies every score: with c -> the scores of q scaled by c.
    tokens = np.random.default_rng(4).integers(0, 8, size=(2, 6))
    _, cache = forward(config, params, tokens, None, 1.5)
    _, plain = forward(config, params, tokens)
    assert cache["layers"][0]["scale"] == 1.5 * plain["layers"][0]["scale"]


def test_yarn_here_is_nearly_position_interpolation():
    # What the page says: with L = 8 and a 16-wide head no pair turns beta = 32 times within L,
    # and only the fastest turns more than alpha = 1 time, so YaRN's frequencies are within 3 %
    # of interpolation's and its difference is mostly the attention factor.
    for scale in (2, 4):
        yarn = stretched_frequencies("yarn", HEAD_DIM, 10000.0, 8, scale)
        interpolation = stretched_frequencies("interpolation", HEAD_DIM, 10000.0, 8, scale)
        assert np.max(np.abs(yarn / interpolation - 1)) < 0.03
        assert np.sum(yarn != interpolation) == 1


def test_bad_stretches_are_refused_naming_the_argument():
    rope = tiny_config("rope", d_model=32, n_heads=2)
    learned = tiny_config("learned", d_model=32, n_heads=2)
    tokens = np.zeros((1, 4), dtype=int)
    with pytest.raises(ValueError, match="scheme must be rope"):
        forward(learned, init_parameters(learned), tokens, angular_frequencies(HEAD_DIM))
    with pytest.raises(ValueError, match="scheme must be rope"):
        forward(learned, init_parameters(learned), tokens, None, 2.0)
    with pytest.raises(ValueError, match="rope_frequencies"):
        forward(rope, init_parameters(rope), tokens, np.ones(4))
    with pytest.raises(ValueError, match="rope_frequencies"):
        forward(rope, init_parameters(rope), tokens, -np.ones(8))
    with pytest.raises(ValueError, match="logit_scale"):
        forward(rope, init_parameters(rope), tokens, None, 0.0)
    with pytest.raises(ValueError, match="frequencies"):
        rope_rotate(np.ones((2, 4)), [0, 1], frequencies=[1.0, np.nan])
    with pytest.raises(ValueError, match="max_train_len"):
        StretchExperiment(task="reverse", max_train_len=5)
    with pytest.raises(ValueError, match="method"):
        method_stretch("llama4", HEAD_DIM, 8, 2.0)


@pytest.mark.parametrize("quick", [True, False])
def test_what_the_page_says_it_gives(quick):
    # The page's summary, for both settings: at 2L and 4L interpolation and YaRN get fewer
    # answers right than no scaling, and NTK-aware scaling about as many (within 5 points).
    mean = finished(quick=quick).accuracy.mean(axis=1)
    none, interpolation, ntk, yarn = (mean[METHODS.index(m)] for m in METHODS)
    longer = [SCALES.index(2), SCALES.index(4)]
    assert (interpolation[longer] < none[longer]).all()
    assert (yarn[longer] < none[longer]).all()
    assert (np.abs(ntk[longer] - none[longer]) <= 0.05).all()
    assert mean[:, SCALES.index(1)].max() - mean[:, SCALES.index(1)].min() <= 0.005
