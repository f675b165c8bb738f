"""A DDP script that seeds torch on each rank with ``seed + rank`` but draws from NumPy in the
main process unseeded, fixed with ``--fix``, then run as two real processes (torch.distributed,
gloo backend, on CPU): each rank's workers still draw their own augmentations, and a second run
draws the same ones. (What the workers draw from NumPy was reproducible already: each worker
seeds NumPy from torch's seed.)"""

from __future__ import annotations

import json
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import REPO, run_cli

DDP_SCRIPT = '''\
import argparse
import json
import os

import numpy as np
import torch
import torch.distributed as dist
from torch.utils.data import DataLoader, Dataset


class Noisy(Dataset):
    def __len__(self):
        return 8

    def __getitem__(self, index):
        return torch.tensor([index, np.random.randint(1_000_000), torch.randint(1_000_000, ()).item()])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    dist.init_process_group("gloo")
    rank = dist.get_rank()
    torch.manual_seed(args.seed + rank)
    loader = DataLoader(Noisy(), batch_size=8, shuffle=True, num_workers=2)
    batch = next(iter(loader))
    drawn = [-1, int(np.random.randint(1_000_000)), 0]  # in the main process
    print(json.dumps({"rank": rank, "rows": batch.tolist() + [drawn]}))
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
'''


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _run_two_ranks(script: Path) -> dict:
    port = str(_free_port())
    procs = []
    for rank in (0, 1):
        env = {
            "PATH": "/usr/bin:/bin", "PYTHONPATH": str(REPO), "PYTHONHASHSEED": "0",
            "RANK": str(rank), "WORLD_SIZE": "2", "MASTER_ADDR": "127.0.0.1", "MASTER_PORT": port,
        }
        procs.append(subprocess.Popen([sys.executable, str(script)], env=env, cwd=script.parent,
                                      stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True))
    out = {}
    try:
        for proc in procs:
            stdout, stderr = proc.communicate(timeout=180)
            assert proc.returncode == 0, stderr
            record = json.loads(stdout.strip().splitlines()[-1])
            out[record["rank"]] = sorted(map(tuple, record["rows"]))
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
    return out


def test_fixed_ddp_script_keeps_per_rank_worker_streams(tmp_path: Path):
    pytest.importorskip("torch")
    pytest.importorskip("numpy")
    import torch.distributed as dist

    if not dist.is_available() or not dist.is_gloo_available():
        pytest.skip("torch.distributed with gloo is not available in this build")
    script = tmp_path / "train.py"
    script.write_text(DDP_SCRIPT)
    before = _run_two_ranks(script)
    assert before[0] != before[1]  # torch draws differ per rank (seed + rank), before the fix
    assert _run_two_ranks(script) != before  # the main process's NumPy draw is not seeded

    done = run_cli(["--fix", "--no-cache", "--select", "ALL", "train.py"], tmp_path)
    fixed = script.read_text()
    assert "worker_init_fn=seed_worker" in fixed and "generator=make_generator()" in fixed, done.stdout + fixed
    assert "seed_everything(args.seed + rank)" in fixed, fixed

    first, second = _run_two_ranks(script), _run_two_ranks(script)
    assert first == second  # reproducible: the same draws on a second run
    assert first[0] != first[1]  # and each rank keeps its own stream
    # NumPy in the workers is seeded per worker and per rank
    numpy_draws = {rank: [row[1] for row in rows] for rank, rows in first.items()}
    assert set(numpy_draws[0]) != set(numpy_draws[1])
