"""``check_determinism``: run a function several times and compare bitwise.

Each run's return value is snapshotted right away (tensors cloned to CPU,
arrays copied, modules reduced to their named parameters, gradients and
buffers), because a later run may mutate objects an earlier run returned.
"""

from __future__ import annotations

import copy
import math
import os
import struct
import sys
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, Iterator, List, Optional, Tuple

from . import _seed
from ._common import optional_import
from ._rng import collect_rng_states, restore_rng_states
from ._switches import ENV_SWITCHES

__all__ = ["DeterminismResult", "check_determinism"]

_ENV_TOUCHED = ("PYTHONHASHSEED",) + tuple(switch.name for switch in ENV_SWITCHES)


@dataclass
class DeterminismResult:
    """Outcome of :func:`check_determinism`; truthy when all runs were identical.

    ``first_mismatch`` is the path of the first differing entry (e.g.
    ``"[0]['loss']"`` or ``"param:layer.weight.grad"``), ``detail`` says how it
    differs, ``max_abs_diff`` is the largest element-wise difference over all
    numeric entries of equal shape and dtype (0.0 when identical).
    """

    ok: bool
    runs: int
    first_mismatch: Optional[str] = None
    detail: str = ""
    max_abs_diff: float = 0.0
    mismatches: List[str] = field(default_factory=list)

    def __bool__(self) -> bool:
        return self.ok

    def __str__(self) -> str:
        if self.ok:
            return f"deterministic: {self.runs} runs bitwise identical"
        return (
            f"NOT deterministic over {self.runs} runs: first mismatch at "
            f"{self.first_mismatch or '<result>'} ({self.detail}); "
            f"{len(self.mismatches)} mismatching entr{'y' if len(self.mismatches) == 1 else 'ies'}, "
            f"max abs diff {self.max_abs_diff:g}"
        )


# --- snapshots -------------------------------------------------------------

@dataclass(frozen=True)
class _Tensor:
    value: Any  # a CPU torch.Tensor, cloned
    device: str


@dataclass(frozen=True)
class _Array:
    value: Any  # a copied numpy.ndarray


@dataclass(frozen=True)
class _Seq:
    kind: str
    items: Tuple[Any, ...]


@dataclass(frozen=True)
class _Map:
    kind: str
    items: Dict[Any, Any]


@dataclass(frozen=True)
class _Module:
    kind: str
    entries: Dict[str, Any]


def _snapshot(obj: Any) -> Any:
    """Copy ``obj`` into an immutable tree that later runs cannot change."""
    torch = sys.modules.get("torch")
    numpy = sys.modules.get("numpy")
    if torch is not None:
        if isinstance(obj, torch.Tensor):
            return _Tensor(obj.detach().to("cpu", copy=True).contiguous(), str(obj.device))
        if isinstance(obj, torch.nn.Module):
            entries: Dict[str, Any] = {}
            for name, param in obj.named_parameters():
                entries[f"param:{name}"] = _snapshot(param)
                entries[f"param:{name}.grad"] = _snapshot(param.grad)
            for name, buffer in obj.named_buffers():
                entries[f"buffer:{name}"] = _snapshot(buffer)
            return _Module(type(obj).__name__, entries)
    if numpy is not None and isinstance(obj, numpy.ndarray):
        return _Array(obj.copy())
    if isinstance(obj, dict):
        return _Map(type(obj).__name__, {key: _snapshot(value) for key, value in obj.items()})
    if isinstance(obj, (list, tuple)):
        return _Seq(type(obj).__name__, tuple(_snapshot(item) for item in obj))
    try:
        return copy.deepcopy(obj)
    except Exception:  # not copyable: compare the object itself
        return obj


# --- comparison ------------------------------------------------------------

class _Comparison:
    """Collects mismatches between a reference snapshot and one other run."""

    def __init__(self, run: int) -> None:
        self.run = run
        self.mismatches: List[Tuple[str, str]] = []
        self.max_abs_diff = 0.0

    def differ(self, path: str, detail: str) -> None:
        self.mismatches.append((path, f"run {self.run} vs run 0: {detail}"))

    def compare(self, a: Any, b: Any, path: str) -> None:
        if type(a) is not type(b):
            self.differ(path, f"type {_type_name(a)} != {_type_name(b)}")
        elif isinstance(a, _Tensor):
            self._tensors(a, b, path)
        elif isinstance(a, _Array):
            self._arrays(a.value, b.value, path)
        elif isinstance(a, _Seq):
            if a.kind != b.kind or len(a.items) != len(b.items):
                self.differ(path, f"{a.kind} of length {len(a.items)} != "
                                  f"{b.kind} of length {len(b.items)}")
                return
            for index, (x, y) in enumerate(zip(a.items, b.items)):
                self.compare(x, y, f"{path}[{index}]")
        elif isinstance(a, _Map):
            self._keyed(a.items, b.items, lambda key: f"{path}[{key!r}]")
        elif isinstance(a, _Module):
            prefix = f"{path}/" if path else ""
            self._keyed(a.entries, b.entries, lambda key: f"{prefix}{key}")
        elif isinstance(a, float):
            self._floats(a, b, path)
        else:
            self._other(a, b, path)

    def _keyed(self, a: Dict[Any, Any], b: Dict[Any, Any], at: Callable[[Any], str]) -> None:
        for key in a:
            if key not in b:
                self.differ(at(key), "missing")
        for key in b:
            if key not in a:
                self.differ(at(key), "present only in the later run")
        for key, value in a.items():
            if key in b:
                self.compare(value, b[key], at(key))

    def _floats(self, a: float, b: float, path: str) -> None:
        if math.isnan(a) and math.isnan(b):
            return
        if struct.pack("<d", a) != struct.pack("<d", b):
            diff = abs(a - b)
            self.max_abs_diff = max(self.max_abs_diff, math.inf if math.isnan(diff) else diff)
            self.differ(path, f"{a!r} != {b!r}")

    def _other(self, a: Any, b: Any, path: str) -> None:
        numpy = sys.modules.get("numpy")
        if numpy is not None and isinstance(a, numpy.generic):
            if a.dtype != b.dtype or a.tobytes() != b.tobytes():
                if not (a.dtype == b.dtype and a.dtype.kind in "fc" and numpy.isnan(a) and numpy.isnan(b)):
                    self.differ(path, f"{a!r} != {b!r}")
            return
        try:
            equal = bool(a == b)
        except Exception as exc:
            self.differ(path, f"cannot compare {_type_name(a)}: {exc}")
            return
        if not equal:
            if isinstance(a, int) and not isinstance(a, bool):
                self.max_abs_diff = max(self.max_abs_diff, float(abs(a - b)))
            self.differ(path, f"{_short(a)} != {_short(b)}")

    def _tensors(self, a: _Tensor, b: _Tensor, path: str) -> None:
        import torch

        x, y = a.value, b.value
        if a.device != b.device:
            self.differ(path, f"device {a.device} != {b.device}")
        elif x.dtype != y.dtype:
            self.differ(path, f"dtype {x.dtype} != {y.dtype}")
        elif x.shape != y.shape:
            self.differ(path, f"shape {tuple(x.shape)} != {tuple(y.shape)}")
        elif x.layout != torch.strided or x.is_quantized:
            if not torch.equal(x, y):
                self.differ(path, "values differ")
        else:
            same = _bitwise_equal_elements(torch, x, y)
            if not bool(same.all()):
                count = int((~same).sum())
                diff = _max_abs_diff(torch, x, y, same)
                self.max_abs_diff = max(self.max_abs_diff, diff)
                self.differ(path, f"{count} of {x.numel()} elements differ, max abs diff {diff:g}")

    def _arrays(self, x: Any, y: Any, path: str) -> None:
        import numpy

        if x.dtype != y.dtype:
            self.differ(path, f"dtype {x.dtype} != {y.dtype}")
        elif x.shape != y.shape:
            self.differ(path, f"shape {x.shape} != {y.shape}")
        elif x.dtype.hasobject:
            if not numpy.array_equal(x, y):
                self.differ(path, "values differ")
        elif x.tobytes() != y.tobytes():
            diff = 0.0
            if x.dtype.kind in "biufc":
                with numpy.errstate(all="ignore"):
                    bits_x = numpy.ascontiguousarray(x).view(numpy.uint8).reshape(x.size, -1)
                    bits_y = numpy.ascontiguousarray(y).view(numpy.uint8).reshape(y.size, -1)
                    same = (bits_x == bits_y).all(axis=1).reshape(x.shape)
                    delta = numpy.abs(x.astype(numpy.complex128 if x.dtype.kind == "c" else numpy.float64)
                                      - y.astype(numpy.complex128 if y.dtype.kind == "c" else numpy.float64))
                    delta = numpy.where(same, 0.0, numpy.nan_to_num(delta, nan=numpy.inf))
                    diff = float(delta.max()) if delta.size else 0.0
            self.max_abs_diff = max(self.max_abs_diff, diff)
            self.differ(path, f"values differ, max abs diff {diff:g}")


_INT_OF_SIZE = {1: "uint8", 2: "int16", 4: "int32", 8: "int64"}


def _bitwise_equal_elements(torch: Any, x: Any, y: Any) -> Any:
    """Element-wise bit equality (so equal NaNs match and -0.0 != 0.0)."""
    if x.dtype.is_complex:
        x, y = torch.view_as_real(x), torch.view_as_real(y)
        int_dtype = getattr(torch, _INT_OF_SIZE[x.element_size()])
        return (x.view(int_dtype) == y.view(int_dtype)).all(dim=-1)
    if x.dtype.is_floating_point:
        int_dtype = getattr(torch, _INT_OF_SIZE[x.element_size()])
        return x.view(int_dtype) == y.view(int_dtype)
    return x == y


def _max_abs_diff(torch: Any, x: Any, y: Any, same: Any) -> float:
    if x.dtype.is_complex:
        delta = (x.to(torch.complex128) - y.to(torch.complex128)).abs()
    else:
        delta = (x.to(torch.float64) - y.to(torch.float64)).abs()
    delta = torch.nan_to_num(delta, nan=math.inf)
    delta = torch.where(same, torch.zeros_like(delta), delta)
    return float(delta.max()) if delta.numel() else 0.0


def _type_name(obj: Any) -> str:
    if isinstance(obj, (_Seq, _Map, _Module)):
        return obj.kind
    if isinstance(obj, _Tensor):
        return "Tensor"
    if isinstance(obj, _Array):
        return "ndarray"
    return type(obj).__name__


def _short(obj: Any, limit: int = 60) -> str:
    text = repr(obj)
    return text if len(text) <= limit else text[: limit - 3] + "..."


# --- global state ----------------------------------------------------------

@contextmanager
def _preserved_global_state() -> Iterator[None]:
    """Restore RNG states, determinism flags, touched env vars and the seed record.

    check_determinism calls seed_everything for every run; afterwards the
    process should look as it did before the check, so that the check can be
    dropped into a training script without changing what follows it.
    """
    torch = optional_import("torch")
    record = _seed.current_record()
    env = {name: os.environ.get(name) for name in _ENV_TOUCHED}
    rng_states = collect_rng_states()
    saved: Dict[str, Any] = {}
    if torch is not None:
        saved = {
            "algorithms": torch.are_deterministic_algorithms_enabled(),
            "warn_only": torch.is_deterministic_algorithms_warn_only_enabled(),
            "benchmark": torch.backends.cudnn.benchmark,
            "cudnn_deterministic": torch.backends.cudnn.deterministic,
            "mkldnn_deterministic": getattr(torch.backends.mkldnn, "deterministic", None),
        }
        inductor = sys.modules.get("torch._inductor.config")
        saved["inductor"] = inductor.deterministic if inductor is not None else None
    try:
        yield
    finally:
        if torch is not None:
            torch.use_deterministic_algorithms(saved["algorithms"], warn_only=saved["warn_only"])
            torch.backends.cudnn.benchmark = saved["benchmark"]
            torch.backends.cudnn.deterministic = saved["cudnn_deterministic"]
            if saved["mkldnn_deterministic"] is not None:
                torch.backends.mkldnn.deterministic = saved["mkldnn_deterministic"]
            if saved["inductor"] is not None:
                sys.modules["torch._inductor.config"].deterministic = saved["inductor"]
        restore_rng_states(rng_states)
        for name, value in env.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
        _seed._set_record(record)


def check_determinism(
    fn: Callable[..., Any], *args: Any, seed: int = 0, runs: int = 2, **kwargs: Any
) -> DeterminismResult:
    """Run ``fn(*args, **kwargs)`` ``runs`` times and compare the results bitwise.

    Every run starts with ``seed_everything(seed)`` (deterministic mode on, and
    the ``warn_only``, ``workers``, ``device_specific`` and ``hashseed`` options of
    this process's last ``seed_everything`` call), so differences come from
    unseeded randomness, nondeterministic kernels or state carried between runs. Results may be tensors, NumPy arrays, Python scalars,
    ``nn.Module`` objects (named parameters, their ``.grad`` and buffers are
    compared) and lists/tuples/dicts of these. Floats compare by bits, with
    equal NaNs treated as equal.

    Afterwards the RNG states (random, NumPy, torch CPU and initialised CUDA
    devices), the determinism flags, the environment variables seed_everything
    may set and the seed record are restored. Side effects of ``fn`` itself are
    not undone. Exceptions from ``fn`` propagate (after restoring).
    """
    if isinstance(runs, bool) or not isinstance(runs, int) or runs < 2:
        raise ValueError(f"runs must be an int >= 2, got {runs!r}")
    snapshots: List[Any] = []
    record = _seed.current_record()
    options: Dict[str, Any] = {}
    if record is not None and record.pid == os.getpid():  # the script's own choices
        options = {name: getattr(record, name)
                   for name in ("warn_only", "workers", "device_specific", "hashseed")}
    with _preserved_global_state():
        for _ in range(runs):
            _seed.seed_everything(seed, **options)
            snapshots.append(_snapshot(fn(*args, **kwargs)))

    mismatches: List[Tuple[str, str]] = []
    max_abs_diff = 0.0
    for run in range(1, runs):
        comparison = _Comparison(run)
        comparison.compare(snapshots[0], snapshots[run], "")
        mismatches.extend(comparison.mismatches)
        max_abs_diff = max(max_abs_diff, comparison.max_abs_diff)
    if not mismatches:
        return DeterminismResult(ok=True, runs=runs)
    paths = list(dict.fromkeys(path or "<result>" for path, _ in mismatches))
    first_path, first_detail = mismatches[0]
    return DeterminismResult(
        ok=False,
        runs=runs,
        first_mismatch=first_path or "<result>",
        detail=first_detail,
        max_abs_diff=max_abs_diff,
        mismatches=paths,
    )
