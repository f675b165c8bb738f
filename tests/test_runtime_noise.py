"""The runtime's warnings: the PYTHONHASHSEED one is shown once per process, at the user's line.

The acceptance case runs the bundled example, fixed by ``repro-lint --fix``, in a fresh
interpreter: silent when launched with ``PYTHONHASHSEED``, exactly one warning naming the
fixed script's ``seed_everything`` line otherwise.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import warnings
from pathlib import Path

import pytest
import torch

from conftest import pythonpath
from runtime_state import clean_env, preserved_runtime_state

from repro_lint.runtime import ReproducibilityWarning, check_determinism, seed_everything, verify

ROOT = Path(__file__).resolve().parents[1]
hash_randomised = pytest.mark.skipif(sys.flags.hash_randomization == 0,
                                     reason="interpreter started with PYTHONHASHSEED=0")


@pytest.fixture(autouse=True)
def restore_global_state():
    """RNGs, determinism flags, variables, the seed record: as they were after each test."""
    with preserved_runtime_state():
        yield


def hash_warnings(caught):
    return [w for w in caught if issubclass(w.category, ReproducibilityWarning)
            and "PYTHONHASHSEED" in str(w.message)]


@pytest.fixture(scope="module")
def fixed_example(tmp_path_factory) -> Path:
    """examples/train.py after ``repro-lint --fix --unsafe-fixes``."""
    script = tmp_path_factory.mktemp("example") / "train.py"
    shutil.copyfile(ROOT / "examples" / "train.py", script)
    env = dict(os.environ, PYTHONPATH=pythonpath())
    fixed = subprocess.run([sys.executable, "-m", "repro_lint", "--fix", "--unsafe-fixes", str(script)],
                           env=env, capture_output=True, text=True, timeout=300)
    assert fixed.returncode == 0, fixed.stdout + fixed.stderr
    assert "seed_everything(" in script.read_text(encoding="utf-8")
    return script


def run_example(script: Path, **env_extra: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in clean_env().items() if k != "PYTHONWARNINGS"}
    env.update(PYTHONPATH=pythonpath(), **env_extra)
    return subprocess.run([sys.executable, str(script), "--epochs", "1", "--workers", "1"],
                          env=env, capture_output=True, text=True, timeout=600, cwd=script.parent)


def test_fixed_example_is_silent_with_pythonhashseed(fixed_example):
    proc = run_example(fixed_example, PYTHONHASHSEED="0")
    assert proc.returncode == 0, proc.stderr
    assert "epoch 0: loss" in proc.stdout
    assert "Warning" not in proc.stderr, proc.stderr


def test_fixed_example_warns_once_at_its_own_line(fixed_example):
    lines = fixed_example.read_text(encoding="utf-8").splitlines()
    seed_line = next(n for n, line in enumerate(lines, 1) if "seed_everything(" in line
                     and not line.lstrip().startswith(("from", "import")))
    proc = run_example(fixed_example)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.count("ReproducibilityWarning") == 1, proc.stderr
    assert f"{fixed_example}:{seed_line}: ReproducibilityWarning: PYTHONHASHSEED" in proc.stderr
    assert 'hashseed="ignore"' in proc.stderr  # says how to silence it


@hash_randomised
def test_warning_once_per_process_at_the_callers_line():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        line = sys._getframe().f_lineno + 1
        seed_everything(0)
        seed_everything(1)
    found = hash_warnings(caught)
    assert len(found) == 1
    assert (found[0].filename, found[0].lineno) == (__file__, line)


@hash_randomised
def test_check_determinism_warns_at_its_callers_line():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        line = sys._getframe().f_lineno + 1
        result = check_determinism(lambda: torch.rand(3), runs=3)
    assert result.ok
    found = hash_warnings(caught)
    assert len(found) == 1
    assert (found[0].filename, found[0].lineno) == (__file__, line)


@hash_randomised
def test_hashseed_ignore_silences_the_warning_for_the_process():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        seed_everything(0, hashseed="ignore")
        seed_everything(0)
        check_determinism(lambda: torch.rand(2))
    assert hash_warnings(caught) == []
    seed_everything(0, hashseed="ignore")
    check = next(c for c in verify().checks if c.name == "PYTHONHASHSEED")
    assert check.status == "skip" and "ignored" in check.actual


def test_hashseed_mode_is_validated():
    with pytest.raises(ValueError, match="hashseed"):
        seed_everything(0, hashseed="off")
