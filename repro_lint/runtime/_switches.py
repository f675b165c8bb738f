"""The determinism switches ``seed_everything(deterministic=True)`` applies.

Environment variables first (nothing may initialise CUDA before they are set), then
torch's flags. Each function records what it set in ``env_set``/``switches`` and, for
start-up-only settings, why it came too late in ``too_late``.
"""

from __future__ import annotations

import os
import warnings
from typing import Any, Dict

from ._common import (
    CUBLAS_VALUES,
    HCCL_ACCEPTED,
    ReproducibilityWarning,
    user_stacklevel,
)

__all__ = ["apply_environment", "apply_flags", "process_group_exists"]


def _apply_cublas(torch: Any, env_set: Dict[str, str], too_late: Dict[str, str]) -> None:
    """Set ``CUBLAS_WORKSPACE_CONFIG`` on CUDA builds of torch if it is unset.

    torch 2.10 removed the check that made cuBLAS ops raise without it, but cuBLAS
    still needs a fixed workspace configuration for bitwise reproducible results
    when several streams are active, so it is set on every CUDA build. CPU and
    ROCm builds do not use cuBLAS and are left alone. A value the user set is
    never overwritten.
    """
    if getattr(torch.version, "cuda", None) is None:
        return
    if os.environ.get("CUBLAS_WORKSPACE_CONFIG"):
        return
    os.environ["CUBLAS_WORKSPACE_CONFIG"] = CUBLAS_VALUES[0]
    env_set["CUBLAS_WORKSPACE_CONFIG"] = CUBLAS_VALUES[0]
    if torch.cuda.is_initialized():
        too_late["CUBLAS_WORKSPACE_CONFIG"] = (
            "CUDA was already initialised; cuBLAS reads the variable when it creates "
            "its handle/workspace (first GEMM)"
        )


def process_group_exists(torch: Any) -> bool:
    dist = getattr(torch, "distributed", None)
    return bool(dist is not None and dist.is_available() and dist.is_initialized())


def _apply_hccl(torch: Any, env_set: Dict[str, str], too_late: Dict[str, str]) -> None:
    """Set ``HCCL_DETERMINISTIC=true`` for Ascend collectives.

    torch_npu treats HCCL as deterministic only if the lower-cased value is
    ``"true"``; CANN also documents ``"strict"``. Unset or unrecognised values
    (such as ``"1"``) are replaced by ``"true"``, with a warning for the latter.
    An explicit ``"false"`` is the user's choice and is kept, with a warning.
    """
    current = os.environ.get("HCCL_DETERMINISTIC")
    if current is not None and current.strip().lower() in HCCL_ACCEPTED:
        return
    if current is not None and current.strip().lower() == "false":
        warnings.warn(
            "HCCL_DETERMINISTIC=false is kept: HCCL collectives stay nondeterministic; "
            "set HCCL_DETERMINISTIC=true for deterministic AllReduce/ReduceScatter/Reduce",
            ReproducibilityWarning,
            stacklevel=user_stacklevel(),
        )
        return
    if current:
        warnings.warn(
            f"HCCL_DETERMINISTIC={current!r} is not a value torch_npu accepts "
            f"(it must be 'true', case-insensitive; CANN also accepts 'strict'); "
            "replaced with 'true'",
            ReproducibilityWarning,
            stacklevel=user_stacklevel(),
        )
    os.environ["HCCL_DETERMINISTIC"] = "true"
    env_set["HCCL_DETERMINISTIC"] = "true"
    if process_group_exists(torch):
        too_late["HCCL_DETERMINISTIC"] = (
            "a torch.distributed process group already exists; torch_npu reads the "
            "setting when it creates the first HCCL communicator"
        )



def apply_environment(torch: Any, npu: Any, env_set: Dict[str, str], too_late: Dict[str, str]) -> None:
    """The environment switches, before anything can initialise CUDA or HCCL."""
    _apply_cublas(torch, env_set, too_late)
    if npu is not None:
        _apply_hccl(torch, env_set, too_late)


def apply_flags(torch: Any, warn_only: bool, switches: Dict[str, str]) -> None:
    """torch's determinism flags."""
    torch.backends.cudnn.benchmark = False
    torch.backends.cudnn.deterministic = True
    torch.use_deterministic_algorithms(True, warn_only=warn_only)
    switches.update({
        "torch.backends.cudnn.benchmark": "False",
        "torch.backends.cudnn.deterministic": "True",
        "torch.use_deterministic_algorithms": f"True, warn_only={warn_only}",
    })
