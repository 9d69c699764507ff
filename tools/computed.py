"""The numbers pelab computes that the lesson's prose quotes, written in by the build.

A sentence names such a number instead of typing it: `<span data-computed="NAME"
data-decimals="2">1.65</span>`. `filled` writes in each one's value from app/computed.js's
COMPUTED (generated from py/pelab/browser/computed.py, which says how) or from the bench's
committed timings (bench_values: "bench.experiment-default" is the extrapolation experiment's
default run in seconds), with `data-decimals`
decimals (else as it is: a whole number) and a true minus sign. A span whose text is not that
value stops the build, naming the file, the placeholder and the value to write; so does a name
that has no value. A span left empty is filled in; the lesson writes each value all the same,
for those who read its sources as they are (the teacher's kit, the tests' quiz_sources.py).

In a translation catalog the span is one placeholder, `{N}` (tools/i18n.py keeps an element of no
letters whole), so a number that changes changes no message.
"""

from __future__ import annotations

import json
import re

from tools.project import ROOT, BuildError

COMPUTED_MODULE = ROOT / "app" / "computed.js"
_OBJECT = re.compile(r"^export const COMPUTED = Object\.freeze\((\{.*?\})\);$", re.M | re.S)
PLACEHOLDER = re.compile(
    r'<span data-computed="([^"]*)"(?: data-decimals="([^"]*)")?>([^<]*)</span>'
)
NAMED = re.compile(r"<[^>]*\bdata-computed=[^>]*>")  # any tag that names one


# What the bench measured that the lesson quotes (bench/training-results.json, committed):
# "bench.NAME" is the figure NAME, in seconds where the bench gives milliseconds.
BENCH_FIGURES = ROOT / "bench" / "training-results.json"


def bench_values() -> dict[str, float]:
    """The bench's committed timings, in seconds, as "bench.NAME" (NAME without its "_ms")."""
    figures = json.loads(BENCH_FIGURES.read_text(encoding="utf-8"))
    return {
        f"bench.{name.removesuffix('_ms').replace('_', '-')}": value / 1000
        for name, value in figures.items()
        if name.endswith("_ms")
    }


def quoted_values() -> dict[str, float | int]:
    """Every number the lesson may quote, by name: what pelab computes (computed_values) and the
    bench's timings (bench_values)."""
    return {**computed_values(), **bench_values()}


def computed_values() -> dict[str, float | int]:
    """COMPUTED of app/computed.js: every value pelab computes, by name."""
    found = _OBJECT.search(COMPUTED_MODULE.read_text(encoding="utf-8"))
    if not found:
        raise BuildError(
            "app/computed.js must export COMPUTED = Object.freeze({...}): remake it as "
            "py/pelab/browser/computed.py says"
        )
    return json.loads(found.group(1))


def shown(value: float | int, decimals: int | None) -> str:
    """A value as the page writes it: to `decimals` decimals (None: as it is), "−" for minus."""
    text = str(value) if decimals is None else f"{value:.{decimals}f}"
    if re.fullmatch(r"-0\.?0*", text):  # rounded to zero: no sign
        text = text[1:]
    return text.replace("-", "−")


def filled(text: str, source: str, values: dict[str, float | int] | None = None) -> str:
    """`text` (the file `source`) with each computed number written in and checked; `values`
    by name, else quoted_values()."""
    placeholders = {match.start() for match in PLACEHOLDER.finditer(text)}
    for tag in NAMED.finditer(text):
        if tag.start() not in placeholders:
            raise BuildError(
                f"{source}: {tag.group(0)} names a computed number, but the build reads only "
                '<span data-computed="NAME" data-decimals="N">VALUE</span> (data-decimals may '
                "be left out for a whole number), with no markup inside"
            )
    if not placeholders:
        return text
    values = quoted_values() if values is None else values

    def one(match: re.Match) -> str:
        name, decimals, written = match.groups()
        where = f'{source}: <span data-computed="{name}">'
        if name not in values:
            raise BuildError(
                f"{where} has no value: neither py/pelab/browser/computed.py nor the bench's "
                "figures (bench_values) have one by that name "
                f"(there are {', '.join(sorted(values))})"
            )
        if decimals is not None and not decimals.isdigit():
            raise BuildError(f'{where}: data-decimals="{decimals}" is not a number of decimals')
        value = shown(values[name], None if decimals is None else int(decimals))
        if written.strip() and written.strip() != value:
            raise BuildError(
                f"{where} reads {written.strip()}, but pelab computes {value}: write {value}"
            )
        decimal_attribute = "" if decimals is None else f' data-decimals="{decimals}"'
        return f'<span data-computed="{name}"{decimal_attribute}>{value}</span>'

    return PLACEHOLDER.sub(one, text)
