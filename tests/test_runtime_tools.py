"""Tests for disable_dropout, check_determinism and the doctor command."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import torch
import torch.nn.functional as F
from torch import nn

from runtime_state import clean_env, preserved_runtime_state

from repro_lint.runtime import DeterminismResult, check_determinism, disable_dropout, isolate_rng
from repro_lint.runtime import _seed
from repro_lint.runtime._dropout import FUNCTIONAL_DROPOUTS
from repro_lint.runtime import doctor
from repro_lint.runtime.doctor import main as doctor_main

ROOT = Path(__file__).resolve().parents[1]
requires_cuda = pytest.mark.skipif(not torch.cuda.is_available(), reason="needs CUDA")  # marker: cuda


@pytest.fixture(autouse=True)
def restore_global_state():
    """RNGs, determinism flags, variables, the seed record: as they were after each test."""
    with preserved_runtime_state():
        yield


@pytest.fixture(autouse=True)
def quiet_reproducibility_warnings(recwarn):
    """seed_everything warns about PYTHONHASHSEED in every test interpreter."""
    yield


# --- disable_dropout ----------------------------------------------------------------

def _dropout_model() -> nn.Module:
    return nn.Sequential(nn.Linear(8, 8), nn.Dropout(0.5), nn.Sequential(nn.Dropout2d(0.3)))


def test_disable_dropout_plain_call_and_restore():
    model = _dropout_model().train()
    x = torch.randn(4, 8)
    handle = disable_dropout(model)
    assert handle.modules_disabled == 2
    assert torch.equal(model(x), model(x))
    model.train()  # p = 0 keeps dropout off even after train()
    assert torch.equal(model(x), model[0](x))
    assert F.dropout is not None and F.dropout.__name__ == "dropout"  # functional untouched
    handle.restore()
    assert model[1].p == 0.5 and model[2][0].p == 0.3
    assert model[1].training
    assert not torch.equal(model(x), model(x))


def test_disable_dropout_context_patches_functional_and_restores():
    original = {name: getattr(F, name) for name in FUNCTIONAL_DROPOUTS}
    model = _dropout_model().train()
    x = torch.randn(4, 8)
    with disable_dropout(model):
        assert torch.equal(model(x), model(x))
        assert F.dropout(x, 0.5, True) is x
        assert F.alpha_dropout(x, 0.5, True) is x
        late = nn.Dropout(0.9).train()  # created inside the block: covered by the patch
        assert torch.equal(late(x), x)
    assert all(getattr(F, name) is fn for name, fn in original.items())
    assert model[1].p == 0.5
    assert not torch.equal(F.dropout(x, 0.5, True), x)
    assert not torch.equal(model(x), model(x))


def test_disable_dropout_restores_on_exception():
    original = F.dropout
    model = _dropout_model().train()
    with pytest.raises(KeyError):
        with disable_dropout(model):
            raise KeyError("inside")
    assert F.dropout is original
    assert model[1].p == 0.5 and model[1].training


def test_disable_dropout_without_model_and_type_check():
    x = torch.ones(100)
    with disable_dropout():
        assert torch.equal(F.dropout(x, 0.5, True), x)
    assert (F.dropout(x, 0.5, True) == 0).any()
    with pytest.raises(TypeError):
        disable_dropout(object())


# --- check_determinism -----------------------------------------------------------------

def _train_step() -> nn.Module:
    model = nn.Linear(4, 2)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    x, y = torch.randn(8, 4), torch.randn(8, 2)
    loss = F.mse_loss(model(x), y)
    loss.backward()
    optimizer.step()
    return model


def test_deterministic_training_step_passes():
    result = check_determinism(_train_step, runs=3)
    assert isinstance(result, DeterminismResult)
    assert result.ok and bool(result)
    assert result.first_mismatch is None
    assert result.max_abs_diff == 0.0
    assert "3 runs bitwise identical" in str(result)


def test_unseeded_numpy_generator_is_caught():
    def step():
        model = nn.Linear(4, 2)
        noise = torch.from_numpy(np.random.default_rng().standard_normal((8, 4))).float()
        F.mse_loss(model(noise), torch.zeros(8, 2)).backward()
        return model

    result = check_determinism(step)
    assert not result
    assert result.first_mismatch == "param:weight.grad"
    assert result.max_abs_diff > 0
    assert "param:bias.grad" in result.mismatches
    assert "param:weight" not in result.mismatches  # no step: weights still equal
    assert "NOT deterministic" in str(result)


def test_nested_result_paths_and_args_are_passed():
    def step(scale, *, offset):
        noise = float(np.random.default_rng().random())
        return [{"loss": torch.tensor(noise * scale + offset), "step": 1}]

    result = check_determinism(step, 2.0, offset=1.0)
    assert result.first_mismatch == "[0]['loss']"
    assert "1 of 1 elements differ" in result.detail


def test_results_are_snapshotted_between_runs():
    shared = torch.zeros(3)
    unseeded = torch.Generator()

    def step():
        unseeded.seed()
        return shared.copy_(torch.randn(3, generator=unseeded))

    result = check_determinism(step)
    assert not result.ok
    assert result.first_mismatch == "<result>"


def test_nan_equal_and_bitwise_signed_zero():
    def with_nans():
        return (torch.tensor([float("nan"), 1.0]), float("nan"), np.array([np.nan, 2.0]),
                np.float32("nan"))

    assert check_determinism(with_nans).ok

    calls = []

    def signed_zero():
        calls.append(None)
        return torch.tensor([0.0 if len(calls) == 1 else -0.0])

    result = check_determinism(signed_zero)
    assert not result.ok
    assert result.max_abs_diff == 0.0  # equal as numbers, different bits


def _alternating(*values):
    calls = []

    def fn():
        calls.append(None)
        return values[(len(calls) - 1) % len(values)]
    return fn


@pytest.mark.parametrize("first, second, path, words", [
    (torch.zeros(2), torch.zeros(2, dtype=torch.float64), "<result>", "dtype"),
    (torch.zeros(2), torch.zeros(3), "<result>", "shape"),
    (np.zeros(2), np.ones(2), "<result>", "max abs diff 1"),
    ({"a": 1}, {"b": 1}, "['a']", "missing"),
    ([1, 2], (1, 2), "<result>", "list"),
    ({"n": 3}, {"n": 5}, "['n']", "3 != 5"),
    ({"x": 0.5}, {"x": 0.25}, "['x']", "0.5 != 0.25"),
    ({"s": "a"}, {"s": "b"}, "['s']", "'a' != 'b'"),
])
def test_mismatch_kinds(first, second, path, words):
    result = check_determinism(_alternating(first, second))
    assert not result.ok
    assert result.first_mismatch == path
    assert words in result.detail


def test_integer_and_complex_tensors_compare_bitwise():
    assert check_determinism(lambda: (torch.arange(5), torch.ones(3, dtype=torch.complex64),
                                      torch.tensor([True, False]))).ok
    result = check_determinism(_alternating(torch.tensor([1, 2]), torch.tensor([1, 5])))
    assert result.max_abs_diff == 3.0


def test_check_determinism_restores_global_state():
    torch.use_deterministic_algorithms(False)
    torch.backends.cudnn.benchmark = True
    random.seed(5)
    expected_next = random.Random(5).random()
    torch_state = torch.get_rng_state()
    assert check_determinism(_train_step).ok
    assert not torch.are_deterministic_algorithms_enabled()
    assert torch.backends.cudnn.benchmark is True
    assert random.random() == expected_next
    assert torch.equal(torch.get_rng_state(), torch_state)
    assert "PYTHONHASHSEED" not in os.environ
    assert _seed.current_record() is None


def test_check_determinism_restores_after_exception_and_validates_runs():
    def failing():
        raise ZeroDivisionError

    with pytest.raises(ZeroDivisionError):
        check_determinism(failing)
    assert not torch.are_deterministic_algorithms_enabled()
    with pytest.raises(ValueError, match="runs"):
        check_determinism(_train_step, runs=1)


@requires_cuda
def test_check_determinism_conv_step_on_cuda():  # marker: cuda
    def step():
        model = nn.Conv2d(3, 4, 3).cuda()
        model(torch.randn(2, 3, 8, 8, device="cuda")).sum().backward()
        return model

    assert check_determinism(step).ok


# --- isolate_rng ---------------------------------------------------------------------

def _draw():
    return (random.random(), float(np.random.rand()), torch.rand(3))


def _same(a, b):
    return a[0] == b[0] and a[1] == b[1] and torch.equal(a[2], b[2])


def test_isolate_rng_restores_every_generator():
    torch.manual_seed(1), random.seed(1), np.random.seed(1)
    expected = _draw()
    torch.manual_seed(1), random.seed(1), np.random.seed(1)
    with isolate_rng():
        inside = _draw()
        assert _same(inside, expected)  # the block starts from the saved state
        _draw()
    assert _same(_draw(), expected)  # and the outside continues as if it had not run


def test_isolate_rng_restores_on_exception_and_nests():
    torch.manual_seed(2), random.seed(2), np.random.seed(2)
    expected = _draw()
    torch.manual_seed(2), random.seed(2), np.random.seed(2)
    with pytest.raises(KeyError), isolate_rng():
        with isolate_rng():
            _draw()
        _draw()
        raise KeyError("inside")
    assert _same(_draw(), expected)


def test_isolate_rng_saves_initialised_cuda_and_npu_generators(monkeypatch):
    import types

    calls = []
    monkeypatch.setattr(torch.cuda, "is_initialized", lambda: True)
    monkeypatch.setattr(torch.cuda, "get_rng_state_all", lambda: ["cuda-state"])
    monkeypatch.setattr(torch.cuda, "set_rng_state_all", lambda states: calls.append(("cuda", states)))
    npu = types.SimpleNamespace(get_rng_state_all=lambda: ["npu-state"], is_initialized=lambda: True,
                                set_rng_state_all=lambda states: calls.append(("npu", states)))
    monkeypatch.setitem(sys.modules, "torch_npu", types.SimpleNamespace(npu=npu))
    with isolate_rng():
        pass
    assert calls == [("cuda", ["cuda-state"]), ("npu", ["npu-state"])]
    calls.clear()
    with isolate_rng(include_cuda=False):
        pass
    assert calls == []


def test_isolate_rng_does_not_initialise_cuda(monkeypatch):
    monkeypatch.setattr(torch.cuda, "is_initialized", lambda: False)
    monkeypatch.setattr(torch.cuda, "get_rng_state_all", lambda: pytest.fail("CUDA state read"))
    with isolate_rng():
        torch.rand(1)


# --- doctor -------------------------------------------------------------------------

def test_doctor_with_seed_is_green(capsys):
    assert doctor_main(["--seed", "0"]) == 0
    out = capsys.readouterr().out
    assert "torch build" in out and "Environment variables" in out
    assert "verify: OK" in out
    assert "PYTHONHASHSEED                 0 (set by seed_everything)" in out


def test_doctor_without_seed_reports_the_environment_and_exits_0(capsys):
    torch.use_deterministic_algorithms(False)
    assert doctor_main([]) == 0
    out = capsys.readouterr().out
    assert "seed_everything(seed) would change" in out
    assert "torch.use_deterministic_algorithms   False, warn_only=False -> True, warn_only=False" in out
    assert "FLASH_ATTENTION_DETERMINISTIC        unset -> 1" in out
    assert "ok  no inconsistent setting" in out and out.rstrip().endswith("doctor: OK (0 inconsistent, 0 warnings)")
    assert "Settings" not in out  # no verify() table: this process was not seeded
    assert not torch.are_deterministic_algorithms_enabled()  # and the doctor changed nothing
    assert "FLASH_ATTENTION_DETERMINISTIC" not in os.environ


def test_doctor_json_without_seed(capsys):
    assert doctor_main(["--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["ok"] is True and data["problems"] == [] and "report" not in data
    assert data["environment"]["torch"] == torch.__version__
    assert data["environment"]["numpy"] == np.__version__
    assert {"setting": "torch.backends.cudnn.deterministic", "now": "False", "after": "True"} in data["would_change"]


@pytest.mark.parametrize("name, value, status, words", [
    ("HCCL_DETERMINISTIC", "1", 1, "HCCL_DETERMINISTIC='1' is not a value torch_npu/HCCL accepts (true or strict)"),
    ("CUBLAS_WORKSPACE_CONFIG", ":4096:2", 1, "use CUBLAS_WORKSPACE_CONFIG=:4096:8"),
    ("FLASH_ATTENTION_DETERMINISTIC", "true", 1, "FLASH_ATTENTION_DETERMINISTIC='true' is not a value"),
    ("REPRO_LINT_SEED", "abc", 1, "REPRO_LINT_SEED='abc' is not an integer seed"),
    ("HCCL_DETERMINISTIC", "false", 0, "switches determinism off"),
    ("FLASH_ATTENTION_DETERMINISTIC", "0", 0, "switches determinism off"),
    ("PYTHONHASHSEED", "random", 0, "PYTHONHASHSEED=random asks for hash randomisation"),
])
def test_doctor_exits_1_only_for_inconsistent_settings(capsys, name, value, status, words):
    os.environ[name] = value
    assert doctor_main([]) == status
    out = capsys.readouterr().out
    assert words in out
    assert out.rstrip().endswith(f"doctor: {'FAILED' if status else 'OK'} ({status} inconsistent, {1 - status} warnings)")


@pytest.mark.parametrize("value", ["true", "TRUE", "strict"])
def test_doctor_accepts_the_hccl_values_torch_npu_and_cann_read(capsys, value):
    os.environ["HCCL_DETERMINISTIC"] = value
    assert doctor_main([]) == 0


def test_doctor_with_seed_also_reports_inconsistent_settings(capsys):
    os.environ["HCCL_DETERMINISTIC"] = "1"
    assert doctor_main(["--seed", "0"]) == 1
    out = capsys.readouterr().out
    assert "verify: OK" in out and "doctor: FAILED (1 inconsistent" in out


def test_readme_shows_the_doctors_real_output():
    """The README's ``repro-lint doctor`` block is real output: every line outside the
    machine-dependent parts (the Environment section, the CUDA/NPU-only switches) is printed
    by the command in a clean environment."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = readme.split("$ repro-lint doctor\n", 1)[1].split("```", 1)[0]
    env = {k: v for k, v in os.environ.items() if k not in doctor.ENV_VARS}
    env["PYTHONPATH"] = str(ROOT)
    proc = subprocess.run([sys.executable, "-m", "repro_lint", "doctor"], env=env, capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    section, compared = "", 0
    for line in block.splitlines():
        if line and not line.startswith(" "):
            section = line
        if section == "Environment" or not line.strip() or "CUBLAS_WORKSPACE_CONFIG " in line \
                or line.lstrip().startswith("generators"):
            continue
        assert line in proc.stdout.splitlines(), line
        compared += 1
    assert compared >= 20


def test_doctor_runs_as_module():
    env = clean_env()
    env["PYTHONPATH"] = str(ROOT)
    proc = subprocess.run([sys.executable, "-m", "repro_lint.runtime.doctor", "--seed", "0"],
                          env=env, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("Environment")
    assert "verify: OK" in proc.stdout
    bad = subprocess.run([sys.executable, "-m", "repro_lint.runtime.doctor", "--seed", "-1"],
                         env=env, capture_output=True, text=True, timeout=120)
    assert bad.returncode == 2
    assert "seed must be between 0" in bad.stderr
