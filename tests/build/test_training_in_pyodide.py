"""The tiny Transformer trains to the same numbers in Pyodide (under Node) as under CPython:
the same seeds, every position scheme, the losses step by step and the learned table."""

from __future__ import annotations

import json

import numpy as np
import pytest

from pelab.experiments.table_structure import band_contrast
from pelab.experiments.training import Trainer
from tools import in_pyodide, pelab_wheel
from tools.vendor_pyodide import cached_wheels, official_lock, pyodide_version

RUNS = [["none", False], ["none", True], ["learned", True], ["sinusoidal", True], ["rope", True],
        ["alibi", True]]
STEPS = 60

JOB = '''
import json
from pelab.experiments.table_structure import band_contrast
from pelab.experiments.training import Trainer

def main(steps, runs):
    out = {}
    for scheme, causal in runs:
        trainer = Trainer(scheme=scheme, causal=causal, max_train_len=8, d_model=16, seed=1)
        trainer.step(steps)
        out[f"{scheme}-{causal}"] = trainer.losses
        if scheme == "learned":
            out["contrast"] = band_contrast(trainer.params["position_table"])
    return json.dumps(out).encode()
'''


@pytest.fixture(scope="module")
def in_pyodide_results(tmp_path_factory):
    version = pyodide_version()
    numpy_wheel = [w for w in cached_wheels(version, official_lock(version))
                   if w.name.startswith("numpy-")]
    where = tmp_path_factory.mktemp("training")
    # This checkout's pelab, not the shared cache's: the wheel is rebuilt from py/pelab.
    wheel = pelab_wheel.build_pelab_wheel(where)
    job = where / "train.py"
    job.write_text(JOB)
    return json.loads(
        in_pyodide.run_in_pyodide(job, {"steps": STEPS, "runs": RUNS}, numpy_wheel, wheel)
    )


@pytest.mark.parametrize("scheme, causal", RUNS)
def test_the_same_seed_trains_to_the_same_losses_in_pyodide(in_pyodide_results, scheme, causal):
    trainer = Trainer(scheme=scheme, causal=causal, max_train_len=8, d_model=16, seed=1)
    trainer.step(STEPS)
    theirs = np.array(in_pyodide_results[f"{scheme}-{causal}"])
    # Same float64 operations; only the order of the sums inside matrix products differs
    # (CPython's numpy calls OpenBLAS, Pyodide's has no BLAS), so the runs start ~1e-16 apart
    # and Adam carries that along. Measured after 60 steps: at most 1.1e-15 relative. 1e-10
    # leaves room for other machines' kernels, while any difference of substance (another
    # initialisation, batch or formula) moves a loss by far more than that.
    np.testing.assert_allclose(theirs, trainer.losses, rtol=1e-10, atol=0)
    if scheme == "learned":
        contrast = band_contrast(trainer.params["position_table"])
        assert in_pyodide_results["contrast"] == pytest.approx(contrast, rel=1e-10)
