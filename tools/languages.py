"""The site in each language: dist/zh/ and dist/es/ hold every page of dist/'s root, translated
from the English by the catalogs (tools/i18n.py). They share app/, static/, py/ and the runtime
with the English site, so nothing is downloaded twice: a translated page's links to those go up
one folder, its links to other pages stay in its own language.

Every page, English too, gets `<link rel="alternate" hreflang>` to each language's copy and a
language menu (app/course/language-menu.js keeps the reader's place when it is used); a translated
page carries the translations of app/'s strings (app/i18n.js reads them). The quiz's keys are
written per language too (app/quiz-keys.LANG.json), their explanations translated.

Where the site's address is known (`build.py build --site-url URL`), the hreflang links are
absolute, as search engines take them, and each page names itself as canonical; without it they
stay relative, so that dist/ works wherever it is put.
"""

from __future__ import annotations

import html
import json
import re
from urllib.parse import urlsplit

from tools.catalogs import javascript_messages, translations, update_catalogs
from tools.i18n import (
    LANGUAGES,
    SOURCE_LANGUAGE,
    TRANSLATED,
    Translator,
    disagreement_report,
    disagreements,
    language_tag,
    translate_fragment,
    translate_page,
)
from tools.notebook import NOTEBOOK, notebook_text
from tools.project import ROOT, BuildError, log

LINK = re.compile(r'(\s(?:href|src)=")([^"]*)(")')
ABSOLUTE = re.compile(r"^(?:[a-z][\w+.-]*:|/|#|\?)", flags=re.I)
SKIP_LINK = re.compile(r'(<a class="skip-link"[^>]*>.*?</a>\n)', flags=re.S)
BODY = re.compile(r"(<body\b[^>]*>\n?)")
HEAD_END = "</head>"
MESSAGES_ID = "pelab-messages"
EMBED = "embed.html"  # a demo alone, framed by a host page: no language menu of its own


def _shared(target: str, pages: set[str]) -> bool:
    """True for a relative link to a file shared by every language (app/, py/, static/, ...)."""
    if not target or ABSOLUTE.match(target):
        return False
    path = re.split(r"[?#]", target, maxsplit=1)[0]
    return path not in pages and path != ""


def relocated(page: str, pages: set[str]) -> str:
    """A page of the root, moved one folder down: its links to shared files go up a folder."""

    def fix(match: re.Match) -> str:
        target = match.group(2)
        if _shared(html.unescape(target), pages):
            target = "../" + target
        return match.group(1) + target + match.group(3)

    return LINK.sub(fix, page)


def address(name: str, seen_from: str, language: str, site_url: str | None = None) -> str:
    """Page `name` in `language`, as a link from a page in `seen_from`'s folder, or as an
    absolute URL under `site_url` (the site's root, ending in a slash) when it is given."""
    own = name if language == SOURCE_LANGUAGE else f"{language}/{name}"
    if site_url:
        return site_url + own
    return own if seen_from == SOURCE_LANGUAGE else f"../{own}"


def site_address(url: str) -> str:
    """`url` as the site's root for absolute links: http(s), a host, no query or fragment, and
    ending in a slash (added if missing), so that a page's address is the root and its name."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc or parts.query or parts.fragment:
        raise BuildError(
            f"--site-url {url!r} is not the address of the site's root: give an absolute http(s) "
            "URL without a query or fragment, such as https://example.org/lab/"
        )
    return url if url.endswith("/") else url + "/"


def alternates(name: str, language: str, site_url: str | None = None) -> str:
    """The <link rel="alternate"> lines of page `name` seen from `language`'s folder, and, with
    `site_url`, absolute and followed by the page's <link rel="canonical">: itself, in its own
    language (a translation is a page of its own, not a copy of the English one)."""
    lines = [
        f'  <link rel="alternate" hreflang="{language_tag(other)}" '
        f'href="{_attribute(address(name, language, other, site_url))}">\n'
        for other in LANGUAGES
    ]
    default = _attribute(address(name, language, SOURCE_LANGUAGE, site_url))
    lines.append(f'  <link rel="alternate" hreflang="x-default" href="{default}">\n')
    if site_url:
        own = _attribute(address(name, language, language, site_url))
        lines.append(f'  <link rel="canonical" href="{own}">\n')
    return "".join(lines)


def _attribute(value: str) -> str:
    return html.escape(value, quote=True)


def language_menu(name: str, language: str) -> str:
    items = []
    for other, own_name in LANGUAGES.items():
        tag = language_tag(other)
        own = f'lang="{tag}" translate="no"'  # each language's name in its own language
        if other == language:
            items.append(f'<li><span aria-current="page" {own}>{own_name}</span></li>')
            continue
        href = address(name, language, other)
        items.append(f'<li><a href="{href}" hreflang="{tag}" {own}>{own_name}</a></li>')
    return f'  <nav class="language-menu" aria-label="Language"><ul>{"".join(items)}</ul></nav>\n'


def with_languages(
    name: str, page: str, language: str = SOURCE_LANGUAGE, site_url: str | None = None
) -> str:
    """`page` with its alternates in <head> (absolute, with its canonical link, under
    `site_url`) and the language menu first in <body> (after the skip link, which stays the first
    thing a keyboard reaches)."""
    page = page.replace(HEAD_END, alternates(name, language, site_url) + HEAD_END, 1)
    menu = language_menu(name, language)
    if SKIP_LINK.search(page):
        return SKIP_LINK.sub(lambda m: m.group(1) + menu, page, count=1)
    return BODY.sub(lambda m: m.group(1) + menu, page, count=1)


def _script_json(value: dict) -> str:
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
    return text.replace("</", "<\\/")


def translated_keys(keys: dict[str, dict], translator: Translator) -> dict[str, dict]:
    """The quiz's keys with their explanations in the translator's language."""
    out = {}
    for name, key in keys.items():
        key = dict(key)
        translator.where = f"app/quiz-keys.json#{name}"
        if key.get("explain"):
            key["explain"] = translate_fragment(key["explain"], translator, translator.where)
        if key.get("why"):
            key["why"] = {
                option: (translator.look_up(" ".join(why.split())) or why) if why else why
                for option, why in key["why"].items()
            }
        out[name] = key
    return out


def language_sites(
    pages: dict[str, str],
    keys: dict[str, dict],
    languages=TRANSLATED,
    site_url: str | None = None,
) -> tuple[dict[str, str], dict[str, dict[str, dict]], dict[str, tuple[int, int]]]:
    """Every page in each language ({"zh/index.html": text}), the quiz's keys per language, and
    each language's coverage (translated, all messages). `site_url`, the site's address if it
    is known, makes the hreflang links absolute and adds each page's canonical link."""
    names = set(pages) | {NOTEBOOK}  # the notebook is written per language too
    out: dict[str, str] = {}
    language_keys: dict[str, dict[str, dict]] = {}
    report: dict[str, tuple[int, int]] = {}
    js_messages = set(javascript_messages())
    for language in languages:
        catalog = translations(language)
        if differing := disagreements(catalog):  # tests/build/test_translations.py fails on it
            log(disagreement_report(language, differing))
        translator = Translator(catalog, language)
        js = {m: catalog[m] for m in js_messages if m in catalog}  # what app/i18n.js reads
        script = (f'  <script type="application/json" id="{MESSAGES_ID}">'
                  f"{_script_json(js)}</script>\n")
        for name, page in pages.items():
            page = relocated(page, names)
            if name != EMBED:
                page = with_languages(name, page, language, site_url)
            text = translate_page(page, translator, name)
            # before the page's first script, so that the catalog is there before any code runs
            head = text.index(HEAD_END)
            first = text.find("  <script", 0, head)
            at = first if first >= 0 else head
            out[f"{language}/{name}"] = text[:at] + script + text[at:]
        language_keys[language] = translated_keys(keys, translator)
        translator.where = NOTEBOOK
        out[f"{language}/{NOTEBOOK}"] = notebook_text(
            translator, up="../", site_url=site_url, folder=f"{language}/"
        )
        met = set(translator.met) | js_messages
        missing = translator.missing | {m for m in js_messages if m not in catalog}
        report[language] = (len(met) - len(missing), len(met))
        done, total = report[language]
        log(f"{LANGUAGES[language]} ({language}): {done} of {total} messages translated "
            f"({100 * done / max(total, 1):.1f}%)")
    return out, language_keys, report


def extract(pages: dict[str, str], keys: dict[str, dict]) -> dict[str, tuple[set[str], list[str]]]:
    """Every message of the English site: its pages, the quiz's keys, app/'s strings."""
    translator = Translator(None, SOURCE_LANGUAGE)
    for name, page in pages.items():
        translate_page(page if name == EMBED else with_languages(name, page), translator, name)
    translated_keys(keys, translator)
    translator.where = NOTEBOOK
    notebook_text(translator)
    found = dict(translator.met)
    for message, (places, notes) in javascript_messages().items():
        known = found.setdefault(message, (set(), []))
        known[0].update(places)
        known[1].extend(n for n in notes if n not in known[1])
    return found


def english_site() -> tuple[dict[str, str], dict[str, dict]]:
    """The English pages as the build makes them, and the quiz's keys."""
    from tools.lesson import assemble_with_keys
    from tools.project import SITE_FILES
    from tools.teacher_kit import kit_pages

    pages, keys = assemble_with_keys()
    pages.update(kit_pages())
    for name in SITE_FILES:
        pages[name] = (ROOT / name).read_text(encoding="utf-8")
    return pages, keys


def update() -> None:
    """`build.py translations`: locale/messages.pot from the English site, each catalog updated."""
    pages, keys = english_site()
    found = extract(pages, keys)
    words = sum(len(m.split()) for m in found)
    written = update_catalogs(found)
    log(f"locale/messages.pot: {len(found)} messages, {words} words; updated "
        + ", ".join(written.values()))
