"""A built site whose lesson has end-test items, for the tests of the quiz machinery: the lesson's
own sources with `data-test` added to the questions of one chapter (inside-attention: terms,
alibi, rope) and one numeric item, assembled by tools/lesson.py into a copy of dist/. The
content's own test items may come and go; these tests need some, whatever the lesson holds.

The copy hard-links every file of dist/ (nothing is copied twice, and dist/ is never written):
only the pages and app/quiz-keys.json are new files, written in place of their links."""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path

import pytest

from site_server import DIST, ROOT
from tools import course
from tools.lesson import assemble_with_keys
from tools.quiz_forms import quiz_keys_json
from tools.sealed_keys import unseal

TEST_CHAPTER = "inside-attention"
TEST_SECTIONS = ("terms", "alibi", "rope")
# A question that reads the rope figure: its answer is arithmetic on the slider's settings
# (m - n at m = 7, n = 3), so the test knows it without the figure.
NUMERIC = """      <fieldset class="quiz-question" data-kind="numeric" data-test data-refers="rope-m" data-setup="rope" data-objective="rope-relative-offset">
        <legend>Set m to 7 and n to 3: what offset n − m does the score depend on?</legend>
        <label class="quiz-answer">Your answer <input type="text" inputmode="decimal" name="quiz-rope-offset" data-answer="-4" data-tolerance="0.5" data-why="The offset is n − m, not m − n."></label>
        <p class="quiz-feedback" aria-live="polite" hidden></p>
        <p class="quiz-explain" hidden>The score depends on <var>n</var> − <var>m</var> = 3 − 7 = −4.</p>
      </fieldset>
"""  # noqa: E501 (markup as a source has it)


def sources_with_tests(folder: Path) -> Path:
    """The lesson's sources in `folder`, TEST_SECTIONS' questions made end-test items."""
    sources = folder / "lesson"
    shutil.copytree(ROOT / "lesson", sources)
    for name in TEST_SECTIONS:
        path = sources / f"{name}.html"
        body, after = path.read_text(encoding="utf-8").split("</section>", 1)
        # every question a test item, but a graded version, which stays its item's version; a
        # prediction check's place before the section's "Try this" is a check's, not an item's
        after = re.sub(r' data-placement="[^"]*"', "", after)
        after = re.sub(
            r'<fieldset class="quiz-question" (?![^>]*data-version-of)',
            '<fieldset class="quiz-question" data-test ',
            after,
        )
        path.write_text(body + "</section>" + after + (NUMERIC if name == "rope" else ""), "utf-8")
    return sources


def build_site(folder: Path) -> tuple[Path, dict]:
    """dist/ with the test lesson's pages and keys, in `folder`/site; and the keys."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(course, "SOURCES", sources_with_tests(folder))
        pages, keys = assemble_with_keys()
    site = folder / "site"
    written = {*pages, "app/quiz-keys.json"}
    for path in DIST.rglob("*"):
        name = path.relative_to(DIST).as_posix()
        if not path.is_file() or name.split("/")[0] == "scorm":
            continue
        if re.sub(r"\.(br|gz)$", "", name) in written:
            continue  # a new file: its old compressed siblings would be served for it
        (site / name).parent.mkdir(parents=True, exist_ok=True)
        os.link(path, site / name)
    for name, text in pages.items():
        (site / name).write_text(text, encoding="utf-8")
    (site / "app" / "quiz-keys.json").write_text(quiz_keys_json(keys), encoding="utf-8")
    return site, keys


def right_value(keys: dict, question) -> str:
    """The value of a question's right option (a locator of its fieldset), from the keys."""
    return keys[question_id(question)]["correct"]


def question_id(question) -> str:
    """The id a question's key and its LMS record go by (a locator of its fieldset): a drawn
    variant's data-id (NAME.v3), else its inputs' name."""
    return question.evaluate("(q) => q.dataset.id || q.querySelector('input').name")


def read_keys(path: Path) -> dict:
    """A keys file the build wrote (app/quiz-keys*.json), unsealed."""
    return unseal(json.loads(path.read_text(encoding="utf-8")))
