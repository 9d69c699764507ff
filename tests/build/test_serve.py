"""build.py serve's edit loop (tools/server.py, rebuild_on_change): it watches every source a
step of the build reads, waits until an edit has settled, and rebuilds incrementally; a broken
source is reported and the site stays served."""

from __future__ import annotations

import pytest

import tools.server as server
from tools import site
from tools.project import ROOT, BuildError


def test_serve_watches_every_source_of_the_site():
    for source in ("index.html", "embed.html", "embedding.html", "lesson", "app", "py", "static",
                   "locale"):
        assert source in site.SOURCES, source
    assert all((ROOT / source).exists() for source in site.SOURCES)
    # what a step reads besides what it is handed is among them
    assert set().union(*site.STEP_SOURCES.values()) <= set(site.SOURCES)


def watch(monkeypatch, stamps: list[tuple], builds: list, fail: bool = False) -> None:
    """Run rebuild_on_change over `stamps`, one per look at the sources, then stop; each build
    is recorded in `builds` (and fails with a BuildError when `fail`)."""
    looks = iter(stamps)
    monkeypatch.setattr(server, "stamp", lambda sources: next(looks))

    def build(**options):
        builds.append(options)
        if fail:
            raise BuildError("lesson/rope.html: a broken source")

    monkeypatch.setattr(server, "build", build)
    monkeypatch.setattr(server.time, "sleep", lambda seconds: None)
    with pytest.raises(StopIteration):  # the stamps have run out
        server.rebuild_on_change()


def test_serve_rebuilds_incrementally_once_an_edit_has_settled(monkeypatch, capsys):
    before = ((ROOT / "app" / "a.js", 1, 1),)
    saving = ((ROOT / "app" / "a.js", 2, 2),)
    saved = ((ROOT / "app" / "a.js", 3, 3),)
    builds: list = []
    # unchanged, changed, still changing, settled: one build, after the edit has settled
    watch(monkeypatch, [before, before, saving, saved, saved], builds)
    assert builds == [{"incremental": True}]
    said = capsys.readouterr().out
    assert said.startswith("Rebuilt in ") and said.endswith(" s: app/a.js changed\n")


def test_serve_keeps_serving_when_a_source_is_broken(monkeypatch, capsys):
    before = ((ROOT / "lesson" / "rope.html", 1, 1),)
    broken = ((ROOT / "lesson" / "rope.html", 2, 2),)
    builds: list = []
    watch(monkeypatch, [before, broken, broken], builds, fail=True)
    assert len(builds) == 1
    assert "Not rebuilt: build.py: error: lesson/rope.html: a broken source" in (
        capsys.readouterr().out
    )
