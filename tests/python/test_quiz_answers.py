"""Every computed key of the quiz, recomputed with pelab: each numeric item's data-answer (for an
item that reads a live figure, with the function and arguments its demo calls, at the settings
its legend states, rounded as its legend says), and the numbers the choice and true/false items
and their explanations rest on. The questions are read from lesson/*.html by
tests/quiz_sources.py; their markup is checked in tests/build/test_quiz_questions.py."""

from __future__ import annotations

import math
import re

import numpy as np
import pytest

from pelab.alibi import alibi_slopes
from pelab.attention import order_blindness
from pelab.browser.computed import ROPE_FIRST, computed
from pelab.browser.demos.added import added
from pelab.browser.demos.alibi import alibi
from pelab.browser.demos.extrapolation import extrapolation
from pelab.browser.demos.formula import formula
from pelab.browser.demos.rope import rope
from pelab.browser.demos.stretching import stretching
from pelab.context_scaling import MODEL_HEAD_DIM, MODEL_SETTINGS, ntk_scaled_base
from pelab.extrapolation import nearest_distances
from pelab.positional_encoding import angular_frequencies, sinusoidal, wavelengths
from pelab.relative import rotation
from pelab.rope import rope_rotate
from pelab.stretch_effects import angle_coverage
from quiz_sources import questions, section_source, versions

# The ALiBi, attention and extrapolation demos go through BLAS (`@`): rerun under every kernel.
# Every comparison below is against a key's stated tolerance (1e-4 and up) or, for two outputs
# that are equal by construction, 1e-12: far above what another kernel's order of adding changes.
pytestmark = pytest.mark.blas_numeric

QUESTIONS = {q.name: q for q in questions()}
COMPUTED = computed()
SLIDER = re.compile(r"<lesson-slider ([^>]*)>")


def first_setting(section: str, name: str) -> float:
    """The value a section's slider NAME starts at, as the page shows it (10^value on a log
    scale): the "first settings" a legend may name."""
    for attributes in SLIDER.findall(section_source(section)):
        fields = dict(re.findall(r'([\w-]+)="([^"]*)"', attributes))
        if fields["name"] == name:
            value = float(fields["value"])
            return 10**value if fields.get("data-scale") == "log10" else value
    raise AssertionError(f"lesson/{section}.html has no slider named {name}")


def first_text(section: str, name: str) -> str:
    """The value a section's text box NAME starts with."""
    box = rf'<input [^>]*name="{name}" type="text" value="([^"]*)"'
    found = re.search(box, section_source(section))
    assert found, (section, name)
    return found.group(1)


def shown(value: float, decimals: int) -> str:
    """A number as app/figures/format.js's fixed() shows it: fixed decimals, a true minus sign."""
    text = f"{value:.{decimals}f}"
    return "−" + text[1:] if text.startswith("-") else text


def rope_first(**changes) -> dict:
    """The RoPE demo at its first settings, some changed."""
    settings = {
        "m": int(first_setting("rope", "m")),
        "n": int(first_setting("rope", "n")),
        "shift": int(first_setting("rope", "shift")),
        "d": int(first_setting("rope", "d")),
        "base": first_setting("rope", "base"),
        "seed": int(first_setting("rope", "seed")),
    } | changes
    return rope(**settings)


def llama2(scale, method):
    return stretching("llama2", scale, method)


# Each numeric item: its value computed as the lesson computes it, and the decimals its legend
# asks for (None: the reader types the number as it is).
def formula_value():
    terms = formula(3, 8)
    return float(np.asarray(terms["value"])[2])  # dimension 2, as the table's row j = 2 shows it


def relative_angle():
    block = rotation(20, 8)[2:4, 2:4]  # pair 1's 2 x 2 block of M_20 in the (sin, cos) layout
    return float(np.arctan2(block[0, 1], block[0, 0]))


def rope_angle():
    # pair 1 of a query at position 5, d = 8: its angle, both from w_1 and from the rotation
    unit = np.zeros((1, 8))
    unit[0, 2] = 1.0
    turned = rope_rotate(unit, [5])[0]
    angle = float(np.arctan2(turned[3], turned[2]))
    assert math.isclose(angle, 5 * angular_frequencies(8)[1], rel_tol=1e-12)
    return angle


NUMERIC = {
    "quiz-formula-compute": (formula_value, 3),
    "quiz-waves-wavelength": (lambda: float(wavelengths(64)[8]), 1),
    "quiz-relative-angle": (relative_angle, 2),
    "quiz-similarity-dot": (lambda: float(sinusoidal(8, 4)[5] @ sinusoidal(8, 4)[7]), 2),
    "quiz-alibi-slope": (lambda: float(alibi_slopes(4)[1]), None),
    "quiz-alibi-readout": (
        lambda: float(alibi(first_text("alibi", "sentence"), 4, 1)["distances"][0]),
        2,
    ),
    "quiz-rope-angle": (rope_angle, 2),
    "quiz-rope-predict": (lambda: rope_first(m=40, n=37)["score"], 3),
    "quiz-extrapolation-one-pair": (
        lambda: extrapolation(
            2,
            first_setting("extrapolation", "base"),
            int(first_setting("extrapolation", "train_len")),
            int(first_setting("extrapolation", "seq_len")),
        )["beyond"],
        4,
    ),
    "quiz-stretching-interpolation-step": (
        lambda: llama2(16384 / MODEL_SETTINGS["llama2"]["train_len"], "interpolation")[
            "fastest_step"
        ],
        None,
    ),
    "quiz-stretching-ntk-base": (
        lambda: float(ntk_scaled_base(MODEL_SETTINGS["llama2"]["base"], 4, MODEL_HEAD_DIM)),
        -2,
    ),
    "quiz-stretching-outside": (lambda: llama2(16, "none")["outside"], None),
}


def test_every_numeric_item_has_its_key_recomputed_here():
    numeric = {name for name, q in QUESTIONS.items() if q.kind == "numeric" and not q.template}
    assert numeric == set(NUMERIC)


@pytest.mark.parametrize("name", sorted(NUMERIC))
def test_a_numeric_key_is_what_pelab_computes_and_a_rounded_reading_of_it_passes(name):
    q = QUESTIONS[name]
    compute, decimals = NUMERIC[name]
    value = compute()
    answer, tolerance = float(q.answer), float(q.tolerance)
    # The key sits well inside its tolerance, and so does the value read as the legend asks
    # (rounded to its decimals, or, for a readout, as the demo rounds it).
    assert abs(value - answer) <= tolerance / 2 or (tolerance == 0 and value == answer), (
        name,
        value,
    )
    reading = value if decimals is None else round(value, decimals)
    assert abs(reading - answer) <= tolerance, (name, reading)


def test_the_settings_legends_state_are_the_demos_first_ones_where_they_say_so():
    assert first_text("alibi", "sentence") in QUESTIONS["quiz-alibi-readout"].legend
    for name in ("train_len", "seq_len", "base"):
        assert f"{first_setting('extrapolation', name):g}" in QUESTIONS[
            "quiz-extrapolation-one-pair"
        ].legend.replace("Base 10000", "10000")
    legend = QUESTIONS["quiz-rope-predict"].legend
    first = rope_first()
    assert "m = 5, n = 2, d = 8, base 10000, draw 0" in legend
    assert (first_setting("rope", "m"), first_setting("rope", "n")) == (5, 2)
    assert (first_setting("rope", "d"), first_setting("rope", "base")) == (8, 10000)
    assert first_setting("rope", "seed") == 0
    # the settings pelab.browser.computed computes the legend's score at
    assert ROPE_FIRST == {name: first_setting("rope", name) for name in ROPE_FIRST}
    assert f"reads {shown(first['score'], 6)}" in legend  # as the demo shows it, six decimals
    assert llama2(2, "none")["outside"] == 18 and "At Stretch 2, 18 of its 64 pairs" in (
        QUESTIONS["quiz-stretching-outside"].legend
    )


def test_the_numbers_the_explanations_give():
    # formula: the wrong values its why names
    assert [round(math.sin(3), 3), round(math.cos(0.3), 3)] == [0.141, 0.955]
    assert round(math.sin(math.radians(0.3)), 3) == 0.005
    # waves: pair 0's wavelength, and i = 16's
    assert round(float(wavelengths(64)[0]), 1) == 6.3
    assert round(float(wavelengths(64)[16]), 1) == 628.3
    # similarity: the two pairs' cosines, and the same at positions 105 and 107
    assert (round(math.cos(2), 3), round(math.cos(0.02), 3)) == (-0.416, 1.0)
    pe = sinusoidal(108, 4)
    assert float(pe[105] @ pe[107]) == pytest.approx(float(pe[5] @ pe[7]), abs=1e-12)
    # alibi: 4 heads' slopes; head 1 of 4 is head 2 of 8; head 1 of 8 and no bias
    assert alibi_slopes(4).tolist() == [1 / 4, 1 / 16, 1 / 64, 1 / 256]
    sentence = first_text("alibi", "sentence")
    four, eight = alibi(sentence, 4, 1), alibi(sentence, 8, 2)
    assert four["distances"][0] == pytest.approx(eight["distances"][1], abs=1e-12)
    assert round(float(eight["distances"][0]), 2) == 1.38
    assert round(float(eight["plain_distance"]), 2) == 2.81
    # rope: the swapped positions' score
    assert shown(rope_first(m=37, n=40)["score"], 3) in QUESTIONS["quiz-rope-predict"].why
    # ntk: the factor, and what it does to the fastest and slowest pairs
    new = ntk_scaled_base(10000, 4, 128)
    assert round(new / 10000, 3) == 4.089
    w, w_new = angular_frequencies(128, 10000), angular_frequencies(128, new)
    assert w_new[0] == w[0] and w_new[-1] == pytest.approx(w[-1] / 4, rel=1e-12)
    # extrapolation: one pair, positions 333 apart, against neighbours
    pe = sinusoidal(512, 2)
    gaps = np.linalg.norm(pe[:, None] - pe[None], axis=-1) + np.eye(512) * 9
    p, q = np.unravel_index(np.argmin(gaps), gaps.shape)
    assert abs(int(q) - int(p)) == 333
    assert abs(333 - 53 * 2 * math.pi) < 0.009
    assert round(float(nearest_distances(512, 2)[-1]), 4) == 0.0088
    assert round(float(nearest_distances(64, 2)[-1]), 4) == 0.0177  # the first line's
    assert round(2 * math.sin(0.5), 2) == 0.96 == round(float(gaps[0, 1]), 2)
    # stretching: s, and the fastest pair's sweep in turns
    assert 16384 / MODEL_SETTINGS["llama2"]["train_len"] == 4
    assert round(4095 / (2 * math.pi), -1) == 650


def test_the_choice_and_true_false_keys_that_rest_on_a_computation():
    # attention, "the cat saw the dog": both "the"s get one output, unless a mask or PE is on
    def gap(with_pe, causal):
        outputs = order_blindness("the cat saw the dog", [0, 1, 2, 3, 4], with_pe, causal=causal)
        return float(np.max(np.abs(outputs.outputs[0] - outputs.outputs[3])))

    assert gap(False, False) <= 1e-12  # equal by construction: same inputs, same set of keys
    assert gap(False, True) > 0.1 and gap(True, False) > 0.1
    # heatmap: at base 10 the slowest pair of 128 comes round within the 64 rows shown
    rows = first_setting("heatmap", "seq_len")
    assert first_setting("heatmap", "d_model") == 128 and rows == 64
    assert round(float(wavelengths(128, 10)[-1]), 1) == 60.6 < rows
    assert round(float(wavelengths(128, 10000)[-1]), -3) == 54000
    slowest = [float(angular_frequencies(128, base)[-1]) for base in (10, 10000)]
    assert round(slowest[0], 3) == 0.104 and round(slowest[1], 4) == 0.0001
    assert np.all(np.diff(angular_frequencies(128, 10)) < 0)  # the order of the pairs stays
    # added: a new word changes the embedding and the sum, never the + PE row
    dog, cat = added("dog", 1, 8), added("cat", 1, 8)
    assert np.array_equal(dog["encoding"], cat["encoding"])
    assert not np.allclose(dog["embedding"], cat["embedding"])
    assert not np.allclose(dog["sum"], cat["sum"])
    # similarity: an offset of +3 and -3 give one dot product, at any width and base
    for d_model, base in [(4, 10000), (16, 10), (128, 10000), (512, 500)]:
        pe = sinusoidal(14, d_model, base)
        assert float(pe[10] @ pe[13]) == pytest.approx(float(pe[10] @ pe[7]), abs=1e-12)
    # rope: with q != k, 3 before and 3 after score differently
    before, after = rope_first()["score"], rope_first(m=2, n=5)["score"]
    assert abs(before - after) > 0.01
    # the two scores its explanation quotes (pelab.browser.computed's, at these settings)
    assert (before, after) == pytest.approx(
        (COMPUTED["rope.first-score"], COMPUTED["rope.swapped-score"]), abs=1e-10
    )
    # alibi, 8 heads: a key 5 back costs head 1 5/2 and head 8 5/256
    slopes = alibi_slopes(8)
    assert (5 * slopes[0], 5 * slopes[-1]) == (5 / 2, 5 / 256)
    # stretching: the fastest pair stays inside its trained range; the slow 18 leave at any stretch
    for scale in range(2, 33):
        result = llama2(scale, "none")
        assert result["state"][0] == 0 and result["outside"] == 18


def test_the_numbers_the_parallel_versions_rest_on():
    """The test items' parallel versions (data-version-of): each key that rests on a
    computation, and each number a legend, option or explanation states."""
    said = {
        v.name: " ".join([v.legend, v.explain, *(f"{o.text} {o.why or ''}" for o in v.options)])
        for v in versions()
    }

    def the_same(sentence, a, b, with_pe=False, causal=False, order=None):
        run = order_blindness(sentence, order, with_pe, causal=causal)
        after = run.shuffled_outputs if order else run.outputs
        return float(np.max(np.abs(run.outputs[a] - after[b]))) <= 1e-12

    # attention b: "chased" gets one output in both orders, unless PE or a mask is on
    swap = [0, 4, 2, 3, 1]  # "the dog chased the cat" -> "the cat chased the dog"
    assert order_blindness("the dog chased the cat", swap).shuffled[2] == "chased"
    assert the_same("the dog chased the cat", 2, 2, order=swap)
    assert not the_same("the dog chased the cat", 2, 2, True, order=swap)
    assert not the_same("the dog chased the cat", 2, 2, causal=True, order=swap)
    # attention c: only the positional encoding (or a mask) parts the two "the"s
    for sentence in ["the cat saw the dog", "the dog saw the cat", "the cat chased the dog"]:
        assert the_same(sentence, 0, 3)
    assert not the_same("the cat saw the dog", 0, 3, with_pe=True)
    assert not the_same("the cat saw the dog", 0, 3, causal=True)
    # heatmap b: d_model 64, base 100 -> 10000: pair 0 keeps 1 rad, pair 31's wavelength
    low, high = wavelengths(64, 100), wavelengths(64, 10000)
    assert angular_frequencies(64, 100)[0] == angular_frequencies(64, 10000)[0] == 1
    assert (round(float(low[-1])), round(float(high[-1]))) == (544, 47117)
    assert round(float(high[-1]), -3) == 47000 and round(float(low[-1]), -1) == 540
    assert round(float(high[-1] / low[-1])) == 87
    w = [float(angular_frequencies(64, base)[-1]) for base in (100, 10000)]
    assert (round(w[0], 4), round(w[1], 5)) == (0.0115, 0.00013)
    # heatmap c: base 10: the slowest wavelength at d_model 16 and 512, below 2 pi 10 always
    assert [round(float(wavelengths(d, 10)[-1]), 1) for d in (16, 512)] == [47.1, 62.3]
    assert round(2 * math.pi * 10, 1) == 62.8 and round(2 * math.pi * 10) == 63
    assert max(float(wavelengths(d, 10)[-1]) for d in range(2, 4097, 2)) < 2 * math.pi * 10
    # added b and c: the encoding follows the position, the embedding the word
    river3, river40 = added("river", 3, 8), added("river", 40, 8)
    assert np.array_equal(river3["embedding"], river40["embedding"])
    assert not np.allclose(river3["encoding"], river40["encoding"])
    assert not np.allclose(river3["sum"], river40["sum"])
    cat4, dog4, cat9 = added("cat", 4, 8), added("dog", 4, 8), added("cat", 9, 8)
    assert np.array_equal(cat4["encoding"], dog4["encoding"])
    assert not np.allclose(cat4["encoding"], cat9["encoding"])
    assert np.array_equal(cat4["embedding"], cat9["embedding"])
    sums = [cat4["sum"], dog4["sum"], cat9["sum"]]
    assert not any(np.allclose(sums[i], sums[j]) for i, j in [(0, 1), (0, 2), (1, 2)])
    # similarity b and c: +5 and -5 give one dot product, about 23.5 and 3.78
    pe = sinusoidal(26, 64, 10000)
    assert float(pe[20] @ pe[25]) == pytest.approx(float(pe[20] @ pe[15]), abs=1e-12)
    assert round(float(pe[20] @ pe[25]), 1) == 23.5
    pe = sinusoidal(101, 16, 100)
    assert float(pe[3] @ pe[8]) == pytest.approx(float(pe[100] @ pe[95]), abs=1e-12)
    assert round(float(pe[3] @ pe[8]), 2) == 3.78
    # rope b and c: with k = q, 3 before and 3 after score alike; with k != q the matrix of
    # scores is Toeplitz but not symmetric
    rng = np.random.default_rng(0)
    q, k = rng.standard_normal(8), rng.standard_normal(8)

    def score(query, key, m, n):
        return float(rope_rotate(query[None], [m])[0] @ rope_rotate(key[None], [n])[0])

    assert score(q, q, 5, 2) == pytest.approx(score(q, q, 2, 5), abs=1e-12)
    scores = np.array([[score(q, k, a, b) for b in range(12)] for a in range(12)])
    assert np.allclose(scores[1:, 1:], scores[:-1, :-1], atol=1e-12)
    assert np.max(np.abs(scores - scores.T)) > 0.1
    # stretching b: Llama 3's slowest pair, trained on 8192, run on 16384
    settings = MODEL_SETTINGS["llama3"]
    w = float(angular_frequencies(MODEL_HEAD_DIM, settings["base"])[-1])
    assert f"{w:.1e}" == "2.5e-06"
    assert (round(8191 * w, 3), round(16383 * w, 2)) == (0.020, 0.04)
    two = angle_coverage("none", MODEL_HEAD_DIM, settings["base"], settings["train_len"], 2)
    assert two["last"] == 16383 and two["state"][-1] == 2 and int((two["state"] == 2).sum()) == 29
    # stretching c: Code Llama's pair 30 went round about 4 times in 16384 positions
    settings = MODEL_SETTINGS["codellama"]
    w = angular_frequencies(MODEL_HEAD_DIM, settings["base"])
    assert (round(float(w[30]), 5), round(float(w[30]), 4)) == (0.00154, 0.0015)
    sweep = 16383 * float(w[30])
    assert (round(sweep, 1), round(sweep / (2 * math.pi))) == (25.2, 4)
    four = angle_coverage("none", MODEL_HEAD_DIM, settings["base"], settings["train_len"], 4)
    assert four["last"] == 65535 and four["state"][30] == 0
    assert int((16383 * w < 2 * math.pi).sum()) == 27
    # the numbers above are the ones the versions state
    for name, numbers in {
        "quiz-heatmap-small-base.b": ["544", "47,117", "47,000", "540", "87", "0.0115", "0.00013"],
        "quiz-heatmap-small-base.c": ["47.1", "62.3", "62.8", "63", "47", "62"],
        "quiz-similarity-before-after.b": ["23.5"],
        "quiz-similarity-before-after.c": ["3.78"],
        "quiz-stretching-fastest.b": ["0.0000025", "0.020", "0.04", "29", "8191", "16383"],
        "quiz-stretching-fastest.c": ["0.00154", "0.0015", "25.2", "27", "65536"],
    }.items():
        assert all(number in said[name] for number in numbers), name
