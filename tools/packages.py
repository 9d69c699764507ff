"""`build.py packages`: the SCORM 1.2 packages (tools/scorm.py), made from dist/ after a build
into packages/, beside dist/ and never in it, so the site stays small and a build that needs no
package (serve, a test's fast path) makes none.

    packages/scorm/   the packages asked for, and packages.json, their list (each one's file,
                      title and size), which the guide's download links read: copied into a
                      hosted site as its scorm/, it replaces dist/scorm/packages.json, which lists
                      none (docs/hosting.md)
    packages/custom/  a lesson of just the chosen sections (--sections): a package for each
                      choice, kept until build.py clean

packages/scorm/ holds what the last run made: whatever else it held goes.
"""

from __future__ import annotations

from pathlib import Path

from tools.custom_lesson import assemble_custom, chosen_sections
from tools.dist_files import write_if_changed
from tools.project import DIST, ROOT, BuildError, log
from tools.scorm import (
    FOLDER,
    chosen_packages,
    grading,
    site_address,
    write_custom_package,
    write_packages,
    write_thin_package,
)
from tools.site import build
from tools.teacher_kit import PACKAGE_LIST, package_list

PACKAGES = ROOT / "packages"
CUSTOM = "custom"  # packages/custom/: the lessons of chosen sections


def make_packages(
    language: str | None = None,
    chapter: str | None = None,
    scorm_site: str | None = None,
    mastery: int | str | None = None,
    attempts: int | str | None = None,
    sections: str | None = None,
    dist: Path | None = None,
    out: Path = PACKAGES,
) -> list[Path]:
    """Build the site into `dist` (by default dist/), then write into `out`/scorm/ its full
    packages (only `language`'s, or only `chapter`'s, when asked: tools/scorm.py,
    chosen_packages) and their list, or with `scorm_site` only the thin package that frames the
    lesson hosted there; with `sections` ("attention,rope"), also a lesson of those sections,
    into `out`/custom/. Each manifest carries the pass mark `mastery` (percent) and the graded
    `attempts` (0: no limit). Returns the packages written."""
    grade = grading(mastery, attempts)  # a bad option stops before any work
    if scorm_site is not None:
        site_address(scorm_site)  # likewise a bad URL
        if language is not None or chapter is not None:
            raise BuildError(
                "--scorm-site makes the one thin package, in no language of its own: "
                "leave out --language and --chapter"
            )
    custom = None
    if sections is not None:  # likewise an unknown section, or a lesson that cannot be made
        if scorm_site is not None:
            raise BuildError(
                "--sections makes a full package, which holds Python: leave out --scorm-site"
            )
        chosen = chosen_sections(sections)
        custom = (chosen, assemble_custom(chosen)[1])
    build(dist=dist)
    dist = dist or DIST
    folder = out / FOLDER
    if scorm_site is not None:
        written = [write_thin_package(dist, scorm_site, folder, grade)]
    else:
        written = write_packages(dist, folder, grade, chosen_packages(dist, language, chapter))
    # The guide's download links (app/pages/package-downloads.js) read this list.
    listing = folder / PACKAGE_LIST
    write_if_changed(listing, package_list(written))
    for path in folder.iterdir():  # what an earlier run made and this one did not
        if path not in (*written, listing):
            path.unlink()
    for package in written:
        log(f"SCORM 1.2 package {shown(package)}: {package.stat().st_size / 1e6:.2f} MB")
    log(
        f"to offer them for download on a hosted site, copy {shown(folder)}/ into it as its "
        f"{FOLDER}/ (docs/hosting.md)"
    )
    if custom is not None:
        package = write_custom_package(dist, out / CUSTOM, *custom, grade)
        log(
            f"a lesson of {len(custom[0])} sections ({', '.join(custom[0])}), as a SCORM 1.2 "
            f"package: {shown(package)}, {package.stat().st_size / 1e6:.2f} MB"
        )
        written.append(package)
    return written


def shown(path: Path) -> str:
    """`path` as the log shows it: relative to the project when it is inside it."""
    return path.relative_to(ROOT).as_posix() if path.is_relative_to(ROOT) else str(path)
