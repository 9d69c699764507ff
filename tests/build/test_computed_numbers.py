"""The numbers pelab computes that the lesson's prose quotes (tools/computed.py): every one the
lesson writes is pelab's (app/computed.js, which tests/python/browser/test_computed.py holds to
pelab), a bad placeholder stops the build naming the file and the placeholder, and a translation
catalog sees each as a placeholder, so that its message holds no computed number."""

from __future__ import annotations

import json
import re

import pytest

from tools.computed import (
    BENCH_FIGURES,
    NAMED,
    PLACEHOLDER,
    bench_values,
    filled,
    quoted_values,
    shown,
)
from tools.i18n import Translator, translate_fragment
from tools.lesson import SOURCES
from tools.project import BuildError
from tools.section_source import read_section

VALUES = {"demo.factor": 1.6487212707, "demo.score": -1.58647532066, "demo.offset": 541}


@pytest.mark.parametrize("path", sorted(SOURCES.glob("*.html")), ids=lambda p: p.name)
def test_every_computed_number_the_lesson_writes_is_pelabs(path):
    text = path.read_text(encoding="utf-8")
    # written in the source, and as pelab computes it: filling it in changes nothing
    assert filled(text, f"lesson/{path.name}") == text
    for name, _, written in PLACEHOLDER.findall(text):
        assert written, f"lesson/{path.name}: write the value of {name} in its span too"


def test_the_bench_figures_the_lesson_quotes_are_the_committed_benchs_in_seconds():
    """A timing the lesson quotes ("bench.NAME") is bench/training-results.json's NAME_ms, read
    from the committed file (nothing is timed here), in seconds."""
    figures = json.loads(BENCH_FIGURES.read_text(encoding="utf-8"))
    bench = bench_values()
    assert bench["bench.experiment-default"] == figures["experiment_default_ms"] / 1000
    assert set(bench) == {
        "bench." + name.removesuffix("_ms").replace("_", "-") for name in figures
        if name.endswith("_ms")
    }
    quoted = "".join(path.read_text(encoding="utf-8") for path in SOURCES.glob("*.html"))
    assert 'data-computed="bench.experiment-default"' in quoted


def test_the_lesson_quotes_computed_numbers():
    quoted = "".join(path.read_text(encoding="utf-8") for path in SOURCES.glob("*.html"))
    names = {name for name, _, _ in PLACEHOLDER.findall(quoted)}
    assert names and names <= set(quoted_values())


def test_a_placeholder_is_written_in_with_its_decimals_and_a_true_minus_sign():
    text = (
        '<p>about <span data-computed="demo.factor" data-decimals="2"></span>, '
        '<span data-computed="demo.score" data-decimals="6">−1.586475</span> at '
        '<span data-computed="demo.offset"></span> apart</p>'
    )
    assert filled(text, "lesson/demo.html", VALUES) == (
        '<p>about <span data-computed="demo.factor" data-decimals="2">1.65</span>, '
        '<span data-computed="demo.score" data-decimals="6">−1.586475</span> at '
        '<span data-computed="demo.offset">541</span> apart</p>'
    )
    assert shown(-0.001, 2) == "0.00" and shown(-0.5, 1) == "−0.5" and shown(541, None) == "541"


@pytest.mark.parametrize(
    ("span", "message"),
    [
        (
            '<span data-computed="demo.ratio" data-decimals="2"></span>',
            'lesson/demo.html: <span data-computed="demo.ratio"> has no value: '
            "neither py/pelab/browser/computed.py nor the bench's figures (bench_values) have "
            "one by that name (there are demo.factor, ",
        ),
        (
            '<span data-computed="demo.factor" data-decimals="2">1.66</span>',
            'lesson/demo.html: <span data-computed="demo.factor"> reads 1.66, but pelab '
            "computes 1.65: write 1.65",
        ),
        (
            '<span data-computed="demo.factor" data-decimals="two"></span>',
            'data-decimals="two" is not a number of decimals',
        ),
        (
            '<span data-decimals="2" data-computed="demo.factor"></span>',
            'lesson/demo.html: <span data-decimals="2" data-computed="demo.factor"> names a '
            "computed number, but the build reads only",
        ),
        (
            '<span data-computed="demo.factor"><b>1.65</b></span>',
            "with no markup inside",
        ),
    ],
)
def test_a_bad_placeholder_stops_the_build_naming_the_file_and_the_placeholder(span, message):
    with pytest.raises(BuildError, match=re.escape(message)):
        filled(f"<p>a factor of {span}</p>", "lesson/demo.html", VALUES)


def test_a_translation_catalog_sees_a_placeholder_not_a_number():
    translator = Translator(None, "zh")
    translate_fragment(
        '<p>With 8 heads the steepest slope is 1/2, a factor of about '
        '<span data-computed="demo.factor" data-decimals="2">1.65</span>.</p>',
        translator,
    )
    assert list(translator.met) == [
        "With 8 heads the steepest slope is 1/2, a factor of about {1}."
    ]


def test_every_tag_that_names_a_computed_number_is_a_placeholder():
    for path in SOURCES.glob("*.html"):
        text = path.read_text(encoding="utf-8")
        assert len(NAMED.findall(text)) == len(PLACEHOLDER.findall(text)), path.name


def test_the_course_reader_stops_on_a_placeholder_with_no_value(tmp_path):
    """As the build reads a section (tools/section_source.py), not only in this module."""
    (tmp_path / "one.html").write_text(
        '<section id="one" class="demo" aria-labelledby="one-title">\n'
        '<h2 id="one-title">One</h2>\n'
        '<p>about <span data-computed="one.ratio" data-decimals="2"></span></p>\n'
        "</section>\n",
        encoding="utf-8",
    )
    message = 'lesson/one.html: <span data-computed="one.ratio"> has no value'
    with pytest.raises(BuildError, match=re.escape(message)):
        read_section("one", tmp_path)
