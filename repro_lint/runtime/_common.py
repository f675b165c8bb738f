"""Shared helpers: optional imports, warning/error classes and constants.

Nothing here imports torch, NumPy or torch_npu at module level, so
``import repro_lint.runtime`` works on a machine that has none of them.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import re
import sys
from types import ModuleType
from typing import Optional, Tuple

__all__ = [
    "ReproducibilityWarning",
    "ReproducibilityError",
    "optional_import",
    "torch_npu_module",
    "torch_version",
    "user_stacklevel",
    "global_rank",
    "RANK_VARIABLES",
    "CUBLAS_VALUES",
    "HCCL_ACCEPTED",
]

#: The two ``CUBLAS_WORKSPACE_CONFIG`` values the cuBLAS documentation gives
#: for reproducible results with several streams.
CUBLAS_VALUES: Tuple[str, ...] = (":4096:8", ":16:8")

#: ``HCCL_DETERMINISTIC`` values (lower-cased) that make HCCL collectives
#: deterministic. torch_npu itself only recognises ``"true"``; CANN also
#: documents ``"strict"`` (fixed reduction order), which HCCL reads directly.
HCCL_ACCEPTED: Tuple[str, ...] = ("true", "strict")


class ReproducibilityWarning(UserWarning):
    """A setting could not take effect, or took effect too late, in this process."""


class ReproducibilityError(Exception):
    """Raised by ``verify(strict=True)`` when at least one check failed.

    The failing :class:`~repro_lint.runtime.Report` is available as ``.report``.
    """

    def __init__(self, message: str, report: object = None) -> None:
        super().__init__(message)
        self.report = report


_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))


def user_stacklevel() -> int:
    """The ``stacklevel`` that makes a warning point at the caller's own code.

    Called by a function of this package right before ``warnings.warn``: counts
    the frames from that function up to the first frame whose file lies outside
    ``repro_lint/runtime``, so a warning raised through any public entry
    (``seed_everything``, ``check_determinism``, ``reset_seed``, ...) names the
    user's line, however deep the call chain inside the package is.
    """
    frame = sys._getframe(1)
    level = 1
    while frame.f_back is not None and \
            os.path.dirname(os.path.abspath(frame.f_code.co_filename)) == _PACKAGE_DIR:
        frame = frame.f_back
        level += 1
    return level


#: Where the global rank is read when no torch.distributed process group exists, in
#: this order: torchrun/torch.distributed.launch set ``RANK`` (and ``LOCAL_RANK``),
#: SLURM sets ``SLURM_PROCID``.
RANK_VARIABLES: Tuple[str, ...] = ("RANK", "LOCAL_RANK", "SLURM_PROCID")


def global_rank() -> Tuple[int, str]:
    """``(rank, where it was read)``: this process's global rank.

    From ``torch.distributed.get_rank()`` when a process group is initialised (torch
    is not imported for this), else from the first of :data:`RANK_VARIABLES` that
    holds a non-negative integer, else ``(0, "default")``.
    """
    torch = sys.modules.get("torch")
    dist = getattr(torch, "distributed", None) if torch is not None else None
    try:
        if dist is not None and dist.is_available() and dist.is_initialized():
            return int(dist.get_rank()), "torch.distributed"
    except (RuntimeError, ValueError):  # a group being torn down: fall back to the environment
        pass
    for name in RANK_VARIABLES:
        value = os.environ.get(name, "").strip()
        if value.isdigit():
            return int(value), name
    return 0, "default"


def optional_import(name: str) -> Optional[ModuleType]:
    """Return module ``name``, or ``None`` when it cannot be imported.

    A module already in ``sys.modules`` is returned without a new import; a
    ``None`` entry there (the standard way to block an import) counts as absent.
    """
    if name in sys.modules:
        return sys.modules[name]
    try:
        return importlib.import_module(name)
    except ImportError:
        return None


def torch_npu_module(torch: Optional[ModuleType]) -> Optional[ModuleType]:
    """Return torch_npu if it is imported or installed (and importable), else ``None``.

    torch_npu is imported only when it is installed: a process that can use an
    Ascend NPU should have its NPU generators seeded and its HCCL settings
    checked even if the training script imports torch_npu later. Any import
    failure (missing driver, mismatched CANN) counts as "no NPU".
    """
    if torch is None:
        return None
    if "torch_npu" in sys.modules:
        return sys.modules["torch_npu"]
    try:
        if importlib.util.find_spec("torch_npu") is None:
            return None
        return importlib.import_module("torch_npu")
    except Exception:  # torch_npu raises many kinds of errors without an NPU stack
        return None


def torch_version(torch: ModuleType) -> Tuple[int, int]:
    """``(major, minor)`` of an imported torch, ``(0, 0)`` when unparsable."""
    match = re.match(r"(\d+)\.(\d+)", str(getattr(torch, "__version__", "")))
    if match is None:
        return (0, 0)
    return (int(match.group(1)), int(match.group(2)))
