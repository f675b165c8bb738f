"""ModuleFiles answers as checking each candidate path with Path.is_file would."""

from __future__ import annotations

import os
from pathlib import Path

from repro_lint.modulefiles import ModuleFiles


def _by_pathlib(roots, dotted):
    found, looked = None, []
    rel = Path(*dotted.split("."))
    folders = dotted.split(".")[:-1]

    def regular(root):  # every folder on the way holds an __init__.py
        return all((root.joinpath(*folders[: i + 1]) / "__init__.py").is_file() for i in range(len(folders)))

    ordered = sorted(roots)
    for root in [r for r in ordered if regular(r)] + [r for r in ordered if not regular(r)]:
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


def test_a_regular_package_in_a_later_root_comes_before_a_folder_without_init(tmp_path: Path):
    """lightweight-gan's sdist: ``repo/lightweight_gan/lightweight_gan.py`` beside
    ``repo/lightweight_gan/__init__.py``, linted with the folder above ``repo`` as a root too;
    ``lightweight_gan.lightweight_gan`` is the module, as Python imports it."""
    outer = tmp_path / "mypkg"
    (outer / "mypkg").mkdir(parents=True)
    (outer / "mypkg" / "__init__.py").write_text("from mypkg.mypkg import Model\n")
    (outer / "mypkg" / "mypkg.py").write_text("class Model: ...\n")
    roots = [tmp_path, outer]
    files = ModuleFiles(roots)
    assert files.look_up("mypkg.mypkg")[0] == str(outer / "mypkg" / "mypkg.py")
    assert files.look_up("mypkg.mypkg") == _by_pathlib(roots, "mypkg.mypkg")


def test_a_name_two_roots_hold_is_the_importer_s_own(tmp_path: Path):
    """Two projects linted in one tree, each with its own ``utils``: a file imports the one of
    its own project (the roots that hold it first, the deepest first), as its ``sys.path``
    would; a name one root holds, or no importer, resolves as before."""
    for rel in ("aaa/utils.py", "aaa/other.py", "zzz/utils.py", "zzz/scripts/train.py", "zzz/only.py"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("")
    files = ModuleFiles([tmp_path / "aaa", tmp_path / "zzz", tmp_path / "zzz" / "scripts"])
    mine = str(tmp_path / "zzz" / "scripts" / "train.py")
    assert files.find("utils", mine) == str(tmp_path / "zzz" / "utils.py")
    assert files.find("utils", str(tmp_path / "aaa" / "other.py")) == str(tmp_path / "aaa" / "utils.py")
    assert files.find("utils") == str(tmp_path / "aaa" / "utils.py")  # no importer: the roots in order
    assert files.find("only", mine) == files.find("only") == str(tmp_path / "zzz" / "only.py")
    assert files.preferred("only", mine) == ()  # one root holds it: no preference to compute


def test_the_importers_roots_are_its_folders_that_are_roots(tmp_path: Path):
    """``preferred`` walks up from the importer's folder to the roots it is in, the deepest
    first: the roots whose path prefixes the importer's, as comparing with every root gives."""
    rels = ("a/utils.py", "a/b/utils.py", "a/b/c/train.py", "ab/utils.py", "x/utils.py", "a/b/c/d/e.py")
    for rel in rels:
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("")
    roots = [tmp_path / "a", tmp_path / "a" / "b", tmp_path / "ab", tmp_path / "x", tmp_path / "a" / "b" / "c" / "d"]
    files = ModuleFiles(roots)
    prefixes = [os.path.join(os.path.abspath(r), "") for r in sorted(roots)]
    for rel in ("a/b/c/train.py", "a/b/c/d/e.py", "ab/utils.py", "a/utils.py", "x/utils.py"):
        importer = str(tmp_path / rel)
        expected = tuple(sorted((p for p in prefixes if importer.startswith(p)), key=len, reverse=True))
        assert files.preferred("utils", importer) == expected, rel
    assert files.preferred("utils", str(tmp_path / "a" / "b" / "c" / "train.py")) == (
        os.path.join(str(tmp_path / "a" / "b"), ""), os.path.join(str(tmp_path / "a"), ""))
    assert files.preferred("utils", str(tmp_path / "elsewhere.py")) == ()


def test_the_roots_above_a_folder_are_those_comparing_every_root_finds(tmp_path: Path):
    """``roots_above`` (the roots that hold a folder deeper than itself) walks up from the
    folder: the roots whose path prefixes the folder's, without the folder itself."""
    roots = [tmp_path / "a", tmp_path / "a" / "b", tmp_path / "ab", tmp_path / "a" / "b" / "c"]
    for root in roots:
        root.mkdir(parents=True, exist_ok=True)
    files = ModuleFiles(roots)
    for rel in ("a/b/c", "a/b/c/d", "a/b", "ab/x", "a", "abc", "x/y"):
        folder = str(tmp_path / rel)
        expected = [str(r) for r in sorted(roots) if folder.startswith(os.path.join(str(r), ""))]
        assert sorted(files.roots_above(folder)) == sorted(expected), rel
    assert files.roots_above(str(tmp_path / "a" / "b" / "c" / "d")) == tuple(str(tmp_path / r) for r in ("a/b/c", "a/b", "a"))


def test_find_looks_only_in_the_roots_that_hold_the_first_part(tmp_path: Path):
    """A tree of many projects has dozens of roots; ``find`` (which the cache asks again for
    every module a cached finding depends on) checks a project module's candidates only in the
    roots that hold its first part, with the answer ``look_up`` gives over all of them."""
    roots = [tmp_path / f"root{i:02d}" for i in range(12)]
    for root in roots:
        (root / "common").mkdir(parents=True)
        (root / f"own{root.name}").mkdir()
        (root / f"own{root.name}" / "__init__.py").write_text("")
    (roots[7] / "common" / "__init__.py").write_text("")
    (roots[7] / "common" / "util.py").write_text("")
    (roots[3] / "ownroot03" / "mod.py").write_text("")
    files = ModuleFiles(roots)
    asked = []
    original = files._is_file
    files._is_file = lambda prefix, folders, name: asked.append(prefix) or original(prefix, folders, name)  # type: ignore[method-assign]
    for dotted in ("ownroot03.mod", "ownroot03.missing", "common.util", "torch.nn"):
        asked.clear()
        assert files.find(dotted) == ModuleFiles(roots).look_up(dotted)[0], dotted
        holders = {os.path.join(str(root), "") for root in roots if (root / dotted.split(".")[0]).exists()}
        assert set(asked) <= holders, dotted
    assert files.find("ownroot03.mod") == str(roots[3] / "ownroot03" / "mod.py")
    assert files.find("common.util") == str(roots[7] / "common" / "util.py")
