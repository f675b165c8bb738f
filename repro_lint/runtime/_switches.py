"""The determinism switches ``seed_everything(deterministic=True)`` applies.

Environment variables first (nothing may initialise CUDA before they are set), then
torch's flags. Each function records what it set in ``env_set``/``switches`` and, for
start-up-only settings, why it came too late in ``too_late``.
"""

from __future__ import annotations

import os
import warnings
from dataclasses import dataclass
from typing import Any, Dict, List, Optional, Tuple

from ._common import (
    CUBLAS_VALUES,
    HCCL_ACCEPTED,
    ReproducibilityWarning,
    user_stacklevel,
)

__all__ = ["EnvSwitch", "ENV_SWITCHES", "FLAG_SWITCHES", "apply_environment", "apply_flags",
           "planned_changes", "process_group_exists", "switch_applies"]


@dataclass(frozen=True)
class EnvSwitch:
    """An environment variable that ``seed_everything(deterministic=True)`` sets if unset.

    ``accepted``: the values (compared stripped and lower-cased) that switch determinism
    on; ``off``: the values that switch it off on purpose (any other value is invalid:
    the reader ignores it); ``value``: what is set; ``scope``: where it applies (``"cuda"``: CUDA builds of
    torch, ``"npu"``: torch_npu present, ``"torch"``: any torch); ``reader``: who reads
    it and when; ``source``: where that is documented.
    """

    name: str
    value: str
    accepted: Tuple[str, ...]
    off: Tuple[str, ...]
    scope: str
    reader: str
    source: str

    def is_on(self, value: Optional[str]) -> bool:
        return value is not None and value.strip().lower() in self.accepted

    def state(self, value: Optional[str]) -> str:
        """``"unset"``, ``"on"``, ``"off"`` (a deliberate choice) or ``"invalid"``."""
        if value is None or not value.strip():
            return "unset"
        if self.is_on(value):
            return "on"
        return "off" if value.strip().lower() in self.off else "invalid"

    def expected(self) -> str:
        return " or ".join(self.accepted)


#: The environment switches, in the order they are applied. Facts and sources:
#: /work/shared/reference/NONDETERMINISM.md sections 2, 2.1, 2.2 and 4.
ENV_SWITCHES: Tuple[EnvSwitch, ...] = (
    EnvSwitch("CUBLAS_WORKSPACE_CONFIG", CUBLAS_VALUES[0], CUBLAS_VALUES, (), "cuda",
              "cuBLAS, when it creates its handle/workspace (first GEMM)",
              "cuBLAS docs, 'Results reproducibility'"),
    EnvSwitch("HCCL_DETERMINISTIC", "true", HCCL_ACCEPTED, ("false",), "npu",
              "torch_npu/HCCL, when the first HCCL communicator is created",
              "torch_npu ProcessGroupHCCL.cpp getDeterministicState; CANN env reference"),
    EnvSwitch("FLASH_ATTENTION_DETERMINISTIC", "1", ("1",), ("0",), "torch",
              "transformers' flash-attention integration, at each call: passes "
              "deterministic=True to flash_attn (deterministic backward)",
              "transformers modeling_flash_attention_utils.py; set by enable_full_determinism"),
    EnvSwitch("LCCL_DETERMINISTIC", "1", ("1",), ("0",), "npu",
              "LCCL AllReduce (rankSize <= 8)", "MindSpore Transformers environment variable docs"),
    EnvSwitch("CLOSE_MATMUL_K_SHIFT", "1", ("1",), ("0",), "npu",
              "Ascend matmul (no K-axis shift)", "MindSpeed npu_deterministic.py (extend_seed_all)"),
)
_BY_NAME = {switch.name: switch for switch in ENV_SWITCHES}


def switch_applies(switch: EnvSwitch, torch: Any, npu: Any) -> bool:
    """Whether ``switch`` matters with this torch (None: not installed) and torch_npu."""
    if switch.scope == "cuda":
        return torch is not None and getattr(torch.version, "cuda", None) is not None
    if switch.scope == "npu":
        return npu is not None
    return torch is not None


def _apply_plain(switch: EnvSwitch, env_set: Dict[str, str]) -> None:
    """Set a switch that is read when it is used: unset becomes ``switch.value``; a value
    that is not on is the user's choice and is kept, with a warning."""
    current = os.environ.get(switch.name)
    state = switch.state(current)
    if state == "on":
        return
    if state in ("off", "invalid"):
        warnings.warn(
            f"{switch.name}={current!r} is kept, so determinism stays off for "
            f"{switch.reader.split(',')[0]}; set {switch.name}={switch.value} to switch it on",
            ReproducibilityWarning,
            stacklevel=user_stacklevel(),
        )
        return
    os.environ[switch.name] = switch.value
    env_set[switch.name] = switch.value


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
    os.environ["CUBLAS_WORKSPACE_CONFIG"] = _BY_NAME["CUBLAS_WORKSPACE_CONFIG"].value
    env_set["CUBLAS_WORKSPACE_CONFIG"] = _BY_NAME["CUBLAS_WORKSPACE_CONFIG"].value
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
    """The environment switches (:data:`ENV_SWITCHES`), before anything can initialise
    CUDA or HCCL."""
    special = {"CUBLAS_WORKSPACE_CONFIG": _apply_cublas, "HCCL_DETERMINISTIC": _apply_hccl}
    for switch in ENV_SWITCHES:
        if not switch_applies(switch, torch, npu):
            continue
        if switch.name in special:
            special[switch.name](torch, env_set, too_late)
        else:
            _apply_plain(switch, env_set)


#: torch's flags: (attribute path under torch, value set). ``mkldnn.deterministic`` selects
#: deterministic oneDNN kernels on CPU/XPU (NONDETERMINISM.md section 2); it is skipped
#: where torch lacks it.
FLAG_SWITCHES: Tuple[Tuple[str, bool], ...] = (
    ("backends.cudnn.benchmark", False),
    ("backends.cudnn.deterministic", True),
    ("backends.mkldnn.deterministic", True),
)


def _flag_owner(torch: Any, path: str) -> Tuple[Any, str]:
    """``(object, attribute)`` for a :data:`FLAG_SWITCHES` path; object None when absent."""
    owner_path, _, attribute = path.rpartition(".")
    owner: Any = torch
    for part in owner_path.split("."):
        owner = getattr(owner, part, None)
    return (owner if owner is not None and hasattr(owner, attribute) else None), attribute


def apply_flags(torch: Any, warn_only: bool, switches: Dict[str, str]) -> None:
    """torch's determinism flags (:data:`FLAG_SWITCHES` and deterministic algorithms)."""
    for path, value in FLAG_SWITCHES:
        owner, attribute = _flag_owner(torch, path)
        if owner is not None:
            setattr(owner, attribute, value)
            switches[f"torch.{path}"] = str(value)
    torch.use_deterministic_algorithms(True, warn_only=warn_only)
    switches["torch.use_deterministic_algorithms"] = f"True, warn_only={warn_only}"


def planned_changes(torch: Any, npu: Any, warn_only: bool = False) -> List[Tuple[str, str, str]]:
    """What ``seed_everything(deterministic=True)`` would change here, as
    ``(setting, now, after)``, without changing anything."""
    changes: List[Tuple[str, str, str]] = []
    for switch in ENV_SWITCHES:
        if not switch_applies(switch, torch, npu):
            continue
        current = os.environ.get(switch.name)
        state = switch.state(current)
        if state == "unset" or (state == "invalid" and switch.name == "HCCL_DETERMINISTIC"):
            changes.append((switch.name, "unset" if current is None else current, switch.value))
    if torch is None:
        return changes
    for path, value in FLAG_SWITCHES:
        owner, attribute = _flag_owner(torch, path)
        if owner is not None and bool(getattr(owner, attribute)) != value:
            changes.append((f"torch.{path}", str(getattr(owner, attribute)), str(value)))
    if not torch.are_deterministic_algorithms_enabled() or \
            torch.is_deterministic_algorithms_warn_only_enabled() != warn_only:
        now = (f"{torch.are_deterministic_algorithms_enabled()}, "
               f"warn_only={torch.is_deterministic_algorithms_warn_only_enabled()}")
        changes.append(("torch.use_deterministic_algorithms", now, f"True, warn_only={warn_only}"))
    return changes
