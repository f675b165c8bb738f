#!/usr/bin/env python3
"""Lint and --fix a copy of large real trees and report what happened.

    python scripts/sweep.py                     # torch 2.13 source and transformers
    python scripts/sweep.py --tree path/to/src  # only this tree (copied first, never changed)
    python scripts/sweep.py --tree src --jobs 1 # one process: slower, lighter on a shared machine

For each tree it prints: files, findings by code, RPL001 count with reasons, internal errors
(must be 0), files changed by --fix, files that no longer compile after --fix (must be 0),
and files changed by a second --fix (must be 0). The trees are taken from wheels (pip
download; torch 2.13.0 comes from this machine's disk) into --workdir, outside the repository.
A run that takes longer than --timeout seconds counts as a hang (and fails the sweep).
"""

from __future__ import annotations

import argparse
import collections
import hashlib
import json
import re
import shutil
import subprocess
import sys
import time
import zipfile
from pathlib import Path

WHEELS = {
    "torch": ("torch==2.13.0", "torch/"),
    "transformers": ("transformers", "transformers/"),
}


def fetch(name: str, workdir: Path) -> Path:
    spec, prefix = WHEELS[name]
    target = workdir / "src" / name
    if target.is_dir():
        return target
    wheels = workdir / "wheels"
    wheels.mkdir(parents=True, exist_ok=True)
    found = list(wheels.glob(f"{name}-*.whl"))
    if not found:
        subprocess.run([sys.executable, "-m", "pip", "download", "-q", "--no-deps", "-d", str(wheels), spec], check=True)
        found = list(wheels.glob(f"{name}-*.whl"))
    with zipfile.ZipFile(found[0]) as wheel:
        for member in wheel.namelist():
            if member.startswith(prefix) and member.endswith(".py"):
                wheel.extract(member, target.parent / f".{name}-tmp")
    (target.parent / f".{name}-tmp" / prefix.rstrip("/")).rename(target)
    shutil.rmtree(target.parent / f".{name}-tmp", ignore_errors=True)
    return target


def digest(tree: Path) -> dict:
    return {p: hashlib.sha256(p.read_bytes()).hexdigest() for p in tree.rglob("*.py") if p.is_file() and not p.is_symlink()}


#: options every run gets (--jobs) and the longest a run may take (--timeout)
OPTIONS: list = []
TIMEOUT = 3600.0


def repro_lint(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    # -P: the tree being swept is the working directory, and torch's own source has modules
    # named random.py and types.py that must not shadow the standard library's.
    isolate = ["-P"] if sys.version_info >= (3, 11) else ["-I"]
    command = [sys.executable, *isolate, "-m", "repro_lint", *args, *OPTIONS]
    try:
        result = subprocess.run(command, cwd=str(cwd), capture_output=True, text=True, timeout=TIMEOUT, check=False)
    except subprocess.TimeoutExpired:
        sys.exit(f"repro-lint {' '.join(args)} ran past {TIMEOUT:.0f} s in {cwd}: a hang")
    if result.returncode not in (0, 1) and not internal_errors(result.stderr):
        sys.exit(f"repro-lint {' '.join(args)} exited with {result.returncode} in {cwd}:\n{result.stderr[-3000:]}")
    return result


def internal_errors(stderr: str) -> list:
    return [line for line in stderr.splitlines() if "internal error" in line]


def sweep(name: str, original: Path, workdir: Path) -> dict:
    tree = workdir / "copies" / name
    shutil.rmtree(tree, ignore_errors=True)
    shutil.copytree(original, tree, symlinks=True)
    files = sum(1 for _ in tree.rglob("*.py"))
    lines = sum(p.read_bytes().count(b"\n") for p in tree.rglob("*.py") if p.is_file())

    start = time.perf_counter()
    lint = repro_lint(".", "--select", "ALL", "--output-format", "json", "--exit-zero", "--no-cache", cwd=tree)
    lint_seconds = time.perf_counter() - start
    findings = json.loads(lint.stdout or "[]")
    by_code = collections.Counter(f["code"] for f in findings)
    reasons = collections.Counter(re.sub(r"\d+(\.\d+)?", "N", f["message"])[:90] for f in findings if f["code"] == "RPL001")
    errors = internal_errors(lint.stderr)

    before = digest(tree)
    start = time.perf_counter()
    fix = repro_lint(".", "--select", "ALL", "--fix", "--unsafe-fixes", "--exit-zero", "--no-cache", cwd=tree)
    fix_seconds = time.perf_counter() - start
    after = digest(tree)
    changed = [p for p in after if before.get(p) != after[p]]
    not_compiling = []
    for path in changed:
        try:
            compile(path.read_bytes(), str(path), "exec", dont_inherit=True)
        except (SyntaxError, ValueError) as exc:
            not_compiling.append(f"{path.relative_to(tree)}: {exc}")
    errors += internal_errors(fix.stderr)
    fixed_msg = re.search(r"Fixed (\d+) error", fix.stdout)

    second = repro_lint(".", "--select", "ALL", "--fix", "--unsafe-fixes", "--exit-zero", "--no-cache", cwd=tree)
    again = digest(tree)
    changed_again = [str(p.relative_to(tree)) for p in again if after.get(p) != again[p]]
    errors += internal_errors(second.stderr)

    return {
        "tree": name,
        "files": files,
        "lines": lines,
        "lint_seconds": round(lint_seconds, 1),
        "findings": len(findings),
        "findings_by_code": dict(sorted(by_code.items())),
        "rpl001": by_code.get("RPL001", 0),
        "rpl001_reasons": dict(reasons.most_common()),
        "internal_errors": errors,
        "fix_seconds": round(fix_seconds, 1),
        "fixes_applied": int(fixed_msg.group(1)) if fixed_msg else 0,
        "files_changed_by_fix": len(changed),
        "files_not_compiling_after_fix": not_compiling,
        "files_changed_by_second_fix": changed_again,
    }


def main() -> int:
    global TIMEOUT
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--workdir", type=Path, default=Path.home() / ".cache" / "repro-lint-sweep")
    parser.add_argument("--tree", type=Path, action="append", default=[], help="an extra tree to sweep (copied first)")
    parser.add_argument("--only", choices=sorted(WHEELS), action="append", help="sweep only these wheels")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.add_argument("--jobs", type=int, help="repro-lint's --jobs (default: its own)")
    parser.add_argument("--timeout", type=float, default=TIMEOUT, help="seconds one run may take (default: %(default)s)")
    args = parser.parse_args()
    args.workdir.mkdir(parents=True, exist_ok=True)
    TIMEOUT = args.timeout
    if args.jobs:
        OPTIONS.extend(["--jobs", str(args.jobs)])

    names = args.only or ([] if args.tree else sorted(WHEELS))
    trees = [(name, fetch(name, args.workdir)) for name in names]
    trees += [(tree.name, tree) for tree in args.tree]
    reports = [sweep(name, path, args.workdir) for name, path in trees]
    if args.json:
        print(json.dumps(reports, indent=2))
    else:
        for r in reports:
            print(f"== {r['tree']}: {r['files']} files, {r['lines']} lines")
            print(f"   lint: {r['findings']} findings in {r['lint_seconds']} s: {r['findings_by_code']}")
            print(f"   RPL001: {r['rpl001']} {r['rpl001_reasons']}")
            print(f"   internal errors: {len(r['internal_errors'])} {r['internal_errors'][:5]}")
            print(f"   --fix: {r['fixes_applied']} fixes, {r['files_changed_by_fix']} files changed in {r['fix_seconds']} s")
            print(f"   not compiling after --fix: {len(r['files_not_compiling_after_fix'])} {r['files_not_compiling_after_fix'][:5]}")
            print(f"   changed by a second --fix: {len(r['files_changed_by_second_fix'])} {r['files_changed_by_second_fix'][:5]}")
    bad = any(r["internal_errors"] or r["files_not_compiling_after_fix"] or r["files_changed_by_second_fix"] for r in reports)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
