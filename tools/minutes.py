"""How long a section takes, as the course map and the entrance show it (docs/course.md says
how and why): the words of its core path, each control by its kind, each experiment by its run
time as the bench measured it, and its questions; the folds ("Going deeper", "Show the Python")
left out, and its exercises counted apart. tools/lesson.py counts each section of a course with
it."""

from __future__ import annotations

import html
import json
import math
import re

from tools.computed import BENCH_FIGURES
from tools.project import BuildError

# How long a section takes on the core path (docs/course.md says why these numbers): its words at
# READING_WPM, each control's time to try (CONTROL_MINUTES: a slider, a toggle, a text box, a
# code cell), each experiment's run time as the bench measured it (EXPERIMENT_BENCH) plus
# RESULT_MINUTES to read what it gives, and QUESTION_MINUTES a question (a prediction included).
# The folds (FOLDS: "Going deeper", "Show the Python") are off the core path: neither their words
# nor their controls count. Nor do the exercises: each takes EXERCISE_MINUTES to write and check,
# which the pages show beside the chapter's minutes (exercise_minutes), not in them.
READING_WPM = 150
CONTROL_MINUTES = {"slider": 1.0, "toggle": 0.5, "text": 1.5, "cell": 2.0}
RESULT_MINUTES = 2
QUESTION_MINUTES = 1
EXERCISE_MINUTES = 6
# A chapter's core path stays within this (tests/build/test_lesson_sources.py holds it).
CHAPTER_LIMIT_MINUTES = 45
FOLDS = re.compile(r'<details class="(?:deeper|show-python)\b.*?</details>', flags=re.S)
EXERCISE = '<div class="exercise"'
DIV = re.compile(r"<div\b|</div>")
# The bench's figures (bench/training-results.json, `python3 build.py bench --only training`, on
# 2 cores), committed and read at build time, never measured here.
# Each section's experiment (its "training-buttons"), by the bench figure that times its default
# run from the click, its Python's boot included. The stretching experiment is not benched: it
# trains 3 models of 250 steps, fewer steps than the extrapolation experiment's Quick setting
# (12 models of 120 steps), whose figure it is counted at, an overestimate.
EXPERIMENT_BENCH = {
    "training": "train_ms",
    "extrapolation": "experiment_default_ms",
    "stretching": "experiment_quick_ms",
}


def bench_figures() -> dict:
    """The bench's committed figures (BENCH_FIGURES), by name."""
    return json.loads(BENCH_FIGURES.read_text(encoding="utf-8"))


def core_path(source_html: str) -> str:
    """A section's source without its folds (FOLDS) and its exercises, whose task, cell, hints
    and solution EXERCISE_MINUTES covers."""
    text = FOLDS.sub(" ", source_html)
    while (start := text.find(EXERCISE)) >= 0:
        depth = 0
        for tag in DIV.finditer(text, start):
            depth += 1 if tag.group(0) == "<div" else -1
            if depth == 0:
                text = text[:start] + " " + text[tag.end():]
                break
        else:
            raise BuildError("a section's exercise <div> is not closed")
    return text


def section_controls(source_html: str) -> dict[str, int]:
    """How many controls of each kind (CONTROL_MINUTES) a section's core path has to try: a
    slider; a toggle (a checkbox, a group of radio buttons, a button other than an experiment's);
    a text box; a code cell. Its questions, its folds, its experiments' buttons and the take-home
    notebook's download box are none. A group of radio buttons named "…-prediction" is a
    question (a prediction), not a control."""
    body = core_path(source_html)
    body = re.sub(r'<fieldset class="quiz-question".*?</fieldset>', " ", body, flags=re.S)
    body = re.sub(r'<div class="(?:take-home|training-buttons)\b.*?</div>', " ", body, flags=re.S)
    radios = set(re.findall(r'<input\b[^>]*\btype="radio"[^>]*\bname="([^"]+)"', body))
    radios |= set(re.findall(r'<input\b[^>]*\bname="([^"]+)"[^>]*\btype="radio"', body))
    return {
        "slider": len(re.findall(r"<lesson-slider\b|<input\b[^>]*\btype=\"range\"", body)),
        "toggle": len(re.findall(r'<input\b[^>]*\btype="checkbox"', body))
        + len(re.findall(r"<button\b", body))
        + len(re.findall(r"<select\b", body))
        + len({name for name in radios if not name.endswith("prediction")}),
        "text": len(re.findall(r'<input\b[^>]*\btype="(?:text|number)"', body))
        + len(re.findall(r"<textarea\b", body)),
        "cell": len(re.findall(r'<div class="cell"', body)),
    }


def section_minutes(section, bench: dict | None = None) -> int:
    """How long a learner needs for a section's core path (a tools/lesson.py Section), as the
    course shows it
    (docs/course.md): its prose at READING_WPM words a minute (not its code, not its folds), each
    control's time to try (CONTROL_MINUTES), each experiment's run time as the bench measured it
    (`bench`, else BENCH_FIGURES) and RESULT_MINUTES to read its result, and a minute a question
    (a prediction included); rounded up to a whole minute. Its exercises are exercise_minutes'."""
    core = core_path(section.source_html)
    prose = re.sub(r"<(textarea|script|pre)\b.*?</\1>", " ", core, flags=re.S)
    words = len(html.unescape(re.sub(r"<[^>]*>", " ", prose)).split())
    minutes = words / READING_WPM
    for kind, count in section_controls(section.source_html).items():
        minutes += CONTROL_MINUTES[kind] * count
    runs = core.count('class="training-buttons"')
    if runs:
        if section.name not in EXPERIMENT_BENCH:
            raise BuildError(
                f"lesson/{section.name}.html runs an experiment that tools/minutes.py's "
                "EXPERIMENT_BENCH does not time: name the bench figure of its run there"
            )
        figures = bench_figures() if bench is None else bench
        minutes += runs * (figures[EXPERIMENT_BENCH[section.name]] / 60000 + RESULT_MINUTES)
    predictions = set(re.findall(r'name="([\w-]*prediction)"', core))
    minutes += QUESTION_MINUTES * (section.quiz_questions + len(predictions))
    return math.ceil(minutes)


def exercise_minutes(source_html: str) -> int:
    """How long a section's exercises take (EXERCISE_MINUTES each), shown beside the chapter's
    core-path minutes rather than in them."""
    return EXERCISE_MINUTES * source_html.count(EXERCISE)
