"""The translations (tools/i18n.py, tools/languages.py): the catalogs are complete and every
translation keeps its placeholders, tags, links, formulas and numbers; a catalog cannot bring
markup; a missing message falls back to English marked as such; and the built site in each
language is linked both ways and shares the English site's files."""

from __future__ import annotations

import json
import re

import pytest

from site_server import DIST, ROOT
from tools import course, lesson
from tools.catalogs import javascript_messages, read_catalog, translations
from tools.i18n import (
    LANGUAGES,
    LOCALE,
    TRANSLATED,
    Translator,
    common_form,
    disagreement_report,
    disagreements,
    language_tag,
    numbers,
    problems,
    translate_comments,
    translate_page,
)
from tools.languages import alternates, english_site, extract, relocated, with_languages
from tools.notebook import NOTEBOOK
from tools.sealed_keys import unseal

PAGES = sorted(p.name for p in DIST.glob("*.html"))


@pytest.fixture(scope="module")
def messages() -> set[str]:
    pages, keys = english_site()
    return set(extract(pages, keys))


# ---- the catalogs -------------------------------------------------------------------------


@pytest.mark.parametrize("language", TRANSLATED)
def test_each_catalog_translates_every_message(messages, language):
    """build.py test fails below 100%: every message of the site, none fuzzy, none empty."""
    catalog = translations(language)  # raises on a translation that breaks a rule
    missing = sorted(m for m in messages if m not in catalog)
    assert not missing, (
        f"locale/{language}.po lacks {len(missing)} of {len(messages)} messages "
        f"(run python3 build.py translations, then translate): " + "\n".join(missing[:20])
    )


@pytest.mark.parametrize("language", TRANSLATED)
def test_each_catalog_is_up_to_date_with_the_template(messages, language):
    """messages.pot is what `build.py translations` makes now, and no catalog keeps a message
    the site no longer has (except as obsolete #~ entries)."""
    template = {m.id for m in read_catalog(LOCALE / "messages.pot") if m.id}
    assert template == messages, "locale/messages.pot is stale: run python3 build.py translations"
    catalog = {m.id for m in read_catalog(LOCALE / f"{language}.po") if m.id}
    assert catalog == template


@pytest.mark.parametrize("language", TRANSLATED)
def test_one_english_string_has_one_translation(language):
    """Equal English, equal translations: a quiz option's words read the same on the page
    ("{1} words", the radio input first) and in the answer key ("words")."""
    found = disagreements(translations(language))
    assert not found, disagreement_report(language, found)


def test_an_option_and_its_answer_key_copy_compare_without_the_input():
    page = ("{1} Very alike, once <2>training</2> sets {3}.",
            "{1} 很相似，一旦<2>训练</2>设定了 {3}。")
    key = ("Very alike, once <1>training</1> sets {2}.", "很相似，一旦<1>训练</1>设定了 {2}。")
    assert common_form(*page) == key == common_form(*key)
    assert disagreements(dict([page, key])) == {}
    found = disagreements(dict([page, (key[0], "非常相似，一旦<1>训练</1>设定了 {2}。")]))
    assert list(found) == [key[0]] and len(set(found[key[0]].values())) == 2
    named = ("{step} of {steps}", "{step}/{steps}")  # no leading {1}: its own common form
    assert common_form(*named) == named


def test_moving_a_section_changes_no_message(messages, monkeypatch, tmp_path):
    """The numbers the build works out (steps, chapters, minutes, counts) enter sentences as
    placeholders: a course with its third section moved into the next chapter renumbers every
    section after it and changes two chapters' minutes, yet has the very same messages, so no
    translation waits on a translator."""
    skeleton = lesson.SKELETON.read_text(encoding="utf-8")
    chapters = lesson.read_chapters(skeleton)
    moved = chapters[0].sections[2]
    line = f"<!-- lesson: {moved} -->"
    first_of_next = f"<!-- lesson: {chapters[1].sections[0]} -->"
    indent = re.search(rf"^( *){re.escape(line)}\n", skeleton, flags=re.M).group(1)
    changed = skeleton.replace(f"{indent}{line}\n", "", 1).replace(
        first_of_next, f"{line}\n{indent}{first_of_next}", 1
    )
    assert lesson.read_chapters(changed)[1].sections[0] == moved
    path = tmp_path / "index.html"
    path.write_text(changed, encoding="utf-8")
    monkeypatch.setattr(course, "SKELETON", path)
    pages, keys = english_site()
    assert 'class="step">3</span>' not in pages[chapters[0].page].split(moved)[0]
    moved_messages = set(extract(pages, keys))
    assert sorted(moved_messages ^ messages) == []


def test_no_message_holds_a_number_the_build_works_out(messages):
    """The shapes the build writes its numbers in (a section or chapter with its number, a
    question's number, minutes, "Chapter N of M", a count of chapters) are never in a message
    with the number itself: it is a placeholder. (Numbers the lesson states, "sequences of 4 to
    8 tokens", stay.)"""
    generated = re.compile(
        r"\b(?:[Ss]ections?|[Cc]hapters?|question) \d|\d+ (?:min|minutes|chapters)\b"
        r"|\b[Cc]hapter \S+ of \d"
    )
    found = sorted(m for m in messages if generated.search(m))
    assert found == []


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_translation_keeps_placeholders_numbers_and_no_markup(language):
    for message in read_catalog(LOCALE / f"{language}.po"):
        if message.id and message.string:
            assert problems(message.id, message.string) == [], message.id


def test_the_scripts_know_the_languages_the_build_makes():
    """app/site-languages.js and app/pages/preflight.js (a classic script, which cannot import it)
    list the translations as tools/i18n.py does."""
    for script in ("app/site-languages.js", "app/pages/preflight.js"):
        text = (ROOT / script).read_text(encoding="utf-8")
        listed = re.search(r"TRANSLATIONS = (?:Object\.freeze\()?\[([^\]]*)\]", text)
        assert listed, script
        assert re.findall(r'"(\w+)"', listed.group(1)) == list(TRANSLATED), script


def test_the_javascript_strings_are_plain_literals_babel_can_read():
    """app/i18n.js's t() takes a literal: a template or a variable would not be extracted."""
    for path in (ROOT / "app").rglob("*.js"):
        if "vendor" in path.parts:
            continue
        text = path.read_text(encoding="utf-8")
        calls = r"(?<!function )(?<![\w.])t\(\s*"  # a call of t(), not its definition
        assert not re.search(calls + "`", text), f"{path}: t() of a template literal"
        assert not re.search(calls + r"[A-Za-z_$]", text), f"{path}: t() of a variable"
    assert len(javascript_messages()) > 100


# ---- the rules a translation must keep ------------------------------------------------------


@pytest.mark.parametrize(
    ("message", "translation", "wrong"),
    [
        ("Move <1>the slider</1> to {2}.", "把<1>滑块</1>移到 {2}。", None),
        ("Move <1>the slider</1> to {2}.", "把滑块移到 {2}。", "placeholders differ"),
        ("Move <1>the slider</1> to {2}.", "把<1>滑块</1>移到 {2}{2}。", "placeholders differ"),
        ("<1><2>a</2> b</1>", "<1><2>a</1> b</2>", "closes what it did not open"),
        ("Press Run.", "Pulsa <b>Run</b>.", "markup of its own"),
        ("Press Run.", "Pulsa Run.<script>alert(1)</script>", "markup of its own"),
        ("Press Run.", "Pulsa Run &amp; mira.", "markup of its own"),
        ("About 0.84 at position 1.", "Unos 0.84 en la posición 2.", "numbers differ"),
        ("8,000 words and 16384 tokens", "8000 palabras y 16 384 tokens", None),
        ("Step {step} of {steps}", "第 {step} 步，共 {steps} 步", None),
        ("Step {step} of {steps}", "第 {step} 步", "placeholders differ"),
    ],
)
def test_a_translation_that_breaks_a_rule_is_refused(message, translation, wrong):
    found = problems(message, translation)
    if wrong is None:
        assert found == []
    else:
        assert any(wrong in problem for problem in found), found


def test_numbers_ignore_thousands_separators_only():
    assert numbers("8,000 and 16 384 and 0.25") == numbers("8000 y 16384 y 0.25")
    assert numbers("0.25") != numbers("0,25")  # a decimal comma is another number


PAGE = """<!doctype html><html lang="en"><head><title>A page</title></head><body>
  <p>Move <a href="#formula">the <strong>slider</strong></a> to <var>pos</var> = 2.</p>
  <p aria-label="A label">Untranslated words.</p>
  <pre><code># a comment that is code</code></pre>
  <script>const words = "not text";</script>
</body></html>"""


def test_a_page_is_translated_with_its_markup_and_missing_words_stay_english():
    translator = Translator({
        "Move <1>the <2>slider</2></1> to {3} = 2.": "把<1><2>滑块</2></1>移到 {3} = 2。",
        "A page": "一页",
        "A label": "一个标签",
    }, "zh")
    out = translate_page(PAGE, translator, "page.html")
    assert '<html lang="zh-Hans">' in out  # the script too, for the right fonts
    assert "<title>一页</title>" in out
    assert '把<a href="#formula"><strong>滑块</strong></a>移到 <var>pos</var> = 2。' in out
    assert '<p aria-label="一个标签"><span lang="en">Untranslated words.</span></p>' in out
    assert "# a comment that is code" in out and 'const words = "not text"' in out
    assert translator.missing == {"Untranslated words."}


def test_a_catalogs_text_is_escaped_into_the_page():
    """Even a catalog that got past the checks cannot put markup into a page."""
    translator = Translator({"A page": "<img src=x onerror=alert(1)>"}, "zh")
    out = translate_page(PAGE, translator, "page.html")
    assert "<img" not in out and "&lt;img src=x onerror=alert(1)&gt;" in out


def test_code_comments_are_translated_and_the_code_is_not():
    code = (
        "# How alike are two positions? Dot products\n"
        "# of their encodings:\n"
        'pe = pelab.sinusoidal(seq_len=64)   # the table\n'
        "x = '#not a comment'\n"
    )
    translator = Translator({
        "How alike are two positions? Dot products of their encodings:": "两个位置有多相似？" * 6,
        "the table": "la tabla",
    }, "zh")
    out = translate_comments(code, translator).split("\n")
    assert all(line.startswith("# 两个位置") or line.startswith("# ") for line in out[:2])
    assert all(len(line) <= 46 for line in out if line.startswith("#"))  # 88 columns, CJK = 2
    assert "pe = pelab.sinusoidal(seq_len=64)   # la tabla" in out
    assert "x = '#not a comment'" in out


def test_a_page_moved_into_a_language_folder_keeps_shared_files_shared():
    page = ('<link href="static/lab.css"><script src="app/pages/lesson.js"></script>'
            '<a href="geometry.html#relative">x</a><a href="#formula">y</a>'
            '<a href="https://pyodide.org/">z</a><a href="positional-encoding-lab.ipynb">n</a>')
    moved = relocated(page, {"geometry.html", NOTEBOOK})
    assert 'href="../static/lab.css"' in moved and 'src="../app/pages/lesson.js"' in moved
    assert 'href="geometry.html#relative"' in moved and 'href="#formula"' in moved
    assert 'href="https://pyodide.org/"' in moved and f'href="{NOTEBOOK}"' in moved


def test_every_language_links_to_every_other():
    for language in LANGUAGES:
        lines = alternates("geometry.html", language)
        assert lines.count('rel="alternate"') == len(LANGUAGES) + 1  # and x-default
    page = '<head></head><body>\n<a class="skip-link" href="#x">s</a>\n'
    page = with_languages("review.html", page)
    assert page.index("skip-link") < page.index("language-menu")


# ---- the built site ---------------------------------------------------------------------------


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_built_site_has_every_page_in_each_language_linked_both_ways(language):
    for name in PAGES:
        translated = (DIST / language / name).read_text(encoding="utf-8")
        english = (DIST / name).read_text(encoding="utf-8")
        tag = language_tag(language)  # zh-Hans for zh: <html lang> and hreflang agree
        assert f'<html lang="{tag}"' in translated
        if name != "embed.html":
            assert f'hreflang="{tag}" href="{language}/{name}"' in english
            assert f'hreflang="en" href="../{name}"' in translated
            assert 'class="language-menu"' in translated
        # complete: no English left but the language menu's own name for it
        assert re.findall(r'<span lang="en">', translated) == [], name
        # shared files are the English site's: nothing is downloaded twice
        for target in re.findall(r'(?:src|href)="([^"#:]+)"', translated):
            assert (DIST / language / target.split("?")[0]).resolve().is_file(), (name, target)


def code_only(cell: dict) -> list[str]:
    """A code cell's lines without their comments."""
    lines = (line for line in cell["source"] if not line.lstrip().startswith("#"))
    return [re.sub(r"#.*", "", line).rstrip() for line in lines]


@pytest.mark.parametrize("language", TRANSLATED)
def test_each_language_has_its_quiz_keys_and_notebook(language):
    keys = unseal(json.loads((DIST / "app" / f"quiz-keys.{language}.json").read_text("utf-8")))
    english = unseal(json.loads((DIST / "app" / "quiz-keys.json").read_text(encoding="utf-8")))
    assert keys.keys() == english.keys()
    for name, key in keys.items():
        assert {k: v for k, v in key.items() if k not in ("explain", "why")} == {
            k: v for k, v in english[name].items() if k not in ("explain", "why")
        }
        assert key["explain"] != english[name]["explain"]
    notebook = json.loads((DIST / language / NOTEBOOK).read_text(encoding="utf-8"))
    english_notebook = json.loads((DIST / NOTEBOOK).read_text(encoding="utf-8"))
    wheel = english_notebook["metadata"]["pelab"]["wheel"]
    assert notebook["metadata"]["pelab"]["wheel"] == "../" + wheel
    assert len(notebook["cells"]) == len(english_notebook["cells"])
    for ours, theirs in zip(notebook["cells"], english_notebook["cells"]):
        assert ours["cell_type"] == theirs["cell_type"]
        if ours["cell_type"] == "code":  # the same code; only its comments differ
            assert code_only(ours) == code_only(theirs)
        else:
            assert ours["source"] != theirs["source"]
