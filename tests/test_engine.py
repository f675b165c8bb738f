"""Engine contract: suppression, per-file-ignores, RPL001 on bad input, internal errors."""

from __future__ import annotations

import collections
from pathlib import Path

import libcst as cst
import pytest

from conftest import codes, lint_files_in, write
from repro_lint.config import Settings
from repro_lint.context import ProjectContext
from repro_lint.engine import Linter
from repro_lint.rules.base import RULES, Rule

BENCH = "import torch\ntorch.backends.cudnn.benchmark = True{comment}\n"


def test_noqa_forms(lint):
    assert codes(lint(BENCH.format(comment=""))) == ["RPL201"]
    assert codes(lint(BENCH.format(comment="  # noqa"))) == []
    assert codes(lint(BENCH.format(comment="  # noqa: RPL201"))) == []
    assert codes(lint(BENCH.format(comment="  # NOQA:RPL201,RPL205"))) == []
    assert codes(lint(BENCH.format(comment="  # noqa: RPL2"))) == []  # a prefix, as flake8 allows
    # another code on the line does not suppress this one
    assert codes(lint(BENCH.format(comment="  # noqa: RPL301"))) == ["RPL201"]
    # "# noqa" inside a string is not a comment
    assert codes(lint("import torch\ntorch.backends.cudnn.benchmark = True; s = '# noqa'\n")) == ["RPL201"]


def test_noqa_suppresses_only_its_own_line(lint):
    code = "import torch\ntorch.backends.cudnn.benchmark = True  # noqa: RPL201\ntorch.backends.cudnn.benchmark = True\n"
    assert [d.line for d in lint(code)] == [3]


def test_file_level_noqa(lint):
    body = "import torch\ntorch.backends.cudnn.benchmark = True\ntorch.backends.cudnn.enable = False\n"
    assert codes(lint("# repro-lint: noqa\n" + body)) == []
    assert codes(lint(body + "# repro-lint: noqa: RPL201\n")) == ["RPL205"]
    # a line-level noqa comment is not a file-level one
    assert codes(lint("# noqa\n" + body)) == ["RPL201", "RPL205"]


def test_per_file_ignores(tmp_path: Path):
    write(tmp_path, {"tests/test_a.py": BENCH.format(comment=""), "train.py": BENCH.format(comment="")})
    files = [tmp_path / "tests/test_a.py", tmp_path / "train.py"]
    found = lint_files_in(files, tmp_path, per_file_ignores={"tests/*": ["RPL2"]})
    assert [Path(d.path).name for d in found] == ["train.py"]


def test_rpl001_for_bad_files_in_a_tree_with_good_files(tmp_path: Path):
    write(
        tmp_path,
        {
            "good.py": BENCH.format(comment=""),
            "syntax.py": "def train(:\n    pass\n",
            "python2.py": "print 'hello'\n",
            "undecodable.py": b"x = '\xff\xfe'\n",
            "binary.py": b"\x7fELF\x02\x01\x01\x00\x00\x00",
            "latin1.py": "# -*- coding: latin-1 -*-\nname = 'caf\xe9'\n".encode("latin-1"),
            "bom.py": b"\xef\xbb\xbfimport torch\ntorch.backends.cudnn.benchmark = True\n",
        },
    )
    files = sorted(tmp_path.glob("*.py"))
    found = {(Path(d.path).name, d.code) for d in lint_files_in(files, tmp_path)}
    assert found == {
        ("good.py", "RPL201"),
        ("bom.py", "RPL201"),
        ("syntax.py", "RPL001"),
        ("python2.py", "RPL001"),
        ("undecodable.py", "RPL001"),
        ("binary.py", "RPL001"),
    }


def test_rpl001_says_where_and_why(lint):
    (diag,) = lint("import torch\n\ndef f(:\n    pass\n")
    assert diag.code == "RPL001" and diag.line == 3 and "cannot parse" in diag.message
    (diag,) = lint("x = 1\ny = 'a\n")  # no trigger word: still checked
    assert diag.code == "RPL001" and diag.line == 2


def test_a_crashing_rule_becomes_an_internal_error_and_others_still_report(tmp_path: Path):
    class Exploding(Rule):
        code = "RPL999"
        name = "exploding"
        message = "never"
        triggers = ("torch",)

        def visit_Assign(self, node: cst.Assign) -> None:
            raise ZeroDivisionError("boom")

    try:
        path = tmp_path / "a.py"
        path.write_text(BENCH.format(comment=""))
        settings = Settings(root=tmp_path, select=["RPL201", "RPL999"])
        result = Linter(settings).lint_path(path)
        assert codes(result.diagnostics) == ["RPL201"]
        (error,) = result.errors
        assert error.rule == "RPL999" and "ZeroDivisionError: boom" in error.message
    finally:
        del RULES["RPL999"]


def test_prefilter_skips_parsing_files_without_trigger_words(tmp_path: Path):
    write(tmp_path, {"plain.py": "x = 1\n", "hit.py": BENCH.format(comment="")})
    linter = Linter(Settings(root=tmp_path))
    assert linter.lint_path(tmp_path / "plain.py").parsed is False
    assert linter.lint_path(tmp_path / "hit.py").parsed is True


def test_deeply_nested_code_does_not_crash(lint):
    deep = "x = " + "(" * 200 + "1" + ")" * 200 + "\nimport torch\ntorch.backends.cudnn.benchmark = True\n"
    assert set(codes(lint(deep))) <= {"RPL001", "RPL201"}


def test_ensure_import_goes_after_the_header_and_only_once(tmp_path: Path):
    from repro_lint.names import ImportTable
    from repro_lint.edits import header_end
    from repro_lint.rules.base import FileContext, Rule

    code = '"""Doc."""\nfrom __future__ import annotations\nimport os\nfrom repro_lint.runtime import seed_worker\n\nx = 1\n'
    module = cst.parse_module(code)
    names = ImportTable()
    for stmt in module.body[1:4]:
        names.add(stmt.body[0])
    file = FileContext("a.py", code, module, names, Settings(root=tmp_path), None)  # type: ignore[arg-type]
    rule = Rule(file)
    assert rule.ensure_import("repro_lint.runtime", "seed_worker") is None
    edit = rule.ensure_import("repro_lint.runtime", "make_generator")
    assert edit.kind == "line_after" and edit.node is header_end(module) is module.body[3]
    assert header_end(cst.parse_module("x = 1\nimport os\n")) is None


def test_a_linted_tree_is_freed_without_the_cyclic_garbage_collector(tmp_path: Path):
    """The engine pauses the cyclic collector while it parses and walks a file: the tree, the
    analyses and the evaluators of other project modules must be freed by reference counting
    once the file is done, not left in cycles that the collector would scan later."""
    import gc

    write(tmp_path, {
        "helpers.py": """
            import torch
            def pick(mode="bicubic"):
                if mode == "nearest":
                    return "nearest"
                return mode
        """,
        "train.py": """
            import random
            import numpy as np
            import torch
            import torch.nn.functional as F
            from torch.utils.data import DataLoader
            from helpers import pick

            def main():
                x = torch.randn(2, 3, 8, 8).cuda()
                y = F.interpolate(x, scale_factor=2, mode=pick())
                loader = DataLoader(range(10), shuffle=True, num_workers=2)
                for batch in loader:
                    random.random()
                    np.random.rand()
                return y

            if __name__ == "__main__":
                main()
        """,
    })
    paths = [tmp_path / "helpers.py", tmp_path / "train.py"]
    config = Settings(root=tmp_path)
    linter = Linter(config, ProjectContext(config, paths))
    linter.lint_path(paths[1])  # warm the caches that outlive a file
    gc.collect()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        result = linter.lint_path(paths[1])
        gc.collect()
        left = [type(o).__name__ for o in gc.garbage if type(o).__module__.startswith(("libcst", "repro_lint"))]
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
    assert {d.code for d in result.diagnostics} >= {"RPL101", "RPL402"}
    assert left == []


DEAD_BRANCH = """
    import torch
    from torch.utils.data import DataLoader, DistributedSampler, RandomSampler

    {setup}

    def main():
        torch.manual_seed(0)
        ds = list(range(10))
        if {test}:
            sampler = DistributedSampler(ds, num_replicas=1, rank=0, shuffle=True)
        else:
            sampler = RandomSampler(ds)
        return DataLoader(ds, sampler=sampler, batch_size=2)

    if __name__ == "__main__":
        main()
"""


def test_code_the_constants_rule_out_is_not_reported(lint):
    for setup, test in [("", "True"), ("", "1"), ("", "not False")]:
        assert "RPL302" not in codes(lint(DEAD_BRANCH.format(setup=setup, test=test), select=["RPL302"])), test


def test_a_branch_an_option_or_the_environment_decides_is_still_reported(lint):
    for setup, test in [
        ("import argparse; parser = argparse.ArgumentParser(); parser.add_argument('--distributed', action='store_true')",
         "parser.parse_args().distributed"),
        ("import os", "os.environ.get('WORLD_SIZE')"),
        ("", "False"),
        ("DISTRIBUTED = True", "DISTRIBUTED"),
    ]:
        assert "RPL302" in codes(lint(DEAD_BRANCH.format(setup=setup, test=test), select=["RPL302"])), test


RAISE_GUARD = """
    import argparse

    import torch
    from torch.utils.data import DataLoader, DistributedSampler

    parser = argparse.ArgumentParser()
    parser.add_argument("--distributed", action="store_true")
    parser.add_argument("--dry-run", action="store_true")

    def main():
        args = parser.parse_args()
        torch.manual_seed(0)
        {guard}
        ds = list(range(10))
        if args.distributed:
            sampler = DistributedSampler(ds)
        else:
            sampler = None
        return DataLoader(ds, batch_size=2, shuffle=(sampler is None), sampler=sampler)

    if __name__ == "__main__":
        main()
"""


def test_a_value_after_a_guard_the_default_path_cannot_pass_is_not_known(lint):
    """``if not args.distributed: raise``: with the defaults the program stops before the
    loader, so its ``shuffle`` value is not the one the defaults give (the benefit of the doubt)."""
    for guard in [
        "if not args.distributed: raise NotImplementedError('only distributed training')",
        "if args.distributed: pass\n        else: raise NotImplementedError('only distributed training')",
        "if not args.distributed: return None",
    ]:
        assert "RPL302" not in codes(lint(RAISE_GUARD.format(guard=guard), select=["RPL302"])), guard


def test_a_guard_the_default_path_passes_changes_nothing(lint):
    for guard in [
        "pass",
        "if args.dry_run: raise SystemExit(0)",
        "if args.distributed: print('distributed')",
    ]:
        assert "RPL302" in codes(lint(RAISE_GUARD.format(guard=guard), select=["RPL302"])), guard


def test_a_module_s_facts_are_extracted_once_for_its_calls_and_their_literals(tmp_path, monkeypatch):
    """One ``ast`` pass gives a module's facts and its calls' literal arguments: asking for the
    literals of its calls (what a call passes to a function's parameter) after its facts, and
    again for other modules' calls in between, never extracts the module again."""
    from repro_lint import context

    write(tmp_path, {f"m{i}.py": f"def f{i}(x):\n    return g(x, {i})\n" for i in range(3)})
    paths = [tmp_path / f"m{i}.py" for i in range(3)]
    settings = Settings(root=tmp_path)
    project = ProjectContext(settings, paths)
    extracted = []
    original = context.extract_facts
    monkeypatch.setattr(context, "extract_facts", lambda path, text: extracted.append(path.name) or original(path, text))
    a, b, c = (str(p) for p in paths)
    for path in (a, b, c):
        assert project.facts(path) is not None
    for path, number in ((a, 0), (b, 1), (a, 0), (c, 2), (a, 0)):
        positional, keywords = project._call_literals(path, f"f{number}", 0)
        assert positional[1] == number and keywords == {}
    assert extracted == ["m0.py", "m1.py", "m2.py"]


def _two_copies(tmp_path):
    """The same small project twice in one tree (two source roots holding ``proj``)."""
    files = {}
    for copy in ("copy_a", "copy_b"):
        files.update({
            f"{copy}/proj/__init__.py": "",
            f"{copy}/proj/data.py": (
                "def build(shuffle=True):\n    return shuffle\n\n\n"
                "class Module:\n    def train_dataloader(self, shuffle=True):\n        return shuffle\n"
            ),
            f"{copy}/proj/train.py": "from proj.data import build, Module\n\nbuild(shuffle=False)\nModule().train_dataloader()\n",
        })
    write(tmp_path, files)
    return sorted(tmp_path.rglob("*.py"))


def test_the_callers_of_a_function_are_read_in_its_own_copy_of_a_project(tmp_path):
    """With two copies of a project in one tree, each file imports its own copy's module: the
    calls of copy A's function are looked for in copy A's files only (reading copy B's too made
    the questions grow with the square of the copies), and they are the same calls."""
    paths = _two_copies(tmp_path)
    project = ProjectContext(Settings(root=tmp_path), paths)
    for copy in ("copy_a", "copy_b"):
        data = str((tmp_path / copy / "proj" / "data.py").resolve())
        importers = project._importers((data, "build"))
        assert [str(p.resolve()) for p in importers] == [data, str((tmp_path / copy / "proj" / "train.py").resolve())]
        assert project.caller_arguments(data, "build") == (((), {"shuffle": False}),)


def test_which_files_run_together_reads_each_file_once_in_a_tree_of_projects(tmp_path, monkeypatch):
    """Whether a module runs with a file that turns deterministic algorithms on is asked of
    every module against every such file; in a tree of several projects, each file's imports
    are read once for all those questions (once per pair grew with the square of the
    projects), and the answers are those of asking each pair."""
    from repro_lint import context

    files = {}
    for number in range(4):
        files.update({
            f"p{number}/pkg{number}/__init__.py": "",
            f"p{number}/pkg{number}/ops.py": "def f(x, i, v):\n    return x.index_add_(0, i, v)\n",
            f"p{number}/pkg{number}/extra.py": "import torch\n",
            f"p{number}/train.py": (
                f"import torch\nfrom pkg{number}.ops import f\n\n"
                "if __name__ == '__main__':\n    torch.use_deterministic_algorithms(True)\n    f(1, 2, 3)\n"
            ),
        })
    write(tmp_path, files)
    paths = sorted(tmp_path.rglob("*.py"))
    project = ProjectContext(Settings(root=tmp_path), paths)
    project.is_imported("torch")  # the import index reads every file once; counted after
    read = collections.Counter()
    original = context.imported_modules
    monkeypatch.setattr(context, "imported_modules", lambda path, text: read.update([str(path)]) or original(path, text))
    modules = [str((tmp_path / f"p{n}" / f"pkg{n}" / name).resolve()) for n in range(4) for name in ("ops.py", "extra.py")]
    answers = [project.enables_determinism(module) for module in modules]
    enabling = sorted(str((tmp_path / f"p{n}" / "train.py").resolve()) for n in range(4))
    assert answers == [any(project.may_run_with(module, other) for other in enabling) for module in modules] == [True] * 8
    assert read and set(read.values()) == {1}


def test_the_callers_of_a_method_are_not_looked_for_in_files_without_its_name(tmp_path):
    """A file may call a function without naming it, through what a call returns
    (``get_fn(kind)(x)``: its text holds ``)(``), but never a method: the question of a method's
    callers extracts no facts of a file that does not name it, and a function's still does."""
    write(tmp_path, {
        "proj/__init__.py": "",
        "proj/data.py": (
            "def build(shuffle=True):\n    return shuffle\n\n\n"
            "def pick(kind):\n    return build\n\n\n"
            "class Module:\n    def run(self, shuffle=True):\n        return shuffle\n"
        ),
        "proj/train.py": "from proj.data import Module, build\n\nbuild(shuffle=False)\nModule().run(shuffle=False)\n",
        "proj/other.py": "from proj import data\n\ndata.pick('a')(shuffle=False)\n",
    })
    paths = sorted(tmp_path.rglob("*.py"))
    data = str((tmp_path / "proj" / "data.py").resolve())
    other = str((tmp_path / "proj" / "other.py").resolve())
    project = ProjectContext(Settings(root=tmp_path), paths)
    assert project.caller_arguments(data, "Module.run") == (((), {"shuffle": False}),)
    assert other not in project._facts
    answers = project.caller_arguments(data, "build")
    assert other in project._facts
    assert answers is not None and ((), {"shuffle": False}) in answers


def test_the_files_calling_a_loader_method_are_found_once_for_the_run(tmp_path, monkeypatch):
    """A loader factory's method may be called on any object, so every file that calls a
    method of its name is read for its calls; with several copies of a project each asks
    again, and the files are scanned once for all of them, with the same answers."""
    from repro_lint import context

    paths = _two_copies(tmp_path)
    project = ProjectContext(Settings(root=tmp_path), paths)
    project.is_imported("proj")  # the import index reads every file once; counted after
    read = []
    original = context.read_text
    monkeypatch.setattr(context, "read_text", lambda path: read.append(str(path)) or original(path))
    answers = []
    for copy in ("copy_a", "copy_b"):
        data = str((tmp_path / copy / "proj" / "data.py").resolve())
        answers.append(project.caller_arguments(data, "Module.train_dataloader"))
    assert answers[0] == answers[1] == (((), {}),)
    # a file that does not call the method is read by one scan for both questions
    scans = collections.Counter(path for path in read if path.endswith("__init__.py"))
    assert len(scans) == 2 and set(scans.values()) == {1}


def test_two_gates_asking_the_same_of_a_file_share_one_answer(tmp_path, monkeypatch):
    """RPL301 and RPL302 both ask whether a module names a project loader class; the answer is
    computed once per file's question, and each question records the files it consulted."""
    from repro_lint.rules import loaders

    write(tmp_path, {
        "proj/__init__.py": "",
        "proj/data.py": "from torch.utils.data import DataLoader\n\n\nclass Feeder(DataLoader):\n    pass\n",
        "proj/train.py": "from proj.data import Feeder\n\ntrain_loader = Feeder(ds, shuffle=True, num_workers=2)\n",
    })
    paths = sorted(tmp_path.rglob("*.py"))
    settings = Settings(root=tmp_path, select=["RPL301", "RPL302"])
    project = ProjectContext(settings, paths)
    asked = []
    original = loaders._names_project_loader
    monkeypatch.setattr(loaders, "_names_project_loader", lambda *a: asked.append(1) or original(*a))
    linter = Linter(settings, project)
    train = tmp_path / "proj" / "train.py"
    text = train.read_text(encoding="utf-8")
    # ``loader`` only in a variable's name: only the project's loader class keeps the rules
    assert "oader" not in project.facts(train).called and "DataLoader" not in text
    for _ in range(2):
        project.consulted = consulted = set()
        assert sorted(rule.code for rule in linter.rules_for(text, str(train))) == ["RPL301", "RPL302"]
        assert str(tmp_path / "proj" / "data.py") in consulted
    project.consulted = None
    assert asked == [1, 1]  # once for each record, not once for each rule


def test_the_facts_walk_is_asts_without_expression_contexts():
    """The facts pass walks expressions with its own ``_walk``: the nodes of ``ast.walk``, in
    its order, less the ``Load``/``Store`` contexts that no question asks about."""
    import ast

    from repro_lint.facts import _walk

    root = Path(__file__).resolve().parent.parent / "repro_lint"
    checked = 0
    for path in sorted(root.glob("*.py"))[:12]:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.expr_context):
                continue
            assert list(_walk(node)) == [n for n in ast.walk(node) if not isinstance(n, ast.expr_context)]
            checked += 1
    assert checked > 10_000


def test_the_facts_child_nodes_are_asts_without_expression_contexts():
    """``_child_nodes`` (the string and answer walks of the facts pass) gives a node's children
    as ``ast.iter_child_nodes`` does, in its order, less the ``Load``/``Store`` contexts."""
    import ast

    from repro_lint.facts import _child_nodes

    root = Path(__file__).resolve().parent.parent / "repro_lint"
    kinds = set()
    for path in sorted(root.glob("*.py"))[:12]:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            expected = [n for n in ast.iter_child_nodes(node) if not isinstance(n, ast.expr_context)]
            assert _child_nodes(node) == expected
            kinds.add(type(node))
    assert len(kinds) > 40


def test_the_facts_pass_leaves_no_reference_cycle_to_collect():
    """Once a module's facts are extracted, reference counting frees the pass's collector (and
    the nodes it holds): nothing of it is left to the cyclic garbage collector, which scans
    every object allocated since it last ran."""
    import gc

    from repro_lint import facts

    gc.collect()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        found = facts.extract_facts(Path("train.py"), "def main(seed=0):\n    opts = dict(seed=seed)\n    run(**opts)\n")
        gc.collect()
        left = [each for each in gc.garbage if isinstance(each, facts._FactsCollector)]
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
    assert found is not None and found.functions
    assert left == []


def test_the_facts_pass_skips_only_what_it_would_not_look_at(monkeypatch):
    """The facts pass does nothing with names, constants and operators, nor with dotted names
    (``self.model.fc``), which no handler of the collector takes: the facts are those of a pass
    that walks into them; and ``_dotted`` (a name alone answered first) names what
    the loop over attributes names."""
    import ast
    import pickle

    import repro_lint.facts as facts_module

    def dotted(node):
        parts = []
        while isinstance(node, ast.Attribute):
            parts.append(node.attr)
            node = node.value
        return ".".join(reversed([*parts, node.id])) if isinstance(node, ast.Name) else None

    assert facts_module._LEAF_TYPES and all(
        getattr(facts_module._FactsCollector, "visit_" + t.__name__, None) in (None, getattr(ast.NodeVisitor, "visit_" + t.__name__, None))
        for t in facts_module._LEAF_TYPES
    )
    assert ast.Name in facts_module._LEAF_TYPES and getattr(facts_module._FactsCollector, "visit_Attribute", None) is None
    root = Path(__file__).resolve().parent.parent
    paths = sorted((root / "repro_lint").glob("*.py"))[:10] + sorted((root / "examples").rglob("*.py"))
    checked = 0
    for path in paths:
        text = path.read_text(encoding="utf-8")
        for node in ast.walk(ast.parse(text)):
            assert facts_module._dotted(node) == dotted(node)
            checked += 1
        fast = pickle.dumps(facts_module.extract_facts(path, text))
        with monkeypatch.context() as patch:
            # every node walked into, the leaves and dotted names too
            patch.setattr(facts_module, "_ACTIONS", facts_module._Actions())
            patch.setattr(facts_module, "_LEAF_TYPES", frozenset())
            patch.setattr(facts_module, "_LEAVES", ())
            patch.setattr(facts_module, "_dotted_name", lambda node: False)
            assert pickle.dumps(facts_module.extract_facts(path, text)) == fast, path
            assert facts_module._ACTIONS[ast.Name] is facts_module._FactsCollector.generic_visit
    assert checked > 10_000


def test_the_facts_pass_does_not_walk_into_a_dotted_name(monkeypatch):
    """Most attributes the facts pass meets are dotted names (86,410 of 93,558 on the project
    corpus), which hold nothing it records; an attribute of something else (``f(x).device``,
    ``model(x).logits``) is walked, for the calls in it."""
    import ast

    import repro_lint.facts as facts_module

    seen = []
    walk = facts_module._FactsCollector.generic_visit

    def recording(self, node):
        seen.append(node)
        return walk(self, node)

    monkeypatch.setattr(facts_module._FactsCollector, "generic_visit", recording)
    monkeypatch.setattr(facts_module, "_ACTIONS", facts_module._Actions())  # (what the walk does per node type, looked up again)
    found = facts_module.extract_facts(Path("m.py"), "import torch\nx = self.model.fc(torch.zeros(3).cuda().device)\ny = a.b.c\n")
    assert found is not None and "torch.zeros" in found.module_body.calls
    attributes = [ast.unparse(node) for node in seen if isinstance(node, ast.Attribute)]
    assert attributes == ["torch.zeros(3).cuda().device", "torch.zeros(3).cuda"], attributes


def test_the_facts_pass_walks_a_node_s_children_without_calling_visit(monkeypatch):
    """``generic_visit`` hands each child to its visitor (or walks into it) itself: ``visit``,
    one more call per node, is only where the pass starts and where a visitor asks for it."""
    import repro_lint.facts as facts_module

    seen = []
    visit = facts_module._FactsCollector.visit

    def recording(self, node):
        seen.append(type(node).__name__)
        return visit(self, node)

    monkeypatch.setattr(facts_module._FactsCollector, "visit", recording)
    text = "import torch\ndef main():\n    for i in range(3):\n        x = f(g(1), torch.zeros(2))\n        print(x)\n"
    found = facts_module.extract_facts(Path("m.py"), text)
    assert found is not None and "torch.zeros" in found.functions["main"].calls
    assert seen == ["Module"]


def test_the_facts_keep_no_empty_set_of_their_own():
    """An empty set takes 216 bytes, and most bodies leave most of their sets empty: once a
    module's facts are extracted, each empty one is the one shared empty frozenset (the facts of
    torch's source took 18 % less memory), the facts pickle as before, and nothing can add to a
    shared one."""
    import pickle

    import repro_lint.facts as facts_module

    root = Path(__file__).resolve().parent.parent
    bodies = 0
    for path in sorted((root / "examples").rglob("*.py")) + sorted((root / "repro_lint" / "rules").glob("*.py")):
        facts = facts_module.extract_facts(path, path.read_text(encoding="utf-8"))
        assert facts is not None
        for body in (facts.module_body, facts.main_body, *facts.functions.values()):
            for name in facts_module._BODY_SETS:
                value = getattr(body, name)
                assert value or value is facts_module._NO_ITEMS, (path, body.name, name)
            bodies += 1
        again = pickle.loads(pickle.dumps(facts))
        assert all(getattr(a, n) == getattr(b, n) for a, b in zip(facts.functions.values(), again.functions.values()) for n in facts_module._BODY_SETS)
    assert bodies > 100 and {"effects", "uses", "draws", "imported"} <= set(facts_module._BODY_SETS)
    with pytest.raises(AttributeError):
        facts_module._NO_ITEMS.add("x")  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    "text, star",
    [
        ("from m import *\n", True),
        ("from m import  *\n", True),
        ("from n import\t*\n", True),
        ("from m import \\\n    *\n", True),
        ("x = a * b\n", False),
        ("def f(*args, **kwargs):\n    pass\n", False),
        ("reimport *x\n", False),
        ("x = reimport * 2\n", False),
        ("éimport * 2\n", False),
        ("y = 1;import *\n", True),
        ("from m import *", True),
    ],
)
def test_may_star_import_is_false_only_for_texts_without_one(text, star):
    from repro_lint.facts import extract_facts, may_star_import

    assert may_star_import(text) is star
    facts = extract_facts(Path("m.py"), text) if "reimport" not in text and "é" not in text and ";" not in text else None
    if facts is not None:
        assert bool(facts.star_imports) is star


@pytest.mark.parametrize(
    "code, shown",
    [
        ("self._prepare(\n    group_id,\n    batch,\n)", "self._prepare(group_id, batch,)"),
        ("x = [\n    1,\n    2\n]", "x = [1, 2]"),
        ("a  +\n   b", "a + b"),
        ("print('( x')", "print('( x')"),  # a string's own spaces stay
        ("f(" + "a, " * 30 + ")", ("f(" + "a, " * 30)[:45] + "..."),  # cut to 48 characters
    ],
)
def test_code_quoted_in_a_message_is_joined_as_written_on_one_line(code, shown):
    from repro_lint.rules.base import short

    assert short(code) == shown


def test_the_child_fields_of_every_node_class_are_those_its_resolved_type_hints_give():
    """``children._child_fields`` reads a node class's fields' own annotations and resolves
    them with ``typing.get_type_hints`` only where a name is still to be resolved: for every
    LibCST node class, the fields are those the resolved hints give (in source order, without
    trivia and without fields that can hold no node)."""
    import dataclasses
    import typing

    from repro_lint import children

    def reference(node_type):
        names = children._FIELD_ORDER.get(node_type) or [
            f.name for f in dataclasses.fields(node_type) if f.name not in children._TRIVIA_FIELDS and not f.name.startswith("whitespace")
        ]
        hints = typing.get_type_hints(node_type)
        return tuple(name for name in names if name not in hints or children._holds_nodes(hints[name]))

    kinds = [kind for kind in children._node_types() if dataclasses.is_dataclass(kind)]
    assert len(kinds) > 300
    resolved_later = [kind for kind in kinds if not all(children._resolved(f.type) for f in dataclasses.fields(kind))]
    assert resolved_later and len(resolved_later) < len(kinds) / 4  # (both ways are exercised)
    assert {kind: children._child_fields(kind) for kind in kinds} == {kind: reference(kind) for kind in kinds}
    assert children._child_fields(cst.Name) == ()  # ``value`` is a string, the parentheses trivia
    assert children._child_fields(cst.FunctionDef)[:3] == ("decorators", "name", "params")
