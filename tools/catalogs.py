"""The translation catalogs (locale/*.po): Babel kept at its pin, the catalogs read, checked
(tools/i18n.py's rules) and written as `build.py translations` writes them, each language's
translations for the build, and app/'s `t("...")` strings extracted. tools/i18n.py says what a
message is and how a page is translated."""

from __future__ import annotations

import io
import re
import sys
from pathlib import Path

from tools.i18n import BABEL, LOCALE, TEMPLATE, TRANSLATED, problems
from tools.project import CACHE, ROOT, BuildError, run


def ensure_babel() -> None:
    """Babel, in a virtual environment of its own under .cache/ (the build needs nothing else
    beyond the standard library), on sys.path; the tests' .venv has it from requirements-dev.txt."""
    try:
        import babel

        if babel.__version__ == BABEL.split("==")[1]:
            return
    except ImportError:
        pass
    venv = CACHE / "babel-venv"
    site = next(venv.glob("lib/python*/site-packages"), None)
    stamp = venv / "installed.txt"
    if site is None or not stamp.exists() or stamp.read_text() != BABEL:
        if not (venv / "bin" / "python").exists():
            run([sys.executable, "-m", "venv", str(venv)])
        run([str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet",
             "--disable-pip-version-check", BABEL])
        stamp.write_text(BABEL)
        site = next(venv.glob("lib/python*/site-packages"))
    if str(site) not in sys.path:
        sys.path.append(str(site))


def read_catalog(path: Path):
    ensure_babel()
    from babel.messages.pofile import read_po

    with path.open("rb") as file:
        return read_po(file)


def write_catalog(catalog, path: Path) -> None:
    ensure_babel()
    from babel.messages.pofile import write_po

    buffer = io.BytesIO()
    write_po(buffer, catalog, width=100, sort_output=False, include_previous=True)
    text = buffer.getvalue()
    # Unchanged but for the date Babel stamps on it: left as it is, so a run that changes nothing
    # leaves nothing to commit.
    if path.exists() and DATED.sub(b"", path.read_bytes()) == DATED.sub(b"", text):
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text)


DATED = re.compile(rb'^"(?:POT-Creation-Date|PO-Revision-Date): [^"]*"\n', flags=re.M)


def _place_order(place: str) -> tuple[str, int]:
    """ "app/x.js:82" before "app/x.js:102"."""
    name, _, line = place.rpartition(":")
    return (name, int(line)) if line.isdigit() else (place, 0)


def translations(language: str) -> dict[str, str]:
    """The language's catalog as {English: translation}, fuzzy entries left out (they stay in
    English until a translator confirms them), each translation checked."""
    path = LOCALE / f"{language}.po"
    if not path.exists():
        return {}
    catalog = read_catalog(path)
    found: dict[str, str] = {}
    broken: list[str] = []
    for message in catalog:
        if not message.id or message.fuzzy or not message.string:
            continue
        if wrong := problems(message.id, message.string):
            broken.append(f"  {message.id[:70]!r}: {'; '.join(wrong)}")
            continue
        found[message.id] = message.string
    if broken:
        raise BuildError(
            f"locale/{language}.po: {len(broken)} translations break the rules "
            f"(tools/i18n.py):\n" + "\n".join(broken[:30])
        )
    return found


# The Python modules whose sentences the page words: pelab's `said("…")` (py/pelab/diagnoses.py).
PAGE_WORDED_PYTHON = ("py/pelab/diagnoses.py", "py/pelab/exercise_report.py",
                      "py/pelab/exercises.py")


def javascript_messages() -> dict[str, tuple[set[str], list[str]]]:
    """The strings the page's scripts show, each worded by app/i18n.js: app/'s t("...") and
    said("...") (the worker's sentences), and the said("...") of PAGE_WORDED_PYTHON, which the
    page words from pelab's reports (Babel's extractors)."""
    ensure_babel()
    from babel.messages.extract import extract_from_file

    found: dict[str, tuple[set[str], list[str]]] = {}
    sources = [
        ("javascript", path) for path in sorted((ROOT / "app").rglob("*.js"))
        if "vendor" not in path.parts
    ] + [("python", ROOT / name) for name in PAGE_WORDED_PYTHON]
    for method, path in sources:
        relative = path.relative_to(ROOT).as_posix()
        keywords = {"said": None} if method == "python" else {"t": None, "said": None}
        options = {"parse_template_string": True} if method == "javascript" else {}
        for line, message, comments, _ in extract_from_file(
            method, path, keywords=keywords, comment_tags=("Translators:",), options=options,
        ):
            if isinstance(message, tuple):
                message = message[0]
            places, notes = found.setdefault(message, (set(), []))
            places.add(f"{relative}:{line}")
            notes.extend(c for c in comments if c not in notes)
    return found



def update_catalogs(found: dict[str, tuple[set[str], list[str]]]) -> dict[str, str]:
    """Write locale/messages.pot from `found` and update each locale/LANG.po from it."""
    ensure_babel()
    from babel.messages.catalog import Catalog

    template = Catalog(project="Positional Encoding Lab", version="1", charset="utf-8",
                       msgid_bugs_address="", copyright_holder="Positional Encoding Lab",
                       last_translator="", language_team="")
    for message, (places, notes) in found.items():
        ordered = sorted(places, key=_place_order)
        template.add(message, locations=[(place, None) for place in ordered][:6],
                     auto_comments=notes)
    write_catalog(template, TEMPLATE)
    report = {}
    for language in TRANSLATED:
        path = LOCALE / f"{language}.po"
        if path.exists():
            catalog = read_catalog(path)
        else:
            catalog = Catalog(locale=language, project="Positional Encoding Lab", version="1")
        catalog.update(template, update_header_comment=False)
        write_catalog(catalog, path)
        report[language] = path.relative_to(ROOT).as_posix()
    return report
