"""``repro-lint doctor``: the environment, the switches as they stand, and consistency.

Run as ``repro-lint doctor [--seed N] [--json]`` or ``python -m repro_lint.runtime.doctor``.
Without ``--seed`` it reports what is there (versions, devices, the variables set and
missing, what ``seed_everything`` would change) and exits 1 only when a setting is
inconsistent (a value its reader does not accept). With ``--seed N`` it calls
``seed_everything(N)`` first and prints the ``verify()`` table; a failed check also exits 1.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import warnings
from typing import Any, Dict, List, Optional, Sequence

from ._common import RANK_VARIABLES, global_rank, optional_import, torch_npu_module
from ._seed import SEED_VARIABLES, hash_seed_in_effect, resolve_seed, seed_everything
from ._switches import ENV_SWITCHES, planned_changes
from ._verify import verify

__all__ = ["environment", "main", "problems"]

#: Environment variables that influence reproducibility, shown by the doctor: the seed
#: variables, the switches seed_everything sets, and those it leaves to the launcher.
ENV_VARS = ("PYTHONHASHSEED",) + SEED_VARIABLES + tuple(s.name for s in ENV_SWITCHES) + (
    "CUDA_LAUNCH_BLOCKING",
    "NCCL_ALGO",
    "TORCHINDUCTOR_DETERMINISTIC",
    "OMP_NUM_THREADS",
    "MKL_NUM_THREADS",
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
    if cuda:
        workspace = os.environ.get("CUBLAS_WORKSPACE_CONFIG")
        info["cuBLAS"] = f"CUBLAS_WORKSPACE_CONFIG={workspace}" if workspace else \
            "CUBLAS_WORKSPACE_CONFIG unset (default workspace per handle and stream)"
    else:
        info["cuBLAS"] = "not used (no CUDA in this build)"
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
    rank, source = global_rank()
    info["global rank"] = f"{rank} ({source})" if source != "default" else \
        f"0 (none of {', '.join(RANK_VARIABLES)} set)"
    return info


def problems() -> List[Dict[str, str]]:
    """Settings that contradict each other or that their reader ignores.

    ``level`` is ``"error"`` for a value the reader does not accept (it silently leaves
    determinism off: ``HCCL_DETERMINISTIC=1``, ``CUBLAS_WORKSPACE_CONFIG=:4096:2``, an
    unparsable seed variable) and ``"warn"`` for a deliberate "off" or a conflict that
    has a defined winner. Every switch is checked, also where its reader is absent: the
    same launcher will start the job where it is present.
    """
    found: List[Dict[str, str]] = []

    def add(level: str, setting: str, message: str) -> None:
        found.append({"level": level, "setting": setting, "message": message})

    for switch in ENV_SWITCHES:
        value = os.environ.get(switch.name)
        state = switch.state(value)
        if state == "invalid":
            add("error", switch.name,
                f"{switch.name}={value!r} is not a value {switch.reader.split(',')[0]} accepts "
                f"({switch.expected()}), so determinism stays off: use {switch.name}={switch.value}")
        elif state == "off":
            add("warn", switch.name, f"{switch.name}={value!r} switches determinism off for "
                                     f"{switch.reader.split(',')[0]}")
    try:
        resolve_seed(None)
    except ValueError as exc:
        add("error", "seed variable", str(exc))
    except TypeError:
        pass  # no seed variable: seed_everything needs an argument, which is fine
    seeds = {name: os.environ[name].strip() for name in SEED_VARIABLES if os.environ.get(name, "").strip()}
    if len(set(seeds.values())) > 1:
        listed = ", ".join(f"{name}={value}" for name, value in seeds.items())
        add("warn", "seed variable", f"{listed} differ; seed_everything() uses {SEED_VARIABLES[0]}")
    if os.environ.get("PYTHONHASHSEED", "").strip() == "random":
        add("warn", "PYTHONHASHSEED", "PYTHONHASHSEED=random asks for hash randomisation: "
                                      "set an integer such as PYTHONHASHSEED=0")
    return found


def _section(title: str, items: Dict[str, str]) -> List[str]:
    width = max((len(key) for key in items), default=0)
    return [title] + [f"  {key.ljust(width)}  {value}" for key, value in items.items()]


def _seeding_changes(torch: Any) -> List[Any]:
    """The generators ``seed_everything`` seeds here, and ``PYTHONHASHSEED`` unless it is in
    effect already."""
    seeded = ["random"] + (["numpy"] if optional_import("numpy") is not None else [])
    if torch is not None:
        seeded.append("torch")
        seeded += ["cuda"] if _safe(torch.cuda.is_available) == "True" else []
        seeded += ["npu"] if torch_npu_module(torch) is not None else []
    changes = [("generators", "as they are", "seeded: " + ", ".join(seeded))]
    value = os.environ.get("PYTHONHASHSEED", "")
    if sys.flags.hash_randomization and not (value.isdigit() and hash_seed_in_effect(value)):
        changes.append(("PYTHONHASHSEED", value or "unset",
                        "the seed, for child processes only (launch with PYTHONHASHSEED=0 "
                        "to fix it for this interpreter too)"))
    return changes


def _environment_variables(before: Dict[str, Optional[str]]) -> Dict[str, str]:
    env = {}
    for name in ENV_VARS:
        value = os.environ.get(name)
        env[name] = "unset" if value is None else value
        if value != before[name]:
            env[name] += " (set by seed_everything)"
    return env


def _lines(info: Dict[str, str], env: Dict[str, str], changes: List[Any], found: List[Dict[str, str]],
           messages: List[str], report: Any) -> List[str]:
    lines = _section("Environment", info) + [""] + _section("Environment variables", env)
    if changes is not None:
        lines += ["", "seed_everything(seed) would change"]
        width = max((len(name) for name, _, _ in changes), default=0)
        lines += [f"  {name.ljust(width)}  {now} -> {after}" for name, now, after in changes] or \
            ["  nothing: every switch is already set"]
    if messages:
        lines += ["", "Warnings"] + [f"  {message}" for message in messages]
    if report is not None:
        lines += ["", "Settings", str(report)]
    lines += ["", "Consistency"]
    lines += [f"  {item['level']}  {item['message']}" for item in found] or \
        ["  ok  no inconsistent setting"]
    errors = sum(item["level"] == "error" for item in found)
    verdict = "FAILED" if errors or (report is not None and not report.ok) else "OK"
    lines += ["", f"doctor: {verdict} ({errors} inconsistent, "
                  f"{sum(item['level'] == 'warn' for item in found)} warnings)"]
    return lines


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Entry point; returns the exit status (1 when a setting is inconsistent, or, with
    ``--seed``, when a verify() check fails)."""
    parser = argparse.ArgumentParser(
        prog="repro-lint doctor",
        description="Show the environment and the reproducibility switches as they stand; "
                    "exit 1 when a setting is inconsistent.",
    )
    parser.add_argument("--seed", type=int, default=None,
                        help="call seed_everything(SEED) first, as a training script would, and "
                             "print the verify() table (a failed check exits 1)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)

    before = {name: os.environ.get(name) for name in ENV_VARS}
    found = problems()  # the environment as launched, before seed_everything changes it
    changes = None
    report = None
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        torch = optional_import("torch")
        if args.seed is None:
            changes = _seeding_changes(torch) + planned_changes(torch, torch_npu_module(torch))
        else:
            try:
                seed_everything(args.seed)
            except (TypeError, ValueError) as exc:
                parser.error(str(exc))
            report = verify()
        info = environment()
    messages = [str(w.message) for w in caught]
    env = _environment_variables(before)
    failed = any(item["level"] == "error" for item in found) or (report is not None and not report.ok)

    if args.json:
        data: Dict[str, Any] = {"environment": info, "env": env, "warnings": messages, "problems": found}
        if changes is not None:
            data["would_change"] = [{"setting": n, "now": now, "after": after} for n, now, after in changes]
        if report is not None:
            data["report"] = report.to_dict()
        data["ok"] = not failed
        print(json.dumps(data, indent=2))
    else:
        print("\n".join(_lines(info, env, changes, found, messages, report)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
