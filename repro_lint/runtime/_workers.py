"""DataLoader seeding: ``seed_worker`` (rank-aware), ``make_generator`` and ``workers=True``.

Which streams differ per rank and which are shared (docs/runtime.md has the table):

* ``make_generator()`` is seeded with the base seed of ``seed_everything`` on every
  rank, so shuffling and the DataLoader's ``base_seed`` are the same on every rank
  (samplers that must agree across ranks, such as ``DistributedSampler``, keep working).
* ``seed_worker`` re-seeds ``random``, NumPy's global RNG and torch in each worker from
  ``(torch.initial_seed(), worker_id, global rank)``, so worker streams differ between
  workers and between ranks, and change every epoch (torch draws a new ``base_seed``
  per epoch unless ``persistent_workers=True``).
"""

from __future__ import annotations

import functools
import hashlib
import inspect
import random
import struct
from typing import Any, Callable, List, Optional, Tuple

from . import _record
from ._common import global_rank, optional_import

__all__ = ["seed_worker", "make_generator", "worker_seeds", "install_default_worker_init"]

_MASK64 = 2**64 - 1


def worker_seeds(base_seed: int, worker_id: int, rank: int) -> Tuple[int, int, Optional[List[int]]]:
    """``(torch seed, random seed, NumPy seed words or None)`` for one worker of one rank.

    With NumPy, the three numbers are the entropy of ``numpy.random.SeedSequence``: its
    ``generate_state(4)`` seeds NumPy, and two spawned children give a 64-bit torch seed
    and a 128-bit ``random`` seed (the scheme of Lightning's ``pl_worker_init_function``).
    Without NumPy, BLAKE2b over the three numbers packed as little-endian 64-bit words
    (with a fixed 16-byte personalisation) gives 24 bytes: the first 8 are the torch seed,
    the next 16 the ``random`` seed. Both are mixes, not sums, so neighbouring base seeds,
    worker ids and ranks never share a stream.
    """
    entropy = (base_seed & _MASK64, worker_id, rank)
    numpy = optional_import("numpy")
    if numpy is not None:
        sequence = numpy.random.SeedSequence(list(entropy))
        torch_child, random_child = sequence.spawn(2)
        torch_seed = int(torch_child.generate_state(1, dtype=numpy.uint64)[0])
        random_seed = int.from_bytes(random_child.generate_state(4).tobytes(), "little")
        return torch_seed, random_seed, [int(word) for word in sequence.generate_state(4)]
    digest = hashlib.blake2b(struct.pack("<3Q", *entropy), digest_size=24,
                             person=b"repro_lint.wseed").digest()
    return int.from_bytes(digest[:8], "little"), int.from_bytes(digest[8:], "little"), None


def seed_worker(worker_id: int) -> None:
    """``DataLoader(worker_init_fn=seed_worker)``: rank-aware seeds for each worker.

    Seeds torch, ``random`` and NumPy's global RNG in the worker from
    ``worker_seeds(torch.initial_seed(), worker_id, rank)``. ``torch.initial_seed()`` is
    the worker's seed from DataLoader (``base_seed + worker_id``, with ``base_seed`` drawn
    from ``generator=`` every epoch), and the rank comes from torch.distributed or
    ``RANK``/``LOCAL_RANK``/``SLURM_PROCID``, so two ranks that share the loader's
    generator still draw different augmentations, and a rerun draws the same ones.
    ``get_worker_info().seed`` keeps DataLoader's value (it is not rank-aware).
    """
    import torch

    rank, _ = global_rank()
    torch_seed, random_seed, numpy_words = worker_seeds(torch.initial_seed(), worker_id, rank)
    torch.manual_seed(torch_seed)
    random.seed(random_seed)
    numpy = optional_import("numpy")
    if numpy is not None and numpy_words is not None:
        numpy.random.seed(numpy_words)


def stream_seed(seed: int, stream: int) -> int:
    """The seed of stream ``stream`` of ``seed``: ``seed`` itself for stream 0, else the first
    8 bytes of BLAKE2b over the two numbers packed as little-endian 64-bit words (with a fixed
    16-byte personalisation): a mix, so neighbouring seeds and streams never share an order."""
    if not stream:
        return seed
    digest = hashlib.blake2b(struct.pack("<2Q", seed & _MASK64, stream & _MASK64), digest_size=8,
                             person=b"repro_lint.gstrm").digest()
    return int.from_bytes(digest, "little")


def make_generator(seed: Optional[int] = None, stream: int = 0) -> Any:
    """A CPU ``torch.Generator`` seeded with ``seed``, for ``DataLoader(generator=...)``.

    ``seed`` defaults to the base seed last given to ``seed_everything`` (before any
    ``device_specific`` rank offset), so it is the same on every rank, else to the seed
    the program gave torch (``torch.initial_seed()``: ``torch.manual_seed(args.seed)``),
    so the program's own seed still decides the data order. A dedicated generator keeps
    shuffling and worker base seeds independent of the global torch RNG, so adding e.g. a
    validation loop does not shift them.

    ``stream`` tells apart loaders built side by side from the same seed (a source and a
    target domain, ``make_generator()`` and ``make_generator(stream=1)``): each stream is
    its own order (:func:`stream_seed`), the same in every run.
    """
    import torch

    if seed is None:
        record = _record.current_record()
        seed = record.base_seed if record is not None else torch.initial_seed()
    seed = _record.check_int(seed, _record.MAX_GENERATOR_SEED, "seed")
    generator = torch.Generator()
    generator.manual_seed(stream_seed(seed, _record.check_int(stream, _record.MAX_GENERATOR_SEED, "stream")))
    return generator


def install_default_worker_init(torch: Any) -> None:
    """``seed_everything(workers=True)``: DataLoaders built without a ``worker_init_fn``
    get ``seed_worker``, while the current record says ``workers=True``.

    ``DataLoader.__init__`` is wrapped once per process (``functools.wraps`` keeps its
    signature for libraries that inspect it); the wrapper reads the record at each
    construction, so ``seed_everything(..., workers=False)`` turns it off again. Loaders
    built before the call, and loaders that pass their own ``worker_init_fn``, are not
    changed.
    """
    loader_class = torch.utils.data.DataLoader
    original: Callable[..., None] = loader_class.__init__
    if getattr(original, "_repro_lint_default_worker_init", False):
        return
    # index among the positional arguments after self (10 in torch 2.13)
    position = list(inspect.signature(original).parameters).index("worker_init_fn") - 1

    @functools.wraps(original)
    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        record = _record.current_record()
        if record is not None and record.workers and kwargs.get("worker_init_fn") is None:
            if len(args) <= position:
                kwargs["worker_init_fn"] = seed_worker
            elif args[position] is None:
                args = args[:position] + (seed_worker,) + args[position + 1:]
        original(self, *args, **kwargs)

    __init__._repro_lint_default_worker_init = True  # type: ignore[attr-defined]
    loader_class.__init__ = __init__
