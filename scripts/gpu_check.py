"""Check repro_lint.runtime on a CUDA GPU: the checks CPU-only CI cannot run.

    python scripts/gpu_check.py [--json results.json] [--skip-tests]

1. The CUDA tests of the test suite (``pytest -k cuda`` on the runtime test files).
2. A float32 training step built on ``index_add_`` and ``scatter_add_`` (nondeterministic
   CUDA kernels, deterministic ones under ``torch.use_deterministic_algorithms(True)``):
   ``check_determinism`` must report a mismatch with the switches off, and bitwise equality
   with the switches ``seed_everything(0)`` sets.
3. ``verify()`` on CUDA right after ``seed_everything(0)`` (must be OK), and again after a
   deliberate ``torch.backends.cudnn.benchmark = True`` (must fail on that row).
4. ``CUBLAS_WORKSPACE_CONFIG`` on the installed torch, each case in a fresh interpreter:
   whether a cuBLAS op raises in deterministic mode without it (torch < 2.10 should, newer
   versions should not), with ``:4096:8``, and with the value ``seed_everything`` sets.
5. The op catalog (``repro_lint/opcatalog.py``) on this GPU: every catalogued op called under
   the flag (``tests/op_probes.py``) must raise exactly when the catalog files it under
   "raises" for the installed torch, and otherwise give bitwise-equal results on two seeded
   runs; whether its results also differed between runs with the flag off is printed as INFO.
6. ``examples/train.py`` end to end on the GPU: two runs as written (printed as INFO), then
   ``repro-lint --fix --unsafe-fixes`` and two runs of the fixed script, whose losses (printed
   in full precision in this copy) must be equal.

Prints one line per check (PASS/FAIL/INFO) and exits 0 when every check passed, 1 when one
failed, and 2 without a CUDA device (nothing is checked then).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path
from typing import Any, Dict, List

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

RESULTS: List[Dict[str, Any]] = []


def record(name: str, passed: Any, detail: str) -> None:
    """One check: ``passed`` True/False, or None for information only."""
    status = "INFO" if passed is None else "PASS" if passed else "FAIL"
    RESULTS.append({"check": name, "status": status, "detail": detail})
    print(f"{status:4}  {name}: {detail}", flush=True)


def child_env(**extra: str) -> Dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "CUBLAS_WORKSPACE_CONFIG"}
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    env.update(extra)
    return env


def run_child(code: str, **extra: str) -> Dict[str, Any]:
    """Run ``code`` in a fresh interpreter (CUDA not yet initialised); its last stdout line is JSON."""
    proc = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], env=child_env(**extra),
                          capture_output=True, text=True, timeout=300, check=False)
    if proc.returncode != 0 or not proc.stdout.strip():
        return {"error": (proc.stderr or proc.stdout).strip().splitlines()[-1:] or ["no output"]}
    return json.loads(proc.stdout.strip().splitlines()[-1])


# --- 1. the CUDA tests ------------------------------------------------------------------------

def cuda_tests() -> None:
    files = [str(ROOT / "tests" / name) for name in
             ("test_runtime.py", "test_runtime_tools.py", "test_runtime_noise.py",
                          "test_op_probes.py")]
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-k", "cuda",
                           *files], cwd=ROOT, env=child_env(), capture_output=True, text=True,
                          timeout=900, check=False)
    summary = (proc.stdout.strip().splitlines() or ["no output"])[-1]
    # on a GPU nothing may be skipped: a skip means the test did not see the device
    record("CUDA tests (pytest -k cuda)", proc.returncode == 0 and "skipped" not in summary, summary)


# --- 2. index_add_ / scatter_add_ under check_determinism -------------------------------------

def training_step(switches_on: bool) -> Dict[str, Any]:
    """One float32 step whose forward pass sums many rows into few bins on the GPU."""
    import torch

    if not switches_on:  # seed_everything has just switched them on: turn them off for this run
        torch.use_deterministic_algorithms(False)
    rows, features, bins = 1 << 20, 16, 64
    x = torch.randn(rows, features, device="cuda")
    index = torch.randint(0, bins, (rows,), device="cuda")
    weight = torch.nn.Parameter(torch.randn(features, features, device="cuda") / features**0.5)
    hidden = x @ weight
    added = torch.zeros(bins, features, device="cuda").index_add_(0, index, hidden)
    scattered = torch.zeros(bins, features, device="cuda").scatter_add_(
        0, index[:, None].expand(-1, features), hidden)
    loss = added.square().mean() + scattered.square().mean()
    loss.backward()
    with torch.no_grad():
        weight -= 0.1 * weight.grad
    return {"loss": loss, "index_add": added, "scatter_add": scattered, "weight": weight,
            "grad": weight.grad}


def determinism_step() -> None:
    from repro_lint.runtime import check_determinism

    off = check_determinism(training_step, False, runs=3)
    record("index_add_/scatter_add_ step, switches off", not off.ok,
           f"mismatch reported as expected: {off}" if not off.ok else
           "expected a mismatch but the 3 runs were bitwise identical")
    on = check_determinism(training_step, True, runs=3)
    record("index_add_/scatter_add_ step after seed_everything(0)", on.ok, str(on))


# --- 3. verify() on CUDA ----------------------------------------------------------------------

def verify_checks() -> None:
    import torch

    from repro_lint.runtime import verify

    torch.ones(1, device="cuda").sum().item()  # initialise CUDA so its seed row is read
    report = verify()
    statuses = {check.name: check.status for check in report.checks}
    record("verify() after seed_everything(0)", report.ok and statuses.get("cuda") == "ok"
           and statuses.get("cuda initial_seed") == "ok",
           f"ok={report.ok}; " + ", ".join(f"{c.name}={c.status}" for c in report.checks
                                           if c.status in ("warn", "fail") or c.name.startswith("cu")))
    torch.backends.cudnn.benchmark = True
    try:
        report = verify()
        row = next(check for check in report.checks if check.name == "cudnn.benchmark")
        record("verify() after cudnn.benchmark = True", not report.ok and row.status == "fail",
               f"ok={report.ok}; cudnn.benchmark={row.status} ({row.actual})")
    finally:
        torch.backends.cudnn.benchmark = False


# --- 4. CUBLAS_WORKSPACE_CONFIG -----------------------------------------------------------------

CUBLAS_PROBE = """
    import json, os, warnings
    import torch
    {setup}
    torch.use_deterministic_algorithms(True)
    a = torch.randn(64, 64, device="cuda")
    try:
        (a @ a).sum().item()
        outcome = "no error"
    except RuntimeError as exc:
        outcome = "RuntimeError: " + str(exc).splitlines()[0][:160]
    print(json.dumps({{"value": os.environ.get("CUBLAS_WORKSPACE_CONFIG"), "outcome": outcome,
                      "torch": torch.__version__}}))
"""


def cublas_checks() -> None:
    import torch

    from repro_lint.runtime._common import torch_version

    should_raise = torch_version(torch) < (2, 10)
    unset = run_child(CUBLAS_PROBE.format(setup=""))
    raised = str(unset.get("outcome", "")).startswith("RuntimeError")
    record("cuBLAS op, deterministic mode, CUBLAS_WORKSPACE_CONFIG unset",
           raised == should_raise and "error" not in unset,
           f"torch {torch.__version__}: {unset.get('outcome', unset.get('error'))} "
           f"(expected {'a RuntimeError' if should_raise else 'no error'} for this version)")
    fixed = run_child(CUBLAS_PROBE.format(setup=""), CUBLAS_WORKSPACE_CONFIG=":4096:8")
    record("cuBLAS op with CUBLAS_WORKSPACE_CONFIG=:4096:8", fixed.get("outcome") == "no error",
           str(fixed.get("outcome", fixed.get("error"))))
    seeded = run_child(CUBLAS_PROBE.format(setup=(
        "from repro_lint.runtime import seed_everything\n"
        "    warnings.simplefilter('ignore')\n"
        "    seed_everything(0)")))
    record("cuBLAS op after seed_everything(0) in a fresh process",
           seeded.get("outcome") == "no error" and seeded.get("value") == ":4096:8",
           f"CUBLAS_WORKSPACE_CONFIG={seeded.get('value')}: {seeded.get('outcome', seeded.get('error'))}")
    late = run_child("""
        import json, warnings
        import torch
        torch.ones(1, device="cuda")  # CUDA initialised before seeding
        from repro_lint.runtime import seed_everything, verify
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            seed_everything(0, hashseed="ignore")
        row = next(c for c in verify().checks if c.name == "CUBLAS_WORKSPACE_CONFIG")
        print(json.dumps({"warned": any("CUBLAS" in str(w.message) for w in caught),
                          "status": row.status, "actual": row.actual}))
    """)
    record("CUBLAS_WORKSPACE_CONFIG set after CUDA init is reported as too late",
           late.get("warned") is True and late.get("status") == "warn",
           json.dumps(late))


# --- 5. the op catalog on this GPU -------------------------------------------------------------

def op_catalog_checks() -> None:
    import torch

    from op_probes import differs_without_flag, judge, probes

    from repro_lint.config import parse_version

    version = parse_version(torch.__version__)
    differed = []
    for probe in probes(torch, "cuda"):
        try:
            ok, result, line = judge(probe, version, "cuda")
        except Exception as exc:  # a probe that cannot run here is a broken probe
            record(f"op {probe.label}", False, f"probe failed: {type(exc).__name__}: {exc}")
            continue
        if not result.raised and differs_without_flag(torch, probe):
            differed.append(probe.label)
        record(f"op {probe.label}", ok, line)
    record("ops whose results differed between 3 runs with the flag off", None,
           ", ".join(differed) or "none")


# --- 6. the example, fixed, twice on the GPU ---------------------------------------------------

LOSS_LINE = 'print(f"epoch {epoch}: loss {loss.item():.4f}")'


def example_end_to_end() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        script = Path(tmp) / "train.py"
        text = (ROOT / "examples" / "train.py").read_text(encoding="utf-8")
        if LOSS_LINE not in text:
            record("examples/train.py end to end", False, "the example no longer prints its loss as expected")
            return
        # this copy prints the loss in full precision, so that equal lines mean equal floats
        script.write_text(text.replace(LOSS_LINE, 'print(f"epoch {epoch}: loss {loss.item()!r}")'),
                          encoding="utf-8")

        def run() -> str:
            proc = subprocess.run([sys.executable, str(script), "--epochs", "2", "--workers", "2"],
                                  env=child_env(), capture_output=True, text=True, timeout=600, cwd=tmp,
                                  check=False)
            return proc.stdout.strip() if proc.returncode == 0 else f"exit {proc.returncode}: {proc.stderr[-300:]}"

        before = [run(), run()]
        record("examples/train.py as written, two runs on CUDA", None,
               "identical" if before[0] == before[1] else f"differ: {before[0]!r} vs {before[1]!r}")
        fixed = subprocess.run([sys.executable, "-m", "repro_lint", "--fix", "--unsafe-fixes", str(script)],
                               env=child_env(), capture_output=True, text=True, timeout=300, check=False)
        if fixed.returncode != 0:
            record("examples/train.py after repro-lint --fix", False, (fixed.stdout + fixed.stderr)[-300:])
            return
        after = [run(), run()]
        record("examples/train.py after repro-lint --fix --unsafe-fixes, two runs on CUDA",
               after[0] == after[1] and not after[0].startswith("exit"),
               f"{after[0]!r}" + ("" if after[0] == after[1] else f" vs {after[1]!r}"))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", type=Path, help="also write the results to this file")
    parser.add_argument("--skip-tests", action="store_true", help="do not run the CUDA tests")
    args = parser.parse_args()
    try:
        import torch
    except ImportError:
        print("gpu_check: torch is not installed; nothing checked", file=sys.stderr)
        return 2
    if not torch.cuda.is_available():
        print(f"gpu_check: no CUDA device (torch {torch.__version__}, torch.version.cuda="
              f"{torch.version.cuda}, torch.cuda.is_available() is False); nothing checked. "
              "Run it on a machine with an NVIDIA GPU and a CUDA build of torch.", file=sys.stderr)
        return 2

    import warnings

    from repro_lint.runtime import seed_everything

    # First, before any CUDA work in this process, as a training script would.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        seed_everything(0, hashseed="ignore")
    record("device", None, f"{torch.cuda.get_device_name(0)}; torch {torch.__version__}, CUDA "
                           f"{torch.version.cuda}, cuDNN {torch.backends.cudnn.version()}")
    verify_checks()
    determinism_step()
    cublas_checks()
    op_catalog_checks()
    example_end_to_end()
    if not args.skip_tests:
        cuda_tests()
    failed = [r for r in RESULTS if r["status"] == "FAIL"]
    print(f"\ngpu_check: {len(RESULTS) - len(failed)} of {len(RESULTS)} checks passed or informational"
          + (f"; FAILED: {', '.join(r['check'] for r in failed)}" if failed else ""))
    if args.json:
        args.json.write_text(json.dumps(RESULTS, indent=2) + "\n", encoding="utf-8")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
