"""Seeding: ``seed_everything``, ``seed_worker`` and ``make_generator``.

``seed_everything`` records what it did in module state (:class:`SeedRecord`)
so that :func:`repro_lint.runtime.verify` can later check that the process was
seeded, and by which seed, instead of trusting that the call happened.
"""

from __future__ import annotations

import operator
import os
import random
import subprocess
import sys
import warnings
from dataclasses import dataclass, field
from typing import Any, Dict, Optional, Tuple

from ._common import (
    CUBLAS_VALUES,
    HCCL_ACCEPTED,
    ReproducibilityWarning,
    optional_import,
    torch_npu_module,
    user_stacklevel,
)

__all__ = ["SeedRecord", "seed_everything", "seed_worker", "make_generator", "current_record"]

_MAX_SEED = 2**32 - 1  # NumPy's legacy RNG rejects anything larger
_MAX_GENERATOR_SEED = 2**64 - 1  # torch.Generator.manual_seed's upper bound


@dataclass(frozen=True)
class SeedRecord:
    """What the last ``seed_everything`` call did, for ``verify()``.

    ``torch_rng_state`` is the CPU generator state right after seeding; if the
    current state still equals it, no torch random numbers were drawn since.
    ``too_late`` maps a start-up-only setting to the reason it came too late.
    """

    seed: int
    pid: int
    deterministic: bool
    warn_only: bool
    seeded: Tuple[str, ...]
    torch_rng_state: Optional[bytes] = None
    env_set: Dict[str, str] = field(default_factory=dict)
    too_late: Dict[str, str] = field(default_factory=dict)
    hashseed: str = "warn"


_record: Optional[SeedRecord] = None
_hash_probe_cache: Dict[str, Optional[bool]] = {}
#: pid of the process that already showed the PYTHONHASHSEED warning (once per process)
_hashseed_warned: Optional[int] = None
HASHSEED_MODES = ("warn", "ignore")


def current_record() -> Optional[SeedRecord]:
    """The record of the last ``seed_everything`` call, or ``None``.

    The record is inherited by forked children; compare ``record.pid`` with
    ``os.getpid()`` to know whether seeding happened in this very process.
    """
    return _record


def _set_record(record: Optional[SeedRecord]) -> None:
    global _record
    _record = record


def _check_int(value: Any, upper: int, what: str) -> int:
    if isinstance(value, bool):
        raise TypeError(f"{what} must be an int, not bool")
    try:
        number = operator.index(value)
    except TypeError:
        raise TypeError(f"{what} must be an int, got {type(value).__name__}") from None
    if not 0 <= number <= upper:
        raise ValueError(f"{what} must be between 0 and {upper} inclusive, got {number}")
    return number


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


def _process_group_exists(torch: Any) -> bool:
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
    if _process_group_exists(torch):
        too_late["HCCL_DETERMINISTIC"] = (
            "a torch.distributed process group already exists; torch_npu reads the "
            "setting when it creates the first HCCL communicator"
        )


def seed_everything(
    seed: int, *, deterministic: bool = True, warn_only: bool = False, hashseed: str = "warn"
) -> int:
    """Seed every global RNG and, by default, switch PyTorch to deterministic mode.

    Seeds Python's ``random``, NumPy's legacy global RNG (if NumPy is importable),
    torch's CPU generator and all CUDA generators (``torch.manual_seed``, plus
    ``torch.cuda.manual_seed_all`` when CUDA is available) and, when torch_npu
    is installed, all NPU generators (``torch_npu.npu.manual_seed_all``). It
    sets ``PYTHONHASHSEED`` for child processes.

    With ``deterministic=True`` it also sets ``cudnn.benchmark=False``,
    ``cudnn.deterministic=True``, ``torch.use_deterministic_algorithms(True,
    warn_only=warn_only)``, ``CUBLAS_WORKSPACE_CONFIG=:4096:8`` on CUDA builds
    when unset, and ``HCCL_DETERMINISTIC=true`` when torch_npu is present.

    Settings that are read only once (``PYTHONHASHSEED`` at interpreter start,
    ``CUBLAS_WORKSPACE_CONFIG`` at cuBLAS initialisation, ``HCCL_DETERMINISTIC``
    at communicator creation) are reported with a :class:`ReproducibilityWarning`
    when this call comes too late for them; the one about ``PYTHONHASHSEED`` is
    shown once per process, and not at all with ``hashseed="ignore"``. Warnings
    point at the caller's line. It does not reseed user-created
    ``torch.Generator`` or ``np.random.default_rng`` objects.

    Returns the seed.
    """
    seed = _check_int(seed, _MAX_SEED, "seed")
    for name, flag in (("deterministic", deterministic), ("warn_only", warn_only)):
        if not isinstance(flag, bool):
            raise TypeError(f"{name} must be a bool, got {type(flag).__name__}")
    if hashseed not in HASHSEED_MODES:
        raise ValueError(f"hashseed must be one of {HASHSEED_MODES}, got {hashseed!r}")

    env_set: Dict[str, str] = {}
    too_late: Dict[str, str] = {}
    seeded = ["random"]
    random.seed(seed)

    numpy = optional_import("numpy")
    if numpy is not None:
        numpy.random.seed(seed)
        seeded.append("numpy")

    _apply_hash_seed(seed, env_set, too_late)

    torch = optional_import("torch")
    torch_rng_state: Optional[bytes] = None
    if torch is not None:
        npu = torch_npu_module(torch)
        if deterministic:
            # Environment first: nothing below may initialise CUDA before it is set.
            _apply_cublas(torch, env_set, too_late)
            if npu is not None:
                _apply_hccl(torch, env_set, too_late)
        torch.manual_seed(seed)
        seeded.append("torch")
        if torch.cuda.is_available():
            torch.cuda.manual_seed_all(seed)
            seeded.append("cuda")
        if npu is not None:
            npu.npu.manual_seed_all(seed)
            seeded.append("npu")
        if deterministic:
            torch.backends.cudnn.benchmark = False
            torch.backends.cudnn.deterministic = True
            torch.use_deterministic_algorithms(True, warn_only=warn_only)
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

    _set_record(
        SeedRecord(
            seed=seed,
            pid=os.getpid(),
            deterministic=deterministic,
            warn_only=warn_only,
            seeded=tuple(seeded),
            torch_rng_state=torch_rng_state,
            env_set=env_set,
            too_late=too_late,
            hashseed=hashseed,
        )
    )
    return seed


def seed_worker(worker_id: int) -> None:
    """``DataLoader(worker_init_fn=seed_worker)``: seed ``random`` and NumPy per worker.

    DataLoader already seeds torch in each worker with ``base_seed + worker_id``
    (64-bit) and, since torch 1.9, NumPy too; this follows PyTorch's documented
    pattern and seeds ``random`` and NumPy's global RNG with
    ``torch.initial_seed() % 2**32``. Combined with ``generator=make_generator(seed)``
    the base seed, and so every worker's seeds, are reproducible.
    """
    import torch

    worker_seed = torch.initial_seed() % 2**32
    random.seed(worker_seed)
    numpy = optional_import("numpy")
    if numpy is not None:
        numpy.random.seed(worker_seed)


def make_generator(seed: Optional[int] = None) -> Any:
    """A CPU ``torch.Generator`` seeded with ``seed``, for ``DataLoader(generator=...)``.

    ``seed`` defaults to the seed last given to ``seed_everything``, else to the
    seed the program gave torch (``torch.initial_seed()``: ``torch.manual_seed(args.seed)``,
    or ``seed + rank`` in a distributed script), so the program's own seed, on every rank,
    still decides the data order. A dedicated generator keeps shuffling and worker base
    seeds independent of the global torch RNG, so adding e.g. a validation loop does not
    shift them.
    """
    import torch

    if seed is None:
        seed = _record.seed if _record is not None else torch.initial_seed()
    generator = torch.Generator()
    generator.manual_seed(_check_int(seed, _MAX_GENERATOR_SEED, "seed"))
    return generator
