"""The common slips of the exercises, as a learner writes them into each worked solution: the
Python checks' tests (test_exercises.py) and the page's (tests/browser/test_exercises_in_page.py)
feed them to the checks."""

from __future__ import annotations

from tools.course import read_course

SOURCES = read_course().exercises  # lesson/*.html: each exercise, its worked solution among them


def swap(a: str, b: str) -> list[tuple[str, str]]:
    """Edits that exchange `a` and `b` everywhere."""
    return [(a, "\0"), (b, a), ("\0", b)]


# Each slip as a learner writes it into the worked solution: (old, new) edits, in order. The
# stretch exercise computes no sine or cosine and lays out no pairs: only three slips apply. The
# M-RoPE exercise computes ids, no angles at all: its slips are its own.
SLIPS = {
    "formula": {
        "factor-2": [("-2 * np.arange", "-np.arange")],
        "swapped": swap("np.sin(angles)", "np.cos(angles)"),
        "layout": [("pe[:, 0::2]", "pe[:, :d_model // 2]"),
                   ("pe[:, 1::2]", "pe[:, d_model // 2:]")],
        "degrees": [("angles = pos * w ", "angles = np.radians(pos * w)")],
        "off-by-one": [("np.arange(seq_len)", "np.arange(1, seq_len + 1)")],
    },
    "shift": {
        "factor-2": [("-2 * i / d_model", "-i / d_model")],
        "swapped": swap("np.cos(a)", "np.sin(a)"),
        "layout": [("m[2*i:2*i + 2, 2*i:2*i + 2]",
                    "m[np.ix_([i, i + d_model // 2], [i, i + d_model // 2])]")],
        "degrees": [("a = k * base ** (-2 * i / d_model)",
                     "a = np.degrees(k * base ** (-2 * i / d_model))")],
        "off-by-one": [("a = k * base", "a = (k + 1) * base")],
        "wrong-way": [("[-np.sin(a), np.cos(a)]", "[np.sin(a), np.cos(a)]"),
                      ("[[np.cos(a), np.sin(a)]", "[[np.cos(a), -np.sin(a)]")],
    },
    "rope": {
        "factor-2": [("-2 * np.arange(len(a))", "-np.arange(len(a))")],
        "swapped": swap("np.cos(t)", "np.sin(t)"),
        "layout": [("x[0::2], x[1::2]", "x[:len(x) // 2], x[len(x) // 2:]"),
                   ("out[0::2]", "out[:len(x) // 2]"), ("out[1::2]", "out[len(x) // 2:]")],
        "degrees": [("t = pos * base ** (-2 * np.arange(len(a)) / len(x))",
                     "t = np.radians(pos * base ** (-2 * np.arange(len(a)) / len(x)))")],
        "off-by-one": [("t = pos *", "t = (pos + 1) *")],
        "wrong-way": [("- b * np.sin(t)", "+ b * np.sin(t)"),
                      ("= a * np.sin(t)", "= -a * np.sin(t)")],
    },
    "stretch": {
        "factor-2": [("-2 * i / d", "-i / d")],
        "degrees": [("2 * np.pi", "360")],
        "stretch-off-by-one": [("> L * w", "> (L - 1) * w")],
    },
    "ntk": {
        "factor-2": [("-2 * np.arange(d // 2)", "-np.arange(d // 2)")],
        "swapped": swap("np.cos(t)", "np.sin(t)"),
        "layout": [("x[:d // 2], x[d // 2:]", "x[0::2], x[1::2]"),
                   ("out[:d // 2] =", "out[0::2] ="), ("out[d // 2:] =", "out[1::2] =")],
        "degrees": [("t = pos * new_base ** (-2 * np.arange(d // 2) / d)",
                     "t = np.degrees(pos * new_base ** (-2 * np.arange(d // 2) / d))")],
        "off-by-one": [("t = pos *", "t = (pos + 1) *")],
        "wrong-way": [("- b * np.sin(t)", "+ b * np.sin(t)"),
                      ("= a * np.sin(t)", "= -a * np.sin(t)")],
        "interpolation": [("new_base = base * s ** (d / (d - 2))", "new_base = base"),
                          ("t = pos *", "t = pos / s *")],
        "unscaled": [("new_base = base * s ** (d / (d - 2))", "new_base = base")],
        "base-times-s": [("new_base = base * s ** (d / (d - 2))", "new_base = base * s")],
    },
    "mrope": {
        "one-id-per-patch": [("resume = s + max(rows, columns)", "resume = s + rows * columns")],
        "resume-at-largest": [("resume = s + max(rows, columns)",
                               "resume = s + max(rows, columns) - 1")],
        "rows-columns-swapped": [("s + r, s + c])", "s + c, s + r])")],
        "running-ids": [("np.stack([np.full(rows * columns, s), s + r, s + c])",
                         "np.stack([s + np.arange(rows * columns)] * 3)"),
                        ("resume = s + max(rows, columns)", "resume = s + rows * columns")],
        "ids-from-one": [("s = text_before ", "s = text_before + 1 "),
                         ("before = np.arange(s)", "before = np.arange(1, s)")],
    },
}
# The diagnosis each slip must get (the layout's names the layout the learner used).
NAMED = {"layout": "layout-halves", "stretch-off-by-one": "stretch-off-by-one"}
NAMED_IN = {("ntk", "layout"): "layout-interleaved"}


def slipped(name: str, slips: list[str]) -> str:
    """The worked solution of exercise `name` with `slips` written in."""
    code = SOURCES[name].solution
    for slip in slips:
        for old, new in SLIPS[name][slip]:
            assert old in code, (name, slip, old)
            code = code.replace(old, new)
    return code


def diagnosis(name: str, slip: str) -> str:
    return NAMED_IN.get((name, slip)) or NAMED.get(slip, slip)
