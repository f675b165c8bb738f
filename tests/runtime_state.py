"""The process-global state ``repro_lint.runtime`` changes, saved and restored around each
runtime test (the runtime test files share it through their autouse fixtures)."""

from __future__ import annotations

import os
import random
from contextlib import contextmanager
from typing import Iterator, Optional

import numpy as np
import torch
import torch.nn.functional as F
import torch.utils.deterministic

from repro_lint.runtime import _compare, _seed
from repro_lint.runtime._common import RANK_VARIABLES
from repro_lint.runtime._dropout import FUNCTIONAL_DROPOUTS

#: every variable the runtime sets or reads: removed for the test, put back afterwards
ENV_NAMES = _compare._ENV_TOUCHED + _seed.SEED_VARIABLES + RANK_VARIABLES + ("WORLD_SIZE",)


#: the generators seed_everything seeds in this process (CUDA's where a device is present)
SEEDED_HERE = ("random", "numpy", "torch") + (("cuda",) if torch.cuda.is_available() else ())


def clean_env(**extra: str) -> dict:
    """``os.environ`` without :data:`ENV_NAMES`, plus ``extra``: for child processes."""
    env = {k: v for k, v in os.environ.items() if k not in ENV_NAMES}
    env.update(extra)
    return env


@contextmanager
def preserved_runtime_state(hashseed_warned: Optional[int] = None) -> Iterator[None]:
    """RNG states, determinism flags, the variables, the seed record, ``F.*dropout`` and
    the PYTHONHASHSEED-warning state; the record starts empty and the warning state as
    ``hashseed_warned`` (None: not shown yet; a pid: already shown in that process)."""
    env = {name: os.environ.pop(name, None) for name in ENV_NAMES}
    states = (random.getstate(), np.random.get_state(), torch.get_rng_state())
    algorithms = (torch.are_deterministic_algorithms_enabled(),
                  torch.is_deterministic_algorithms_warn_only_enabled())
    flags = (torch.backends.cudnn.benchmark, torch.backends.cudnn.deterministic,
             torch.backends.mkldnn.deterministic, torch.utils.deterministic.fill_uninitialized_memory)
    functional = {name: getattr(F, name) for name in FUNCTIONAL_DROPOUTS}
    record, warned = _seed.current_record(), _seed._hashseed_warned
    _seed._set_record(None)
    _seed._hashseed_warned = hashseed_warned
    try:
        yield
    finally:
        _seed._set_record(record)
        _seed._hashseed_warned = warned
        for name, function in functional.items():
            setattr(F, name, function)
        (torch.backends.cudnn.benchmark, torch.backends.cudnn.deterministic,
         torch.backends.mkldnn.deterministic, torch.utils.deterministic.fill_uninitialized_memory) = flags
        torch.use_deterministic_algorithms(algorithms[0], warn_only=algorithms[1])
        random.setstate(states[0])
        np.random.set_state(states[1])
        torch.set_rng_state(states[2])
        for name, value in env.items():
            os.environ.pop(name, None)
            if value is not None:
                os.environ[name] = value
