"""``repro-lint doctor``: print the environment, settings and the verify() table.

Run as ``python -m repro_lint.runtime.doctor [--seed N] [--json]``. Exit status
1 when a check fails, 0 otherwise.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import warnings
from typing import Any, Dict, List, Optional, Sequence

from ._common import optional_import, torch_npu_module
from ._seed import seed_everything
from ._verify import verify

__all__ = ["main", "environment"]

#: Environment variables that influence reproducibility, shown by the doctor.
ENV_VARS = (
    "PYTHONHASHSEED",
    "CUBLAS_WORKSPACE_CONFIG",
    "CUDA_LAUNCH_BLOCKING",
    "NCCL_ALGO",
    "HCCL_DETERMINISTIC",
    "OMP_NUM_THREADS",
    "MKL_NUM_THREADS",
    "TORCHINDUCTOR_DETERMINISTIC",
)


def _safe(getter: Any) -> str:
    try:
        value = getter()
    except Exception as exc:  # report, never crash the doctor
        return f"unavailable ({type(exc).__name__}: {exc})"
    return str(value)


def _torch_environment(torch: Any) -> Dict[str, str]:
    info: Dict[str, str] = {"torch": torch.__version__}
    cuda = getattr(torch.version, "cuda", None)
    hip = getattr(torch.version, "hip", None)
    info["torch build"] = f"CUDA {cuda}" if cuda else f"ROCm {hip}" if hip else "CPU"
    cudnn = torch.backends.cudnn
    info["cuDNN"] = _safe(lambda: cudnn.version() if cudnn.is_available() else "not available")
    if torch.cuda.is_available():
        count = torch.cuda.device_count()
        names = [torch.cuda.get_device_name(i) for i in range(count)]
        info["CUDA devices"] = f"{count}: " + ", ".join(names)
    else:
        info["CUDA devices"] = "none available"
    npu = torch_npu_module(torch)
    if npu is not None:
        info["torch_npu"] = str(getattr(npu, "__version__", "unknown"))
        utils = getattr(npu.npu, "utils", None)
        get_cann = getattr(utils, "get_cann_version", None)
        info["CANN"] = _safe(get_cann) if get_cann else str(getattr(torch.version, "cann", "unknown"))
        info["NPU devices"] = _safe(
            lambda: npu.npu.device_count() if npu.npu.is_available() else "none available")
    return info


def environment() -> Dict[str, str]:
    """Versions and devices relevant to reproducibility, as display strings."""
    info = {
        "Python": f"{platform.python_version()} ({sys.executable})",
        "platform": platform.platform(),
    }
    torch = optional_import("torch")
    if torch is None:
        info["torch"] = "not installed"
    else:
        info.update(_torch_environment(torch))
    numpy = optional_import("numpy")
    info["numpy"] = numpy.__version__ if numpy is not None else "not installed"
    return info


def _section(title: str, items: Dict[str, str]) -> List[str]:
    width = max((len(key) for key in items), default=0)
    return [title] + [f"  {key.ljust(width)}  {value}" for key, value in items.items()]


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Entry point; returns the exit status (1 when a verify() check fails)."""
    parser = argparse.ArgumentParser(
        prog="repro-lint doctor",
        description="Show the environment and verify PyTorch reproducibility settings.",
    )
    parser.add_argument("--seed", type=int, default=None,
                        help="call seed_everything(SEED) first, as a training script would")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)

    env_before = {name: os.environ.get(name) for name in ENV_VARS}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        if args.seed is not None:
            try:
                seed_everything(args.seed)
            except (TypeError, ValueError) as exc:
                parser.error(str(exc))
        info = environment()
        report = verify()
    messages = [str(w.message) for w in caught]
    env = {}
    for name in ENV_VARS:
        value = os.environ.get(name)
        env[name] = "unset" if value is None else value
        if value != env_before[name]:
            env[name] += " (set by seed_everything)"

    if args.json:
        print(json.dumps({"environment": info, "env": env, "warnings": messages,
                          "report": report.to_dict()}, indent=2))
    else:
        lines = _section("Environment", info) + [""] + _section("Environment variables", env)
        if messages:
            lines += ["", "Warnings"] + [f"  {message}" for message in messages]
        lines += ["", "Settings", str(report)]
        print("\n".join(lines))
    return 0 if report.ok else 1


if __name__ == "__main__":
    sys.exit(main())
