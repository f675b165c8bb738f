"""The op catalog against torch itself.

Every op of ``repro_lint/opcatalog.py`` is called (``tests/op_probes.py``) under
``torch.use_deterministic_algorithms(True)``: it must raise exactly when a catalog entry that
applies on that device files it under "raises" for the installed torch, and otherwise give
bitwise-equal results on two seeded runs. The docstring test in ``test_ops.py`` checks the
catalog against what torch says; this one checks it against what torch does. CUDA cases carry
the marker name "cuda" and are skipped without a device (``scripts/gpu_check.py`` runs them).
"""

from __future__ import annotations

import pytest
import torch

from op_probes import Probe, entries, judge, probes
from runtime_state import preserved_runtime_state

from repro_lint.config import parse_version
from repro_lint.opcatalog import OPS

VERSION = parse_version(torch.__version__)
requires_cuda = pytest.mark.skipif(not torch.cuda.is_available(), reason="needs CUDA")  # marker: cuda

CASES = [pytest.param("cpu", probe, id=f"cpu-{probe.label}") for probe in probes(torch, "cpu")] + [
    pytest.param("cuda", probe, id=f"cuda-{probe.label}", marks=requires_cuda)  # marker: cuda
    for probe in probes(torch, "cuda")
]


@pytest.fixture(autouse=True)
def restore_global_state():
    """RNGs, determinism flags, variables, the seed record: as they were after each test
    (``check_determinism`` restores them too; this keeps a failing probe from leaking them)."""
    with preserved_runtime_state():
        yield


@pytest.mark.parametrize("device, probe", CASES)
def test_op_under_the_flag_behaves_as_the_catalog_says(device: str, probe: Probe):
    ok, _, line = judge(probe, VERSION, device)
    assert ok, f"torch {torch.__version__} on {device}: {probe.label} {line}"


def test_every_catalog_entry_has_a_probe():
    probed = {probe.op for probe in probes(torch, "cpu")} | {probe.op for probe in probes(torch, "cuda")}
    assert {op.name for op in OPS} <= probed, sorted({op.name for op in OPS} - probed)


def test_a_catalog_entry_applies_on_the_devices_it_names():
    assert [op.device for op in entries("put_(accumulate=True)", "cpu")] == ["CPU"]
    assert [op.device for op in entries("put_(accumulate=True)", "cuda")] == ["CUDA"]
    assert [op.device for op in entries("index_copy", "cpu")] == ["CPU and CUDA"]
    assert [op.device for op in entries("nn.MaxUnpool2d", "cuda")] == ["any device"]
    assert entries("histc", "cpu") == []
