"""A standing sweep of hostile input, generated at test time: every case runs the real command
in a subprocess with a wall-clock bound, and must end with the expected exit status, a message
that names the file, no traceback, nothing written outside the paths given, and no process
left behind."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from conftest import REPO

HAZARD = "import torch\ntorch.backends.cudnn.benchmark = True\n"
FIXED = HAZARD.replace("True", "False")
TABLE = "y = [" + ", ".join(map(str, range(500))) + "]\n"  # 2.5 kB: 30 files are worth a pool


def _fifo(name: str) -> Callable[[Path], None]:
    def make(root: Path) -> None:
        os.mkfifo(root / name)

    return make


def _loop(root: Path) -> None:
    os.symlink(root, root / "loop")
    os.symlink(root / "self.py", root / "self.py")


@dataclass
class Case:
    name: str
    files: dict[str, str | bytes]
    args: list[str]
    status: int
    #: what stdout or stderr must hold (each names the file)
    expect: tuple[str, ...]
    make: Callable[[Path], None] | None = None
    #: files the run may change (with --fix), as they must end up
    changed: dict[str, str] = field(default_factory=dict)
    seconds: float = 20
    needs: str = ""


CASES = [
    Case("syntax", {"bad.py": "def train(:\n", "good.py": HAZARD}, ["."], 1, ("bad.py:1:", "good.py:2:1: RPL201")),
    Case("binary", {"blob.py": b"\x7fELF\x00\x01" + bytes(range(256))}, ["."], 1, ("blob.py:1:1: RPL001 binary file",)),
    Case("undecodable", {"latin.py": b"x = '\xe9'\n"}, ["."], 1, ("latin.py:1:1: RPL001 cannot decode",)),
    Case("bad cookie", {"k.py": b"# -*- coding: klingon -*-\nx = 1\n"}, ["."], 1, ("k.py:1:1: RPL001", "klingon")),
    Case("odd endings", {"bom.py": b"\xef\xbb\xbf" + HAZARD.replace("\n", "\r\n").encode(), "mac.py": HAZARD.replace("\n", "\r").encode()},
         ["."], 1, ("bom.py:2:1: RPL201", "mac.py:2:1: RPL201")),
    Case("deep parentheses", {"deep.py": HAZARD + "y = " + "(" * 500 + "1" + ")" * 500 + "\n"}, ["."], 1,
         ("deep.py:3:1: RPL001 nested too deeply to analyse (limit 300",)),
    Case("long chain", {"chain.py": HAZARD + "y = " + " + ".join(["x"] * 5000) + "\n"}, ["."], 1,
         ("chain.py:3:1: RPL001 nested 5002 levels deep",)),
    Case("nested sums, --fix", {"sums.py": HAZARD + "y = " + "(x + " * 500 + "1" + ")" * 500 + "\n", "ok.py": HAZARD},
         [".", "--fix"], 1, ("sums.py:3:1: RPL001 nested too deeply",), changed={"ok.py": FIXED}),
    Case("pathological .gitignore", {"a.py": HAZARD, "skipx.py": HAZARD, ".gitignore": "*" * 30 + "x.py\n*a*a*a*a*a*b\n"},
         ["."], 1, ("a.py:2:1: RPL201", ".gitignore:2: pattern '*a*a*a*a*a*b' skipped")),
    Case(".gitignore is a pipe", {"a.py": HAZARD}, ["."], 1, ("a.py:2:1: RPL201", ".gitignore: not a regular file"),
         make=_fifo(".gitignore"), needs="fifo"),
    Case("pyproject.toml is a pipe", {"a.py": HAZARD}, ["."], 2, ("pyproject.toml: not a regular file",),
         make=_fifo("pyproject.toml"), needs="fifo"),
    Case("a .py pipe, --fix", {"a.py": HAZARD}, [".", "--fix"], 1, ("sub/p.py:1:1: RPL001 not a regular file",),
         make=lambda root: (root / "sub").mkdir() or os.mkfifo(root / "sub" / "p.py"), changed={"a.py": FIXED}, needs="fifo"),
    Case("pyproject.toml not UTF-8", {"a.py": HAZARD, "pyproject.toml": b"[tool.repro-lint]\nseed = 1 # \xff\n"}, ["."], 2,
         ("pyproject.toml: invalid TOML: not UTF-8",)),
    Case("unknown configuration key", {"a.py": HAZARD, "pyproject.toml": "[tool.repro-lint]\nselekt = ['RPL']\n"}, ["."], 2,
         ("pyproject.toml: unknown key 'selekt'",)),
    Case("file name not UTF-8, sarif", {os.fsdecode(b"caf\xe9_train.py"): HAZARD}, [".", "--output-format", "sarif"], 1,
         ('"uri": "caf%E9_train.py"',), needs="linux"),
    Case("file name not UTF-8, --fix", {os.fsdecode(b"caf\xe9_train.py"): HAZARD}, [".", "--fix"], 0, (),
         changed={os.fsdecode(b"caf\xe9_train.py"): FIXED}, needs="linux"),
    Case("symlink loops", {"train.py": HAZARD}, ["."], 1, ("train.py:2:1: RPL201",), make=_loop, needs="symlink"),
    Case("folder named like a file", {"pkg.py/inner.py": HAZARD}, ["pkg.py"], 1, ("pkg.py/inner.py:2:1: RPL201",)),
    Case("missing path", {"a.py": HAZARD}, ["a.py", "no/such.py"], 2, ("no/such.py: no such file or directory",)),
    Case("too large", {"big.py": HAZARD + "x = 1\n" * 5000, "pyproject.toml": "[tool.repro-lint]\nmax-file-size = 1000\n"},
         ["."], 1, ("big.py:1:1: RPL001 file is",)),
    Case("read-only folder, --fix", {"locked/a.py": HAZARD, "b.py": HAZARD}, [".", "--fix"], 1,
         ("locked/a.py: cannot write (permission denied); left unchanged", "locked/a.py:2:1: RPL201"),
         make=lambda root: (root / "locked").chmod(0o555), changed={"b.py": FIXED}, needs="not root"),
    Case("many files in workers", {f"m{i}.py": HAZARD + TABLE for i in range(30)}, [".", "--jobs", "2", "--fix"], 0, (),
         changed={f"m{i}.py": FIXED + TABLE for i in range(30)}, seconds=60),
]


def _available(needs: str) -> bool:
    return {
        "": True,
        "fifo": hasattr(os, "mkfifo"),
        "linux": sys.platform.startswith("linux"),
        "symlink": hasattr(os, "symlink"),
        # root writes into a read-only folder (tests/test_robustness.py simulates it for root)
        "not root": hasattr(os, "geteuid") and os.geteuid() != 0,
    }[needs]


def _snapshot(root: Path) -> dict[str, bytes]:
    """Every regular file below ``root`` (symlinks and pipes are never opened), with its bytes."""
    found = {}
    for folder, dirs, files in os.walk(root):
        for name in files:
            path = os.path.join(folder, name)
            if os.path.isfile(path) and not os.path.islink(path):
                with open(path, "rb") as handle:
                    found[os.path.relpath(path, root)] = handle.read()
    return found


def _processes_in(folder: Path) -> list[int]:
    """Processes whose working directory is ``folder`` (a worker left behind would be one)."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit() and int(entry) != os.getpid():
            try:
                if os.readlink(f"/proc/{entry}/cwd") == str(folder):
                    found.append(int(entry))
            except OSError:
                continue
    return found


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_hostile_input(tmp_path: Path, case: Case):
    if not _available(case.needs):
        pytest.skip(f"needs {case.needs}")
    root = tmp_path / "project"
    root.mkdir()
    outside = tmp_path / "outside.py"
    outside.write_text(HAZARD)
    for name, content in case.files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content if isinstance(content, bytes) else content.encode())
    if case.make is not None:
        case.make(root)
    before = _snapshot(tmp_path)
    started = time.monotonic()
    proc = subprocess.run(
        [sys.executable, "-m", "repro_lint", *case.args, "--no-cache"],
        cwd=str(root), capture_output=True, timeout=case.seconds * 6, check=False,
        env={**os.environ, "PYTHONPATH": str(REPO), "LC_ALL": "C.UTF-8"},
    )
    elapsed = time.monotonic() - started
    out, err = proc.stdout.decode("utf-8"), proc.stderr.decode("utf-8", "backslashreplace")
    assert proc.returncode == case.status, out + err
    assert "Traceback" not in err and "internal error" not in err, err
    for words in case.expect:
        assert words in out or words in err, f"{words!r} not in:\n{out}{err}"
    after = _snapshot(tmp_path)
    expected = dict(before)
    expected.update({os.path.join("project", name): text.encode() for name, text in case.changed.items()})
    assert after == expected  # only the files fixed changed: nothing outside, no temporary files
    if os.path.isdir("/proc"):
        assert _processes_in(root) == [], "a process of the run outlived it"
    assert elapsed < case.seconds, f"took {elapsed:.1f} s"
