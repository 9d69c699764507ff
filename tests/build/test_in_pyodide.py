"""Build-time jobs in Pyodide under Node (tools/in_pyodide.py, tools/pyodide-job.mjs): arguments
go in as JSON, bytes come out, and the cache key covers the job's source and its arguments."""

from __future__ import annotations

import json

import pytest

from tools import in_pyodide
from tools.vendor_pyodide import cached_wheels, official_lock, pyodide_version


@pytest.fixture(scope="module")
def wheels():
    version = pyodide_version()
    return cached_wheels(version, official_lock(version))


def test_a_job_gets_its_arguments_and_pelab_and_only_its_bytes_reach_stdout(tmp_path, wheels):
    job = tmp_path / "echo.py"
    job.write_text(
        "import json, os, site\n"
        "import pelab\n"
        "def main(**arguments):\n"
        "    print('printed, so on stderr')\n"
        "    where = os.path.relpath(pelab.__file__, site.getsitepackages()[0])\n"
        "    return json.dumps({'arguments': arguments, 'pelab': where, 'name': "
        "__name__}).encode()\n"
    )
    wheel = sorted((in_pyodide.CACHE / "pelab").glob("pelab-*.whl"))[-1]
    arguments = {"seq_len": 3, "base": 10000.0, "text": "d'un \"quote\"\n", "list": [1, None]}
    result = json.loads(in_pyodide.run_in_pyodide(job, arguments, wheels, wheel))
    assert result == {"arguments": arguments, "pelab": "pelab/__init__.py", "name": "job"}


def test_a_job_that_returns_no_bytes_fails_the_build_with_python_s_message(tmp_path, wheels):
    job = tmp_path / "text.py"
    job.write_text("def main(n):\n    return 'x' * n\n")
    with pytest.raises(
        SystemExit,
        match="(?s)the build step text failed under Node: Traceback.*"
        "main\\(\\) returned str, not bytes",
    ):
        in_pyodide.run_in_pyodide(job, {"n": 2}, wheels)


def test_a_job_runs_again_only_when_its_source_or_its_arguments_change(tmp_path, monkeypatch):
    runs = []

    def fake_run(job, arguments, wheels, pelab_wheel=None):
        runs.append(arguments)
        return json.dumps(arguments).encode()

    monkeypatch.setattr(in_pyodide, "run_in_pyodide", fake_run)
    monkeypatch.setattr(in_pyodide, "CACHE", tmp_path / "cache")
    monkeypatch.setattr(in_pyodide, "JOBS", tmp_path)
    (tmp_path / "picture.py").write_text("def main(size): ...\n")
    first = in_pyodide.job_output("picture", {"size": 1}, [], suffix=".png")
    assert (
        in_pyodide.job_output("picture", {"size": 1}, [], suffix=".png") == first and len(runs) == 1
    )
    assert (
        in_pyodide.job_output("picture", {"size": 2}, [], suffix=".png") != first and len(runs) == 2
    )
    (tmp_path / "picture.py").write_text("def main(size):  # edited\n    ...\n")
    assert (
        in_pyodide.job_output("picture", {"size": 1}, [], suffix=".png") != first and len(runs) == 3
    )
    assert first.name.startswith("picture-") and first.read_bytes() == b'{"size": 1}'


def test_jobs_run_side_by_side_and_a_stale_output_may_stand_in(tmp_path, monkeypatch):
    """job_outputs runs the jobs not cached yet at once; one given a stale output (an
    incremental build's last bytecode, tools/site.py BYTECODE_JOBS) does not run until a full
    build asks for it, while its cached output, once there, is taken."""
    runs = []

    def fake_run(job, arguments, wheels, pelab_wheel=None):
        runs.append((job.stem, arguments))
        return json.dumps(arguments).encode()

    monkeypatch.setattr(in_pyodide, "run_in_pyodide", fake_run)
    monkeypatch.setattr(in_pyodide, "CACHE", tmp_path / "cache")
    monkeypatch.setattr(in_pyodide, "JOBS", tmp_path)
    pelab = tmp_path / "pelab.whl"
    pelab.write_bytes(b"one")
    for name in ("picture", "bytecode"):
        (tmp_path / f"{name}.py").write_text("def main(**arguments): ...\n")
    jobs = {"picture": ({"size": 1}, True, ".png"), "bytecode": ({}, True, ".zip")}
    first = in_pyodide.job_outputs(jobs, [], pelab)
    assert sorted(runs) == [("bytecode", {}), ("picture", {"size": 1})]
    pelab.write_bytes(b"two")  # pelab edited: both jobs' outputs are stale
    stale = tmp_path / "last-bytecode.zip"
    second = in_pyodide.job_outputs(jobs, [], pelab, stale={"bytecode": stale})
    assert second["bytecode"] == stale and second["picture"] != first["picture"]
    assert len(runs) == 3  # the picture ran again, the bytecode did not
    third = in_pyodide.job_outputs(jobs, [], pelab)  # a full build makes it
    assert third["bytecode"] != first["bytecode"] and len(runs) == 4
    assert in_pyodide.job_outputs(jobs, [], pelab, stale={"bytecode": stale}) == third
