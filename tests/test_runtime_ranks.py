"""Seeds across ranks and workers: seed_everything's options, its record, reset_seed,
rank-aware seed_worker, and a two-process gloo run (CPU) that proves it end to end."""

from __future__ import annotations

import json
import os
import pickle
import random
import socket
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest
import torch

import repro_lint.runtime as rt
from conftest import pythonpath
from runtime_state import SEEDED_HERE, clean_env, preserved_runtime_state

from repro_lint.runtime import SeedRecord, _seed, _workers, make_generator, reset_seed, seed_everything, seed_worker

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(autouse=True)
def restore_global_state():
    """RNGs, determinism flags, variables, the seed record: as they were after each test
    (the PYTHONHASHSEED warning counts as shown: these tests are not about it)."""
    with preserved_runtime_state(hashseed_warned=os.getpid()):
        yield


# --- seed_everything(seed=None), device_specific, the record --------------------

def test_no_seed_and_no_variable_raises_a_clear_error():
    with pytest.raises(TypeError, match="REPRO_LINT_SEED=0") as error:
        seed_everything()
    assert "random seed is never chosen" in str(error.value)
    assert _seed.current_record() is None


def test_seed_from_repro_lint_seed_then_pl_global_seed():
    os.environ["REPRO_LINT_SEED"] = "7"
    os.environ["PL_GLOBAL_SEED"] = "9"
    record = seed_everything()
    assert (int(record), record.source) == (7, "REPRO_LINT_SEED")
    assert torch.initial_seed() == 7
    del os.environ["REPRO_LINT_SEED"]
    record = seed_everything()
    assert (int(record), record.source) == (9, "PL_GLOBAL_SEED")
    assert seed_everything(3).source == "argument"  # an argument wins over the environment


@pytest.mark.parametrize("value, error", [("abc", ValueError), ("-1", ValueError), (str(2**32), ValueError)])
def test_invalid_seed_variable_is_named(value, error):
    os.environ["REPRO_LINT_SEED"] = value
    with pytest.raises(error, match="REPRO_LINT_SEED"):
        seed_everything()


def test_record_is_the_seed_and_says_what_was_done():
    record = seed_everything(5, warn_only=True)
    assert record == 5 and record + 1 == 6 and f"{record}" == "5" and str(record) == "5"
    assert isinstance(record, int) and record is _seed.current_record()
    assert (record.seed, record.base_seed, record.rank, record.warn_only) == (5, 5, 0, True)
    assert record.seeded == SEEDED_HERE
    assert record.switches["torch.use_deterministic_algorithms"] == "True, warn_only=True"
    with pytest.raises(AttributeError):
        record.seed_everything = 1
    copied = pickle.loads(pickle.dumps(record))
    assert type(copied) is SeedRecord and copied.fields() == record.fields()
    assert record.replace(pid=1).pid == 1 and record.pid == os.getpid()
    check = next(c for c in rt.verify().checks if c.name == "seed_everything")
    assert check.status == "ok" and check.actual.startswith("seed=5; seeded random, numpy, torch")


def test_device_specific_offsets_by_global_rank_and_make_generator_does_not():
    os.environ["RANK"] = "3"
    record = seed_everything(10, device_specific=True)
    assert (int(record), record.base_seed, record.rank, record.rank_source) == (13, 10, 3, "RANK")
    assert torch.initial_seed() == 13
    assert make_generator().initial_seed() == 10  # the same on every rank
    assert "13 (10 + rank 3 from RANK)" in record.describe()
    assert int(seed_everything(10)) == 10  # without device_specific the rank is ignored


@pytest.mark.parametrize("variables, rank, source", [
    ({}, 0, "default"),
    ({"SLURM_PROCID": "5"}, 5, "SLURM_PROCID"),
    ({"LOCAL_RANK": "1", "SLURM_PROCID": "5"}, 1, "LOCAL_RANK"),
    ({"RANK": "2", "LOCAL_RANK": "1"}, 2, "RANK"),
    ({"RANK": "x", "LOCAL_RANK": "1"}, 1, "LOCAL_RANK"),
])
def test_global_rank_sources(variables, rank, source):
    os.environ.update(variables)
    assert rt._common.global_rank() == (rank, source)


def test_reset_seed_repeats_the_last_call():
    seed_everything(4, warn_only=True)
    first = (random.random(), float(np.random.rand()), torch.rand(2))
    record = reset_seed()
    assert (int(record), record.warn_only) == (4, True)
    again = (random.random(), float(np.random.rand()), torch.rand(2))
    assert first[:2] == again[:2] and torch.equal(first[2], again[2])


def test_reset_seed_without_record_reads_the_environment():
    with pytest.raises(TypeError, match="needs a seed"):
        reset_seed()
    os.environ["REPRO_LINT_SEED"] = "8"
    assert int(reset_seed()) == 8


# --- worker seeds ---------------------------------------------------------------------

def test_worker_seeds_never_collide_where_a_sum_would():
    grid = [(base, worker, rank) for base in range(4) for worker in range(4) for rank in range(4)]
    seeds = {_workers.worker_seeds(*key)[0] for key in grid}
    assert len(seeds) == len(grid)
    # transformers' seed_worker uses initial_seed + num_workers * rank: these two collide there
    assert _workers.worker_seeds(2, 0, 1)[0] != _workers.worker_seeds(4, 0, 0)[0]


def test_worker_seeds_without_numpy_use_the_documented_hash(monkeypatch):
    import hashlib
    import struct

    monkeypatch.setitem(sys.modules, "numpy", None)
    torch_seed, random_seed, numpy_words = _workers.worker_seeds(2**64 + 7, 1, 2)
    digest = hashlib.blake2b(struct.pack("<3Q", 7, 1, 2), digest_size=24, person=b"repro_lint.wseed").digest()
    assert numpy_words is None
    assert torch_seed == int.from_bytes(digest[:8], "little")
    assert random_seed == int.from_bytes(digest[8:], "little")


def test_seed_worker_differs_by_rank():
    draws = {}
    for rank in ("0", "1"):
        os.environ["RANK"] = rank
        torch.manual_seed(1234)
        seed_worker(0)
        draws[rank] = (random.random(), float(np.random.rand()), float(torch.rand(1)))
    assert all(a != b for a, b in zip(draws["0"], draws["1"]))


class _Draws(torch.utils.data.Dataset):
    def __len__(self):
        return 4

    def __getitem__(self, index):
        return torch.tensor([random.random(), float(np.random.rand()), float(torch.rand(1))])


def _epoch(**loader_args):
    loader = torch.utils.data.DataLoader(_Draws(), batch_size=1, num_workers=2, generator=make_generator(6),
                                         **loader_args)
    return loader, torch.cat(list(loader))


def test_workers_true_installs_seed_worker_where_none_is_given():
    seed_everything(6, workers=True)
    loader, first = _epoch()
    assert loader.worker_init_fn is seed_worker
    _, second = _epoch()
    assert torch.equal(first, second)
    own = lambda worker_id: None  # noqa: E731
    assert _epoch(worker_init_fn=own)[0].worker_init_fn is own  # a loader's own function is kept
    positional = torch.utils.data.DataLoader(_Draws(), 1, False, None, None, 0, None, False, False, 0, own)
    assert positional.worker_init_fn is own
    seed_everything(6)  # workers=False: turned off again
    assert torch.utils.data.DataLoader(_Draws()).worker_init_fn is None


# --- two ranks, gloo --------------------------------------------------------------------

RANK_SCRIPT = textwrap.dedent("""
    import json, os, random, sys
    from datetime import timedelta
    import numpy as np, torch, torch.distributed as dist
    from torch.utils.data import DataLoader, Dataset, DistributedSampler
    from repro_lint.runtime import make_generator, seed_everything, seed_worker

    class Augment(Dataset):
        def __len__(self):
            return 8
        def __getitem__(self, index):
            info = torch.utils.data.get_worker_info()
            return torch.tensor([info.id, random.random(), float(np.random.rand()), float(torch.rand(1))],
                                dtype=torch.float64)

    dist.init_process_group("gloo", timeout=timedelta(seconds=90))
    rank = dist.get_rank()
    seed_everything(0, hashseed="ignore")
    result = {"order": torch.randperm(32, generator=make_generator()).tolist()}
    dataset = Augment()
    for name, init in (("seed_worker", seed_worker), ("default", None)):
        sampler = DistributedSampler(dataset, num_replicas=2, rank=rank, shuffle=True, seed=0)
        loader = DataLoader(dataset, batch_size=1, sampler=sampler, num_workers=2, timeout=120,
                            worker_init_fn=init, generator=make_generator())
        epochs = []
        for epoch in range(2):
            sampler.set_epoch(epoch)
            epochs.append(sorted(batch[0].tolist() for batch in loader))
        result[name] = epochs
    dist.barrier()
    dist.destroy_process_group()
    print(json.dumps(result))
""")


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _launch_two_ranks(script: Path) -> list:
    """``(returncode, stdout, stderr)`` of each rank; both are killed after 300 s."""
    port = str(_free_port())
    procs = [subprocess.Popen([sys.executable, str(script)], text=True, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE,
                              env=clean_env(PYTHONPATH=pythonpath(), RANK=str(rank), WORLD_SIZE="2",
                                            MASTER_ADDR="127.0.0.1", MASTER_PORT=port, OMP_NUM_THREADS="1"))
             for rank in (0, 1)]
    outcomes = []
    try:
        for proc in procs:
            out, err = proc.communicate(timeout=300)
            outcomes.append((proc.returncode, out, err))
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    return outcomes


def _run_two_ranks(script: Path) -> list:
    """Each rank's JSON result; a new port is tried when the free one was taken meanwhile."""
    for _ in range(3):
        outcomes = _launch_two_ranks(script)
        if not any("ddress already in use" in err or "EADDRINUSE" in err for _, _, err in outcomes):
            break
    for code, _, err in outcomes:
        assert code == 0, err
    return [json.loads(out.strip().splitlines()[-1]) for _, out, _ in outcomes]


def test_two_gloo_ranks_differ_per_worker_and_repeat_across_runs(tmp_path):
    script = tmp_path / "ranks.py"
    script.write_text(RANK_SCRIPT, encoding="utf-8")
    first = _run_two_ranks(script)
    second = _run_two_ranks(script)
    assert first == second  # each rank repeats its streams exactly in a second run
    rank0, rank1 = first
    assert rank0["order"] == rank1["order"]  # make_generator(): the same order on every rank
    for epoch in range(2):
        mine, theirs = rank0["seed_worker"][epoch], rank1["seed_worker"][epoch]
        assert len(mine) == len(theirs) == 4
        assert {row[0] for row in mine} == {0.0, 1.0}  # both workers drew
        draws0 = {value for row in mine for value in row[1:]}
        draws1 = {value for row in theirs for value in row[1:]}
        assert not draws0 & draws1  # random, NumPy and torch: no shared draw across ranks
    assert rank0["seed_worker"][0] != rank0["seed_worker"][1]  # new streams every epoch
    # the control: DataLoader's own worker seeding gives both ranks the same streams
    assert rank0["default"] == rank1["default"]


def test_check_determinism_keeps_the_scripts_seeding_options():
    os.environ["RANK"] = "1"
    seed_everything(3, warn_only=True, workers=True, device_specific=True)
    seen = []

    def step():
        record = _seed.current_record()
        seen.append((int(record), record.warn_only, record.workers,
                     torch.utils.data.DataLoader(_Draws()).worker_init_fn is seed_worker))
        return torch.rand(2)

    assert rt.check_determinism(step, seed=5)
    assert seen == [(6, True, True, True)] * 2  # 5 + rank 1, the script's options
    assert int(_seed.current_record()) == 4  # and the script's own record is back
