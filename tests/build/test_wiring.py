"""The wiring generated into the source tree (tools/wiring.py): app/demos/demos.js, the demos'
factories, and app/course/page-of.js, the page of each section. Each is what the course makes
now, and committed as it is: a new demo or a moved section shows in them, named in the diff."""

from __future__ import annotations

import re
import subprocess

import pytest

from site_server import ROOT
from tools import wiring
from tools.course import read_course
from tools.project import BuildError


@pytest.mark.parametrize("path", list(wiring.wiring()), ids=lambda p: p.name)
def test_each_generated_module_is_what_the_course_makes_and_is_committed(path):
    relative = path.relative_to(ROOT).as_posix()
    assert path.read_text(encoding="utf-8") == wiring.wiring()[path], (
        f"{relative} is stale: python3 build.py build writes it from the course"
    )
    changed = subprocess.run(
        ["git", "diff", "--quiet", "--", relative], cwd=ROOT, check=False
    ).returncode
    tracked = subprocess.run(
        ["git", "ls-files", "--error-unmatch", relative], cwd=ROOT, capture_output=True
    ).returncode
    assert not tracked and not changed, (
        f"{relative} differs from what git holds: the build rewrote it from the course; "
        "git add it with your change"
    )


def test_every_demo_is_imported_by_name_in_the_courses_order():
    text = wiring.DEMOS_MODULE.read_text(encoding="utf-8")
    demos = read_course().demos
    assert re.findall(r'^import \{ (\w+)Demo \} from "\./(\w+)\.js";$', text, flags=re.M) == [
        (name, name) for name in demos
    ]
    assert re.findall(r"^  (\w+): (\w+)Demo,$", text, flags=re.M) == [(n, n) for n in demos]
    pages = wiring.PAGE_OF_MODULE.read_text(encoding="utf-8")
    assert re.findall(r'^  "([\w-]+)": "([\w-]+\.html)",$', pages, flags=re.M) == list(
        read_course().page_of.items()
    )


def test_a_demo_without_its_module_or_factory_is_named(tmp_path, monkeypatch):
    monkeypatch.setattr(wiring, "DEMOS_MODULE", tmp_path / "demos.js")
    (tmp_path / "toy.js").write_text("export function toyDemo(root, python, context) {}\n")
    (tmp_path / "half.js").write_text("export function otherDemo() {}\n")
    assert 'import { toyDemo } from "./toy.js";' in wiring.demos_module(["toy"])
    with pytest.raises(
        BuildError,
        match=r"lesson/gone\.html is a demo section, but app/demos/gone\.js does not exist",
    ):
        wiring.demos_module(["gone"])
    with pytest.raises(BuildError, match=r"app/demos/half\.js must export function halfDemo"):
        wiring.demos_module(["half"])


def test_the_build_rewrites_a_stale_module_and_says_so(tmp_path, monkeypatch, capsys):
    stale = tmp_path / "page-of.js"
    stale.write_text("// an old table\n")
    monkeypatch.setattr(wiring, "PAGE_OF_MODULE", stale)
    monkeypatch.setattr(wiring, "DEMOS_MODULE", tmp_path / "demos.js")
    monkeypatch.setattr(wiring, "demos_module", lambda demos: "// the demos\n")
    assert wiring.write_wiring() == [tmp_path / "demos.js", stale]
    assert stale.read_text() == wiring.page_of_module(read_course().page_of)
    assert "commit it with your change" in capsys.readouterr().out
    assert wiring.write_wiring() == []  # written once: the next build leaves them
