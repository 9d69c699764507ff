"""The lesson as SCORM 1.2 packages that an LMS (Moodle, Canvas, Open edX, ...) plays as an
activity and grades by the quiz, made from the built dist/ by `build.py packages`
(tools/packages.py) into packages/scorm/, never into dist/: a hosted site offers them for
download once that folder is copied in as its scorm/ (docs/hosting.md).

- `positional-encoding-lab.zip`: the whole course, one SCO opening at its entrance (index.html);
  the learner walks through its chapter pages to the quiz's.
- `positional-encoding-lab-LANG.zip`, `positional-encoding-lab-LANG-chapter-N-NAME.zip`,
  `positional-encoding-lab-LANG-NAME.zip`: the same in a translation (zh, es), opening at that
  language's pages (LANG/index.html, LANG/NAME.html, LANG/embed.html). Every package holds every
  language's pages, so a learner can switch language inside any of them.
- `positional-encoding-lab-chapter-N-NAME.zip`: one per chapter, opening at that chapter's page
  (NAME.html) and graded by the questions that page holds. A chapter whose page holds no quiz is
  reported "completed" once the learner reaches its end (app/lms/chapter-to-lms.js), so an LMS
  can still track it.
- `positional-encoding-lab-NAME.zip`: one per demo with a graded part (a section of the lesson
  holding quiz questions): that demo alone (embed.html?demo=NAME). A demo that needs no Python
  (the quiz; embed.html's start-python.js tag lists them) gets a package without Python's files
  (dist/pyodide/ and dist/py/: 0.3 MB, not 21), opened with `&lesson=none`, which hides the
  embed's link to the full lesson: the package holds no lesson that could run.
- `positional-encoding-lab-thin.zip` (`build.py packages --scorm-site URL`): a few KB that frames
  the lesson hosted at URL and relays its quiz score (app/lms/relay.js).

Every package is launched at its own `launch.html`, the SCO, which needs no query string: its
script (app/lms/launch.js) starts the LMS's session at once and shows, in a frame that fills it,
the page with what that page needs (`?lms=scorm12`, which tells the page an LMS launched it:
app/lms/scorm.js LAUNCH_PARAMETER; the demo's name; `sco=NAME` for a chapter). The manifest's
item still carries the same as `parameters`, which an LMS appends to the launch URL, but an LMS
that drops them loses nothing. launch.html stays loaded while the learner walks from page to page
inside the package, holding the one session SCORM 1.2 allows per launch, and offers each page a
session of its own (app/lms/package-session.js); it ends the LMS's session when the LMS unloads
it. Opened as a plain page (no launch.html), the lesson is the normal lesson.

The item also carries the grading a teacher chooses (`build.py packages --mastery PERCENT
--attempts N`): the pass mark in `adlcp:masteryscore`, which the LMS hands the page as
`cmi.student_data.mastery_score`, and `adlcp:datafromlms` "attempts=N" (0: no limit), which it
hands over as `cmi.launch_data`. Both can also be changed after the build, by editing
imsmanifest.xml in the zip (docs/hosting.md).

A full package holds every file of dist/ as the build left it, never a list written here: so
it is self-contained and works offline under whatever path the LMS serves it from (the site
uses relative URLs only). Left out: the .br/.gz siblings (an LMS serves each file as it is, so
they would only add weight), the service worker (its scope would be the LMS's folder for this
upload, a path the LMS chooses and may change per upload; the lesson runs without it), the
teachers' answer key (answer-key.html: a learner could open it by name during a graded attempt),
and dist/scorm/ (the site's list of packages, tools/packages.py).

The zip's files are deflated once and shared by every package that holds the same ones; each
zip keeps a key of what it was made from in its comment, so a rebuild with nothing changed
writes nothing.
"""

from __future__ import annotations

import hashlib
import html
import re
import shutil
import zipfile
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urlsplit
from xml.sax.saxutils import quoteattr

from tools.custom_lesson import CUSTOM_PAGE
from tools.i18n import LANGUAGES, SOURCE_LANGUAGE, TRANSLATED
from tools.project import BuildError

FOLDER = "scorm"  # the site's folder for its packages: dist/ holds only their list there
NAME = "positional-encoding-lab"
TITLE = "Positional Encoding Lab"
# The pass mark in percent, in the manifest's adlcp:masteryscore; app/lms/scorm.js
# (DEFAULT_MASTERY_SCORE) uses the same when an LMS gives none, and a test ties the two.
MASTERY_SCORE = 80
# How many graded attempts a learner gets, in adlcp:datafromlms as "attempts=N": 0, no limit.
ATTEMPTS = 0
LAUNCH_PARAMETERS = "?lms=scorm12"  # app/lms/scorm.js: LAUNCH_PARAMETER
LAUNCH_PAGE = "launch.html"  # in every package: opens its page with what that page needs
LAUNCH_SCRIPT = "app/lms/launch.js"
LAUNCH_STYLE = "app/lms/launch.css"
CHAPTER_PARAMETER = "sco"  # app/lms/chapter-to-lms.js: the chapter a chapter package is
# A test form of a page (tools/lesson.py: test_form): its name is what `?test=` launches.
TEST_FORM = re.compile(r'<form class="quiz" data-quiz="test" data-test="([\w-]+)"')
SKIPPED_SUFFIXES = (".br", ".gz")
# The answer key (tools/teacher_kit.py) too: a learner in a graded attempt could open it by name.
SKIPPED_FILES = (
    "service-worker.js",
    "answer-key.html",
    *(f"{language}/answer-key.html" for language in TRANSLATED),  # each language's answer key
)
THIN_FILES = ("app/lms/relay.js", "app/lms/relay.css", "app/lms/scorm.js")
# What a package of a demo without Python leaves out: Pyodide, its wheels, pelab and its bytecode.
PYTHON_FOLDERS = ("pyodide", "py")
WITHOUT_LESSON = "&lesson=none"  # app/pages/embed.js hides the link to the full lesson


class _WithoutPython(HTMLParser):
    """The demos a page's start-python.js tag lists as needing no Python (data-without-python)."""

    def __init__(self):
        super().__init__()
        self.demos: list[str] = []

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        if tag == "script" and (attributes.get("src") or "").endswith("start-python.js"):
            self.demos += (attributes.get("data-without-python") or "").split()


def demos_without_python(embed_html: str) -> list[str]:
    parser = _WithoutPython()
    parser.feed(embed_html)
    return parser.demos


class _GradedSections(HTMLParser):
    """The ids of the lesson's demo sections that hold a test (`<form class="quiz"
    data-quiz="test">`, tools/lesson.py), in the course's order. A section's check, after it,
    and a chapter's end test, in a section of its own, make no demo graded."""

    def __init__(self):
        super().__init__()
        self.section: str | None = None
        self.graded: list[str] = []

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        classes = (attributes.get("class") or "").split()
        if tag == "section":
            self.section = attributes.get("id") if "demo" in classes else None
        elif (
            tag == "form"
            and attributes.get("data-quiz") == "test"
            and self.section
            and self.section not in self.graded
        ):
            self.graded.append(self.section)

    def handle_endtag(self, tag):
        if tag == "section":
            self.section = None


def lesson_pages(dist: Path) -> list[Path]:
    """The pages of the lesson in dist/, in order: the chapter pages the entrance lists (each
    chapter card is `<li class="chapter" data-chapter="NAME">`, its page NAME.html), or the
    entrance itself when it lists none."""
    entrance = dist / "index.html"
    names = re.findall(r'<li class="chapter" data-chapter="([\w-]+)"', entrance.read_text("utf-8"))
    return [dist / f"{name}.html" for name in names] or [entrance]


def graded_demos(lesson_html: str) -> list[str]:
    parser = _GradedSections()
    parser.feed(lesson_html)
    return parser.graded


@dataclass(frozen=True)
class Grading:
    """What a teacher chooses for a package: the pass mark in percent and the graded attempts a
    learner gets (0: no limit)."""

    mastery: int = MASTERY_SCORE
    attempts: int = ATTEMPTS

    @property
    def launch_data(self) -> str:
        """adlcp:datafromlms, which the LMS hands the page as cmi.launch_data."""
        return f"attempts={self.attempts}"


def grading(mastery: int | str | None = None, attempts: int | str | None = None) -> Grading:
    """The grading asked for on the command line, checked: a BuildError that says what is wanted
    for a pass mark outside 0 to 100, or attempts that are no whole number from 0."""

    def whole(value, option: str, top: int | None, wanted: str) -> int:
        text = str(value).strip()
        if not re.fullmatch(r"\d{1,6}", text) or (top is not None and int(text) > top):
            raise BuildError(f"{option} wants {wanted}; got {value!r}")
        return int(text)

    return Grading(
        MASTERY_SCORE
        if mastery is None
        else whole(mastery, "--mastery", 100, "the pass mark in percent, a whole number 0 to 100"),
        ATTEMPTS
        if attempts is None
        else whole(attempts, "--attempts", None, "a whole number of attempts (0: no limit)"),
    )


def manifest(
    identifier: str,
    title: str,
    launch: str,
    parameters: str,
    files: list[str],
    grade: Grading = Grading(),
) -> str:
    """imsmanifest.xml for one SCO: SCORM 1.2 (IMS Content Packaging 1.1.2 with ADL's adlcp)."""
    listed = "\n".join(f"      <file href={quoteattr(name)}/>" for name in files)
    launch_parameters = f" parameters={quoteattr(parameters)}" if parameters else ""
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<!-- Generated by build.py (tools/scorm.py): do not edit. -->
<manifest identifier={quoteattr(identifier)} version="1.0"
    xmlns="http://www.imsproject.org/xsd/imscp_rootv1p1p2"
    xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_rootv1p2"
    xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
    xsi:schemaLocation="http://www.imsproject.org/xsd/imscp_rootv1p1p2 imscp_rootv1p1p2.xsd http://www.imsglobal.org/xsd/imsmd_rootv1p2p1 imsmd_rootv1p2p1.xsd http://www.adlnet.org/xsd/adlcp_rootv1p2 adlcp_rootv1p2.xsd">
  <metadata>
    <schema>ADL SCORM</schema>
    <schemaversion>1.2</schemaversion>
  </metadata>
  <organizations default="{identifier}-organization">
    <organization identifier="{identifier}-organization">
      <title>{html.escape(title)}</title>
      <item identifier="{identifier}-item" identifierref="{identifier}-sco" isvisible="true"{launch_parameters}>
        <title>{html.escape(title)}</title>
        <adlcp:datafromlms>{html.escape(grade.launch_data)}</adlcp:datafromlms>
        <adlcp:masteryscore>{grade.mastery}</adlcp:masteryscore>
      </item>
    </organization>
  </organizations>
  <resources>
    <resource identifier="{identifier}-sco" type="webcontent" adlcp:scormtype="sco" href={quoteattr(launch)}>
{listed}
    </resource>
  </resources>
</manifest>
"""  # noqa: E501 (the manifest's and the page's own long lines)


def package_files(dist: Path) -> list[str]:
    """Every file of dist/ a full package holds, as paths relative to dist/."""
    names = []
    for path in sorted(dist.rglob("*")):
        name = path.relative_to(dist).as_posix()
        if not path.is_file() or name.split("/")[0] == FOLDER:
            continue
        if path.suffix in SKIPPED_SUFFIXES or name in SKIPPED_FILES:
            continue
        names.append(name)
    return names


def _key(dist: Path, names: list[str], extra: str) -> bytes:
    """What a package is made from: each file's name, size and time, its manifest, this module."""
    digest = hashlib.sha256(Path(__file__).read_bytes() + extra.encode())
    for name in names:
        status = (dist / name).stat()
        digest.update(f"{name}\0{status.st_size}\0{status.st_mtime_ns}\n".encode())
    return digest.hexdigest().encode()


def _is_current(target: Path, key: bytes) -> bool:
    try:
        with zipfile.ZipFile(target) as existing:
            return existing.comment == key
    except (OSError, zipfile.BadZipFile):
        return False


def _write_zip(
    target: Path, source: Path | None, entries: dict[str, Path | str], key: bytes
) -> None:
    """target: a copy of the zip `source` (if any) with `entries` added (a file or text each)."""
    part = target.with_name(target.name + ".part")
    if source is None:
        part.unlink(missing_ok=True)
    else:
        shutil.copyfile(source, part)
    with zipfile.ZipFile(part, "a", zipfile.ZIP_DEFLATED) as archive:
        for name, content in entries.items():
            if isinstance(content, Path):
                archive.write(content, name)
            else:
                info = zipfile.ZipInfo(name, date_time=(2026, 1, 1, 0, 0, 0))
                info.compress_type = zipfile.ZIP_DEFLATED
                info.external_attr = 0o644 << 16
                archive.writestr(info, content)
        archive.comment = key
    part.replace(target)


@dataclass(frozen=True)
class Package:
    """One SCO: its zip's stem, its title, the page its launch.html opens with `query`, the
    files of dist/ it holds, its language (a key of LANGUAGES) and, for a chapter's package,
    the chapter's name."""

    stem: str
    title: str
    page: str
    query: str
    files: tuple[str, ...]
    language: str = SOURCE_LANGUAGE
    chapter: str | None = None


def generated_page(title: str, head: str, body: str) -> str:
    """A page the build writes into a package: the head every such page has, then `head` (its
    own lines of <head>) and `body` (the lines of <body>), each indented by two spaces."""
    return f"""<!doctype html>
<!-- Generated by build.py (tools/scorm.py): do not edit. -->
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
{head}  <title>{html.escape(title)}</title>
  <link rel="icon" href="data:,">
</head>
<body>
{body}</body>
</html>
"""


def launch_page(page: str, query: str, title: str = TITLE) -> str:
    """A package's launch.html, the SCO: app/lms/launch.js starts the LMS's session, opens
    `page`?`query` in the frame below and ends the session when the LMS unloads it (a script of
    the package's own, so the strict CSP holds); the link is there for a learner whose browser
    runs no script."""
    target, page, query = (html.escape(text) for text in (f"{page}?{query}", page, query))
    return generated_page(
        title,
        f'  <link rel="stylesheet" href="{LAUNCH_STYLE}">\n'
        f'  <script src="{LAUNCH_SCRIPT}" data-page="{page}" data-query="{query}" '
        'type="module"></script>\n',
        f'  <p class="package-opening">Opening the lesson… If it does not open, <a href="{target}">'
        "open it here</a>.</p>\n"
        f'  <iframe class="package-frame" title="{html.escape(title)}" hidden></iframe>\n',
    )


def chapter_titles(dist: Path, folder: str = "") -> dict[str, str]:
    """Each chapter page of dist/ (as lesson_pages lists them) with its title as plain text, its
    `<h1>` (as the language in `folder`, "zh/" say, has it); empty when the entrance lists no
    chapter."""
    titles = {}
    for page in lesson_pages(dist):
        if page.name == "index.html":
            return {}
        translated = dist / folder / page.name
        heading = re.search(r"<h1>(.*?)</h1>", translated.read_text(encoding="utf-8"), flags=re.S)
        text = re.sub(r"<[^>]*>", "", heading.group(1)) if heading else page.stem
        titles[page.stem] = " ".join(html.unescape(text).split())
    return titles


def packages_of(dist: Path) -> list[Package]:
    """The full packages dist/ makes: the whole course, a chapter each, a graded demo each."""
    names = tuple(package_files(dist))
    without_python = tuple(n for n in names if n.split("/")[0] not in PYTHON_FOLDERS)
    lms = LAUNCH_PARAMETERS[1:]
    lesson_html = "".join(p.read_text(encoding="utf-8") for p in lesson_pages(dist))
    no_python = demos_without_python((dist / "embed.html").read_text(encoding="utf-8"))
    packages = []
    # The English site's, then the same in each translation (tools/languages.py): its pages are
    # the same files in the language's folder, and its packages' names and titles say which.
    for language in ("", *TRANSLATED):
        if language and not (dist / language / "index.html").is_file():
            continue
        folder = f"{language}/" if language else ""
        stem = f"{NAME}-{language}" if language else NAME
        said = f" ({LANGUAGES[language]})" if language else ""
        code = language or SOURCE_LANGUAGE
        titles = chapter_titles(dist, folder)
        packages.append(
            Package(stem, f"{TITLE}{said}", f"{folder}index.html", lms, names, code)
        )
        for number, (chapter, title) in enumerate(titles.items(), start=1):
            # Graded by the test its page holds (app/lms/scorm.js: launchedTest), if any: its
            # end test, or on the review chapter the whole-lesson test.
            test = TEST_FORM.search((dist / f"{chapter}.html").read_text(encoding="utf-8"))
            graded_by = f"&test={test.group(1)}" if test else ""
            packages.append(
                Package(
                    f"{stem}-chapter-{number}-{chapter}",
                    f"{TITLE}{said}, {number}: {title}" if language
                    else f"{TITLE}, chapter {number}: {title}",
                    f"{folder}{chapter}.html",
                    f"{lms}&{CHAPTER_PARAMETER}={chapter}{graded_by}",
                    names,
                    code,
                    chapter,
                )
            )
        for demo in graded_demos(lesson_html):
            query = f"demo={demo}&{lms}"
            if demo in no_python:
                files, query = without_python, query + WITHOUT_LESSON
            else:
                files = names
            packages.append(
                Package(f"{stem}-{demo}", f"{TITLE}{said}: {demo}", f"{folder}embed.html", query,
                        files, code)
            )
    return packages


def chosen_packages(
    dist: Path, language: str | None = None, chapter: str | None = None
) -> list[Package]:
    """The full packages dist/ makes (packages_of), or only those in `language` (en, zh, es),
    and only `chapter`'s (its name, or its number from 1) when given; a BuildError that lists
    the choices for a language or a chapter the site does not have."""
    packages = packages_of(dist)
    if language is not None:
        languages = list(dict.fromkeys(package.language for package in packages))
        if language not in languages:
            raise BuildError(
                f"--language wants one of {', '.join(languages)}; got {language!r}"
            )
        packages = [package for package in packages if package.language == language]
    if chapter is not None:
        chapters = list(chapter_titles(dist))
        if chapter.isdigit() and 1 <= int(chapter) <= len(chapters):
            chapter = chapters[int(chapter) - 1]
        if chapter not in chapters:
            choices = ", ".join(f"{n} or {name}" for n, name in enumerate(chapters, start=1))
            raise BuildError(f"--chapter wants one of {choices}; got {chapter!r}")
        packages = [package for package in packages if package.chapter == chapter]
    return packages


def write_packages(
    dist: Path, out: Path, grade: Grading = Grading(), chosen: list[Package] | None = None
) -> list[Path]:
    """The full packages (or the `chosen` ones: chosen_packages), made from dist/ as it is, into
    `out` (packages/scorm/); returns their paths. Each holds its files of dist/, its launch.html
    and its manifest."""
    out.mkdir(parents=True, exist_ok=True)
    packages = {p.stem: p for p in (packages_of(dist) if chosen is None else chosen)}
    extras = {
        stem: {
            LAUNCH_PAGE: launch_page(package.page, package.query, package.title),
            "imsmanifest.xml": manifest(
                stem,
                package.title,
                LAUNCH_PAGE,
                f"?{package.query}",
                sorted([*package.files, LAUNCH_PAGE]),
                grade,
            ),
        }
        for stem, package in packages.items()
    }
    targets = {stem: out / f"{stem}.zip" for stem in packages}
    keys = {
        stem: _key(dist, list(packages[stem].files), "".join(extras[stem].values()))
        for stem in packages
    }
    stale = [stem for stem in packages if not _is_current(targets[stem], keys[stem])]
    # The site's files, deflated once per set of files, then copied into each package with its
    # own launch page and manifest.
    for files in {packages[stem].files for stem in stale}:
        body = out / ".files.zip.part"
        _write_zip(body, None, {name: dist / name for name in files}, b"")
        try:
            for stem in stale:
                if packages[stem].files == files:
                    _write_zip(targets[stem], body, extras[stem], keys[stem])
        finally:
            body.unlink(missing_ok=True)
    return list(targets.values())


def write_custom_package(
    dist: Path, out: Path, chosen: list[str], page: str, grade: Grading = Grading()
) -> Path:
    """`out`/positional-encoding-lab-custom-NAME-….zip: a lesson of just the sections `chosen`,
    its page `page` (tools/lesson.py, assemble_custom) as custom.html beside the built site's
    files, launched like a chapter package (`sco=custom`)."""
    stem = f"{NAME}-custom-{'-'.join(chosen)}"
    title = f"{TITLE}: selected sections ({', '.join(chosen)})"
    name = f"{CUSTOM_PAGE}.html"
    files = [*package_files(dist), name, LAUNCH_PAGE]
    query = f"{LAUNCH_PARAMETERS[1:]}&{CHAPTER_PARAMETER}={CUSTOM_PAGE}"
    extras = {
        name: page,
        LAUNCH_PAGE: launch_page(name, query, title),
        "imsmanifest.xml": manifest(stem, title, LAUNCH_PAGE, f"?{query}", sorted(files), grade),
    }
    out.mkdir(parents=True, exist_ok=True)
    target = out / f"{stem}.zip"
    key = _key(dist, files[:-2], "".join(extras.values()))
    if not _is_current(target, key):
        site = {n: dist / n for n in files[:-2]}
        _write_zip(target, None, {**site, **extras}, key)
    return target


def site_address(url: str) -> str:
    """The hosted lesson's folder URL, checked: http(s), a host, no query or fragment."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise BuildError(
            "--scorm-site wants the http(s) address of the hosted lesson, like "
            f"https://example.org/lab/; got {url!r}"
        )
    if parts.query or parts.fragment:
        raise BuildError(
            f"--scorm-site wants the lesson's folder, without ?query or #fragment; got {url!r}"
        )
    return url if url.endswith("/") else url + "/"


def thin_launch_page(site: str) -> str:
    lesson = site + "index.html"
    origin = "{0.scheme}://{0.netloc}".format(urlsplit(site))
    policy = f"default-src 'self'; frame-src {origin}; script-src 'self'; style-src 'self'"
    return generated_page(
        TITLE,
        f'  <meta http-equiv="Content-Security-Policy" content="{html.escape(policy)}">\n'
        '  <link rel="stylesheet" href="app/lms/relay.css">\n'
        '  <script type="module" src="app/lms/relay.js"></script>\n',
        '  <p class="relay-note" role="status" hidden></p>\n'
        f'  <iframe class="relay-frame" src="{html.escape(lesson)}" title="{TITLE}"></iframe>\n',
    )


def write_thin_package(dist: Path, url: str, out: Path, grade: Grading = Grading()) -> Path:
    """`out`/positional-encoding-lab-thin.zip, from dist/'s app/lms/: frames the lesson at `url`."""
    site = site_address(url)
    out.mkdir(parents=True, exist_ok=True)
    entries: dict[str, Path | str] = {LAUNCH_PAGE: thin_launch_page(site)}
    entries.update({name: dist / name for name in THIN_FILES})
    text = manifest(f"{NAME}-thin", TITLE, LAUNCH_PAGE, "", sorted(entries), grade)
    target = out / f"{NAME}-thin.zip"
    key = _key(dist, list(THIN_FILES), text + thin_launch_page(site))
    if not _is_current(target, key):
        _write_zip(target, None, {**entries, "imsmanifest.xml": text}, key)
    return target
