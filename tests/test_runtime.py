"""Tests for repro_lint.runtime: seeding, verify(), the NPU/CUDA paths and imports.

Determinism flags are process-global: the autouse fixture restores everything a
test may change, and checks that need a fresh interpreter run in a subprocess.
GPU tests carry the marker name "cuda" in a comment and are skipped without one.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import textwrap
import types
from pathlib import Path

import numpy as np
import pytest
import torch
import torch.utils.deterministic

import repro_lint.runtime as rt
from runtime_state import SEEDED_HERE, clean_env, preserved_runtime_state

from repro_lint.runtime import (
    Check,
    ReproducibilityError,
    ReproducibilityWarning,
    make_generator,
    seed_everything,
    seed_worker,
    verify,
)
from repro_lint.runtime import _seed

ROOT = Path(__file__).resolve().parents[1]
requires_cuda = pytest.mark.skipif(not torch.cuda.is_available(), reason="needs CUDA")  # marker: cuda


@pytest.fixture(autouse=True)
def restore_global_state():
    """RNGs, determinism flags, variables, the seed record: as they were after each test."""
    with preserved_runtime_state():
        yield


def run_python(code: str, env: dict | None = None) -> subprocess.CompletedProcess:
    """Run ``code`` in a fresh interpreter with the worktree on PYTHONPATH."""
    full_env = clean_env()
    full_env["PYTHONPATH"] = str(ROOT)
    full_env.update(env or {})
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], env=full_env,
                          capture_output=True, text=True, timeout=120)


def by_name(report) -> dict:
    return {check.name: check for check in report.checks}


# --- fresh-process acceptance ---------------------------------------------

def test_fresh_process_seeding_is_repeatable_and_verifies_ok():
    proc = run_python("""
        import json, random, warnings
        import numpy as np, torch
        from repro_lint.runtime import seed_everything, verify
        warnings.simplefilter("ignore")
        draws = []
        for _ in range(2):
            seed_everything(123)
            draws.append([random.random(), float(np.random.rand()), torch.rand(3).tolist()])
        report = verify()
        print(json.dumps({"same": draws[0] == draws[1], "ok": report.ok,
                          "statuses": {c.name: c.status for c in report.checks}}))
    """)
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)
    assert result["same"] is True
    assert result["ok"] is True
    assert result["statuses"]["deterministic algorithms"] == "ok"
    assert result["statuses"]["seed_everything"] == "ok"


def test_fresh_process_with_benchmark_and_no_seeding_fails_verify():
    proc = run_python("""
        import json, torch
        from repro_lint.runtime import verify
        torch.backends.cudnn.benchmark = True
        report = verify()
        print(json.dumps(report.to_dict()))
    """)
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)
    statuses = {c["name"]: c["status"] for c in result["checks"]}
    assert result["ok"] is False
    assert statuses["cudnn.benchmark"] == "fail"
    assert statuses["seed_everything"] == "fail"


def test_import_and_use_without_torch_numpy_or_libcst():
    proc = run_python("""
        import sys
        sys.modules['torch'] = None; sys.modules['numpy'] = None; sys.modules['libcst'] = None
        import warnings; warnings.simplefilter("ignore")
        import random
        import repro_lint.runtime as r
        from repro_lint.runtime import _workers, doctor
        r.seed_everything(1)
        report = r.verify()
        print(report)
        print("OK" if report.ok else "NOT OK")
        expected = random.random()
        r.reset_seed()
        with r.isolate_rng():
            random.random()
        assert random.random() == expected
        assert _workers.worker_seeds(1, 2, 3)[2] is None  # the documented hash, without NumPy
        assert doctor.main([]) == 0
        print(sorted(m for m in sys.modules if m.startswith("repro_lint")))
    """)
    assert proc.returncode == 0, proc.stderr
    assert "torch not importable" in proc.stdout
    assert "torch        not installed" in proc.stdout  # the doctor's report
    assert "OK\n" in proc.stdout and "NOT OK" not in proc.stdout
    modules = eval(proc.stdout.strip().splitlines()[-1])
    assert all(m == "repro_lint" or m.startswith("repro_lint.runtime") for m in modules)


@pytest.mark.parametrize("launch_value", ["0", "123"])
def test_pythonhashseed_set_by_launcher_is_kept_and_verified(launch_value):
    proc = run_python("""
        import os, sys, warnings
        sys.modules['torch'] = None
        warnings.simplefilter("error")  # any ReproducibilityWarning fails the script
        from repro_lint.runtime import seed_everything, verify
        seed_everything(42)
        check = [c for c in verify().checks if c.name == "PYTHONHASHSEED"][0]
        print(os.environ["PYTHONHASHSEED"], check.status)
    """, env={"PYTHONHASHSEED": launch_value})
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == [launch_value, "ok"]


# --- seed_everything --------------------------------------------------------

@pytest.mark.parametrize("bad, error", [
    (-1, ValueError), (2**32, ValueError), (1.5, TypeError), ("1", TypeError), (True, TypeError),
    (None, TypeError),
])
def test_seed_validation(bad, error):
    with pytest.raises(error, match="seed"):
        seed_everything(bad)


def test_seed_bounds_and_numpy_int_accepted(recwarn):
    assert seed_everything(2**32 - 1) == 2**32 - 1
    assert seed_everything(np.int64(5)) == 5
    assert torch.initial_seed() == 5


def test_flag_arguments_must_be_bool():
    with pytest.raises(TypeError, match="warn_only"):
        seed_everything(0, warn_only=1)


def test_seed_everything_sets_flags_and_env(recwarn):
    torch.backends.cudnn.benchmark = True
    seed_everything(7, warn_only=True)
    assert torch.are_deterministic_algorithms_enabled()
    assert torch.is_deterministic_algorithms_warn_only_enabled()
    assert torch.backends.cudnn.benchmark is False
    assert torch.backends.cudnn.deterministic is True
    assert os.environ["PYTHONHASHSEED"] == "7"
    assert ("CUBLAS_WORKSPACE_CONFIG" in os.environ) == (torch.version.cuda is not None)  # cuBLAS builds only
    assert "HCCL_DETERMINISTIC" not in os.environ  # no torch_npu
    record = _seed.current_record()
    assert (record.seed, record.pid, record.warn_only) == (7, os.getpid(), True)
    assert record.seeded == SEEDED_HERE


def test_repeated_seeding_gives_identical_draws(recwarn):
    draws = []
    for _ in range(2):
        seed_everything(99)
        draws.append((random.random(), np.random.rand(), torch.randn(4)))
    assert draws[0][0] == draws[1][0]
    assert draws[0][1] == draws[1][1]
    assert torch.equal(draws[0][2], draws[1][2])


def test_deterministic_false_only_seeds(recwarn):
    torch.backends.cudnn.benchmark = True
    torch.use_deterministic_algorithms(False)
    seed_everything(1, deterministic=False)
    assert torch.initial_seed() == 1
    assert torch.backends.cudnn.benchmark is True
    assert not torch.are_deterministic_algorithms_enabled()
    checks = by_name(verify())
    assert checks["cudnn.benchmark"].status == "fail"
    assert checks["deterministic algorithms"].status == "fail"


@pytest.mark.skipif(sys.flags.hash_randomization == 0, reason="interpreter started with PYTHONHASHSEED=0")
def test_pythonhashseed_too_late_warning_names_the_launcher_fix():
    with pytest.warns(ReproducibilityWarning, match=r"PYTHONHASHSEED=5 python train.py"):
        seed_everything(5)
    assert os.environ["PYTHONHASHSEED"] == "5"
    check = by_name(verify())["PYTHONHASHSEED"]
    assert check.status == "warn"
    assert "child processes only" in check.actual


# --- CUDA paths, stubbed on a CPU build ---------------------------------------

@pytest.fixture
def cuda_build(monkeypatch):
    """Pretend torch is a CUDA build (nothing that really needs a GPU is called)."""
    monkeypatch.setattr(torch.version, "cuda", "12.8")
    return monkeypatch


def test_cublas_set_on_cuda_build_before_init(cuda_build, recwarn):
    cuda_build.setattr(torch.cuda, "is_initialized", lambda: False)
    seed_everything(3)
    assert os.environ["CUBLAS_WORKSPACE_CONFIG"] == ":4096:8"
    assert not [w for w in recwarn if "CUBLAS" in str(w.message)]
    assert by_name(verify())["CUBLAS_WORKSPACE_CONFIG"].status == "ok"


def test_cublas_user_value_is_kept(cuda_build, recwarn):
    os.environ["CUBLAS_WORKSPACE_CONFIG"] = ":16:8"
    seed_everything(3)
    assert os.environ["CUBLAS_WORKSPACE_CONFIG"] == ":16:8"


def test_cublas_too_late_after_cuda_init(cuda_build):
    cuda_build.setattr(torch.cuda, "is_initialized", lambda: True)
    with pytest.warns(ReproducibilityWarning, match=r"CUBLAS_WORKSPACE_CONFIG=:4096:8 python train.py"):
        seed_everything(3, hashseed="ignore")
    check = by_name(verify())["CUBLAS_WORKSPACE_CONFIG"]
    assert check.status == "warn"
    assert "too late" in check.actual


@pytest.mark.parametrize("version, status", [("2.9.1", "fail"), ("2.13.0", "warn")])
def test_cublas_unset_on_cuda_build(cuda_build, version, status):
    cuda_build.setattr(torch, "__version__", version)
    check = by_name(verify())["CUBLAS_WORKSPACE_CONFIG"]
    assert check.status == status
    assert check.actual.startswith("unset")


def test_cublas_skipped_on_cpu_build(monkeypatch):
    monkeypatch.setattr(torch.version, "cuda", None)  # also on a CUDA build of torch
    assert by_name(verify())["CUBLAS_WORKSPACE_CONFIG"].status == "skip"


def test_seeding_never_initialises_cuda(cuda_build, recwarn):
    """The block may run before the program's own ``os.environ["CUDA_VISIBLE_DEVICES"] = ...``
    (set inside ``main()``); CUDA reads the variable once, when first asked, so seeding must not
    ask (``torch.cuda.is_available()`` and ``device_count()`` would)."""
    def asks(*args, **kwargs):
        raise AssertionError("seed_everything initialised CUDA")

    for name in ("is_available", "device_count", "init", "_lazy_init"):
        cuda_build.setattr(torch.cuda, name, asks)
    cuda_build.setattr(torch.cuda, "is_initialized", lambda: False)
    record = seed_everything(5)
    assert "cuda" in record.seeded  # queued: applied when CUDA is first used


@requires_cuda
def test_cuda_generators_seeded_and_reported(recwarn):  # marker: cuda
    seed_everything(17)
    torch.zeros(1, device="cuda")
    assert torch.cuda.initial_seed() == 17
    checks = by_name(verify())
    assert checks["cuda"].status == "ok"
    assert checks["cuda initial_seed"].status == "ok"


# --- Ascend NPU via a fake torch_npu ------------------------------------------

@pytest.fixture
def fake_npu(monkeypatch):
    """A torch_npu stand-in with the documented surface used by the runtime."""
    module = types.ModuleType("torch_npu")
    module.__version__ = "2.13.0.fake"
    module.seeds = []
    module.level = 1
    module.npu = types.SimpleNamespace(
        manual_seed_all=module.seeds.append,
        is_available=lambda: True,
        device_count=lambda: 8,
        _get_deterministic_level=lambda: module.level,
    )
    monkeypatch.setitem(sys.modules, "torch_npu", module)
    return module


def test_npu_seeded_and_hccl_set(fake_npu, recwarn):
    seed_everything(11)
    assert fake_npu.seeds == [11]
    assert os.environ["HCCL_DETERMINISTIC"] == "true"
    assert "npu" in _seed.current_record().seeded
    checks = by_name(verify())
    assert checks["npu"].status == "ok"
    assert checks["npu deterministic level"].actual == "1"
    assert checks["npu deterministic level"].status == "ok"
    assert checks["HCCL_DETERMINISTIC"].status == "ok"


def test_npu_only_switches_are_set_with_torch_npu(fake_npu, recwarn):
    seed_everything(11)
    assert (os.environ["LCCL_DETERMINISTIC"], os.environ["CLOSE_MATMUL_K_SHIFT"]) == ("1", "1")
    checks = by_name(verify())
    assert checks["LCCL_DETERMINISTIC"].status == checks["CLOSE_MATMUL_K_SHIFT"].status == "ok"


def test_npu_only_switches_are_left_alone_without_torch_npu(recwarn):
    seed_everything(11)
    assert "LCCL_DETERMINISTIC" not in os.environ and "CLOSE_MATMUL_K_SHIFT" not in os.environ
    assert by_name(verify())["LCCL_DETERMINISTIC"].status == "skip"


def test_flash_attention_and_mkldnn_switches(recwarn):
    torch.backends.mkldnn.deterministic = False
    checks = by_name(verify())
    assert checks["FLASH_ATTENTION_DETERMINISTIC"].status == "warn"
    assert checks["mkldnn.deterministic"].status == "warn"
    record = seed_everything(2)
    assert os.environ["FLASH_ATTENTION_DETERMINISTIC"] == "1"
    assert record.env_set["FLASH_ATTENTION_DETERMINISTIC"] == "1"
    assert torch.backends.mkldnn.deterministic is True
    assert record.switches["torch.backends.mkldnn.deterministic"] == "True"
    checks = by_name(verify())
    assert checks["FLASH_ATTENTION_DETERMINISTIC"].status == checks["mkldnn.deterministic"].status == "ok"


def test_a_switch_set_off_by_the_user_is_kept_with_a_warning():
    os.environ["FLASH_ATTENTION_DETERMINISTIC"] = "0"
    with pytest.warns(ReproducibilityWarning, match="FLASH_ATTENTION_DETERMINISTIC='0' is kept") as caught:
        record = seed_everything(2, hashseed="ignore")
    assert caught[0].filename == __file__
    assert os.environ["FLASH_ATTENTION_DETERMINISTIC"] == "0"
    assert "FLASH_ATTENTION_DETERMINISTIC" not in record.env_set
    assert by_name(verify())["FLASH_ATTENTION_DETERMINISTIC"].status == "warn"


def test_hccl_value_torch_npu_rejects_is_replaced(fake_npu, recwarn):
    os.environ["HCCL_DETERMINISTIC"] = "1"
    with pytest.warns(ReproducibilityWarning, match="not a value torch_npu accepts"):
        seed_everything(11)
    assert os.environ["HCCL_DETERMINISTIC"] == "true"


def test_hccl_explicit_false_is_kept_with_warning(fake_npu, recwarn):
    os.environ["HCCL_DETERMINISTIC"] = "false"
    with pytest.warns(ReproducibilityWarning, match="HCCL_DETERMINISTIC=false is kept"):
        seed_everything(11)
    assert os.environ["HCCL_DETERMINISTIC"] == "false"
    assert by_name(verify())["HCCL_DETERMINISTIC"].status == "fail"


@pytest.mark.parametrize("value, status", [("1", "fail"), ("True", "ok"), ("strict", "ok")])
def test_verify_hccl_values(fake_npu, value, status):
    os.environ["HCCL_DETERMINISTIC"] = value
    check = by_name(verify())["HCCL_DETERMINISTIC"]
    assert check.status == status
    if status == "fail":
        assert "HCCL_DETERMINISTIC=true" in check.fix


def test_hccl_too_late_when_process_group_exists(fake_npu, monkeypatch):
    monkeypatch.setattr(torch.distributed, "is_available", lambda: True)
    monkeypatch.setattr(torch.distributed, "is_initialized", lambda: True)
    with pytest.warns(ReproducibilityWarning, match="HCCL_DETERMINISTIC=true python train.py"):
        seed_everything(11, hashseed="ignore")
    check = by_name(verify())["HCCL_DETERMINISTIC"]
    assert check.status == "warn"
    assert "too late" in check.actual


def test_npu_level_zero_warns_and_missing_getter_skips(fake_npu):
    fake_npu.level = 0
    assert by_name(verify())["npu deterministic level"].status == "warn"
    del fake_npu.npu._get_deterministic_level
    assert by_name(verify())["npu deterministic level"].status == "skip"


def test_no_torch_npu_skips_npu_checks():
    checks = by_name(verify())
    if "torch_npu" in sys.modules:
        pytest.skip("torch_npu really installed")
    assert checks["npu"].status == "skip"
    assert checks["HCCL_DETERMINISTIC"].status == "skip"


# --- verify() ------------------------------------------------------------------

def test_verify_tracks_draws_and_reseeding(recwarn):
    seed_everything(8)
    checks = by_name(verify())
    assert checks["random state"].actual.startswith("equal")
    assert checks["numpy global RNG"].actual.startswith("equal")
    assert "no draws" in checks["torch initial_seed"].actual
    random.random(), np.random.rand(), torch.rand(1)
    checks = by_name(verify())
    assert checks["random state"].actual.startswith("advanced")
    assert checks["numpy global RNG"].actual.startswith("advanced")
    assert "advanced" in checks["torch initial_seed"].actual
    assert checks["torch initial_seed"].status == "ok"
    torch.manual_seed(999)
    assert by_name(verify())["torch initial_seed"].status == "warn"


def test_seeding_in_another_process_does_not_count(recwarn):
    seed_everything(8)
    _seed._set_record(_seed.current_record().replace(pid=os.getpid() + 1))
    check = by_name(verify())["seed_everything"]
    assert check.status == "fail"
    assert "parent process" in check.actual


def test_verify_statuses_for_common_misconfigurations(recwarn):
    seed_everything(0)
    assert verify().ok
    torch.use_deterministic_algorithms(True, warn_only=True)
    torch.backends.cudnn.deterministic = False
    torch.utils.deterministic.fill_uninitialized_memory = False
    checks = by_name(verify())
    assert checks["deterministic warn_only"].status == "warn"
    assert checks["cudnn.deterministic"].status == "warn"
    assert checks["fill_uninitialized_memory"].status == "warn"
    assert checks["deterministic debug mode"].actual == "1 (warn)"
    assert verify().ok  # warnings do not fail
    torch.backends.cudnn.benchmark = True
    assert not verify().ok


def test_verify_survives_a_raising_getter(monkeypatch, recwarn):
    seed_everything(0)

    def broken():
        raise RuntimeError("boom")

    monkeypatch.setattr(torch, "are_deterministic_algorithms_enabled", broken)
    check = by_name(verify())["deterministic algorithms"]
    assert check.status == "warn"
    assert "RuntimeError: boom" in check.actual


def test_verify_reads_fp32_precision_after_new_api_use():
    matmul = torch.backends.cuda.matmul
    old = matmul.fp32_precision
    try:
        matmul.fp32_precision = "tf32"
        with pytest.raises(RuntimeError):  # the legacy getter refuses after mixing APIs
            torch.backends.cuda.matmul.allow_tf32
        check = by_name(verify())["fp32 precision (TF32)"]
    finally:
        matmul.fp32_precision = old
    assert check.status == "ok"
    assert "matmul=tf32" in check.actual


def test_verify_guards_legacy_tf32_reads(monkeypatch):
    class LegacyMatmul:
        @property
        def allow_tf32(self):
            raise RuntimeError("mixed API")

    monkeypatch.setattr(torch.backends, "cuda", types.SimpleNamespace(matmul=LegacyMatmul()))
    check = by_name(verify())["fp32 precision (TF32)"]
    assert check.status == "ok"
    assert "matmul.allow_tf32=unreadable" in check.actual


def test_inductor_check_reads_only_an_imported_config(monkeypatch, recwarn):
    monkeypatch.delitem(sys.modules, "torch._inductor.config", raising=False)
    assert by_name(verify())["inductor deterministic"].status == "skip"
    assert "torch._inductor.config" not in sys.modules
    seed_everything(0)  # use_deterministic_algorithms imports and sets it in torch 2.13
    assert by_name(verify())["inductor deterministic"].status == "ok"


def test_strict_raises_with_failed_checks():
    torch.backends.cudnn.benchmark = True
    with pytest.raises(ReproducibilityError, match="cudnn.benchmark") as info:
        verify(strict=True)
    assert not info.value.report.ok
    assert "cudnn.benchmark" in {c.name for c in info.value.report.failed}


def test_report_str_and_dict(recwarn):
    seed_everything(0)
    report = verify()
    text = str(report)
    lines = text.splitlines()
    assert lines[0].split() == ["STATUS", "CHECK", "EXPECTED", "ACTUAL"]
    assert lines[1].index("seed_everything") == lines[0].index("CHECK")
    assert text.rstrip().splitlines()[-1].startswith("verify: OK")
    data = json.loads(json.dumps(report.to_dict()))
    assert data["ok"] is True
    assert data["counts"]["fail"] == 0
    assert {"name", "status", "expected", "actual", "fix"} <= set(data["checks"][0])


def test_check_rejects_unknown_status():
    with pytest.raises(ValueError):
        Check("x", "maybe")


# --- seed_worker / make_generator ------------------------------------------------

def test_seed_worker_mixes_the_workers_torch_seed_worker_id_and_rank():
    torch.manual_seed(2**40 + 5)
    seed_worker(3)
    sequence = np.random.SeedSequence([2**40 + 5, 3, 0])
    torch_child, random_child = sequence.spawn(2)
    assert torch.initial_seed() == int(torch_child.generate_state(1, dtype=np.uint64)[0])
    expected = random.Random(int.from_bytes(random_child.generate_state(4).tobytes(), "little"))
    assert random.getstate() == expected.getstate()
    reference = np.random.RandomState(sequence.generate_state(4)).get_state()
    assert np.array_equal(np.random.get_state()[1], reference[1])


class _RandomDataset(torch.utils.data.Dataset):
    def __len__(self):
        return 4

    def __getitem__(self, index):
        return torch.tensor([random.random(), float(np.random.rand()), float(torch.rand(1))])


def test_dataloader_with_seed_worker_and_generator_is_repeatable():
    def epoch():
        loader = torch.utils.data.DataLoader(_RandomDataset(), batch_size=1, shuffle=True,
                                             num_workers=2, worker_init_fn=seed_worker,
                                             generator=make_generator(4))
        return torch.cat(list(loader))

    first, second = epoch(), epoch()
    assert torch.equal(first, second)
    assert len({tuple(row.tolist()) for row in first}) == 4  # workers draw different numbers


def test_make_generator_seed_defaults(recwarn):
    rt._seed._set_record(None)
    torch.manual_seed(11)  # the program's own seed, when seed_everything was not called
    assert make_generator().initial_seed() == 11
    torch.manual_seed(12)
    assert make_generator().initial_seed() == 12
    assert make_generator(5).initial_seed() == 5
    assert make_generator(2**64 - 1).initial_seed() == 2**64 - 1
    seed_everything(21)
    generator = make_generator()
    assert isinstance(generator, torch.Generator)
    assert generator.device.type == "cpu"
    assert generator.initial_seed() == 21
    with pytest.raises(ValueError):
        make_generator(-1)


def test_make_generator_streams_give_loaders_built_side_by_side_their_own_order():
    """A source and a target loader (domain adaptation): ``make_generator()`` and
    ``make_generator(stream=1)`` shuffle apart, stream 0 is the seed itself, and every run
    gives the same orders."""
    def order(generator):
        return list(torch.utils.data.DataLoader(range(32), batch_size=32, shuffle=True, generator=generator))[0].tolist()

    seed_everything(7, hashseed="ignore")
    first, second, third = make_generator(), make_generator(stream=1), make_generator(stream=2)
    assert first.initial_seed() == make_generator(7, stream=0).initial_seed() == 7
    assert len({first.initial_seed(), second.initial_seed(), third.initial_seed()}) == 3
    assert order(first) != order(second)
    assert make_generator(stream=1).initial_seed() == second.initial_seed()  # the same every time
    assert make_generator(8, stream=1).initial_seed() not in (second.initial_seed(), 8, 9)
    with pytest.raises(ValueError):
        make_generator(stream=-1)


def test_public_api_is_exported():
    assert set(rt.__all__) == {
        "seed_everything", "seed_worker", "make_generator", "verify", "Report", "Check",
        "ReproducibilityError", "ReproducibilityWarning", "disable_dropout",
        "check_determinism", "DeterminismResult", "SeedRecord", "reset_seed", "isolate_rng",
    }
    assert issubclass(ReproducibilityWarning, UserWarning)
    assert issubclass(ReproducibilityError, Exception)
