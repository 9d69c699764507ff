"""dist/scorm/: the lesson as SCORM 1.2 packages that an LMS (Moodle, Canvas, Open edX, ...)
plays as an activity and grades by the quiz.

- `positional-encoding-lab.zip`: the whole course, one SCO launched at its entrance (index.html);
  the learner walks through its chapter pages to the quiz's.
- `positional-encoding-lab-NAME.zip`: one per demo with a graded part (a section of the lesson
  holding quiz questions): that demo alone (embed.html?demo=NAME). A demo that needs no Python
  (the quiz; embed.html's start-python.js tag lists them) gets a package without Python's files
  (dist/pyodide/ and dist/py/: 0.2 MB, not 21), launched with `&lesson=none`, which hides the
  embed's link to the full lesson: the package holds no lesson that could run.
- `positional-encoding-lab-thin.zip` (`build.py build --scorm-site URL`): a few KB that frames
  the lesson hosted at URL and relays its quiz score (app/lms/relay.js).

A full package holds every file of dist/ as the build left it, never a list written here: so
it is self-contained and works offline under whatever path the LMS serves it from (the site
uses relative URLs only). Left out: the .br/.gz siblings (an LMS serves each file as it is, so
they would only add weight), the service worker (its scope would be the LMS's folder for this
upload, a path the LMS chooses and may change per upload; the lesson runs without it), and
dist/scorm/ itself. The launch page learns it was launched by an LMS from the manifest's item
`parameters`, `?lms=scorm12` (app/lms/scorm.js: LAUNCH_PARAMETER); opened as a plain page it is
the normal lesson.

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
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urlsplit
from xml.sax.saxutils import quoteattr

from tools.project import BuildError

FOLDER = "scorm"
NAME = "positional-encoding-lab"
TITLE = "Positional Encoding Lab"
# The pass mark in percent, in the manifest's adlcp:masteryscore; app/lms/scorm.js
# (DEFAULT_MASTERY_SCORE) uses the same when an LMS gives none, and a test ties the two.
MASTERY_SCORE = 80
LAUNCH_PARAMETERS = "?lms=scorm12"  # app/lms/scorm.js: LAUNCH_PARAMETER
SKIPPED_SUFFIXES = (".br", ".gz")
SKIPPED_FILES = ("service-worker.js",)
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


def manifest(identifier: str, title: str, launch: str, parameters: str, files: list[str]) -> str:
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
        <adlcp:masteryscore>{MASTERY_SCORE}</adlcp:masteryscore>
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


def write_packages(dist: Path, out: Path) -> list[Path]:
    """The full packages, made from dist/ as it is, into `out` (dist/scorm/); returns their
    paths."""
    names = package_files(dist)
    without_python = [n for n in names if n.split("/")[0] not in PYTHON_FOLDERS]
    out.mkdir(parents=True, exist_ok=True)
    lesson_html = "".join(p.read_text(encoding="utf-8") for p in lesson_pages(dist))
    no_python = demos_without_python((dist / "embed.html").read_text(encoding="utf-8"))
    # stem: (title, launch, parameters, files)
    packages = {NAME: (TITLE, "index.html", LAUNCH_PARAMETERS, names)}
    for demo in graded_demos(lesson_html):
        title = f"{TITLE}: {demo}"
        parameters = f"?demo={demo}&{LAUNCH_PARAMETERS[1:]}"
        if demo in no_python:
            packages[f"{NAME}-{demo}"] = (
                title,
                "embed.html",
                parameters + WITHOUT_LESSON,
                without_python,
            )
        else:
            packages[f"{NAME}-{demo}"] = (title, "embed.html", parameters, names)
    manifests = {stem: manifest(stem, *spec) for stem, spec in packages.items()}
    targets = {stem: out / f"{stem}.zip" for stem in packages}
    keys = {stem: _key(dist, packages[stem][3], manifests[stem]) for stem in packages}
    stale = [stem for stem in packages if not _is_current(targets[stem], keys[stem])]
    # The site's files, deflated once per set of files, then copied into each package with its
    # own manifest.
    for files in {tuple(packages[stem][3]) for stem in stale}:
        body = out / ".files.zip.part"
        _write_zip(body, None, {name: dist / name for name in files}, b"")
        try:
            for stem in stale:
                if tuple(packages[stem][3]) == files:
                    _write_zip(
                        targets[stem], body, {"imsmanifest.xml": manifests[stem]}, keys[stem]
                    )
        finally:
            body.unlink(missing_ok=True)
    return list(targets.values())


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
    return f"""<!doctype html>
<!-- Generated by build.py (tools/scorm.py): do not edit. -->
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <meta http-equiv="Content-Security-Policy" content="default-src 'self'; frame-src {html.escape(origin)}; script-src 'self'; style-src 'self'">
  <title>{TITLE}</title>
  <link rel="icon" href="data:,">
  <link rel="stylesheet" href="app/lms/relay.css">
  <script type="module" src="app/lms/relay.js"></script>
</head>
<body>
  <p class="relay-note" role="status" hidden></p>
  <iframe class="relay-frame" src="{html.escape(lesson)}" title="{TITLE}"></iframe>
</body>
</html>
"""  # noqa: E501 (the manifest's and the page's own long lines)


def write_thin_package(dist: Path, url: str, out: Path) -> Path:
    """`out`/positional-encoding-lab-thin.zip, from dist/'s app/lms/: frames the lesson at `url`."""
    site = site_address(url)
    out.mkdir(parents=True, exist_ok=True)
    entries: dict[str, Path | str] = {"launch.html": thin_launch_page(site)}
    entries.update({name: dist / name for name in THIN_FILES})
    text = manifest(f"{NAME}-thin", TITLE, "launch.html", "", sorted(entries))
    target = out / f"{NAME}-thin.zip"
    key = _key(dist, list(THIN_FILES), text + entries["launch.html"])
    if not _is_current(target, key):
        _write_zip(target, None, {**entries, "imsmanifest.xml": text}, key)
    return target
