"""The lesson in other languages: gettext catalogs (locale/*.po) and the pages made from them.

A message is one run of text of a built English page: a paragraph, a heading, a list item, a
caption, a question, an option, a button's label; or a translatable attribute (aria-label, alt,
title, a page's description); or an explanation from the quiz's keys; or a string the JavaScript
shows (`t("...")` in app/, extracted by Babel's JavaScript extractor).

Inside a run, inline markup is a placeholder, so a translator moves it but cannot change it:
- `<N>...</N>` stands for an element whose words are translated (a link, <strong>, <em>, a
  <span>): the tag and its attributes (a link's href) are the English page's, always;
- `{N}` stands for an element kept whole: code, a variable (<var>), a formula (<math>), a
  superscript, a slider's value, an input, a line break.
A translation must hold exactly the placeholders of its message, properly nested, every number of
the English, and no markup of its own (a catalog is untrusted text: its text is escaped when a
page is written). `check_catalog` says what breaks these rules; the build refuses a catalog that
breaks one, and `build.py test` fails on it.

A message the catalog does not translate (yet) stays in English, in an element marked
`lang="en"` so that a screen reader switches voice. The build reports each language's coverage.

    python3 build.py translations   extract the messages from the built pages into
                                    locale/messages.pot and update every locale/LANG.po from it
                                    (new messages empty, changed ones fuzzy, Babel's matching)
"""

from __future__ import annotations

import html
import io
import re
import sys
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

from tools.project import CACHE, ROOT, BuildError, run

LOCALE = ROOT / "locale"
TEMPLATE = LOCALE / "messages.pot"
# Reads and writes the PO files (ensure_babel); the same pin is in requirements-dev.txt.
BABEL = "babel==2.19.0"
# The translations the site ships, with their names in their own language (the language menu).
LANGUAGES = {"en": "English", "zh": "中文", "es": "Español"}
TRANSLATED = ("zh", "es")
SOURCE_LANGUAGE = "en"

# Elements that are part of a run of text. Paired ones have their words translated; whole ones
# are kept as they are (their attributes may still be translated).
PAIRED = {
    "a", "abbr", "b", "bdi", "cite", "dfn", "em", "i", "mark", "q", "s", "small", "span",
    "strong", "time", "u", "tspan",
}
WHOLE = {
    "code", "var", "math", "kbd", "samp", "sup", "sub", "output", "input", "img", "br", "wbr",
    "textarea", "select",
}
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
        "track", "wbr"}
# Elements whose content is never text to translate (code, data, styles).
UNTOUCHED = {"script", "style", "pre", "template"}
# Elements whose content is text only: a translation is written into them without markup.
TEXT_ONLY = {"title", "option"}
ATTRIBUTES = ("aria-label", "aria-description", "aria-roledescription", "alt", "title",
              "placeholder", "data-title", "data-label", "data-open-label", "data-close-label")
LETTER = re.compile(r"[^\W\d_]")
# <N>, </N>, {N}; and {name}, a value a sentence of the build or of app/ puts in
MARKER = re.compile(r"</?(\d+)>|\{(\d+|[A-Za-z_]\w*)\}")
# Markup a translation may not bring: anything that looks like a tag, a comment or an entity.
FOREIGN = re.compile(r"<\s*[A-Za-z/!?]|&[#\w]+;")
NUMBER = re.compile(r"\d+(?:\.\d+)?")
GROUPING = re.compile(r"(?<=\d)[,\u00a0\u202f\u2009 ](?=\d{3}(?!\d))")
SPACE = re.compile(r"\s+")


def numbers(text: str) -> list[str]:
    """The numbers a text writes, in order of size, thousands separators aside."""
    return sorted(NUMBER.findall(GROUPING.sub("", MARKER.sub(" ", text))))


# ---- the built pages as a tree ----------------------------------------------------------


@dataclass
class Node:
    tag: str | None  # None: text (raw HTML, entities as written) or a comment/declaration
    raw: str = ""  # a start tag as written, or the text
    attrs: dict[str, str | None] = field(default_factory=dict)
    children: list[Node] = field(default_factory=list)
    closed: bool = False  # has an end tag

    def text(self) -> str:
        if self.tag is None:
            return html.unescape(self.raw) if not self.raw.startswith("<") else ""
        return "".join(child.text() for child in self.children)


class _Tree(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=False)
        self.root = Node("#root")
        self.stack = [self.root]

    def handle_starttag(self, tag, attrs):
        node = Node(tag, self.get_starttag_text() or "", dict(attrs))
        self.stack[-1].children.append(node)
        if tag not in VOID:
            self.stack.append(node)

    def handle_startendtag(self, tag, attrs):
        self.stack[-1].children.append(Node(tag, self.get_starttag_text() or "", dict(attrs)))

    def handle_endtag(self, tag):
        for depth in range(len(self.stack) - 1, 0, -1):
            if self.stack[depth].tag == tag:
                for node in self.stack[depth:]:
                    node.closed = node is self.stack[depth]
                del self.stack[depth:]
                return
        # a stray end tag: kept as text
        self.stack[-1].children.append(Node(None, f"</{tag}>"))

    def handle_data(self, data):
        self.stack[-1].children.append(Node(None, data))

    def handle_entityref(self, name):
        self.stack[-1].children.append(Node(None, f"&{name};"))

    def handle_charref(self, name):
        self.stack[-1].children.append(Node(None, f"&#{name};"))

    def handle_comment(self, data):
        self.stack[-1].children.append(Node(None, f"<!--{data}-->"))

    def handle_decl(self, decl):
        self.stack[-1].children.append(Node(None, f"<!{decl}>"))

    def handle_pi(self, data):
        self.stack[-1].children.append(Node(None, f"<?{data}>"))


def parse(page: str) -> Node:
    tree = _Tree()
    tree.feed(page)
    tree.close()
    return tree.root


def _inline(node: Node) -> bool:
    if node.tag is None:
        return True
    if node.attrs.get("translate") == "no":
        return node.tag in PAIRED | WHOLE
    if node.tag in WHOLE:
        return True
    return node.tag in PAIRED and all(_inline(child) for child in node.children)


def _is_comment(node: Node) -> bool:
    return node.tag is None and node.raw.startswith("<")


# ---- messages and their placeholders ------------------------------------------------------


@dataclass
class Run:
    """One run of text: its message, and what each placeholder stands for."""

    message: str
    opening: dict[int, Node]  # <N>: the element whose words are inside
    whole: dict[int, Node]  # {N}: the element kept whole


def _run(nodes: list[Node]) -> Run:
    parts: list[str] = []
    opening: dict[int, Node] = {}
    whole: dict[int, Node] = {}

    def walk(node: Node) -> None:
        if node.tag is None:
            if not _is_comment(node):
                parts.append(html.unescape(node.raw))
            return
        number = len(opening) + len(whole) + 1
        # an element of numbers only (a question's number, a step) is kept whole too, so that
        # the same words numbered differently are one message
        if (node.tag in WHOLE or node.attrs.get("translate") == "no"
                or not LETTER.search(node.text())):
            whole[number] = node
            parts.append(f"{{{number}}}")
            return
        opening[number] = node
        parts.append(f"<{number}>")
        for child in node.children:
            walk(child)
        parts.append(f"</{number}>")

    for node in nodes:
        walk(node)
    message = SPACE.sub(" ", "".join(parts)).strip()
    return Run(message, opening, whole)


def _worth_translating(message: str) -> bool:
    return bool(LETTER.search(MARKER.sub("", message)))


def placeholder_notes(run: Run) -> list[str]:
    """What each placeholder stands for, for the translator (the PO file's extracted comments)."""
    notes = []
    for number, node in sorted({**run.opening, **run.whole}.items()):
        if number in run.whole:
            shown = _render(node, None)
            shown = SPACE.sub(" ", shown)
            notes.append(f"{{{number}}} = {shown[:80]}{'…' if len(shown) > 80 else ''}")
        else:
            notes.append(f"<{number}> = {node.raw[:80]}")
    return notes


# ---- translating a page ------------------------------------------------------------------


class Translator:
    """Looks up messages; records what it met (for extraction) and what it could not
    translate."""

    def __init__(self, catalog: dict[str, str] | None, language: str):
        self.catalog = catalog  # None: extraction only, the English is kept
        self.language = language
        self.met: dict[str, tuple[set[str], list[str]]] = {}  # message: (where, notes)
        self.missing: set[str] = set()
        self.where = ""
        self.parent_class: str | None = None  # "cell-source" inside a code cell's source

    def look_up(self, message: str, notes: list[str] = ()) -> str | None:
        places, _ = self.met.setdefault(message, (set(), list(notes)))
        places.add(self.where)
        if self.catalog is None:
            return None
        translated = self.catalog.get(message)
        if not translated:
            self.missing.add(message)
            return None
        return translated


def _attribute_html(value: str) -> str:
    return html.escape(value, quote=True)


def _start_tag(node: Node, translator: Translator | None) -> str:
    raw = node.raw
    if translator is None:
        return raw
    names = list(ATTRIBUTES)
    if node.tag == "meta" and node.attrs.get("name") in ("description", "og:description"):
        names.append("content")
    for name in names:
        value = node.attrs.get(name)
        if not value or not _worth_translating(value) or node.attrs.get("translate") == "no":
            continue
        translated = translator.look_up(SPACE.sub(" ", value).strip())
        if translated is None:
            continue
        pattern = re.compile(rf'(\s{re.escape(name)}=)("[^"]*"|\'[^\']*\'|[^\s>]+)')
        value_html = '"' + _attribute_html(translated) + '"'
        raw = pattern.sub(lambda m, v=value_html: m.group(1) + v, raw, 1)
    if node.tag == "html" and translator.catalog is not None:
        raw = re.sub(r'\slang="[^"]*"', f' lang="{translator.language}"', raw, count=1)
    return raw


def _end_tag(node: Node) -> str:
    return f"</{node.tag}>" if node.closed else ""


def _render(node: Node, translator: Translator | None) -> str:
    """A node as HTML, its attributes translated, its text not (for elements kept whole)."""
    if node.tag is None:
        return node.raw
    if node.tag == "#root":
        return "".join(_render(child, translator) for child in node.children)
    inner = "".join(_render(child, translator) for child in node.children)
    return _start_tag(node, translator) + inner + _end_tag(node)


def _translated_run(run: Run, nodes: list[Node], translated: str | None,
                    translator: Translator, text_only: bool) -> str:
    original = "".join(_render(node, translator) for node in nodes)
    lead = re.match(r"\s*", original).group(0)
    trail = original[len(original.rstrip()):]
    if translated is None:
        if translator.catalog is None or text_only:
            return original
        return f'{lead}<span lang="en">{original.strip()}</span>{trail}'
    out: list[str] = []
    position = 0
    for match in MARKER.finditer(translated):
        out.append(html.escape(translated[position:match.start()], quote=False))
        position = match.end()
        if match.group(2):
            out.append(_render(run.whole[int(match.group(2))], translator))
        elif match.group(0).startswith("</"):
            out.append(_end_tag(run.opening[int(match.group(1))]))
        else:
            out.append(_start_tag(run.opening[int(match.group(1))], translator))
    out.append(html.escape(translated[position:], quote=False))
    return lead + "".join(out) + trail


COMMENT_LINE = re.compile(r"^( *)# ?(.*)$")
TRAILING_COMMENT = re.compile(r"^(.*?\S.*?)(  +# ?)(.*)$")
CODE_WIDTH = 88  # columns a comment is wrapped to (a CJK character takes two)


def _columns(text: str) -> int:
    return sum(2 if "\u2e80" <= ch <= "\uffef" else 1 for ch in text)


def _wrapped(words: str, indent: str) -> list[str]:
    """A translated comment as lines of at most CODE_WIDTH columns (broken at spaces, or between
    any two CJK characters)."""
    lines: list[str] = []
    line = ""
    for piece in re.findall(r"[\u2e80-\uffef]|\S+\s*|\s+", words):
        if line and _columns(indent + "# " + line + piece.rstrip()) > CODE_WIDTH:
            lines.append(line.rstrip())
            line = piece.lstrip()
        else:
            line += piece
    if line.strip():
        lines.append(line.rstrip())
    return [f"{indent}# {text}" for text in lines]


def translate_comments(code: str, translator: Translator) -> str:
    """Python source with its comments translated, its code unchanged: a block of whole-line
    comments is one message; a comment after code on its line is one too."""
    lines = code.split("\n")
    out: list[str] = []
    index = 0
    while index < len(lines):
        match = COMMENT_LINE.match(lines[index])
        if match:
            indent, block = match.group(1), []
            while index < len(lines) and (m := COMMENT_LINE.match(lines[index])) \
                    and m.group(1) == indent and m.group(2):
                block.append(m.group(2))
                index += 1
            if not block:  # a bare "#"
                out.append(lines[index])
                index += 1
                continue
            message = " ".join(block)
            translated = translator.look_up(message) if _worth_translating(message) else None
            out.extend(_wrapped(translated, indent) if translated else
                       [f"{indent}# {text}" for text in block])
            continue
        trailing = TRAILING_COMMENT.match(lines[index])
        if trailing and trailing.group(1).count("\"") % 2 == 0 \
                and trailing.group(1).count("'") % 2 == 0 and _worth_translating(trailing.group(3)):
            translated = translator.look_up(trailing.group(3))
            if translated:
                out.append(trailing.group(1) + trailing.group(2) + translated)
                index += 1
                continue
        out.append(lines[index])
        index += 1
    return "\n".join(out)


def _translate_children(node: Node, translator: Translator) -> str:
    if node.tag == "code" and "cell-source" in (translator.parent_class or ""):
        source = html.unescape("".join(child.raw for child in node.children))
        return html.escape(translate_comments(source, translator), quote=False)
    if node.tag == "pre" and "cell-source" in (node.attrs.get("class") or ""):
        translator.parent_class = "cell-source"
        try:
            return "".join(_translate(child, translator) for child in node.children)
        finally:
            translator.parent_class = None
    if node.tag in UNTOUCHED:
        return "".join(_render(child, None) for child in node.children)
    text_only = node.tag in TEXT_ONLY
    out: list[str] = []
    pending: list[Node] = []

    def flush() -> None:
        if not pending:
            return
        run = _run(pending)
        if _worth_translating(run.message):
            translated = translator.look_up(run.message, placeholder_notes(run))
            out.append(_translated_run(run, pending, translated, translator, text_only))
        else:
            out.append("".join(_render(child, translator) for child in pending))
        pending.clear()

    for child in node.children:
        if _inline(child) and not (pending == [] and _is_comment(child)):
            pending.append(child)
        else:
            flush()
            out.append(_translate(child, translator))
    flush()
    return "".join(out)


def _translate(node: Node, translator: Translator) -> str:
    if node.tag is None:
        return node.raw
    inner = _translate_children(node, translator)
    if node.tag == "#root":
        return inner
    return _start_tag(node, translator) + inner + _end_tag(node)


def translate_page(page: str, translator: Translator, where: str = "") -> str:
    translator.where = where
    return _translate(parse(page), translator)


def translate_fragment(fragment: str, translator: Translator, where: str = "") -> str:
    """A piece of HTML, such as a question's explanation in the quiz's keys."""
    return translate_page(fragment, translator, where)


# ---- checking a translation --------------------------------------------------------------


def problems(message: str, translated: str) -> list[str]:
    """What is wrong with a translation of `message`: placeholders lost, added or misnested,
    numbers changed, markup of its own."""
    found: list[str] = []
    if FOREIGN.search(MARKER.sub("", translated)):
        found.append("it has markup of its own (tags and entities are not allowed: write text)")
    wanted = sorted(m.group(0) for m in MARKER.finditer(message))
    have = sorted(m.group(0) for m in MARKER.finditer(translated))
    if wanted != have:
        lost = sorted(set(wanted) - set(have))
        extra = sorted(set(have) - set(wanted))
        found.append(
            "its placeholders differ from the English"
            + (f": missing {' '.join(lost)}" if lost else "")
            + (f": not in the English {' '.join(extra)}" if extra else "")
            + (": one is repeated" if not lost and not extra else "")
        )
    else:
        stack: list[str] = []
        for match in MARKER.finditer(translated):
            if match.group(2):
                continue
            if match.group(0).startswith("</"):
                if not stack or stack.pop() != match.group(1):
                    found.append(f"{match.group(0)} closes what it did not open")
                    break
            else:
                stack.append(match.group(1))
    if numbers(message) != numbers(translated):
        found.append(
            f"its numbers differ from the English ({' '.join(numbers(message)) or 'none'} "
            f"in the English, {' '.join(numbers(translated)) or 'none'} here)"
        )
    return found


# ---- the catalogs ------------------------------------------------------------------------


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
PAGE_WORDED_PYTHON = ("py/pelab/diagnoses.py", "py/pelab/exercises.py")


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
