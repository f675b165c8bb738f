"""Runtime support for reproducible PyTorch training.

Three calls cover a training script::

    from repro_lint.runtime import seed_everything, seed_worker, make_generator

    seed_everything(0)                      # seeds + deterministic mode
    loader = DataLoader(ds, shuffle=True, num_workers=4,
                        worker_init_fn=seed_worker, generator=make_generator())

``seed_worker`` gives every worker of every rank its own streams, while
``make_generator()`` keeps the data order the same on every rank. ``verify()``
reads the settings back and ``check_determinism(fn)`` runs one training step
twice and compares the results bitwise; ``isolate_rng()`` and ``reset_seed()``
manage the generators' state. This package imports torch, NumPy and torch_npu
only when they are needed and works without them.
"""

from __future__ import annotations

from ._common import ReproducibilityError, ReproducibilityWarning
from ._compare import DeterminismResult, check_determinism
from ._dropout import disable_dropout
from ._record import SeedRecord
from ._rng import isolate_rng
from ._seed import make_generator, reset_seed, seed_everything, seed_worker
from ._verify import Check, Report, verify

__all__ = [
    "seed_everything",
    "seed_worker",
    "make_generator",
    "verify",
    "Report",
    "Check",
    "ReproducibilityError",
    "ReproducibilityWarning",
    "disable_dropout",
    "check_determinism",
    "DeterminismResult",
    "SeedRecord",
    "reset_seed",
    "isolate_rng",
]
