"""Rules that a module's ``ast`` facts rule out (``Rule.may_fire_in``) are left out of it without
parsing it for them. Rules whose findings all need a call named with one of their words
(``Rule.called_words``): the names the facts record (``ModuleFacts.called``), and that the
catalogs behind those rules name every such call with one of the rule's words. The op rules: the
op calls the facts record with their literal arguments (``ModuleFacts.op_calls``), read with the
catalog's own conditions, never rule out a call the rules report. And the gates never change the
findings."""

from __future__ import annotations

import ast
import textwrap
from pathlib import Path
from typing import List, Set

import pytest

from repro_lint import catalog
from repro_lint.config import Settings
from repro_lint.opcatalog import DETERMINISTIC, FORWARD, MISSING, OPS, RAISES, UNKNOWN, Condition, literal_verdict, may_match
from repro_lint.context import ProjectContext
from repro_lint.engine import Linter
from repro_lint.facts import extract_facts
from repro_lint.rules import all_rules

from conftest import lint_files_in
from test_prefilter import REPO, _findings, corpus, real_files, unfiltered  # noqa: F401 (fixtures)

CALLED_WORD_RULES = [rule for rule in all_rules().values() if rule.called_words]


def _called(code: str) -> Set[str]:
    facts = extract_facts(Path("mod.py"), textwrap.dedent(code))
    assert facts is not None
    called = set(facts.called.split("\n")) - {""}
    assert all(facts.calls(name) for name in called)
    return called


def test_the_rules_that_declare_called_words():
    assert {rule.code for rule in CALLED_WORD_RULES} == {"RPL105", "RPL109", "RPL501"}


def test_callees_everywhere_count_by_their_last_name():
    called = _called(
        """
        import numpy as np

        @decorate(seed_flag=True)
        class Model(Base):
            table = build_table()

            def forward(self, x, fn=lambda y: shuffle_it(y)):
                values = [transform(v) for v in x]
                return self.head(np.random.seed(0)).sum()

        if __name__ == "__main__":
            main()
        """
    )
    assert {"decorate", "build_table", "shuffle_it", "transform", "head", "seed", "sum", "main"} <= called
    # names that are read or passed, not called, are not callees
    assert "seed_flag" not in called and "x" not in called and "Base" not in called


def test_a_name_read_as_an_attribute_is_not_a_call():
    called = _called(
        """
        def train(args):
            seed = args.seed
            run(seed=seed, worker_seed=args.worker_seed)
        """
    )
    assert not any("seed" in name for name in called)


def test_imports_and_alias_assignments_count_by_what_they_bind():
    called = _called(
        """
        import torch
        import torch.nn.functional as F
        from numpy.random import RandomState as RS
        t = torch
        ms = t.manual_seed
        drop = F.dropout
        local = config.seed          # ``config`` is bound by no import: not an alias
        """
    )
    assert {"RandomState", "manual_seed", "dropout", "functional", "torch"} <= called
    assert "seed" not in called


def test_an_alias_assignment_counts_wherever_its_head_is_imported():
    # the import table binds aliases in source order; the facts count an assignment whose head
    # any import of the module binds, which is never less
    called = _called(
        """
        def setup():
            seed_all = rng.manual_seed
            seed_all(0)

        import torch as rng
        """
    )
    assert "manual_seed" in called


def test_after_a_star_import_any_alias_assignment_counts():
    called = _called(
        """
        from helpers import *
        ms = torch.manual_seed
        """
    )
    assert "manual_seed" in called


def test_dead_branches_count_too():
    called = _called(
        """
        import torch
        if False:
            torch.manual_seed(0)
            from numpy.random import seed as np_seed
        if 1:
            pass
        else:
            F.dropout(x)
        """
    )
    assert {"manual_seed", "seed", "dropout"} <= called


def _callee_names(tree: ast.AST) -> Set[str]:
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Attribute):
                names.add(func.attr)
            elif isinstance(func, ast.Name):
                names.add(func.id)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names.update(alias.name.rpartition(".")[2] for alias in node.names)
    return names


def test_every_callee_and_import_of_real_files_is_recorded():
    files: List[Path] = list(real_files()) + sorted((REPO / "repro_lint").glob("**/*.py"))
    assert len(files) > 100
    checked = 0
    for path in files:
        text = path.read_text(encoding="utf-8")
        facts = extract_facts(path, text)
        if facts is None:
            continue  # syntax newer than this Python (torch's py312_intrinsics.py)
        checked += 1
        missing = {name for name in _callee_names(ast.parse(text)) if not facts.calls(name)}
        assert not missing, f"{path}: {sorted(missing)[:5]}"
    assert checked > 100


def test_the_catalogs_name_every_call_these_rules_need_with_one_of_their_words():
    """What makes ``called_words`` true of each rule: the calls it reports at (or needs) are
    these catalogs' entries, or calls named with its words by construction (RPL105's
    ``seed``-named project helpers)."""
    rules = all_rules()
    settings = Settings(root=REPO)

    def named(code: str, qualified: str) -> bool:
        last = qualified.rpartition(".")[2]
        return any(word in last for word in rules[code].trigger_words(settings))

    # (a helper that seeds only implicitly, ``TrainingArguments``, is no seeding call of RPL105's)
    helpers = [name for name, helper in catalog.SEED_HELPERS.items() if helper.seeds and not helper.implicit]
    seeding = [*catalog.SEED_CALLS, *helpers, *catalog.ENTROPY_RESEEDS, *catalog.TRAINER_KEYWORD_DICTS]
    assert seeding and all(named("RPL105", name) for name in seeding)
    assert all(named("RPL109", name) for name in catalog.NUMPY_SEEDERS)
    assert all(named("RPL501", name) for name in catalog.FUNCTIONAL_DROPOUT)


def test_same_findings_when_every_modules_facts_are_at_hand(corpus: List[Path], unfiltered):  # noqa: F811
    """With every module's facts extracted before linting, the rules left out by the names a
    module calls change no finding, and some are left out (against the words alone: a project
    whose gates get no module's facts)."""
    settings = Settings(root=REPO, select=["ALL"])
    project = ProjectContext(settings, corpus)
    for path in corpus:
        project.facts(path)
    linter = Linter(settings, project)
    results = [linter.lint_path(p) for p in corpus]
    assert _findings(results) == _findings(unfiltered)
    left_out = 0
    for path in corpus:
        text = path.read_text(encoding="utf-8", errors="replace")
        words_project = ProjectContext(settings, corpus)
        words_project.text_facts = lambda path, text: None  # type: ignore[method-assign]
        words_only = Linter(settings, words_project).rules_for(text, str(path))
        left_out += len(set(words_only) - set(linter.rules_for(text, str(path))))
    assert left_out > 0


def test_every_finding_of_these_rules_is_in_a_module_that_calls_one_of_their_words(corpus: List[Path], unfiltered):  # noqa: F811
    """The per-rule form of the gate's soundness, over the unfiltered findings."""
    settings = Settings(root=REPO, select=["ALL"])
    codes = {rule.code: rule for rule in CALLED_WORD_RULES}
    checked = 0
    for path, result in zip(corpus, unfiltered):
        found = {d.code for d in result.diagnostics} & set(codes)
        if not found:
            continue
        facts = extract_facts(path, path.read_text(encoding="utf-8", errors="replace"))
        assert facts is not None
        for code in found:
            assert any(word in facts.called for word in codes[code].trigger_words(settings)), f"{code} in {path}"
            checked += 1
    assert checked >= 3


def _rules_for(tmp_path: Path, code: str, *, facts_first: bool) -> List[str]:
    path = tmp_path / "train.py"
    path.write_text(textwrap.dedent(code), encoding="utf-8")
    settings = Settings(root=tmp_path, select=["RPL105", "RPL109"])
    project = ProjectContext(settings, [path])
    text = path.read_text(encoding="utf-8")
    if facts_first:
        project.facts(path)
    return sorted(rule.code for rule in Linter(settings, project).rules_for(text, str(path)))


@pytest.mark.parametrize(
    "code, by_words, kept",
    [
        ("def build(args):\n    return Dataset(seed=args.seed)\n", ["RPL105", "RPL109"], []),
        ("import numpy as np\nnp.random.seed(0)\n", ["RPL105", "RPL109"], ["RPL105", "RPL109"]),
        ("from torch import manual_seed as ms\nms(0)\n", ["RPL105"], ["RPL105"]),
        ("import torch\nreseed = torch.manual_seed\nreseed(0)\n", ["RPL105"], ["RPL105"]),
        ("from numpy.random import RandomState as RS\nrs = RS(args.seed)\n", ["RPL105", "RPL109"], ["RPL109"]),
    ],
)
def test_a_module_is_not_parsed_for_a_rule_whose_words_it_never_calls(tmp_path: Path, code: str, by_words: List[str], kept: List[str]):
    """The module's own facts decide, whether the process held them before it asked or extracts
    them for the question: which files a run parses does not depend on the questions asked
    before (with only the facts held, a serial run of torch's source parsed 374 files, with its
    own facts extracted for the gate 198)."""
    assert set(kept) <= set(by_words)
    assert _rules_for(tmp_path, code, facts_first=False) == kept
    assert _rules_for(tmp_path, code, facts_first=True) == kept


def test_facts_of_another_text_leave_no_rule_out(tmp_path: Path):
    path = tmp_path / "train.py"
    path.write_text("def build(args):\n    return Dataset(seed=args.seed)\n", encoding="utf-8")
    settings = Settings(root=tmp_path, select=["RPL105"])
    project = ProjectContext(settings, [path])
    project.facts(path)
    edited = "import torch\n\ndef build(args):\n    torch.manual_seed(args.seed)\n"
    assert project.known_facts(path, edited) is None
    assert [rule.code for rule in Linter(settings, project).rules_for(edited, str(path))] == ["RPL105"]


# -- the op rules (RPL401, RPL402) ------------------------------------------------------------------


def _op_calls(code: str):
    facts = extract_facts(Path("mod.py"), textwrap.dedent(code))
    assert facts is not None
    return facts


def test_op_calls_are_recorded_with_their_literal_arguments():
    facts = _op_calls(
        """
        import torch.nn as nn
        import torch.nn.functional as F
        from functools import partial
        y = F.interpolate(x, scale_factor=2, mode="nearest")
        pool = nn.AdaptiveAvgPool2d((1, 1))
        up = partial(F.interpolate, mode=args.mode)
        counts = t.bincount(*rest, minlength=3)
        if False:
            z = x.median(0)
        """
    )
    assert ("interpolate", ((None, "", UNKNOWN), ("scale_factor", "", 2), ("mode", "", "nearest"))) in facts.op_calls
    assert ("AdaptiveAvgPool2d", ((None, "", (1, 1)),)) in facts.op_calls
    assert ("interpolate", (("mode", "", UNKNOWN),)) in facts.op_calls  # the op, given the rest
    assert ("bincount", ((None, "*", UNKNOWN), ("minlength", "", 3))) in facts.op_calls
    assert ("median", ((None, "", 0),)) in facts.op_calls  # a dead branch counts too
    assert not any(name == "partial" for name, _ in facts.op_calls)


def test_an_op_bound_under_another_name_is_rebound():
    assert "interpolate" in _op_calls("from torch.nn.functional import interpolate as up\n").rebound
    assert "interpolate" in _op_calls("import torch.nn.functional as F\nresize = F.interpolate\n").rebound
    assert "interpolate" not in _op_calls("from torch.nn.functional import interpolate\n").rebound


@pytest.mark.parametrize(
    "test, given, decided",
    [
        (Condition("equals", "mode", values=("bicubic",), default="nearest"), MISSING, False),
        (Condition("equals", "mode", values=("bicubic",), default="nearest"), "bicubic", True),
        (Condition("equals", "mode", values=("bicubic",), default="nearest"), UNKNOWN, None),
        (Condition("present", "weights"), MISSING, False),
        (Condition("present", "weights"), None, False),
        (Condition("present", "weights"), UNKNOWN, True),
        (Condition("not_global", "output_size"), 1, False),
        (Condition("not_global", "output_size"), (1, 1), False),
        (Condition("not_global", "output_size"), (7, 7), True),
        (Condition("not_global", "output_size"), (UNKNOWN, 1), None),
        (Condition("not_global", "output_size"), True, True),
        (Condition("length", "pad", values=(2, 6), default=True), (1, 1, 1, 1), False),
        (Condition("length", "pad", values=(2, 6), default=True), (UNKNOWN, UNKNOWN), True),
        (Condition("length", "pad", values=(2, 6), default=True), UNKNOWN, True),
        (Condition("spatial", "reduction"), "mean", None),
    ],
)
def test_what_a_literal_argument_decides(test: Condition, given, decided):
    assert test.decides(given) is decided


def test_star_arguments_leave_a_condition_undecided():
    mode = Condition("equals", "mode", function_position=3, values=("bicubic",), default="nearest")
    assert literal_verdict(mode, "function", ((None, "", UNKNOWN),)) is False
    assert literal_verdict(mode, "function", ((None, "", UNKNOWN), (None, "**", UNKNOWN))) is None
    assert literal_verdict(mode, "function", ((None, "*", UNKNOWN),)) is None


def _variants(op):
    """Calls of ``op`` in each of its forms, with the literal arguments its condition reads."""
    condition, values = op.condition, [MISSING]
    while condition is not None:
        values += [*condition.values, condition.default, None, 1, (1, 1), (1, 1, 1, 1), (3, 3), "other"]
        condition = condition.also
    texts = []
    for form, names in (("function", op.functions), ("module", op.modules), ("method", op.methods)):
        for name in names:
            callee = f"torch.{name[len('torch.'):]}" if form != "method" else f"x.{name}"
            params = []
            condition = op.condition
            while condition is not None:
                params.append(condition.param)
                condition = condition.also
            for value in values:
                keywords = ", ".join(f"{param}={value!r}" for param in params) if value is not MISSING else ""
                first = "" if form == "module" else "x4d, "
                texts.append(f"{callee}({first}{keywords})".replace("(, ", "(").replace(", )", ")"))
    return texts


@pytest.mark.parametrize("code", ["RPL401", "RPL402"])
def test_the_op_calls_a_rule_reports_are_never_ruled_out(tmp_path: Path, code: str):
    """Soundness over the whole catalog: every op, in each of its forms, called with the literal
    arguments its conditions read (and without them); where the rule reports a call, the facts
    of that call say it may be the op."""
    version = Settings(root=tmp_path).torch_version
    wanted = {
        "RPL401": lambda op: op.category(version) == DETERMINISTIC and op.passes == FORWARD,
        "RPL402": lambda op: op.category(version) == RAISES,
    }[code]
    header = "import torch\nimport torch.nn\nimport torch.nn.functional\nx4d = torch.zeros(1, 2, 3, 4).cuda()\nx = x4d\n"
    reported = 0
    for op in OPS:
        for call in _variants(op):
            text = header + f"y = {call}\n"
            path = tmp_path / "snippet.py"
            path.write_text(text, encoding="utf-8")
            settings = Settings(root=tmp_path, select=[code])
            result = Linter(settings, ProjectContext(settings, [path]), prefilter=False).lint_path(path)
            if any(d.code == code for d in result.diagnostics):
                reported += 1
                facts = extract_facts(path, text)
                assert facts is not None and may_match(facts.op_calls, wanted), call
    assert reported > 10


def _rules_with_facts(tmp_path: Path, files, select: List[str]) -> List[str]:
    paths = []
    for name, code in files.items():
        path = tmp_path / name
        path.write_text(textwrap.dedent(code), encoding="utf-8")
        paths.append(path)
    settings = Settings(root=tmp_path, select=select)
    project = ProjectContext(settings, paths)
    project.prepare(paths)  # as a run does before it lints (the survey's gates ask no other module)
    for path in paths:
        project.facts(path)
    main = paths[-1]
    return sorted(rule.code for rule in Linter(settings, project).rules_for(main.read_text(encoding="utf-8"), str(main)))


@pytest.mark.parametrize(
    "code, kept",
    [
        ("import torch.nn.functional as F\ny = F.interpolate(x, scale_factor=2)\n", []),  # nearest, by default
        ("import torch.nn.functional as F\ny = F.interpolate(x, scale_factor=2, mode='bicubic')\n", ["RPL402"]),
        ("import torch.nn.functional as F\ny = F.interpolate(x, scale_factor=2, mode=mode)\n", ["RPL402"]),
        ("import torch.nn.functional as F\ny = F.interpolate(x, **cfg)\n", ["RPL402"]),
        ("import torch.nn as nn\npool = nn.AdaptiveAvgPool2d(1)\nself.pad = 1\n", []),
        ("from torch.nn.functional import interpolate as up\ny = up(x, scale_factor=2)\n", ["RPL402"]),
        ("from functools import partial\nimport torch.nn.functional as F\nup = partial(F.interpolate, mode='bicubic')\n", ["RPL402"]),
    ],
)
def test_a_module_is_not_parsed_for_op_calls_its_literal_arguments_rule_out(tmp_path: Path, code: str, kept: List[str]):
    assert _rules_with_facts(tmp_path, {"train.py": code}, ["RPL402"]) == kept


def test_a_project_name_for_an_op_keeps_the_rule(tmp_path: Path):
    """``resize`` that a project module binds to ``F.interpolate`` is the op where it is called
    (as the rule reads it, :meth:`ProjectContext.library_name`)."""
    files = {
        "layers.py": "import torch.nn.functional as F\nresize = F.interpolate\n",
        "train.py": "from layers import resize\nself.pad = 1\ny = resize(x, scale_factor=2, mode='bicubic')\n",
    }
    assert _rules_with_facts(tmp_path, files, ["RPL402"]) == ["RPL402"]
    found = lint_files_in([tmp_path / "layers.py", tmp_path / "train.py"], tmp_path, ["RPL402"])
    assert [(d.code, d.path.endswith("train.py")) for d in found] == [("RPL402", True)]


@pytest.mark.parametrize("enables, kept", [(True, []), (False, ["RPL401"])])
def test_a_module_that_runs_with_deterministic_algorithms_is_not_parsed_for_rpl401(tmp_path: Path, enables: bool, kept: List[str]):
    """The program that runs ``model.py`` turns deterministic algorithms on: RPL401 reports none
    of its ops, so the file is not parsed for it."""
    switch = "torch.use_deterministic_algorithms(True)" if enables else "torch.backends.cudnn.deterministic = True"
    files = {
        "train.py": f"import torch\nfrom model import accumulate\n\nif __name__ == '__main__':\n    {switch}\n    accumulate(torch.zeros(4, device='cuda'))\n",
        "model.py": "import torch\n\ndef accumulate(x):\n    return x.index_add_(0, torch.arange(4, device='cuda'), x)\n",
    }
    assert _rules_with_facts(tmp_path, files, ["RPL401"]) == kept
    found = lint_files_in([tmp_path / "train.py", tmp_path / "model.py"], tmp_path, ["RPL401"])
    assert [(d.code, d.path.endswith("model.py")) for d in found] == [(code, True) for code in kept]


# -- the loader rules (RPL301, RPL302) -----------------------------------------------------------


@pytest.mark.parametrize(
    "code, kept",
    [
        # ``loader`` only in the names of variables: no call can build one
        ("def evaluate(model, val_loader):\n    for batch in val_loader:\n        model(batch)\n", []),
        ("from torch.utils.data import DataLoader\nloader = DataLoader(ds, num_workers=4)\n", ["RPL301", "RPL302"]),
        ("import torch.utils.data as tud\nmake = partial(tud.DataLoader, num_workers=2)\ntrain_loader = make(ds)\n", ["RPL301", "RPL302"]),
        ("from torch.utils import data\nfn = data.DataLoader\ntrain_loader = fn(ds)\n", ["RPL301", "RPL302"]),
        ("train_loader = build_LOADER(cfg)\n", ["RPL301", "RPL302"]),  # a factory, in any case
        ("import torch.utils.data as tud\ntrain_loader = tud.DataLoader(ds)\nsampler = tud.RandomSampler(ds)\n", ["RPL301", "RPL302"]),
        ("from torch.utils.data import DataLoader\nclass Feeder(DataLoader):\n    pass\nval_loader = Feeder(ds)\n", ["RPL301", "RPL302"]),
    ],
)
def test_a_module_is_not_parsed_for_loaders_it_cannot_build(tmp_path: Path, code: str, kept: List[str]):
    assert _rules_with_facts(tmp_path, {"train.py": code}, ["RPL301", "RPL302"]) == kept


def test_a_project_loader_class_by_another_name_keeps_the_rules(tmp_path: Path):
    """``Feeder`` derives from DataLoader in another module: a call of it builds a loader."""
    files = {
        "data.py": "from torch.utils.data import DataLoader\n\nclass Feeder(DataLoader):\n    pass\n",
        "train.py": "from data import Feeder\n\ntrain_loader = Feeder(range(8), num_workers=4)\n",
    }
    assert _rules_with_facts(tmp_path, files, ["RPL301", "RPL302"]) == ["RPL301", "RPL302"]
    found = lint_files_in([tmp_path / "data.py", tmp_path / "train.py"], tmp_path, ["RPL301"])
    assert [(d.code, d.path.endswith("train.py"), d.line) for d in found] == [("RPL301", True, 3)]


# -- RPL601 ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "code, kept",
    [
        # an NPU helper module that starts no process group, and is no entry point
        ("import torch\n\ndef to_device(x):\n    return x.npu() if torch.npu.is_available() else x\n", []),
        ("import torch.distributed as dist\n\ndef setup():\n    dist.init_process_group(backend='hccl')\n", ["RPL601"]),
        ("from torch.distributed import init_process_group as start\nstart('hccl')\n", ["RPL601"]),
    ],
)
def test_a_module_is_not_parsed_for_a_process_group_it_cannot_start(tmp_path: Path, code: str, kept: List[str]):
    assert _rules_with_facts(tmp_path, {"helpers.py": code}, ["RPL601"]) == kept


def test_an_npu_entry_point_whose_group_starts_elsewhere_keeps_rpl601(tmp_path: Path):
    files = {
        "dist_utils.py": "import torch.distributed as dist\n\ndef setup(backend):\n    dist.init_process_group(backend=backend)\n",
        "train.py": "import torch\nimport torch_npu\nfrom dist_utils import setup\n\nif __name__ == '__main__':\n    setup('hccl')\n    torch.randn(2).npu()\n",
    }
    assert _rules_with_facts(tmp_path, files, ["RPL601"]) == ["RPL601"]



def test_a_project_loader_class_named_through_its_module_keeps_the_rules(tmp_path: Path):
    """``def build(ds, klass=data.Feeder)``: the class is named, not called, through the module
    that defines it, and called by a parameter's name."""
    files = {
        "data.py": "from torch.utils.data import DataLoader\n\nclass Feeder(DataLoader):\n    pass\n",
        "train.py": "import data\n\ndef build(ds, klass=data.Feeder):\n    train_loader = klass(ds, num_workers=4)\n    return train_loader\n",
    }
    assert _rules_with_facts(tmp_path, files, ["RPL301"]) == ["RPL301"]
    found = lint_files_in([tmp_path / "data.py", tmp_path / "train.py"], tmp_path, ["RPL301"])
    assert [(d.code, d.path.endswith("train.py")) for d in found] == [("RPL301", True)]


# -- the backend flag rules (RPL201, RPL205) --------------------------------------------------------


def test_attributes_set_on_imported_names_are_recorded():
    facts = _op_calls(
        """
        import torch
        from torch.backends import cudnn as cb
        import torch.backends.cuda
        back = torch.backends

        torch.backends.cudnn.benchmark = True
        cb.deterministc, back.mkldnn.enabled = True, False
        [torch.backends.cuda.matmul.allow_tf32, *rest] = flags
        self.benchmark = True          # ``self`` is bound by no import
        args.benchmark = False         # nor ``args``
        if False:
            torch.backends.cudnn.enable = False
        """
    )
    assert set(facts.assigned.split("\n")) - {""} == {
        "cudnn.benchmark", "cb.deterministc", "mkldnn.enabled", "matmul.allow_tf32", "cudnn.enable",
    }
    assert facts.sets_attribute("benchmark") and facts.sets_attribute_on("mkldnn")
    assert not facts.sets_attribute("enabl") and not facts.sets_attribute_on("self")
    assert "cudnn" in facts.rebound


@pytest.mark.parametrize(
    "code, kept",
    [
        # the words, but no flag set and no call that sets one
        ("import torch\n\nif torch.backends.cudnn.is_available():\n    print(torch.backends.cudnn.version())\n", []),
        ("def run(args):\n    if args.benchmark:\n        timeit(args)\n    args.benchmark = False\n", []),
        ("import torch\ntorch.backends.cudnn.benchmark = True\n", ["RPL201", "RPL205"]),
        ("from torch.backends import cudnn\ncudnn.enable = False\n", ["RPL205"]),
        ("import torch.backends.cudnn as cb\ncb.deterministc = True\n", ["RPL205"]),
        ("import torch\nflags = torch.backends.cuda\nflags.matmul.allow_fp16 = True\n", ["RPL205"]),
        ("import torch\nwith torch.backends.cudnn.flags(enabled=True, benchmark=True):\n    pass\n", ["RPL201"]),
        ("import torch\nsetattr(torch.backends.cudnn, 'benchmark', True)\n", ["RPL201"]),
        ("from lightning import Trainer\ntrainer = Trainer(benchmark=True)\n", ["RPL201"]),
        ("import pytorch_lightning as pl\n\nclass T(pl.Trainer):\n    def __init__(self):\n        super().__init__(benchmark=True)\n", ["RPL201"]),
        ("from lightning.pytorch.cli import LightningCLI\nLightningCLI(trainer_defaults={'benchmark': True})\n", ["RPL201"]),
    ],
)
def test_a_module_is_not_parsed_for_backend_flags_it_never_sets(tmp_path: Path, code: str, kept: List[str]):
    assert _rules_with_facts(tmp_path, {"train.py": code}, ["RPL201", "RPL205"]) == kept


def test_a_backend_module_bound_in_a_star_imported_module_keeps_rpl205(tmp_path: Path):
    """``cb`` is cuDNN's module in ``helpers``, and the star import binds it here."""
    files = {
        "helpers.py": "import torch.backends.cudnn as cb\n",
        "train.py": "from helpers import *\n\nname = 'cudnn'\ncb.enable = False\n",
    }
    assert _rules_with_facts(tmp_path, files, ["RPL205"]) == ["RPL205"]
    found = lint_files_in([tmp_path / "helpers.py", tmp_path / "train.py"], tmp_path, ["RPL205"])
    assert [(d.code, d.path.endswith("train.py"), d.line) for d in found] == [("RPL205", True, 4)]


@pytest.mark.parametrize("code", ["RPL201", "RPL205"])
def test_every_finding_of_the_backend_flag_rules_is_in_a_module_they_may_fire_in(corpus: List[Path], unfiltered, code: str):  # noqa: F811
    """The gates' soundness over the unfiltered findings (the rule book's examples among them)."""
    settings = Settings(root=REPO, select=["ALL"])
    rule = all_rules()[code]
    project = ProjectContext(settings, corpus)
    words = frozenset(rule.trigger_words(settings))
    checked = 0
    for path, result in zip(corpus, unfiltered):
        if not any(d.code == code for d in result.diagnostics):
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        facts = extract_facts(path, text)
        assert facts is not None and rule.may_fire_in(facts, words, settings, project, str(path), text), path
        checked += 1
    assert checked >= 2


def test_a_partial_s_arguments_are_evaluated_where_it_is_made_not_at_each_call():
    """``make = partial(DataLoader, Items(), shuffle=True)`` builds ``Items`` once, where the
    partial is made; a call ``make()`` passes that object on, and builds nothing again."""
    code = """
        from functools import partial

        from torch.utils.data import DataLoader


        class Items:
            pass


        make = partial(DataLoader, Items(), shuffle=True)


        def main():
            loader = make()
            return loader
    """
    facts = extract_facts(Path("mod.py"), textwrap.dedent(code))
    assert "Items" in facts.module_body.calls
    assert "Items" not in facts.functions["main"].calls
