"""Entry points declared in packaging metadata: the function a console script calls is where the
program starts (``[project.scripts]``, ``setup.py``/``setup.cfg`` ``console_scripts``), and a
package's ``__main__.py`` runs as ``python -m pkg``. The seeding rules treat them as a
``__main__`` block calling that function."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path
from typing import Dict

import pytest

from conftest import codes, lint_files_in, run_cli, write
from repro_lint.console_scripts import console_scripts, from_pyproject, from_setup_cfg, from_setup_py, parse_reference

CLI = """\
    import argparse

    from pkg.model import build


    def main():
        parser = argparse.ArgumentParser()
        parser.add_argument("--lr", type=float, default=0.1)
        args = parser.parse_args()
        model = build()
        print(model, args.lr)
    """
MODEL = """\
    from torch import nn


    def build():
        return nn.Linear(4, 2)
    """
PYPROJECT = """\
    [project]
    name = "pkg"
    version = "1.0"

    [project.scripts]
    pkg-train = "pkg.cli:main"
    """
SETUP_PY = """\
    from setuptools import find_packages, setup

    SCRIPTS = ["pkg-train = pkg.cli:main"]

    setup(
        name="pkg",
        packages=find_packages(),
        entry_points={"console_scripts": SCRIPTS},
    )
    """
SETUP_CFG = """\
    [metadata]
    name = pkg

    [options.entry_points]
    console_scripts =
        pkg-train = pkg.cli:main
    """


def lint_project(root: Path, files: Dict[str, str], select=("RPL101",)):
    write(root, {"pkg/__init__.py": "", "pkg/model.py": MODEL, **files})
    paths = [p for p in sorted(root.rglob("*.py"))]
    return lint_files_in(paths, root, list(select))


def fix_of(diagnostic, source: str) -> str:
    lines = source.splitlines(keepends=True)
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line))
    for edit in sorted(diagnostic.fix.edits, key=lambda e: e.start, reverse=True):
        start = offsets[edit.start[0] - 1] + edit.start[1]
        end = offsets[edit.end[0] - 1] + edit.end[1]
        source = source[:start] + edit.content + source[end:]
    return source


@pytest.mark.parametrize("name, metadata", [("pyproject.toml", PYPROJECT), ("setup.py", SETUP_PY), ("setup.cfg", SETUP_CFG)])
def test_a_console_script_function_is_an_entry_point(tmp_path: Path, name, metadata):
    found = lint_project(tmp_path, {name: metadata, "pkg/cli.py": CLI})
    assert [(Path(d.path).name, d.code, d.start[0]) for d in found] == [("cli.py", "RPL101", 10)]


def test_without_metadata_the_same_module_is_a_library(tmp_path: Path):
    assert lint_project(tmp_path, {"pkg/cli.py": CLI}) == []


def test_the_fix_goes_into_the_console_function_without_the_runtime(tmp_path: Path):
    """The installed wrapper imports the module: the block goes at the top of the function it
    calls (importing the module stays free of side effects), written with torch alone (the
    installed program must not need repro-lint)."""
    (finding,) = lint_project(tmp_path, {"pyproject.toml": PYPROJECT, "pkg/cli.py": CLI})
    fixed = fix_of(finding, (tmp_path / "pkg/cli.py").read_text())
    assert "repro_lint" not in fixed
    assert "def main():\n    torch.manual_seed(0)\n" in fixed
    assert fixed.startswith("import argparse\n\nimport torch\n") or "\nimport torch\n" in fixed.split("def main")[0]


def test_the_fix_uses_the_seed_option_the_console_function_parses(tmp_path: Path):
    cli = CLI.replace('"--lr", type=float, default=0.1', '"--seed", type=int, default=3').replace("args.lr", "args.seed")
    (finding,) = lint_project(tmp_path, {"pyproject.toml": PYPROJECT, "pkg/cli.py": cli})
    fixed = fix_of(finding, (tmp_path / "pkg/cli.py").read_text())
    assert "    args = parser.parse_args()\n    torch.manual_seed(args.seed)\n" in fixed


def test_a_method_named_by_a_console_script_is_reported_without_a_fix(tmp_path: Path):
    cli = """\
        from pkg.model import build


        class App:
            @classmethod
            def run(cls):
                print(build())
        """
    metadata = PYPROJECT.replace("pkg.cli:main", "pkg.cli:App.run")
    (finding,) = lint_project(tmp_path, {"pyproject.toml": metadata, "pkg/cli.py": cli})
    assert finding.code == "RPL101" and finding.fix is None


def test_a_console_function_seeded_through_a_helper_is_not_reported(tmp_path: Path):
    cli = CLI.replace("from pkg.model import build", "from pkg.model import build\nfrom pkg.utils import set_seed")
    cli = cli.replace("        model = build()", "        set_seed(0)\n        model = build()")
    utils = "import torch\n\n\ndef set_seed(seed):\n    torch.manual_seed(seed)\n"
    assert lint_project(tmp_path, {"pyproject.toml": PYPROJECT, "pkg/cli.py": cli, "pkg/utils.py": utils}) == []


TWO_PROGRAMS = """\
    import torch

    from pkg.model import build
    from pkg.utils import set_seed


    def train():
        model = build()
        return model


    def predict():
        set_seed(0)
        model = build()
        return model


    def evaluate():
        model = build()
        return model
    """


@pytest.mark.parametrize(
    "scripts, main, expected",
    [
        # each console script is a program of its own: the two unseeded ones are reported, each at
        # its first call that leads to the draw; the one that seeds is not
        (["pkg-train = pkg.cli:train", "pkg-predict = pkg.cli:predict", "pkg-eval = pkg.cli:evaluate"], "", [8, 19]),
        (["pkg-predict = pkg.cli:predict", "pkg-eval = pkg.cli:evaluate"], "", [19]),
        (["pkg-train = pkg.cli:train", "pkg-predict = pkg.cli:predict"], "", [8]),
        # one script: the module is one program, as before
        (["pkg-predict = pkg.cli:predict"], "", []),
        # and ``python cli.py`` runs its ``__main__`` block: a program too
        (["pkg-predict = pkg.cli:predict", "pkg-eval = pkg.cli:evaluate"], "\n\nif __name__ == '__main__':\n    train()\n", [19, 23]),
        (["pkg-predict = pkg.cli:predict", "pkg-eval = pkg.cli:evaluate"], "\n\nif __name__ == '__main__':\n    predict()\n", [19]),
    ],
)
def test_console_scripts_that_share_a_module_are_programs_of_their_own(tmp_path: Path, scripts, main, expected):
    setup = "from setuptools import setup\n\nsetup(name='pkg', entry_points={'console_scripts': %r})\n" % scripts
    utils = "import torch\n\n\ndef set_seed(seed):\n    torch.manual_seed(seed)\n"
    cli = textwrap.dedent(TWO_PROGRAMS) + main
    found = lint_project(tmp_path, {"setup.py": setup, "pkg/cli.py": cli, "pkg/utils.py": utils})
    assert [(Path(d.path).name, d.code) for d in found] == [("cli.py", "RPL101")] * len(expected)
    assert [d.start[0] for d in found] == expected


def test_of_programs_that_share_a_module_only_the_first_script_gets_the_setup_block(tmp_path: Path):
    """The file's one block goes into the first console script's function; the other
    programs' findings come without a fix (a block there would be a second one)."""
    setup = "from setuptools import setup\n\nsetup(name='pkg', entry_points={'console_scripts': ['a = pkg.cli:train', 'b = pkg.cli:evaluate']})\n"
    utils = "import torch\n\n\ndef set_seed(seed):\n    torch.manual_seed(seed)\n"
    first, second = lint_project(tmp_path, {"setup.py": setup, "pkg/cli.py": textwrap.dedent(TWO_PROGRAMS), "pkg/utils.py": utils})
    assert (first.start[0], second.start[0]) == (8, 19)
    assert first.fix is not None and second.fix is None
    assert "def train():\n    torch.manual_seed(0)\n" in fix_of(first, (tmp_path / "pkg/cli.py").read_text())


def test_a_console_tool_that_does_not_train_is_not_reported(tmp_path: Path):
    """A ``convert`` script in the same package as the model: its path draws nothing."""
    convert = """\
        import argparse
        import json


        def main():
            parser = argparse.ArgumentParser()
            parser.add_argument("src")
            args = parser.parse_args()
            print(json.dumps({"src": args.src}))
        """
    metadata = PYPROJECT + 'pkg-convert = "pkg.convert:main"\n'
    found = lint_project(tmp_path, {"pyproject.toml": metadata, "pkg/convert.py": convert}, ["RPL101", "RPL102", "RPL103", "RPL202"])
    assert found == []


@pytest.mark.parametrize(
    "name, metadata",
    [
        ("pyproject.toml", "[project.scripts\npkg-train = 'pkg.cli:main'\n"),
        ("setup.py", "from setuptools import setup\nsetup(entry_points={'console_scripts': ['pkg-train = pkg.cli:main'\n"),
        ("setup.py", "from setuptools import setup\nsetup(entry_points=make_entry_points())\n"),
        ("setup.cfg", "[options.entry_points\nconsole_scripts = pkg-train = pkg.cli:main\n"),
        ("pyproject.toml", "[project.scripts]\npkg-train = 'pkg.cli'\nother = 3\n"),
    ],
)
def test_malformed_metadata_is_no_entry_point_and_no_crash(tmp_path: Path, name, metadata):
    files = {name: metadata, "pkg/cli.py": CLI}
    write(tmp_path, {"pkg/__init__.py": "", "pkg/model.py": MODEL})
    (tmp_path / name).write_text(metadata, encoding="utf-8")  # as written: no dedent
    write(tmp_path, {k: v for k, v in files.items() if k != name})
    paths = sorted(tmp_path.rglob("*.py"))
    found = lint_files_in(paths, tmp_path, ["RPL101"])
    assert [d for d in found if d.code.startswith("RPL1")] == []


def test_a_package_main_module_is_an_entry_point(tmp_path: Path):
    """``python -m pkg`` runs ``pkg/__main__.py``'s top level, which calls the CLI."""
    main = "from pkg.cli import main\n\nmain()\n"
    found = lint_project(tmp_path, {"pkg/__main__.py": main, "pkg/cli.py": CLI})
    assert [(Path(d.path).name, d.code) for d in found] == [("__main__.py", "RPL101")]


def test_a_src_layout_reads_the_metadata_above_the_source_root(tmp_path: Path):
    write(tmp_path, {"pyproject.toml": PYPROJECT, "src/pkg/__init__.py": "", "src/pkg/model.py": MODEL, "src/pkg/cli.py": CLI})
    paths = sorted(tmp_path.rglob("*.py"))
    found = lint_files_in(paths, tmp_path / "src", ["RPL101"])
    assert [(Path(d.path).name, d.code) for d in found] == [("cli.py", "RPL101")]


def test_the_cache_sees_a_change_of_the_declared_scripts(tmp_path: Path):
    write(tmp_path, {"pkg/__init__.py": "", "pkg/model.py": MODEL, "pkg/cli.py": CLI})
    pyproject = tmp_path / "pyproject.toml"
    pyproject.write_text('[project]\nname = "pkg"\n\n[tool.repro-lint]\n', encoding="utf-8")

    def check():
        result = run_cli(["check", ".", "--output-format", "json", "--select", "RPL101"], cwd=tmp_path)
        return [(Path(d["filename"]).name, d["code"]) for d in json.loads(result.stdout)]

    assert check() == [] and check() == []  # cold, warm
    pyproject.write_text('[project]\nname = "pkg"\n\n[project.scripts]\nt = "pkg.cli:main"\n\n[tool.repro-lint]\n', encoding="utf-8")
    assert check() == [("cli.py", "RPL101")]
    assert check() == [("cli.py", "RPL101")]  # warm
    pyproject.write_text('[project]\nname = "pkg"\n\n[tool.repro-lint]\n', encoding="utf-8")
    assert check() == []


# -- reading the metadata ------------------------------------------------------------------------


def test_references():
    assert parse_reference("pkg.cli:main") == ("pkg.cli", "main")
    assert parse_reference(" pkg.cli : App.run [gpu] ") == ("pkg.cli", "App.run")
    assert parse_reference("pkg.cli") is None
    assert parse_reference("pkg..cli:main") is None
    assert parse_reference(3) is None


def test_pyproject_tables():
    text = """
[project.scripts]
a = "pkg.a:main"
[project.gui-scripts]
b = "pkg.b:main"
[tool.poetry.scripts]
c = "pkg.c:main"
d = { reference = "pkg.d:main", type = "console" }
e = { callable = "pkg.e:main", extras = ["x"] }
f = { reference = "data/f.sh", type = "file" }
"""
    assert from_pyproject(text) == ["pkg.a:main", "pkg.b:main", "pkg.c:main", "pkg.d:main", "pkg.e:main"]


def test_setup_cfg_and_setup_py_forms():
    cfg = "[options.entry_points]\nconsole_scripts =\n    a = pkg.a:main\ngui_scripts =\n    b = pkg.b:main\nother =\n    c = pkg.c:main\n"
    assert from_setup_cfg(cfg) == ["pkg.a:main", "pkg.b:main"]
    py = (
        "import setuptools\n"
        "A = 'a = pkg.a:main'\n"
        "ENTRY = {'console_scripts': [A, 'b = pkg.b:main'], 'other': ['c = pkg.c:main']}\n"
        "setuptools.setup(entry_points=ENTRY)\n"
        "setup(entry_points='[console_scripts]\\nd = pkg.d:main\\n')\n"
    )
    assert from_setup_py(py) == ["pkg.a:main", "pkg.b:main", "pkg.d:main"]
    assert from_setup_py("setup(entry_points={'console_scripts': ('e = pkg.e:main',)})") == ["pkg.e:main"]


def test_setup_py_is_never_run(tmp_path: Path):
    (tmp_path / "setup.py").write_text("raise SystemExit('ran')\nsetup(entry_points={'console_scripts': ['a = pkg.a:main']})\n")
    scripts, looked = console_scripts(tmp_path)
    assert [(s.module, s.attr) for s in scripts] == [("pkg.a", "main")]
    assert [Path(p).name for p in looked] == ["pyproject.toml", "setup.cfg", "setup.py"]


@pytest.mark.parametrize("arguments, expected", [("", []), (", seed_everything_default=0", []), (", seed_everything_default=False", ["RPL101"])])
def test_lightning_cli_seeds_unless_told_not_to(tmp_path: Path, arguments, expected):
    """LightningCLI calls seed_everything before building the classes it is given, unless
    ``seed_everything_default=False``."""
    cli = f"""\
        from lightning.pytorch.cli import LightningCLI
        from torch import nn


        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.layer = nn.Linear(4, 2)


        def main():
            LightningCLI(Net{arguments})
        """
    assert codes(lint_project(tmp_path, {"pyproject.toml": PYPROJECT, "pkg/cli.py": cli})) == expected


def test_setup_py_entry_points_assigned_under_the_main_guard():
    """lightly: ``entry_points = {...}`` and ``setup(...)`` inside ``if __name__ == "__main__":``."""
    py = (
        "from setuptools import setup\n\nif __name__ == '__main__':\n"
        "    entry_points = {'console_scripts': ['pkg-train = pkg.cli:entry']}\n"
        "    setup(name='pkg', packages=['pkg'], entry_points=entry_points)\n"
    )
    assert from_setup_py(py) == ["pkg.cli:entry"]
