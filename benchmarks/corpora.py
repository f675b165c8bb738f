"""Corpus builders for the benchmark: real code from wheels, and a synthetic training repo.

Every corpus is a folder with a ``pyproject.toml`` holding an empty ``[tool.repro-lint]``
table (so the folder is the project root and the default configuration applies) and the
Python files below it. Builders are idempotent: a corpus already built is reused.
"""

from __future__ import annotations

import fnmatch
import os
import random
import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path
from typing import Optional, Sequence, Tuple

MARKER = ".complete"


def _finish(folder: Path) -> Path:
    (folder / "pyproject.toml").write_text("[tool.repro-lint]\n", encoding="utf-8")
    (folder / MARKER).write_text("", encoding="utf-8")
    return folder


def pip_download(spec: str, into: Path) -> Path:
    """``pip download SPEC --no-deps`` into ``into`` (pip takes it from its cache or index)."""
    into.mkdir(parents=True, exist_ok=True)
    name = spec.split("==")[0].replace("-", "_").lower()
    existing = sorted(p for p in into.glob("*.whl") if p.name.lower().startswith(name))
    if existing:
        return existing[-1]
    subprocess.run(
        [sys.executable, "-m", "pip", "download", spec, "--no-deps", "--only-binary", ":all:", "-d", str(into), "-q"],
        check=True,
    )
    found = sorted(p for p in into.glob("*.whl") if p.name.lower().startswith(name))
    if not found:
        raise RuntimeError(f"pip download {spec} left no wheel in {into}")
    return found[-1]


def from_wheel(workdir: Path, name: str, spec: str, package: str) -> Path:
    """The ``.py`` files of ``package`` inside the wheel of ``spec``."""
    folder = workdir / name
    if (folder / MARKER).exists():
        return folder
    wheel = pip_download(spec, workdir / "wheels")
    with zipfile.ZipFile(wheel) as archive:
        for info in archive.infolist():
            if info.filename.startswith(f"{package}/") and info.filename.endswith(".py"):
                archive.extract(info, folder)
    return _finish(folder)


def torch_source(workdir: Path, version: str = "2.13.0") -> Path:
    return from_wheel(workdir, f"torch-{version}", f"torch=={version}", "torch")


def transformers_source(workdir: Path, version: Optional[str] = None) -> Path:
    spec = f"transformers=={version}" if version else "transformers"
    return from_wheel(workdir, f"transformers-{version or 'latest'}", spec, "transformers")


# -- real training repositories, from PyPI source distributions ---------------------------------

#: (requirement, folders left out) of the project-repositories corpus: training frameworks and
#: their training scripts as their authors ship them (an sdist holds the repository's code, its
#: examples and tools besides the package); tests and generated config files are left out, so
#: that the corpus is mostly project code rather than test suites or one giant library
PROJECTS: Tuple[Tuple[str, Tuple[str, ...]], ...] = (
    ("ultralytics==8.4.190", ("tests/*",)),
    ("accelerate==1.15.0", ("tests/*",)),
    ("mmpretrain==1.2.0", ("mmpretrain/.mim/configs/*", "tests/*")),
    ("mmengine==0.10.7", ("tests/*",)),
    ("pytorch-ignite==0.5.5", ("tests/*",)),
    ("open_clip_torch==3.3.0", ("tests/*",)),
    ("stable-baselines3==2.9.2", ("tests/*",)),
    ("yolov5==7.0.14", ("tests/*",)),
    ("nnunetv2==2.8.1", ("*/tests/*",)),
    ("segmentation-models-pytorch==0.6.0", ("tests/*",)),
)


def pip_download_source(spec: str, into: Path) -> Path:
    """The source distribution of ``spec`` (``pip download --no-binary``), or its wheel where
    pip cannot prepare the sdist (its setup script needs a dependency at build time)."""
    into.mkdir(parents=True, exist_ok=True)
    name, version = spec.split("==")
    stems = {f"{n}-{version}" for n in (name, name.replace("-", "_"), name.replace("_", "-"))}

    def found() -> Optional[Path]:
        for path in sorted(into.iterdir()):
            if any(path.name.lower().startswith(stem.lower()) for stem in stems) and path.name.endswith((".tar.gz", ".zip", ".whl")):
                return path
        return None

    for binary in ("--no-binary", "--only-binary"):
        if found() is None:
            subprocess.run(
                [sys.executable, "-m", "pip", "download", spec, "--no-deps", binary, ":all:", "-d", str(into), "-q"],
                check=False, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            )
    archive = found()
    if archive is None:
        raise RuntimeError(f"pip download {spec} left neither an sdist nor a wheel in {into}")
    return archive


def _python_members(archive: Path) -> Sequence[Tuple[str, bytes]]:
    """(path inside the project, bytes) of every ``.py`` file of an sdist or a wheel (the
    sdist's top folder, ``name-version/``, removed)."""
    members = []
    if archive.name.endswith(".whl") or archive.name.endswith(".zip"):
        with zipfile.ZipFile(archive) as zipped:
            for info in zipped.infolist():
                if info.filename.endswith(".py") and ".dist-info/" not in info.filename:
                    members.append((info.filename, zipped.read(info)))
    else:
        with tarfile.open(archive) as tarred:
            for info in tarred.getmembers():
                if info.isfile() and info.name.endswith(".py"):
                    handle = tarred.extractfile(info)
                    if handle is not None:
                        members.append((info.name.split("/", 1)[1], handle.read()))
    return members


def projects_source(workdir: Path) -> Path:
    """About a dozen real training repositories (:data:`PROJECTS`), one folder each: their
    packages, training scripts, examples and tools, as published on PyPI."""
    folder = workdir / "projects"
    if (folder / MARKER).exists():
        return folder
    for spec, left_out in PROJECTS:
        archive = pip_download_source(spec, workdir / "sdists")
        project = folder / spec.split("==")[0]
        for name, data in _python_members(archive):
            if any(fnmatch.fnmatch(name, pattern) for pattern in left_out) or name == "setup.py":
                continue
            target = project / name
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
    return _finish(folder)


def copies(source: Path, folder: Path, times: int) -> Path:
    """``times`` copies of the corpus at ``source`` side by side in one tree (``copy1/``, ...),
    as hard links (a symbolic link would not be linted), for growth measurements."""
    if (folder / MARKER).exists():
        return folder
    for number in range(1, times + 1):
        for path in sorted(source.rglob("*.py")):
            target = folder / f"copy{number}" / path.relative_to(source)
            target.parent.mkdir(parents=True, exist_ok=True)
            if not target.exists():
                try:
                    os.link(path, target)
                except OSError:
                    shutil.copyfile(path, target)
    return _finish(folder)


# -- a synthetic training repository ------------------------------------------------------------

_TRAIN = '''\
"""Train {name} on {dataset}."""
import argparse
import random

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader

from {pkg}.data import build_dataset
from {pkg}.models.{model} import {model_class}
from {pkg}.utils.seed import set_seed


def parse_args():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default={epochs})
    parser.add_argument("--lr", type=float, default={lr})
    parser.add_argument("--seed", type=int, default=0)
    return parser.parse_args()


def evaluate(model, loader):
    model.eval()
    correct = 0
    with torch.no_grad():
        for x, y in loader:
            correct += (model(x).argmax(1) == y).sum().item()
    return correct / len(loader.dataset)


def main():
    args = parse_args()
    {seed_call}
    torch.backends.cudnn.benchmark = {benchmark}
    dataset = build_dataset("{dataset}")
    loader = DataLoader(dataset, batch_size={batch}, shuffle=True, num_workers={workers})
    model = {model_class}()
    optimizer = torch.optim.SGD(model.parameters(), lr=args.lr)
    for epoch in range(args.epochs):
        model.train()
        for x, y in loader:
            optimizer.zero_grad()
            loss = F.cross_entropy(model(x), y)
            loss.backward()
            optimizer.step()
        print(epoch, evaluate(model, loader))


if __name__ == "__main__":
    main()
'''

_MODEL = '''\
import torch
import torch.nn as nn
import torch.nn.functional as F


class {model_class}(nn.Module):
    def __init__(self, width={width}):
        super().__init__()
        self.conv = nn.Conv2d(3, width, 3, padding=1)
        self.norm = nn.BatchNorm2d(width)
        self.head = nn.Linear(width, 10)
        self.drop = nn.Dropout({p})

    def forward(self, x):
        x = F.relu(self.norm(self.conv(x)))
        x = F.adaptive_avg_pool2d(x, 1).flatten(1)
        x = {dropout_call}
        return self.head(self.drop(x))
'''

_DATA = '''\
import torch
from torch.utils.data import Dataset


class Synthetic(Dataset):
    def __init__(self, size=1024):
        self.x = torch.randn(size, 3, 32, 32)
        self.y = torch.randint(0, 10, (size,))

    def __len__(self):
        return len(self.y)

    def __getitem__(self, index):
        return self.x[index], self.y[index]


def build_dataset(name):
    return Synthetic()
'''

_SEED = '''\
import random

import numpy as np
import torch


def set_seed(seed):
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)
'''

_UTIL = '''\
"""Helpers that mention none of the rules' words."""
import json
import math
import os


def load_config(path):
    with open(path) as handle:
        return json.load(handle)


def cosine(step, total, base):
    return base * 0.5 * (1 + math.cos(math.pi * step / total))


def ensure_dir(path):
    os.makedirs(path, exist_ok=True)
    return path
'''


def synthetic_repo(workdir: Path, files: int = 400, seed: int = 0) -> Path:
    """A training repository of about ``files`` modules: scripts, models, data, utilities;
    some with reproducibility hazards (cudnn.benchmark on, F.dropout without training=,
    no seeding), most clean."""
    folder = workdir / f"synthetic-{files}"
    if (folder / MARKER).exists():
        return folder
    rng = random.Random(seed)
    pkg = "trainlib"
    (folder / pkg / "models").mkdir(parents=True, exist_ok=True)
    (folder / pkg / "utils").mkdir(parents=True, exist_ok=True)
    (folder / "scripts").mkdir(parents=True, exist_ok=True)
    for init in (pkg, f"{pkg}/models", f"{pkg}/utils"):
        (folder / init / "__init__.py").write_text("", encoding="utf-8")
    (folder / pkg / "data.py").write_text(_DATA, encoding="utf-8")
    (folder / pkg / "utils" / "seed.py").write_text(_SEED, encoding="utf-8")
    written = 5
    index = 0
    while written < files:
        kind = rng.random()
        model = f"net{index}"
        model_class = f"Net{index}"
        (folder / pkg / "models" / f"{model}.py").write_text(
            _MODEL.format(
                model_class=model_class, width=rng.choice([16, 32, 64]), p=rng.choice([0.1, 0.2, 0.5]),
                dropout_call=rng.choice(["F.dropout(x, 0.1)", "F.dropout(x, 0.1, training=self.training)", "x"]),
            ),
            encoding="utf-8",
        )
        written += 1
        if kind < 0.35:
            (folder / "scripts" / f"train_{index}.py").write_text(
                _TRAIN.format(
                    name=model, dataset=rng.choice(["cifar10", "mnist", "svhn"]), pkg=pkg, model=model,
                    model_class=model_class, epochs=rng.randint(1, 90), lr=rng.choice([0.1, 0.01]),
                    seed_call=rng.choice(["set_seed(args.seed)", "pass  # no seeding"]),
                    benchmark=rng.choice(["True", "False"]), batch=rng.choice([32, 64, 128]),
                    workers=rng.choice([0, 2, 4]),
                ),
                encoding="utf-8",
            )
            written += 1
        for _ in range(2):
            (folder / pkg / "utils" / f"util_{index}_{_}.py").write_text(_UTIL * rng.randint(1, 6), encoding="utf-8")
            written += 1
        index += 1
    return _finish(folder)
