"""Seeding: ``seed_everything`` and ``reset_seed``.

``seed_everything`` records what it did (:class:`SeedRecord`, also its return value)
so that :func:`repro_lint.runtime.verify` can later check that the process was
seeded, and by which seed, instead of trusting that the call happened.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
import warnings
from typing import Any, Dict, List, Optional, Tuple

from ._common import (
    ReproducibilityWarning,
    global_rank,
    optional_import,
    torch_npu_module,
    user_stacklevel,
)
from ._record import MAX_SEED, SeedRecord, check_int, current_record, set_record
from ._switches import apply_environment, apply_flags
from ._workers import install_default_worker_init, make_generator, seed_worker

__all__ = [
    "SEED_VARIABLES",
    "SeedRecord",
    "current_record",
    "make_generator",
    "reset_seed",
    "seed_everything",
    "seed_worker",
]

#: Where ``seed_everything()`` without a seed reads it, in this order.
SEED_VARIABLES: Tuple[str, ...] = ("REPRO_LINT_SEED", "PL_GLOBAL_SEED")
HASHSEED_MODES = ("warn", "ignore")

_set_record = set_record  # the name tests and check_determinism use
_hash_probe_cache: Dict[str, Optional[bool]] = {}
#: pid of the process that already showed (or silenced) the PYTHONHASHSEED warning
_hashseed_warned: Optional[int] = None


def resolve_seed(seed: Any) -> Tuple[int, str]:
    """``(seed, source)``: the argument, else ``REPRO_LINT_SEED``, else ``PL_GLOBAL_SEED``.

    Never a random seed: without any of them it raises ``TypeError`` saying how to
    give one; an environment value that is not a valid seed raises ``ValueError``.
    """
    if seed is not None:
        return check_int(seed, MAX_SEED, "seed"), "argument"
    for name in SEED_VARIABLES:
        raw = os.environ.get(name, "").strip()
        if not raw:
            continue
        try:
            value = int(raw)
        except ValueError:
            raise ValueError(f"{name}={raw!r} is not an integer seed; set it to an integer "
                             f"between 0 and {MAX_SEED}, or pass the seed to seed_everything") from None
        return check_int(value, MAX_SEED, f"{name} (read because no seed was passed)"), name
    raise TypeError(
        "seed_everything() needs a seed: pass one (seed_everything(0)) or launch with "
        "REPRO_LINT_SEED=0 (PL_GLOBAL_SEED is also read); a random seed is never chosen, "
        "because the run could not be repeated"
    )


def hash_seed_in_effect(value: str) -> Optional[bool]:
    """Whether this interpreter hashes ``str`` as ``PYTHONHASHSEED=value`` would.

    ``PYTHONHASHSEED`` is read once at interpreter start. ``sys.flags.hash_randomization``
    is 0 only for the value ``0``; for other values a child interpreter started
    with that value is asked for ``hash()`` of a probe string and compared with
    ours. Returns ``None`` when the child cannot be run. Results are cached.
    """
    if not value.isdigit():
        return False
    if sys.flags.hash_randomization == 0:
        return int(value) == 0
    if int(value) == 0:
        return False
    if value in _hash_probe_cache:
        return _hash_probe_cache[value]
    probe = "repro-lint hash probe"
    env = dict(os.environ, PYTHONHASHSEED=value)
    result: Optional[bool]
    try:
        completed = subprocess.run(
            [sys.executable, "-S", "-c", f"print(hash({probe!r}))"],
            env=env,
            capture_output=True,
            text=True,
            timeout=30,
            check=True,
        )
        result = completed.stdout.strip() == str(hash(probe))
    except (OSError, subprocess.SubprocessError):
        result = None
    _hash_probe_cache[value] = result
    return result


def _silence_hash_seed() -> None:
    """``hashseed="ignore"``: no PYTHONHASHSEED warning in this process from now on."""
    global _hashseed_warned
    _hashseed_warned = os.getpid()


def _warn_hash_seed(value: str) -> None:
    """The PYTHONHASHSEED warning: once per process, at the user's line."""
    global _hashseed_warned
    if _hashseed_warned == os.getpid():
        return
    _hashseed_warned = os.getpid()
    warnings.warn(
        "PYTHONHASHSEED was not set when this interpreter started, so hash() of str/bytes and "
        "the iteration order of sets of strings differ from run to run; seed_everything set "
        f"it for child processes only. Launch as `PYTHONHASHSEED={value} python train.py`, or "
        "pass seed_everything(..., hashseed=\"ignore\") to silence this warning "
        "(shown once per process)",
        ReproducibilityWarning,
        stacklevel=user_stacklevel(),
    )


def _launcher_hint(names: Dict[str, str]) -> str:
    assignments = " ".join(f"{name}={value}" for name, value in names.items())
    return f"{assignments} python train.py"


def _apply_hash_seed(seed: int, env_set: Dict[str, str], too_late: Dict[str, str]) -> None:
    """Set ``PYTHONHASHSEED`` for child processes; note if this interpreter differs.

    A value the launcher already set and that is in effect here is kept, so that
    children hash like this interpreter.
    """
    current = os.environ.get("PYTHONHASHSEED", "")
    if current.isdigit() and hash_seed_in_effect(current):
        return
    value = str(seed)
    os.environ["PYTHONHASHSEED"] = value
    env_set["PYTHONHASHSEED"] = value
    if not hash_seed_in_effect(value):
        too_late["PYTHONHASHSEED"] = (
            "this interpreter started with hash randomisation; the variable only "
            "affects child processes started from now on (subprocess, spawn)"
        )


def seed_everything(
    seed: Optional[int] = None,
    *,
    deterministic: bool = True,
    warn_only: bool = False,
    workers: bool = False,
    device_specific: bool = False,
    hashseed: str = "warn",
) -> SeedRecord:
    """Seed every global RNG and, by default, switch PyTorch to deterministic mode.

    ``seed`` defaults to ``REPRO_LINT_SEED``, else ``PL_GLOBAL_SEED`` (Lightning's
    variable); with neither it raises ``TypeError`` (a random seed is never chosen).
    With ``device_specific=True`` the seed used is ``seed + global rank`` (accelerate's
    ``set_seed(device_specific=True)``), so each rank draws different numbers; the rank
    comes from torch.distributed, else ``RANK``/``LOCAL_RANK``/``SLURM_PROCID``.

    Seeds Python's ``random``, NumPy's legacy global RNG (if NumPy is importable),
    torch's CPU generator and all CUDA generators (``torch.manual_seed``, plus
    ``torch.cuda.manual_seed_all`` on a CUDA build, applied when CUDA is first used: the call
    never initialises CUDA, so a ``CUDA_VISIBLE_DEVICES`` the program sets afterwards still
    chooses its devices) and, when torch_npu
    is installed, all NPU generators (``torch_npu.npu.manual_seed_all``). It
    sets ``PYTHONHASHSEED`` for child processes.

    With ``deterministic=True`` it also sets ``cudnn.benchmark=False``,
    ``cudnn.deterministic=True``, ``mkldnn.deterministic=True``,
    ``torch.use_deterministic_algorithms(True, warn_only=warn_only)`` and, where
    unset, the variables of ``ENV_SWITCHES``: ``CUBLAS_WORKSPACE_CONFIG=:4096:8`` on
    CUDA builds, ``FLASH_ATTENTION_DETERMINISTIC=1``, and with torch_npu
    ``HCCL_DETERMINISTIC=true``, ``LCCL_DETERMINISTIC=1`` and ``CLOSE_MATMUL_K_SHIFT=1``.

    With ``workers=True`` DataLoaders built afterwards without a ``worker_init_fn`` get
    :func:`seed_worker` (rank-aware worker seeds); with ``workers=False`` (the default)
    worker seeding is what each DataLoader passes.

    Settings that are read only once (``PYTHONHASHSEED`` at interpreter start,
    ``CUBLAS_WORKSPACE_CONFIG`` at cuBLAS initialisation, ``HCCL_DETERMINISTIC``
    at communicator creation) are reported with a :class:`ReproducibilityWarning`
    when this call comes too late for them; the one about ``PYTHONHASHSEED`` is
    shown once per process, and not at all with ``hashseed="ignore"``. Warnings
    point at the caller's line. It does not reseed user-created
    ``torch.Generator`` or ``np.random.default_rng`` objects.

    Returns a :class:`SeedRecord`: an ``int`` equal to the seed used, whose attributes
    say what was seeded and set, and how; ``verify()`` reports it.
    """
    for name, flag in (("deterministic", deterministic), ("warn_only", warn_only),
                       ("workers", workers), ("device_specific", device_specific)):
        if not isinstance(flag, bool):
            raise TypeError(f"{name} must be a bool, got {type(flag).__name__}")
    if hashseed not in HASHSEED_MODES:
        raise ValueError(f"hashseed must be one of {HASHSEED_MODES}, got {hashseed!r}")
    base_seed, source = resolve_seed(seed)
    rank, rank_source = global_rank()
    seed = base_seed
    if device_specific:
        seed = check_int(base_seed + rank, MAX_SEED, f"seed + rank ({base_seed} + {rank})")

    env_set: Dict[str, str] = {}
    too_late: Dict[str, str] = {}
    switches: Dict[str, str] = {}
    seeded: List[str] = ["random"]
    random.seed(seed)

    numpy = optional_import("numpy")
    if numpy is not None:
        numpy.random.seed(seed)
        seeded.append("numpy")

    _apply_hash_seed(base_seed, env_set, too_late)  # the same on every rank

    torch = optional_import("torch")
    torch_rng_state: Optional[bytes] = None
    if torch is not None:
        npu = torch_npu_module(torch)
        if deterministic:
            apply_environment(torch, npu, env_set, too_late)
        torch.manual_seed(seed)
        seeded.append("torch")
        if getattr(torch.version, "cuda", None) or getattr(torch.version, "hip", None):
            # queued until CUDA is first used, as ``torch.manual_seed`` does: asking
            # ``torch.cuda.is_available()`` here would initialise CUDA, which reads
            # ``CUDA_VISIBLE_DEVICES`` once, before the program's own setting of it
            torch.cuda.manual_seed_all(seed)
            seeded.append("cuda")
        if npu is not None:
            npu.npu.manual_seed_all(seed)
            seeded.append("npu")
        if deterministic:
            apply_flags(torch, warn_only, switches)
        if workers:
            install_default_worker_init(torch)
        torch_rng_state = bytes(torch.get_rng_state().tolist())

    if hashseed == "ignore":
        _silence_hash_seed()
    elif "PYTHONHASHSEED" in too_late:
        _warn_hash_seed(env_set["PYTHONHASHSEED"])
    late = {name: reason for name, reason in too_late.items() if name != "PYTHONHASHSEED"}
    if late:
        details = "; ".join(f"{name}: {reason}" for name, reason in late.items())
        hint = _launcher_hint({name: env_set[name] for name in late})
        warnings.warn(
            f"set too late to take effect in this process: {details}. "
            f"Set {'it' if len(late) == 1 else 'them'} where the process is launched, "
            f"e.g. `{hint}`",
            ReproducibilityWarning,
            stacklevel=user_stacklevel(),
        )

    record = SeedRecord(
        seed, base_seed=base_seed, source=source, rank=rank, rank_source=rank_source,
        device_specific=device_specific, workers=workers, pid=os.getpid(),
        deterministic=deterministic, warn_only=warn_only, hashseed=hashseed,
        seeded=tuple(seeded), torch_rng_state=torch_rng_state, env_set=env_set,
        switches=switches, too_late=too_late,
    )
    set_record(record)
    return record


def reset_seed() -> SeedRecord:
    """Seed again as the last ``seed_everything`` call did (same options, same base seed).

    For a forked or re-entered process that must restart its streams: the record of
    this process, or the one a forked child inherited, gives the arguments; the rank is
    read again, so ``device_specific=True`` follows the rank of this process. Without a
    record it is ``seed_everything()``: the seed comes from ``REPRO_LINT_SEED`` or
    ``PL_GLOBAL_SEED``, else it raises ``TypeError``.
    """
    record = current_record()
    if record is None:
        return seed_everything()
    return seed_everything(record.base_seed, deterministic=record.deterministic,
                           warn_only=record.warn_only, workers=record.workers,
                           device_specific=record.device_specific, hashseed=record.hashseed)
