"""ModuleFiles answers as checking each candidate path with Path.is_file would."""

from __future__ import annotations

import os
from pathlib import Path

from repro_lint.modulefiles import ModuleFiles


def _by_pathlib(roots, dotted):
    found, looked = None, []
    rel = Path(*dotted.split("."))
    for root in sorted(roots):
        for candidate in (root / rel.with_suffix(".py"), root / rel / "__init__.py"):
            looked.append(os.path.abspath(candidate))
            if candidate.is_file():
                return str(candidate), tuple(looked)
    return found, tuple(looked)


def test_look_up_is_what_pathlib_finds(tmp_path: Path):
    first, second = tmp_path / "src", tmp_path / "tools"
    for rel in ("pkg/__init__.py", "pkg/sub/__init__.py", "pkg/sub/mod.py", "pkg/plain.py", "single.py"):
        (first / rel).parent.mkdir(parents=True, exist_ok=True)
        (first / rel).write_text("")
    (first / "namespace" / "inner").mkdir(parents=True)  # a folder without __init__.py
    (first / "namespace" / "inner" / "leaf.py").write_text("")
    (first / "folder.py").mkdir()  # a folder named like a module is no module
    (second / "pkg").mkdir(parents=True)
    (second / "pkg" / "only_here.py").write_text("")
    (second / "linked.py").symlink_to(first / "single.py")
    (second / "dangling.py").symlink_to(first / "missing.py")
    roots = [second, first]
    files = ModuleFiles(roots)
    names = [
        "pkg", "pkg.sub", "pkg.sub.mod", "pkg.plain", "pkg.missing", "pkg.only_here", "single", "torch",
        "torch.nn.functional", "namespace", "namespace.inner.leaf", "folder", "linked", "dangling", "pkg.sub.mod.x",
    ]
    for dotted in names + ["pkg..sub", "..", ""]:
        if dotted.strip("."):
            assert files.look_up(dotted) == _by_pathlib(roots, dotted), dotted
        # the same file, without listing the candidates (one set look-up for "torch")
        assert files.find(dotted) == files.look_up(dotted)[0], dotted
        assert ModuleFiles(roots).find(dotted) == files.look_up(dotted)[0], dotted
    assert files.look_up("pkg.sub.mod")[0] == str(first / "pkg" / "sub" / "mod.py")
    assert files.look_up("linked")[0] == str(second / "linked.py")
    assert files.look_up("dangling")[0] is None
    assert files.look_up("") == (None, ())
