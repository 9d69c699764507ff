"""The quiz as the pages show it: each question out of its source into the page's markup,
without its key (the right answer, what each wrong one means, the explanation), which goes into
dist/app/quiz-keys.json, sealed; a test item's graded versions hidden beside it until a graded
test draws one; the tests' forms. tools/lesson.py places them in the pages."""

from __future__ import annotations

import html
import json
import re
from dataclasses import dataclass

from tools.course import Chapter, template_keys, template_legends
from tools.course import Question as SourceQuestion
from tools.sealed_keys import seal

EXPLAIN = re.compile(r'<p class="quiz-explain" hidden>(.*)</p>(\s*</fieldset>)', flags=re.S)
KEY_ATTRIBUTES = re.compile(r' (?:data-correct(?![\w-])|data-(?:why|answer|tolerance)="[^"]*")')


@dataclass
class Question:
    """A quiz question as the pages show it: no key, no explanation, not yet numbered."""

    section: str
    name: str  # its inputs' shared name: the key's name in quiz-keys.json and in saved answers
    kind: str  # "choice", "truefalse" or "numeric"
    test: bool  # an end-test item (data-test), else its section's check
    refers: str  # the id in its section it tests: its feedback links back there
    html: str  # as the page shows it: no key, no explanation, not numbered
    keys: dict  # its entries of quiz-keys.json by id (a template's: one per variant), the
    #             explanations still unlinked
    item: str = ""  # the test item it is a version of ("" for a section's check)
    graded_version: bool = False  # a graded version of a test item, shown in graded tests only
    placement: str = ""  # "before-try": a prediction, asked before its section's "Try this"


def shown_question(question: SourceQuestion) -> Question:
    """A question split into what the page shows and its key (quiz-keys.json). A test item's
    fieldset names its item and version (`data-item`, `data-version`); a graded version is
    hidden and disabled until a graded test draws it (app/quiz/versions.js), and a template
    carries what its legend shows in each variant (`data-variants`), not their answers."""
    shown = KEY_ATTRIBUTES.sub("", question.source)
    shown = re.sub(
        r" data-(?:test|version-of|version|placement)(?![\w-])(=\"[^\"]*\")?", "", shown
    )
    shown = EXPLAIN.sub(lambda m: f'<p class="quiz-explain" hidden></p>{m.group(2)}', shown)
    if question.test or question.version_of:
        marks = f' data-item="{question.item}" data-version="{question.version}"'
        if question.version_of:
            marks += " hidden disabled"
        if question.template:
            variants = json.dumps(template_legends(question), ensure_ascii=False)
            marks += f" data-variants='{html.escape(variants, quote=False)}'"
        shown = re.sub(r'^( *<fieldset class="quiz-question")', rf"\1{marks}", shown, count=1)
    if question.template:
        keys = template_keys(question)
    else:
        keys = {question.name: question.key}
    return Question(
        question.section,
        question.name,
        question.kind,
        question.test,
        question.anchor,
        shown,
        keys,
        question.item,
        bool(question.version_of),
        question.placement,
    )


def number_question(question: Question, position: int) -> str:
    """A question as a check or test shows it: its number in the legend, its section on the
    fieldset, and the link back to what it tests, shown with the feedback."""
    text = re.sub(
        r'^( *<fieldset class="quiz-question"[^>]*)>',
        rf'\1 data-section="{question.section}">',
        question.html,
        count=1,
    )
    back = (
        f'<p class="quiz-refers" hidden><a href="#{question.refers}">Back to what this question '
        f'tests</a>, in <a href="#{question.section}" class="section-ref">section</a>.</p>'
    )
    text = text.replace('<p class="quiz-explain"', f'{back}\n<p class="quiz-explain"', 1)
    setup = re.search(r'\bdata-setup="([\w-]+)"', text)
    if setup:  # a question read off a live figure: where that figure is
        text = text.replace(
            "</legend>",
            '</legend>\n<p class="quiz-setup">Set the figure of <a '
            f'href="#{setup.group(1)}" class="section-ref">section</a> as the question says.</p>',
            1,
        )
    return text.replace("<legend>", f'<legend><span class="quiz-number">{position}.</span> ', 1)


def test_form(test: str, items: list[str]) -> str:
    """A test's form: its numbered questions, the score, Submit (shown in graded mode only:
    app/quiz/engine.js) and Start again."""
    return (
        f'<form class="quiz" data-quiz="test" data-test="{test}" novalidate>\n'
        + "".join(items)
        + '<p class="quiz-score" aria-live="polite"></p>\n'
        + '<p class="quiz-actions"><button type="submit" class="quiz-submit" hidden>Submit</button>'
        + ' <button type="reset" class="quiz-reset">Start again</button></p>\n'
        + "</form>\n"
    )


def chapter_test(chapter: Chapter, items: list[str]) -> str:
    """A chapter's end test, at the end of its page; nothing when no question is a test item."""
    if not items:
        return ""
    return (
        f'<section id="test-{chapter.name}" class="chapter-test" '
        f'aria-labelledby="test-{chapter.name}-title">\n'
        f'<h2 id="test-{chapter.name}-title">End of chapter test</h2>\n'
        '<p class="chapter-test-note">Questions on this chapter’s sections. Some ask you to set a '
        "figure’s sliders as the question says and read the result. In practice mode each answer "
        "is marked as you give it; in a graded test (launched by your course, or opened with "
        "?graded), answers are marked once you submit them.</p>\n"
        + test_form(chapter.name, items)
        + "</section>\n"
    )


def quiz_keys_json(keys: dict[str, dict]) -> str:
    """dist/app/quiz-keys.json: every question's key by its id (app/quiz/keys.js reads it),
    sealed so that it shows no answer at a glance (tools/sealed_keys.py)."""
    return json.dumps(seal(keys)) + "\n"
