"""dist/, the site, built in named steps: the pages in every language; app/ and static/ copied,
with the generated registry and outline, and bundled (tools/bundles.py); Pyodide and its wheels
(tools/served_pyodide.py); pelab's wheel and the build-time jobs' outputs
(tools/python_files.py); start-python.js, config.js and the service worker
(tools/generated_scripts.py); the .br/.gz siblings (tools/compress.py); and whatever the build
no longer makes pruned. The SCORM packages are made apart, into packages/ (tools/packages.py).

A long-lived process (build.py serve) builds with `incremental=True`: a step none of whose
sources changed since its last build is skipped, and its files are kept as they are."""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from tools.bundles import BUNDLED, VENDOR, bundle_app, check_bundles
from tools.compress import COMPRESSIBLE, compressed
from tools.dist_files import DistFiles, copy_if_changed
from tools.first_results import first_calls
from tools.generated_scripts import (
    SERVICE_WORKER,
    START_PYTHON,
    write_config,
    write_service_worker,
    write_start_python,
)
from tools.heatmap_settings import heatmap_settings
from tools.in_pyodide import job_outputs
from tools.languages import EMBED, language_sites, site_address, with_languages
from tools.lesson import assemble_with_keys
from tools.notebook import NOTEBOOK, notebook_text
from tools.pelab_wheel import build_pelab_wheel
from tools.project import CACHE, DIST, ROOT, SITE_FILES, log, sha256
from tools.python_files import build_time_jobs, place_python_files
from tools.quiz_forms import quiz_keys_json
from tools.scorm import FOLDER as SCORM_FOLDER
from tools.security_headers import headers_allowing
from tools.served_pyodide import place_pyodide
from tools.teacher_kit import PACKAGE_LIST, kit_pages, package_list
from tools.vendor_pyodide import (
    cached_wheels,
    ensure_node_modules,
    official_lock,
    pyodide_version,
)
from tools.wiring import write_wiring

QUIZ_KEYS = "app/quiz-keys.json"  # written by the build from the questions (tools/lesson.py)
# Read by the host, not the browser (Netlify, Cloudflare Pages): copied to the site's root, and
# left out of the service worker's list. hosting/ has examples for other servers too.
HOST_FILES = ("_headers",)
# Every file and folder of the project the build reads (build.py serve watches them).
SOURCES = (
    "index.html", *SITE_FILES, "lesson", "app", "py", "static", "locale", "hosting",
    "package.json", "package-lock.json",
)
# What each step reads besides what it is handed (the course as read, the jobs' outputs, pelab's
# wheel, which its options carry): build(incremental=True) skips a step when none of these
# changed, nor its options, since that step last ran.
STEP_SOURCES = {
    # the translations, and app/'s: its messages, and each demo's first code (the notebook)
    "pages": ("locale", "app"),
    "app": ("app", "package-lock.json"),
    "static": ("static", "hosting"),
    "pyodide": ("package.json", "package-lock.json"),
    "python": (),
}
# The steps of the last build in this process: their sources' stamp and options, what they
# returned, and the files they made (build(incremental=True) reads it).
_last_steps: dict[str, tuple[tuple, object, set[Path], set[Path]]] = {}
# The build-time jobs that only make Python start sooner: the bytecode of numpy's and pelab's
# modules and of the standard library's that the boot imports. Each pyc is checked against its
# source when imported, so one made for an older pelab is never used for an edited module, which
# is compiled instead. So an incremental build serves the last bytecode it built while pelab is
# being edited, rather than wait seconds for new (build.py serve); a full build makes it anew.
BYTECODE_JOBS = ("bytecode", "stdlib_bytecode")
_last_outputs: dict[str, Path] = {}  # each job's output in the last build of this process
Made = TypeVar("Made")


def build(
    cdn: str | None = None,
    stored_zips: bool = True,
    answer_key: bool = True,
    dist: Path | None = None,
    incremental: bool = False,
    site_url: str | None = None,
) -> None:
    """Bundle the site into `dist` (by default dist/). Idempotent; a rebuild with a warm .cache/
    needs no network. The standard library goes out stored with the bytecode of the modules the
    boot imports (tools/repack.py); `stored_zips=False` keeps Pyodide's zips as released, the
    standard library without bytecode too, and deflates the bytecode of numpy and pelab, for
    hosts that neither send dist/'s .br/.gz copies nor compress zips (docs/hosting.md). With
    `cdn` (a URL with {version}), nothing of Pyodide's is vendored. The teacher's kit
    (teaching.html, report.html, and answer-key.html unless `answer_key` is False) is written
    from the course (tools/teacher_kit.py). dist/scorm/packages.json lists no package:
    `build.py packages` makes them (tools/packages.py). With `incremental`, steps whose sources
    did not change since this process last built are skipped. `site_url`, the address the site
    will have, makes every page's hreflang links absolute and gives it a canonical link
    (tools/languages.py); without it they are relative, and dist/ works wherever it is put."""
    site_url = None if site_url is None else site_address(site_url)  # before any work
    files = DistFiles(dist or DIST)
    version = pyodide_version()
    ensure_node_modules()
    lock = official_lock(version)

    def step(name: str, options: tuple, make: Callable[[DistFiles], Made]) -> Made:
        key = (files.root, options, stamp(STEP_SOURCES[name]))
        last = _last_steps.get(name)
        if incremental and last and last[0] == key and all(p.exists() for p in last[2]):
            _, made, written, stored = last
        else:
            own = DistFiles(files.root)
            made = make(own)
            written, stored = own.made, own.stored
            _last_steps[name] = (key, made, written, stored)
        files.made |= written
        files.stored |= stored
        return made  # type: ignore[return-value]

    # Before any work: a broken lesson source, a picture the sliders disagree with, a live demo
    # without its first request stops the build here.
    pages, keys, first_heatmap, calls = course_pages(answer_key)
    write_wiring()  # app/demos/demos.js and app/course/page-of.js, before app/ is read
    pelab = build_pelab_wheel(CACHE / "pelab")
    step(
        "pages",
        (answer_key, site_url, pelab.name, fingerprint(pages, keys)),
        lambda own: write_pages(own, pages, keys, site_url),
    )
    in_bundles = step("app", (), copy_app)
    step("static", (cdn,), lambda own: copy_static(own, cdn))
    wheels = cached_wheels(version, lock)  # each checked against the official lock first
    # The build-time jobs in Pyodide: those not cached yet (pelab changed, say) run side by side.
    stdlib = cdn is None and stored_zips  # the standard library stored with its bytecode
    jobs = build_time_jobs(first_heatmap, calls, stdlib)
    # An incremental build serves its last bytecode rather than wait for new (BYTECODE_JOBS).
    kept = {n: _last_outputs[n] for n in BYTECODE_JOBS if n in _last_outputs} if incremental else {}
    outputs = job_outputs(jobs, wheels, pelab, stale=kept)
    _last_outputs.update(outputs)
    stdlib_bytecode = outputs.get("stdlib_bytecode")
    pyodide = step(
        "pyodide",
        (cdn, stored_zips, stdlib_bytecode),
        lambda own: place_pyodide(own, version, lock, wheels, stdlib_bytecode, cdn, stored_zips),
    )
    step(
        "python",
        (stored_zips, tuple(sorted(outputs.items())), sha256(pelab)),
        lambda own: place_python_files(own, pelab, outputs, stored_zips),
    )
    write_start_python(files, pyodide, pelab.name)
    build_id = write_config(files, version, pyodide, pelab.name)
    check_bundles(files.root)
    write_service_worker(files, build_id, in_bundles | {files.root / n for n in HOST_FILES})
    # After the service worker's list: it caches the files themselves, which the browser decodes
    # whatever encoding the server chose.
    compress_siblings(files)
    # The guide's list of SCORM packages (app/pages/package-downloads.js): none in dist/.
    files.write(f"{SCORM_FOLDER}/{PACKAGE_LIST}", package_list([]))
    files.prune()
    size = sum(p.stat().st_size for p in files.made if p.suffix not in (".br", ".gz"))
    mode = f"from {pyodide.runtime_url}" if cdn else "self-hosted"
    log(
        f"built dist/ ({len(files.made)} files, {size / 1e6:.1f} MB, "
        f"Pyodide {version} {mode}, build {build_id})"
    )


def fingerprint(*values) -> str:
    """A sha256 of `values` (plain data: dicts, lists, strings, numbers)."""
    return hashlib.sha256(json.dumps(values, sort_keys=True).encode()).hexdigest()


def stamp(sources: tuple[str, ...]) -> tuple:
    """Every file of `sources` (files and folders of the project) with its size and time, but
    Python's own bytecode caches."""
    found = []
    for name in sources:
        path = ROOT / name
        for file in sorted(path.rglob("*")) if path.is_dir() else [path]:
            if file.is_file() and "__pycache__" not in file.parts:
                status = file.stat()
                found.append((file, status.st_size, status.st_mtime_ns))
    return tuple(found)


def course_pages(answer_key: bool) -> tuple[dict[str, str], dict, dict, dict]:
    """The English pages (the course, the teacher's kit, the embed and the guide), the quiz's
    keys, the first heatmap's settings and every live demo's first request."""
    pages, keys = assemble_with_keys()
    pages.update(kit_pages(with_answer_key=answer_key))
    first_heatmap = heatmap_settings("".join(pages.values()))
    calls = first_calls()
    for name in SITE_FILES:  # the embed and the guide, translated as the course is
        pages[name] = (ROOT / name).read_text(encoding="utf-8")
    return pages, keys, first_heatmap, calls


def write_pages(
    files: DistFiles, pages: dict[str, str], keys: dict, site_url: str | None = None
) -> None:
    """Every page in every language, the quiz's keys per language and the take-home notebook;
    with `site_url`, every page but the embed with absolute hreflang and canonical links."""
    # The site in each language (tools/languages.py): dist/LANG/, every page of the root, and
    # the quiz's keys, from the catalogs in locale/; a broken translation stops the build here.
    translated, language_keys, _ = language_sites(pages, keys, site_url=site_url)
    for name, text in pages.items():  # tools/lesson.py: the entrance, a page per chapter
        # an embed has no language menu, nor alternates: its host page is the reader's page, and
        # the embed alone is not for search engines (embed.html says why)
        files.write(
            name, text if name == EMBED else with_languages(name, text, site_url=site_url)
        )
    for name, text in translated.items():
        files.write(name, text)
    for language, language_key in language_keys.items():
        files.write(QUIZ_KEYS.replace(".json", f".{language}.json"), quiz_keys_json(language_key))
    # The take-home notebook (tools/notebook.py), made from the same sources as the pages.
    # Its links to the lesson are absolute when the site's address is known.
    files.write(NOTEBOOK, notebook_text(site_url=site_url))
    # The questions' keys, out of the pages' HTML: app/quiz/keys.js fetches them when needed.
    files.write(QUIZ_KEYS, quiz_keys_json(keys))


def copy_app(files: DistFiles) -> set[Path]:
    """app/ copied (its wiring written from the course first: tools/wiring.py), then bundled
    (tools/bundles.py). Returns the copies the bundles hold."""
    generated = (SERVICE_WORKER, START_PYTHON)  # written, not copied
    for path in sorted((ROOT / "app").rglob("*")):
        if (
            path.is_file()
            and VENDOR not in path.parents  # bundled
            and path not in generated
            and path.relative_to(ROOT).as_posix() not in BUNDLED
        ):
            files.place(path, path.relative_to(ROOT).as_posix())
    return bundle_app(files)


def copy_static(files: DistFiles, cdn: str | None = None) -> None:
    """static/ (the stylesheet, the host page's script for embeds) and the host's files; in a
    light build (`cdn`), their Content-Security-Policy lets the page load Pyodide from the CDN."""
    for path in sorted((ROOT / "static").rglob("*")):
        if path.is_file():
            files.place(path, path.relative_to(ROOT).as_posix())
    for name in HOST_FILES:
        source = ROOT / "hosting" / name
        if cdn:
            files.write(name, headers_allowing(source.read_text(), cdn))
        else:
            files.place(source, name)


def compress_siblings(files: DistFiles) -> None:
    """A .br and a .gz beside each compressible file and stored zip (tools/compress.py), each
    with its file's own time: the server sends a sibling only if its file is no newer."""
    sources = sorted(p for p in files.made if p.suffix in COMPRESSIBLE or p in files.stored)
    for source, siblings in compressed(sources).items():
        status = source.stat()
        for suffix, sibling in siblings.items():
            target = source.with_name(source.name + suffix)
            copy_if_changed(sibling, target)
            os.utime(target, ns=(status.st_atime_ns, status.st_mtime_ns))
            files.made.add(target)
