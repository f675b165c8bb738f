"""``verify()``: read every reproducibility setting back and judge it.

Each check reads a setting with its getter; a getter that raises turns into a
``warn`` entry instead of an exception. Status meanings:

* ``fail``: the setting makes runs differ (or seeding did not happen here).
* ``warn``: possibly nondeterministic, or a setting came too late.
* ``skip``: not applicable on this machine (no CUDA, no torch_npu, ...).
* ``ok``: as expected, or purely informational (expected shown as ``(info)``).
"""

from __future__ import annotations

import importlib
import os
import random
import sys
from dataclasses import asdict, dataclass, field
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple, Union

from . import _seed
from ._switches import ENV_SWITCHES, switch_applies
from ._common import (
    CUBLAS_VALUES,
    HCCL_ACCEPTED,
    ReproducibilityError,
    optional_import,
    torch_npu_module,
    torch_version,
)

__all__ = ["Check", "Report", "verify"]

STATUSES = ("ok", "warn", "fail", "skip")
INFO = "(info)"


@dataclass(frozen=True)
class Check:
    """One verified setting: what was expected, what was read, and how to fix it."""

    name: str
    status: str
    expected: str = ""
    actual: str = ""
    fix: str = ""

    def __post_init__(self) -> None:
        if self.status not in STATUSES:
            raise ValueError(f"status must be one of {STATUSES}, got {self.status!r}")

    def to_dict(self) -> Dict[str, str]:
        return asdict(self)


@dataclass
class Report:
    """The result of :func:`verify`: a list of :class:`Check` entries."""

    checks: List[Check] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """True when no check failed (warnings and skips do not count)."""
        return not self.failed

    @property
    def failed(self) -> List[Check]:
        return [check for check in self.checks if check.status == "fail"]

    def counts(self) -> Dict[str, int]:
        return {status: sum(c.status == status for c in self.checks) for status in STATUSES}

    def to_dict(self) -> Dict[str, Any]:
        """JSON-serialisable form for logging."""
        return {
            "ok": self.ok,
            "counts": self.counts(),
            "checks": [check.to_dict() for check in self.checks],
        }

    def __str__(self) -> str:
        header = ("STATUS", "CHECK", "EXPECTED", "ACTUAL")
        rows = [header] + [(c.status, c.name, c.expected, c.actual) for c in self.checks]
        widths = [max(len(row[i]) for row in rows) for i in range(3)]
        lines = [
            "  ".join(cell.ljust(width) for cell, width in zip(row[:3], widths)) + "  " + row[3]
            for row in rows
        ]
        fixes = [c for c in self.checks if c.fix and c.status in ("warn", "fail")]
        if fixes:
            lines.append("")
            lines.append("How to fix:")
            lines.extend(f"  [{c.status}] {c.name}: {c.fix}" for c in fixes)
        counts = self.counts()
        summary = ", ".join(f"{counts[s]} {s}" for s in STATUSES)
        lines.append("")
        lines.append(f"verify: {'OK' if self.ok else 'FAILED'} ({summary})")
        return "\n".join(lines)


CheckResult = Union[Check, Sequence[Check]]


def _guarded(name: str, getter: Callable[[], CheckResult]) -> List[Check]:
    """Run one check; a raising getter becomes a ``warn`` entry."""
    try:
        result = getter()
    except Exception as exc:  # a getter must never crash verify()
        return [Check(name, "warn", "readable", f"could not read: {type(exc).__name__}: {exc}")]
    return [result] if isinstance(result, Check) else list(result)


def _launch_fix(assignment: str) -> str:
    return f"set it where the process is launched: `{assignment} python train.py`"


# --- seeding ---------------------------------------------------------------

def _seeded_here(record: Optional[_seed.SeedRecord]) -> bool:
    return record is not None and record.pid == os.getpid()


def _check_seeded(record: Optional[_seed.SeedRecord]) -> Check:
    expected = "called in this process"
    if record is None:
        return Check("seed_everything", "fail", expected, "not called",
                     "call seed_everything(seed) at the start of the script")
    if record.pid != os.getpid():
        return Check("seed_everything", "fail", expected,
                     f"called in parent process {record.pid} only (inherited by fork)",
                     "call seed_everything(seed) in this process (worker_init_fn=seed_worker "
                     "for DataLoader workers)")
    return Check("seed_everything", "ok", expected, record.describe())


def _check_random(record: Optional[_seed.SeedRecord]) -> Check:
    name = "random state"
    if not _seeded_here(record):
        return Check(name, "skip", "seeded", "seed_everything not called here")
    if random.getstate() == random.Random(record.seed).getstate():
        return Check(name, "ok", f"Random({record.seed}) state", "equal (no draws since seeding)")
    return Check(name, "ok", f"Random({record.seed}) state",
                 "advanced since seeding (draws or a later re-seed; not comparable)")


def _check_numpy(record: Optional[_seed.SeedRecord]) -> Check:
    name = "numpy global RNG"
    numpy = sys.modules.get("numpy")
    if numpy is None:
        return Check(name, "skip", "seeded", "numpy not imported")
    if not _seeded_here(record) or "numpy" not in record.seeded:
        return Check(name, "skip", "seeded", "not seeded by seed_everything here")
    current = numpy.random.get_state()
    reference = numpy.random.RandomState(record.seed).get_state()
    same = current[0] == reference[0] and bool(numpy.array_equal(current[1], reference[1])) \
        and tuple(current[2:]) == tuple(reference[2:])
    expected = f"RandomState({record.seed}) state"
    if same:
        return Check(name, "ok", expected, "equal (no draws since seeding)")
    return Check(name, "ok", expected,
                 "advanced since seeding (draws or a later re-seed; not comparable)")


def _check_torch_seed(torch: Any, record: Optional[_seed.SeedRecord]) -> Check:
    name = "torch initial_seed"
    actual = torch.initial_seed()
    if not _seeded_here(record) or "torch" not in record.seeded:
        return Check(name, "skip", "seed given to seed_everything", str(actual))
    if actual != record.seed:
        return Check(name, "warn", str(record.seed), f"{actual} (re-seeded after seed_everything)",
                     "remove later torch.manual_seed calls or seed them all with one value")
    drawn = bytes(torch.get_rng_state().tolist()) != record.torch_rng_state
    state = "advanced since seeding" if drawn else "no draws since seeding"
    return Check(name, "ok", str(record.seed), f"{actual} ({state})")


def _check_cuda(torch: Any, record: Optional[_seed.SeedRecord]) -> List[Check]:
    if not torch.cuda.is_available():
        return [Check("cuda", "skip", INFO, "not available")]
    count = torch.cuda.device_count()
    names = ", ".join(torch.cuda.get_device_name(i) for i in range(count))
    checks = [Check("cuda", "ok", INFO, f"{count} device(s): {names}")]
    name = "cuda initial_seed"
    if not torch.cuda.is_initialized():
        # torch.cuda.initial_seed() would initialise CUDA, which verify() must not do.
        checks.append(Check(name, "skip", "seed given to seed_everything",
                            "CUDA not initialised yet (seeding is applied lazily)"))
    elif not _seeded_here(record):
        checks.append(Check(name, "skip", "seed given to seed_everything",
                            str(torch.cuda.initial_seed())))
    else:
        actual = torch.cuda.initial_seed()
        status = "ok" if actual == record.seed else "warn"
        checks.append(Check(name, status, str(record.seed), str(actual),
                            "" if status == "ok" else "seed CUDA with the same seed everywhere"))
    return checks


# --- determinism switches --------------------------------------------------

def _check_algorithms(torch: Any) -> List[Check]:
    enabled = torch.are_deterministic_algorithms_enabled()
    warn_only = torch.is_deterministic_algorithms_warn_only_enabled()
    fix = "torch.use_deterministic_algorithms(True) (seed_everything does this)"
    return [
        Check("deterministic algorithms", "ok" if enabled else "fail", "True", str(enabled),
              "" if enabled else fix),
        Check("deterministic warn_only", "warn" if warn_only else "ok", "False", str(warn_only),
              "nondeterministic ops only warn; use warn_only=False to make them raise"
              if warn_only else ""),
    ]


def _check_debug_mode(torch: Any) -> Check:
    mode = torch.get_deterministic_debug_mode()
    labels = {0: "default", 1: "warn", 2: "error"}
    return Check("deterministic debug mode", "ok", INFO, f"{mode} ({labels.get(mode, '?')})")


def _check_cudnn(torch: Any) -> List[Check]:
    cudnn = torch.backends.cudnn
    benchmark = bool(cudnn.benchmark)
    deterministic = bool(cudnn.deterministic)
    checks = [Check("cudnn.benchmark", "fail" if benchmark else "ok", "False", str(benchmark),
                    "torch.backends.cudnn.benchmark = False" if benchmark else "")]
    if deterministic:
        checks.append(Check("cudnn.deterministic", "ok", "True", "True"))
    else:
        # use_deterministic_algorithms already covers cuDNN convolutions, but not
        # e.g. the cuDNN CTC loss path, so a False flag is still worth a warning.
        status = "warn" if torch.are_deterministic_algorithms_enabled() else "fail"
        checks.append(Check("cudnn.deterministic", status, "True", "False",
                            "torch.backends.cudnn.deterministic = True"))
    version = cudnn.version() if cudnn.is_available() else None
    checks.append(Check("cudnn.enabled", "ok", INFO,
                        f"{bool(cudnn.enabled)} (cuDNN {version or 'not available'})"))
    return checks


def _check_fill_memory(torch: Any) -> Check:
    name = "fill_uninitialized_memory"
    try:
        module = importlib.import_module("torch.utils.deterministic")
    except ImportError:
        return Check(name, "skip", "True", "not available (torch < 2.2)")
    value = bool(module.fill_uninitialized_memory)
    return Check(name, "ok" if value else "warn", "True", str(value),
                 "" if value else "torch.utils.deterministic.fill_uninitialized_memory = True "
                 "(else torch.empty() contents differ between runs)")


def _check_inductor() -> Check:
    name = "inductor deterministic"
    config = sys.modules.get("torch._inductor.config")
    if config is None:
        # Importing it costs about 2 s; if it is not imported, torch.compile has
        # not run and deterministic mode (which imports it in torch 2.13) was not set.
        return Check(name, "skip", "True", "torch._inductor.config not imported")
    value = bool(config.deterministic)
    return Check(name, "ok" if value else "warn", "True", str(value),
                 "" if value else "torch.use_deterministic_algorithms(True) sets it "
                 "(or TORCHINDUCTOR_DETERMINISTIC=1); only matters for torch.compile")


def _check_fp32(torch: Any) -> Check:
    """TF32 settings: numerics across hardware, not run-to-run determinism.

    ``fp32_precision`` (torch >= 2.9) is read first; the legacy ``allow_tf32``
    flags are read only without it, because reading them after the new API was
    used raises ``RuntimeError``.
    """
    backends = torch.backends
    matmul = backends.cuda.matmul
    if hasattr(matmul, "fp32_precision"):
        parts = [f"matmul={matmul.fp32_precision}"]
        for label, obj in (("cudnn.conv", getattr(backends.cudnn, "conv", None)),
                           ("cudnn.rnn", getattr(backends.cudnn, "rnn", None))):
            if obj is not None and hasattr(obj, "fp32_precision"):
                parts.append(f"{label}={obj.fp32_precision}")
    else:
        parts = [f"float32_matmul_precision={torch.get_float32_matmul_precision()}"]
        for label, obj in (("matmul.allow_tf32", matmul), ("cudnn.allow_tf32", backends.cudnn)):
            try:
                parts.append(f"{label}={obj.allow_tf32}")
            except RuntimeError as exc:
                parts.append(f"{label}=unreadable ({exc})")
    return Check("fp32 precision (TF32)", "ok", INFO, " ".join(parts))


def _check_cublas(torch: Any, record: Optional[_seed.SeedRecord]) -> Check:
    name = "CUBLAS_WORKSPACE_CONFIG"
    expected = " or ".join(CUBLAS_VALUES)
    if getattr(torch.version, "cuda", None) is None:
        return Check(name, "skip", expected, "not a CUDA build of torch (cuBLAS unused)")
    value = os.environ.get(name)
    fix = _launch_fix(f"{name}={CUBLAS_VALUES[0]}")
    if value in CUBLAS_VALUES:
        if _seeded_here(record) and name in record.too_late:
            return Check(name, "warn", expected, f"{value} (set after CUDA init: too late)", fix)
        return Check(name, "ok", expected, value)
    shown = "unset" if value is None else value
    # torch < 2.10 raises on cuBLAS ops in deterministic mode without it; newer
    # versions only need it for reproducible results with several streams.
    if torch_version(torch) < (2, 10):
        return Check(name, "fail", expected, shown, fix)
    return Check(name, "warn", expected, f"{shown} (needed with several CUDA streams)", fix)


def _check_mkldnn(torch: Any) -> Check:
    name = "mkldnn.deterministic"
    mkldnn = getattr(torch.backends, "mkldnn", None)
    if mkldnn is None or not hasattr(mkldnn, "deterministic"):
        return Check(name, "skip", "True", "not available in this torch")
    value = bool(mkldnn.deterministic)
    return Check(name, "ok" if value else "warn", "True", str(value),
                 "" if value else "torch.backends.mkldnn.deterministic = True (oneDNN CPU/XPU "
                 "kernels; seed_everything does this)")


_NOT_USED = {"cuda": "not a CUDA build of torch", "npu": "torch_npu not installed or not importable",
             "torch": "torch not installed"}


def _check_env_switches(torch: Any, npu: Any) -> List[Check]:
    """The environment switches read when they are used (CUBLAS and HCCL have their own)."""
    checks = []
    for switch in ENV_SWITCHES:
        if switch.name in ("CUBLAS_WORKSPACE_CONFIG", "HCCL_DETERMINISTIC"):
            continue
        if not switch_applies(switch, torch, npu):
            checks.append(Check(switch.name, "skip", switch.value, _NOT_USED[switch.scope]))
            continue
        value = os.environ.get(switch.name)
        if switch.is_on(value):
            checks.append(Check(switch.name, "ok", switch.value, value or ""))
        else:
            checks.append(Check(switch.name, "warn", switch.value, "unset" if value is None else value,
                                f"set {switch.name}={switch.value} (seed_everything does this "
                                f"when unset); read by {switch.reader}"))
    return checks


# --- Ascend NPU ------------------------------------------------------------

def _check_npu(npu: Any) -> List[Check]:
    if npu is None:
        return [Check("npu", "skip", INFO, "torch_npu not installed or not importable")]
    available = bool(npu.npu.is_available())
    checks = [Check("npu", "ok" if available else "skip", INFO,
                    "available" if available else "torch_npu present, no NPU available")]
    getter = getattr(npu.npu, "_get_deterministic_level", None)
    if getter is None:
        checks.append(Check("npu deterministic level", "skip", ">= 1",
                            "torch_npu has no _get_deterministic_level"))
    else:
        level = int(getter())
        checks.append(Check("npu deterministic level", "ok" if level >= 1 else "warn", ">= 1",
                            str(level), "" if level >= 1 else
                            "torch_npu.npu.set_deterministic_level(1)"))
    return checks


def _check_hccl(npu: Any, record: Optional[_seed.SeedRecord]) -> Check:
    name = "HCCL_DETERMINISTIC"
    if npu is None:
        return Check(name, "skip", "true", "torch_npu not installed or not importable")
    value = os.environ.get(name)
    fix = _launch_fix(f"{name}=true")
    if value is not None and value.strip().lower() in HCCL_ACCEPTED:
        if _seeded_here(record) and name in record.too_late:
            return Check(name, "warn", "true",
                         f"{value} (set after the process group was created: too late)", fix)
        return Check(name, "ok", "true", value)
    if value is None:
        return Check(name, "fail", "true", "unset", fix)
    return Check(name, "fail", "true", value,
                 f"use HCCL_DETERMINISTIC=true: torch_npu only accepts 'true' "
                 f"(got {value!r}); {fix}")


# --- environment -----------------------------------------------------------

def _check_hash_seed(record: Optional[_seed.SeedRecord]) -> Check:
    name = "PYTHONHASHSEED"
    if sys.flags.hash_randomization == 0:
        return Check(name, "ok", "fixed at start", "0 (hash randomisation off)")
    value = os.environ.get(name)
    if value is not None and value.isdigit() and _seed.hash_seed_in_effect(value):
        return Check(name, "ok", "fixed at start", f"{value} (in effect)")
    actual = "hash randomisation on in this interpreter"
    if value:
        actual += f"; {name}={value} set later (child processes only)"
    if _seeded_here(record) and record.hashseed == "ignore":
        return Check(name, "skip", "fixed at start", actual + "; ignored (hashseed=\"ignore\")")
    return Check(name, "warn", "fixed at start", actual,
                 _launch_fix(f"{name}={value if value and value.isdigit() else 0}")
                 + " (str/bytes set iteration order varies otherwise)")


def _check_threads(torch: Any) -> Check:
    threads = torch.get_num_threads()
    omp = os.environ.get("OMP_NUM_THREADS", "unset")
    return Check("cpu threads", "ok", INFO,
                 f"torch.get_num_threads()={threads}, OMP_NUM_THREADS={omp} "
                 "(float sums differ across thread counts)")


def _torch_checks(torch: Any, record: Optional[_seed.SeedRecord]) -> List[Check]:
    npu = torch_npu_module(torch)
    getters: Sequence[Tuple[str, Callable[[], CheckResult]]] = (
        ("torch initial_seed", lambda: _check_torch_seed(torch, record)),
        ("cuda", lambda: _check_cuda(torch, record)),
        ("npu", lambda: _check_npu(npu)),
        ("deterministic algorithms", lambda: _check_algorithms(torch)),
        ("deterministic debug mode", lambda: _check_debug_mode(torch)),
        ("cudnn", lambda: _check_cudnn(torch)),
        ("mkldnn.deterministic", lambda: _check_mkldnn(torch)),
        ("fill_uninitialized_memory", lambda: _check_fill_memory(torch)),
        ("inductor deterministic", _check_inductor),
        ("fp32 precision (TF32)", lambda: _check_fp32(torch)),
        ("CUBLAS_WORKSPACE_CONFIG", lambda: _check_cublas(torch, record)),
        ("HCCL_DETERMINISTIC", lambda: _check_hccl(npu, record)),
        ("environment switches", lambda: _check_env_switches(torch, npu)),
        ("cpu threads", lambda: _check_threads(torch)),
    )
    checks: List[Check] = []
    for name, getter in getters:
        checks += _guarded(name, getter)
    return checks


def verify(*, strict: bool = False) -> Report:
    """Read every reproducibility setting back and return a :class:`Report`.

    Never changes a setting, never initialises CUDA and never imports
    ``torch._inductor``.
    With ``strict=True`` a report with failed checks raises
    :class:`ReproducibilityError` listing them.
    """
    record = _seed.current_record()
    checks: List[Check] = []
    checks += _guarded("seed_everything", lambda: _check_seeded(record))
    checks += _guarded("random state", lambda: _check_random(record))
    checks += _guarded("numpy global RNG", lambda: _check_numpy(record))
    checks += _guarded("PYTHONHASHSEED", lambda: _check_hash_seed(record))

    try:
        torch = optional_import("torch")
    except Exception as exc:  # e.g. OSError from a broken CUDA library
        checks.append(Check("torch", "warn", "importable", f"{type(exc).__name__}: {exc}"))
    else:
        if torch is None:
            checks.append(Check("torch", "skip", INFO, "torch not importable"))
        else:
            checks += _torch_checks(torch, record)

    report = Report(checks)
    if strict and not report.ok:
        listed = "; ".join(f"{c.name}: expected {c.expected}, got {c.actual}" for c in report.failed)
        raise ReproducibilityError(f"{len(report.failed)} reproducibility check(s) failed: {listed}",
                                   report)
    return report
