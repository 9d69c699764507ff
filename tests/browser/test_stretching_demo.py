"""The stretching demo: at L' = sL the slow pairs leave the angles they reached in training, and
each method brings them back, or not; every count and angle is recomputed here with math."""

from __future__ import annotations

import math

import numpy as np
import pytest

from pages import (
    PHONE,
    chart_geometry,
    dataset,
    poll,
    put_back,
    run_quick_experiment,
    wait_rendered,
)

HEAD = 128


def show_as_served(page) -> None:
    """Put the demo's model, stretch and method back as served (and its tables closed), and wait
    until it shows them.

    A test that runs the experiment leaves its results and takes its own `lesson`.
    """
    put_back(page, "#stretching")
    wait_rendered(page, "#stretching", "llama2/4/none")


def speeds(base):
    return [base ** (-2 * i / HEAD) for i in range(HEAD // 2)]


def states_by_hand(base, train_len, scale, new_speeds):
    """0 inside (a full turn in training, or not past (L - 1) w_i), 1 within one more step,
    2 outside."""
    last = scale * train_len - 1
    out = []
    for w, new in zip(speeds(base), new_speeds):
        trained, reached = (train_len - 1) * w, last * new
        out.append(
            0
            if trained >= 2 * math.pi or reached <= trained
            else 1
            if reached <= train_len * w
            else 2
        )
    return out


def dials(page):
    return page.evaluate(
        """() => [...document.querySelectorAll('#stretching .dial')].map((d) => ({
             pair: Number(d.dataset.pair),
             state: Number(d.dataset.state),
             reached: Number(d.dataset.reached),
             hand: d.querySelector('.dial-hand').getAttribute('class'),
             caption: d.querySelector('figcaption').textContent,
           }))"""
    )


def test_slow_pairs_leave_the_trained_range_and_interpolation_brings_them_back(as_served):
    lesson = as_served
    demo = lesson.locator("#stretching")
    wait_rendered(lesson, "#stretching", "llama2/4/none")
    assert (
        "LLaMA 2: base 10000, trained on 4096 positions, head dimension 128"
        in demo.locator(".stretching-model").inner_text()
    )
    expected = states_by_hand(10000.0, 4096, 4, speeds(10000.0))
    assert int(dataset(lesson, "#stretching", "outside")) == expected.count(2) == 18
    shown = dials(lesson)
    assert [d["pair"] for d in shown] == [0, 1, 2, 5, 10, 19, 34, 63]  # the waves demo's dials
    for d in shown:
        assert d["state"] == expected[d["pair"]]
        assert d["reached"] == pytest.approx(16383 * 10000.0 ** (-2 * d["pair"] / HEAD), rel=1e-12)
        assert d["hand"].endswith(["state-inside", "state-just-past", "state-outside"][d["state"]])
    assert "went all the way round in training" in shown[0]["caption"]
    assert shown[-1]["caption"].endswith("outside its trained range")

    method = demo.get_by_role("group", name="Method", exact=True)  # not the prediction's radios
    method.get_by_role("radio", name="Position interpolation").check()
    wait_rendered(lesson, "#stretching", "llama2/4/interpolation")
    after = states_by_hand(10000.0, 4096, 4, [w / 4 for w in speeds(10000.0)])
    assert after.count(2) == 0 and after.count(1) == 18
    assert (
        int(dataset(lesson, "#stretching", "outside")),
        int(dataset(lesson, "#stretching", "justPast")),
    ) == (0, 18)
    # neighbours 1/4 step apart
    assert demo.locator(".stretching-fastest").inner_text() == "0.2500 radian"
    assert demo.locator(".stretching-changed").inner_text() == "64 of 64"
    assert [d["state"] for d in dials(lesson)] == [after[p] for p in (0, 1, 2, 5, 10, 19, 34, 63)]

    # From the keyboard: the arrow keys move within a radio group and choose.
    method.get_by_role("radio", name="Position interpolation").press("ArrowDown")
    wait_rendered(lesson, "#stretching", "llama2/4/ntk")
    new_base = 10000.0 * 4 ** (HEAD / (HEAD - 2))
    ntk = states_by_hand(10000.0, 4096, 4, speeds(new_base))
    # every pair short of a full turn but the slowest
    assert int(dataset(lesson, "#stretching", "outside")) == ntk.count(2) == 17
    assert demo.locator(".stretching-fastest").inner_text() == "1.0000 radian"


def test_llama31_at_128k_and_yarn(as_served):
    lesson = as_served
    demo = lesson.locator("#stretching")
    wait_rendered(lesson, "#stretching", "llama2/4/none")
    demo.get_by_role("radio", name="Llama 3", exact=True).check()
    demo.get_by_role("radio", name="Llama 3.1’s rule").check()
    scale = demo.get_by_role("slider", name="Stretch")
    for _ in range(12):
        scale.press("ArrowRight")
    wait_rendered(lesson, "#stretching", "llama3/16/llama3")
    # Llama 3.1's rule, transcribed from transformers' _compute_llama3_parameters.
    rule = []
    for w in speeds(500000.0):
        wavelength = 2 * math.pi / w
        if wavelength < 8192 / 4:
            rule.append(w)
        elif wavelength > 8192 / 1:
            rule.append(w / 8)
        else:
            smooth = (8192 / wavelength - 1) / (4 - 1)
            rule.append((1 - smooth) * w / 8 + smooth * w)
    expected = states_by_hand(500000.0, 8192, 16, rule)
    assert int(dataset(lesson, "#stretching", "outside")) == expected.count(2) == 29
    assert (
        "to 131072 positions, so the dials show position 131071"
        in demo.locator(".stretching-model").inner_text()
    )
    assert demo.locator(".stretching-slowest").inner_text() == "× 0.1250"

    demo.get_by_role("group", name="Method", exact=True).get_by_role("radio", name="YaRN").check()
    wait_rendered(lesson, "#stretching", "llama3/16/yarn")
    assert int(dataset(lesson, "#stretching", "outside")) == 0
    factor = 0.1 * math.log(16) + 1
    assert (
        demo.locator(".stretching-factor").inner_text()
        == f"{factor:.4f} (each logit × {factor**2:.4f})"
    )


def test_the_scores_before_and_after_are_one_query_and_key(as_served):
    lesson = as_served
    wait_rendered(lesson, "#stretching", "llama2/4/none")
    lesson.locator("#stretching").get_by_role("group", name="Method", exact=True).get_by_role(
        "radio", name="Position interpolation"
    ).check()
    wait_rendered(lesson, "#stretching", "llama2/4/interpolation")
    details = lesson.evaluate(
        "() => document.querySelector('.stretching-scores').getAttribute('aria-details')"
    )
    lesson.locator(f"#{details} summary").click()
    rows = poll(
        lesson,
        """(id) => [...document.getElementById(id).querySelectorAll('tbody tr')]
                    .map((r) => [...r.cells].map((c) => c.textContent))""",
        lambda rows: len(rows) > 3,
        arg=details,
    )
    q, k = np.random.default_rng(0).standard_normal((2, HEAD))
    norms = np.linalg.norm(q) * np.linalg.norm(k)

    def score(t, frequencies):
        # (R_t q) . k, pair by pair with math
        return (
            sum(
                (q[2 * i] * math.cos(t * w) - q[2 * i + 1] * math.sin(t * w)) * k[2 * i]
                + (q[2 * i] * math.sin(t * w) + q[2 * i + 1] * math.cos(t * w)) * k[2 * i + 1]
                for i, w in enumerate(frequencies)
            )
            / norms
        )

    assert rows[-1][0] == "16383"
    # The lines named on the chart's figure, both axes titled, "L = 4096" above the plot.
    chart = chart_geometry(lesson, ".stretching-scores")
    assert chart["key"] == ["without scaling", "with the method"]
    assert chart["xTitle"] == ["offset t of the query after the key", "score / (|q| |k|)"]
    marker = chart["markerLabels"][0]
    assert marker["text"] == "L = 4096" and marker["bottom"] <= chart["gridTop"]
    for label, before, after in rows:
        t = float(label)
        # 4 decimals
        assert float(before.replace("−", "-")) == pytest.approx(score(t, speeds(10000.0)), abs=1e-4)
        assert float(after.replace("−", "-")) == pytest.approx(
            score(t, [w / 4 for w in speeds(10000.0)]), abs=1e-4
        )


def test_the_stretching_experiment_matches_cpython(lesson):
    from pelab.experiments.stretch_experiment import METHODS, SCALES, StretchExperiment

    demo = lesson.locator("#stretching")
    answer = demo.locator(".prediction-answer")
    assert answer.is_hidden()  # what it gives waits for the learner's prediction and a run
    demo.get_by_role("group", name="Predict first").get_by_role("radio", name="YaRN").check()
    shown = np.array(run_quick_experiment(lesson, "#stretching", "Train and test"), dtype=float)
    experiment = StretchExperiment(quick=True)
    while not experiment.done:
        experiment.advance(200)
    expected = experiment.accuracy.mean(axis=1)
    # The verdict is the run's: the method it ranks first at 2L, against the guess.
    assert answer.is_visible()
    at_2l = expected[:, SCALES.index(2)]
    best = METHODS[int(np.argmax(at_2l))]
    verdict = demo.locator(".prediction-verdict")
    assert best == "ntk"  # what Quick gives, 0.7 points above no scaling
    assert verdict.inner_text() == (
        f"You expected YaRN, but in this run NTK-aware base kept the most right answers at 2L, "
        f"{100 * at_2l.max():.1f}%; YaRN got {100 * at_2l[METHODS.index('yarn')]:.1f}%."
    )
    demo.get_by_role("group", name="Predict first").get_by_role(
        "radio", name="NTK-aware base"
    ).check()
    assert verdict.get_attribute("data-match") == "yes"
    # Pyodide and CPython train to within ~1e-15 (tests/build/test_training_in_pyodide.py);
    # accuracies are counts over fixed batches, so they agree exactly unless a logit tie flips.
    np.testing.assert_allclose(shown, expected.ravel(), atol=1e-9)
    # The table shows those numbers, three decimals, and chance in every column.
    rows = lesson.evaluate(
        """() => [...document.querySelectorAll('#stretching .stretching-results tbody tr')]
             .map((r) => [...r.cells].map((c) => c.textContent))"""
    )
    assert [row[0] for row in rows] == [
        "No scaling",
        "Position interpolation",
        "NTK-aware base",
        "YaRN",
        "Chance (a guess among 8 tokens)",
    ]
    for m, method in enumerate(METHODS):
        for k in range(3):
            low, high = experiment.accuracy[m, :, k].min(), experiment.accuracy[m, :, k].max()
            assert rows[m][k + 1] == f"{expected[m, k]:.3f} ({low:.3f}–{high:.3f})", (method, k)
    assert rows[-1][1:] == ["0.125"] * 3
    heads = lesson.evaluate(
        "() => [...document.querySelectorAll('#stretching .stretching-results thead th')]"
        ".map((c) => c.textContent)"
    )
    assert heads == ["method", "L = 8", "2L = 16", "4L = 32"]


def test_stopping_the_stretching_experiment_ends_its_python(lesson):
    demo = lesson.locator("#stretching")
    before = len(lesson.workers)
    demo.get_by_role("button", name="Train and test").click()
    poll(
        lesson,
        "() => document.querySelector('#stretching').dataset.experiment",
        lambda v: v == "running",
    )
    poll(lesson, "() => 0", lambda _: len(lesson.workers) == before + 1)
    demo.locator(".stretching-stop").click()
    assert dataset(lesson, "#stretching", "experiment") == "stopped"
    poll(lesson, "() => 0", lambda _: len(lesson.workers) == before)
    assert "Stopped at" in demo.locator(".stretching-status").inner_text()
    assert demo.get_by_role("button", name="Train and test").is_enabled()


@pytest.mark.parametrize("context_options", [{}, PHONE], ids=["wide", "phone"])
def test_the_dials_fill_their_rows_and_quick_sits_by_its_label(as_served_or_own):
    """8 dials in rows that end evenly (they wrapped 6 + 2), and the Quick checkbox beside its
    words (it sat 300 px from them)."""
    lesson = as_served_or_own
    wait_rendered(lesson, "#stretching", "llama2/4/none")
    rows = lesson.evaluate(
        """() => { const rows = new Map();
                   for (const d of document.querySelectorAll('#stretching .dial')) {
                     const top = Math.round(d.getBoundingClientRect().top);
                     rows.set(top, (rows.get(top) ?? 0) + 1);
                   }
                   return [...rows.values()]; }"""
    )
    assert sum(rows) == 8 and len(set(rows)) == 1, rows
    gap = lesson.evaluate(
        """() => { const input = document.querySelector('#stretching-quick');
                   const box = input.getBoundingClientRect();
                   const words = input.labels[0].querySelector('span').getBoundingClientRect();
                   return [words.left - box.right, Math.abs(words.top - box.top)]; }"""
    )
    assert 0 <= gap[0] < 20 and gap[1] < 10, gap
