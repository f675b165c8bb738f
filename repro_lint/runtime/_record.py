"""What the last ``seed_everything`` call did: :class:`SeedRecord` and the process's record.

A module of its own so that seeding (``_seed``), worker seeding (``_workers``) and
``verify()`` all read one record without importing each other.
"""

from __future__ import annotations

import operator
from typing import Any, Dict, Optional, Tuple

__all__ = ["SeedRecord", "current_record", "set_record", "check_int", "MAX_SEED", "MAX_GENERATOR_SEED"]

MAX_SEED = 2**32 - 1  # NumPy's legacy RNG rejects anything larger
MAX_GENERATOR_SEED = 2**64 - 1  # torch.Generator.manual_seed's upper bound


def check_int(value: Any, upper: int, what: str) -> int:
    """``value`` as an int in ``[0, upper]``; ``TypeError``/``ValueError`` naming ``what`` otherwise."""
    if isinstance(value, bool):
        raise TypeError(f"{what} must be an int, not bool")
    try:
        number = operator.index(value)
    except TypeError:
        raise TypeError(f"{what} must be an int, got {type(value).__name__}") from None
    if not 0 <= number <= upper:
        raise ValueError(f"{what} must be between 0 and {upper} inclusive, got {number}")
    return number


class SeedRecord(int):
    """The seed ``seed_everything`` used, and what it seeded and set, for ``verify()``.

    It is an ``int`` equal to the seed used, so code that kept the old return value
    (``seed = seed_everything(0)``; ``random.seed(seed)``, ``seed + 1``) works unchanged.
    Read-only attributes:

    * ``seed``: the seed used (``base_seed + rank`` with ``device_specific=True``);
      ``base_seed``: the seed given or read from the environment; ``source``: where it
      came from (``"argument"``, ``"REPRO_LINT_SEED"`` or ``"PL_GLOBAL_SEED"``).
    * ``rank`` and ``rank_source``: the global rank when seeding and where it was read;
      ``device_specific`` and ``workers``: the options given.
    * ``pid``: the seeding process (a forked child inherits the record; compare with
      ``os.getpid()``); ``deterministic``, ``warn_only``, ``hashseed``: the options given.
    * ``seeded``: the generators seeded (``"random"``, ``"numpy"``, ``"torch"``,
      ``"cuda"``, ``"npu"``); ``torch_rng_state``: the CPU state right after seeding, so
      an unchanged state proves no torch draws since; ``env_set``: the environment
      variables set; ``switches``: the torch flags set; ``too_late``: start-up-only
      settings that came too late, with the reason.
    """

    _DEFAULTS: Dict[str, Any] = {
        "base_seed": None, "source": "argument", "rank": 0, "rank_source": "default",
        "device_specific": False, "workers": False, "pid": 0, "deterministic": True,
        "warn_only": False, "hashseed": "warn", "seeded": (), "torch_rng_state": None,
        "env_set": {}, "switches": {}, "too_late": {},
    }

    def __new__(cls, seed: int, **fields: Any) -> "SeedRecord":
        unknown = set(fields) - set(cls._DEFAULTS)
        if unknown:
            raise TypeError(f"unknown SeedRecord field(s): {', '.join(sorted(unknown))}")
        record = super().__new__(cls, seed)
        values = {**cls._DEFAULTS, **fields}
        if values["base_seed"] is None:
            values["base_seed"] = int(seed)
        record.__dict__.update(values)
        return record

    @property
    def seed(self) -> int:
        return int(self)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("SeedRecord is read-only; use .replace(...)")

    def replace(self, **changes: Any) -> "SeedRecord":
        """A copy with some fields changed (``seed=`` changes the int value)."""
        seed = changes.pop("seed", int(self))
        return SeedRecord(seed, **{**self.__dict__, **changes})

    def fields(self) -> Dict[str, Any]:
        """Every field, ``seed`` first."""
        return {"seed": int(self), **self.__dict__}

    def describe(self) -> str:
        """One line for ``verify()``: the seed, where it came from, what was seeded."""
        seed = f"seed={int(self)}"
        if self.device_specific:
            seed += f" ({self.base_seed} + rank {self.rank} from {self.rank_source})"
        if self.source != "argument":
            seed += f" from {self.source}"
        parts = [seed]
        parts.append(f"seeded {', '.join(self.seeded)}")
        parts.append("DataLoader workers: seed_worker by default" if self.workers
                     else "DataLoader workers: as passed (worker_init_fn=seed_worker)")
        return "; ".join(parts)

    def __str__(self) -> str:
        return str(int(self))

    def __repr__(self) -> str:
        shown = ", ".join(f"{key}={value!r}" for key, value in self.fields().items()
                          if key != "torch_rng_state")
        return f"SeedRecord({shown})"

    def __reduce__(self) -> Tuple[Any, ...]:
        return (_rebuild, (int(self), dict(self.__dict__)))


def _rebuild(seed: int, fields: Dict[str, Any]) -> SeedRecord:
    return SeedRecord(seed, **fields)


_record: Optional[SeedRecord] = None


def current_record() -> Optional[SeedRecord]:
    """The record of the last ``seed_everything`` call, or ``None``.

    The record is inherited by forked children; compare ``record.pid`` with
    ``os.getpid()`` to know whether seeding happened in this very process.
    """
    return _record


def set_record(record: Optional[SeedRecord]) -> None:
    global _record
    _record = record
