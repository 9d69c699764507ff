"""The extrapolation demo: the train-short, test-long experiment, and how close two positions'
vectors come as the sequence grows."""

from __future__ import annotations

import numpy as np
import pytest

import pelab
from pages import chart_geometry, dataset, poll, run_quick_experiment, wait_rendered
from pelab.experiments.length_generalisation import RUNS, LengthExperiment


def test_nearest_positions_as_the_sequence_grows(lesson):
    demo = lesson.locator("#extrapolation")
    wait_rendered(lesson, "#extrapolation", "64/512/16@10000")
    at_train = float(dataset(lesson, "#extrapolation", "atTrain"))
    expected = pelab.nearest_distances(seq_len=512, d_model=16)
    assert at_train == pytest.approx(expected[63], abs=1e-9)
    assert float(dataset(lesson, "#extrapolation", "beyond")) == pytest.approx(
        expected[-1], abs=1e-9
    )
    demo.get_by_role("slider", name="d_model").press("Home")  # one pair: a single clock hand
    wait_rendered(lesson, "#extrapolation", "64/512/2@10000")
    beyond = float(dataset(lesson, "#extrapolation", "beyond"))
    assert beyond == pytest.approx(pelab.nearest_distances(seq_len=512, d_model=2)[-1], abs=1e-12)
    assert (
        beyond < 0.01 and beyond < at_train
    )  # a single clock hand comes back round: near-collisions
    demo.get_by_role("slider", name="Training length").press("End")
    demo.get_by_role("slider", name="Sequence length").press(
        "Home"
    )  # 16 < training length: clamped
    assert "is longer than the sequence" in demo.locator(".extrapolation-notice").inner_text()
    wait_rendered(lesson, "#extrapolation", "16/16/2@10000")


def test_the_experiment_trains_every_scheme_and_matches_cpython(lesson):
    demo = lesson.locator("#extrapolation")
    answer = demo.locator(".prediction-answer")
    # The learner predicts first; what it gives stays hidden until the run is done.
    assert (
        answer.is_hidden()
        and dataset(lesson, "#extrapolation .prediction-answer", "prediction") == "hidden"
    )
    demo.get_by_role("group", name="Predict first").get_by_role("radio", name="RoPE").check()
    shown = np.array(
        run_quick_experiment(lesson, "#extrapolation", "Run the experiment"), dtype=float
    )
    experiment = LengthExperiment(quick=True)
    while not experiment.done:
        experiment.advance(200)
    # Pyodide and CPython train to within ~1e-15 (tests/build/test_training_in_pyodide.py);
    # accuracies are counts over fixed batches, so they agree exactly unless a logit tie flips.
    mean = experiment.accuracy.mean(axis=1)
    np.testing.assert_allclose(shown, mean.ravel(), atol=1e-9)
    label = demo.locator(".extrapolation-experiment").get_attribute("aria-label")
    assert "rope" in label and "at 4L" in label and "L = 8" in label
    # The verdict is the run's: the scheme it ranks first at 4L, against the guess.
    assert (
        answer.is_visible()
        and dataset(lesson, "#extrapolation .prediction-answer", "prediction") == "settled"
    )
    at_4l = mean[:, experiment.lengths.index(4 * experiment.max_train_len)]
    best = RUNS[int(np.argmax(at_4l))]
    names = {"alibi": "ALiBi", "rope": "RoPE"}  # as the radios name them
    verdict = demo.locator(".prediction-verdict")
    expected = f"{names[best[0]]} kept the most right answers at 4L, {100 * at_4l.max():.1f}%"
    assert best == ("alibi", True) and expected in verdict.inner_text()  # what Quick gives
    assert verdict.inner_text().startswith("You expected RoPE, but in this run")
    assert verdict.get_attribute("data-match") == "no"
    demo.get_by_role("group", name="Predict first").get_by_role("radio", name="ALiBi").check()
    assert verdict.inner_text().startswith("You expected ALiBi, and so did this run")
    assert verdict.get_attribute("data-match") == "yes"
    # Each line named in the chart's key; the "L = 8" label above the plot, clear of the lines
    # that start near 1 there (it was printed over them).
    chart = chart_geometry(lesson, ".extrapolation-experiment")
    assert chart["key"] == [
        "none",
        "none (causal)",
        "learned",
        "sinusoidal",
        "rope",
        "alibi",
        "chance (1 in 8)",
    ]
    [marker] = chart["markerLabels"]
    assert marker["text"] == "L = 8" and marker["bottom"] <= chart["gridTop"]
    assert chart["xTitle"] == ["sequence length", "right answers"]


def test_stopping_the_experiment_ends_its_python_at_once(lesson):
    demo = lesson.locator("#extrapolation")
    before = len(lesson.workers)
    demo.get_by_role("button", name="Run the experiment").click()
    poll(
        lesson,
        "() => document.querySelector('#extrapolation').dataset.experiment",
        lambda v: v == "running",
    )
    poll(lesson, "() => 0", lambda _: len(lesson.workers) == before + 1)
    demo.get_by_role("button", name="Stop").click()
    assert dataset(lesson, "#extrapolation", "experiment") == "stopped"
    poll(lesson, "() => 0", lambda _: len(lesson.workers) == before)
    assert "Stopped at" in demo.locator(".extrapolation-status").inner_text()
    assert demo.get_by_role("button", name="Run the experiment").is_enabled()


def test_the_closest_distance_chart_has_headroom_and_quick_sits_by_its_label(lesson):
    """At the defaults the closest two positions stay 1.01 apart at every length: the line ran
    flat along the chart's top edge. The axis now goes on to a round value above it."""
    wait_rendered(lesson, "#extrapolation", "64/512/16@10000")
    chart = chart_geometry(lesson, ".extrapolation-chart")
    [line] = chart["series"]
    assert line["top"] > chart["gridTop"] + 20
    assert chart["markerLabels"][0]["bottom"] <= chart["gridTop"]
    assert chart["xTitle"] == ["sequence length", "closest two positions"]
    # The Quick checkbox beside its words (it sat 300 px from them).
    gap = lesson.evaluate(
        """() => { const input = document.querySelector('#extrapolation-quick');
                   const box = input.getBoundingClientRect();
                   const words = box
                     && input.labels[0].querySelector('span').getBoundingClientRect();
                   return [words.left - box.right, Math.abs(words.top - box.top)]; }"""
    )
    assert 0 <= gap[0] < 20 and gap[1] < 10, gap
