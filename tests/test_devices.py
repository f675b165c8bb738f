"""RPL601 (HCCL determinism on NPU) and RPL502 (dropout present, off by default)."""

from __future__ import annotations

import textwrap

import pytest

from fixtools import apply_fixes
from conftest import codes, lint_files_in, write

# -- RPL601 ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "code",
    [
        "import torch.distributed as dist\ndist.init_process_group(backend='hccl')\n",
        "import torch.distributed as dist\ndist.init_process_group('hccl', rank=0, world_size=1)\n",
        "import torch.distributed as dist\ndist.init_process_group('cpu:gloo,npu:hccl')\n",
        "import torch_npu\nimport torch.distributed as dist\ndist.init_process_group(backend=args.backend)\n",
        "import torch_npu\nfrom torch.distributed import init_process_group\ninit_process_group()\n",
    ],
)
def test_rpl601_npu_process_group_without_hccl_deterministic(lint, code):
    found = lint(code, select=["RPL601"])
    assert codes(found) == ["RPL601"]
    assert "HCCL_DETERMINISTIC=true" in found[0].message


@pytest.mark.parametrize(
    "code",
    [
        "import torch.distributed as dist\ndist.init_process_group('nccl')\n",
        "import torch_npu\nimport torch.distributed as dist\ndist.init_process_group('gloo')\n",
        "import os\nimport torch.distributed as dist\nos.environ['HCCL_DETERMINISTIC'] = 'true'\n"
        "dist.init_process_group('hccl')\n",
    ],
)
def test_rpl601_quiet(lint, code):
    assert codes(lint(code, select=["RPL601"])) == []


def test_rpl601_variable_set_in_another_project_file(tmp_path):
    write(
        tmp_path,
        {
            "launch.py": "import os\nos.environ['HCCL_DETERMINISTIC'] = 'true'\n",
            "dist_setup.py": "import torch.distributed as dist\ndist.init_process_group('hccl')\n",
        },
    )
    files = [tmp_path / "launch.py", tmp_path / "dist_setup.py"]
    assert codes(lint_files_in(files, tmp_path, ["RPL601"])) == []
    assert codes(lint_files_in(files[1:], tmp_path, ["RPL601"])) == ["RPL601"]


BRANCHES = """\
import argparse

import torch
import torch.distributed as dist

parser = argparse.ArgumentParser()
parser.add_argument('--device', default='npu')
parser.add_argument('--dist-backend', default='hccl')


def main():
    args = parser.parse_args()
    torch.npu.set_device(0)
    if {test}:
        dist.init_process_group(backend=args.dist_backend)
    else:
        dist.init_process_group(backend=args.dist_backend, init_method='env://')


if __name__ == '__main__':
    main()
"""


@pytest.mark.parametrize(
    "test, lines",
    [
        # the group for the NPU is reported; the branch for another device is not
        ("args.device == 'npu'", [15]),
        ("'npu' == args.device", [15]),
        ("args.device.startswith('npu')", [15]),
        ("'npu' in args.device", [15]),
        ("args.device != 'npu'", [17]),
        ("not args.device.startswith('npu')", [17]),
        ("args.device == 'cuda'", [17]),
        ("args.device.startswith('gpu')", [17]),
        ("args.device == 'cpu'", [17]),
        # a test that says nothing of the device: both calls
        ("args.distributed", [15, 17]),
        ("args.device == args.other", [15, 17]),
    ],
)
def test_rpl601_a_branch_for_another_device_is_not_reported(lint, test, lines):
    found = lint(BRANCHES.format(test=test), select=["RPL601"])
    assert [d.line for d in found] == lines


def test_rpl601_fix_sets_the_variable_before_the_call_with_its_indentation(lint):
    code = (
        "import os\nimport torch.distributed as dist\n\n\ndef setup():\n"
        "    if True:\n        dist.init_process_group('hccl')\n"
    )
    found = lint(code, select=["RPL601"])
    assert found[0].fix.applicability == "safe"
    assert apply_fixes(code, found) == (
        "import os\nimport torch.distributed as dist\n\n\ndef setup():\n    if True:\n"
        '        os.environ.setdefault("HCCL_DETERMINISTIC", "true")\n'
        "        dist.init_process_group('hccl')\n"
    )


# -- RPL601 across files, invalid values, conditions, other launchers -----------------------------

HELPERS = {
    "dist_utils/__init__.py": "",
    "dist_utils/comm.py": """
        import torch.distributed as dist

        def init_dist(backend, rank, world):
            dist.init_process_group(backend=backend, rank=rank, world_size=world)
    """,
    "dist_utils/launch.py": """
        from .comm import init_dist

        def setup(args):
            init_dist(args.backend, args.rank, args.world)
    """,
}
NPU_TRAIN = """
    import torch
    import torch_npu
    from dist_utils.launch import setup

    if __name__ == "__main__":
        setup(None)
        model = torch.nn.Linear(2, 2).to("npu:0")
"""


def _project(tmp_path, files):
    write(tmp_path, files)
    paths = [tmp_path / name for name in files]
    return lint_files_in(paths, tmp_path, ["RPL601"])


def test_rpl601_process_group_started_two_calls_away_from_an_npu_entry_point(tmp_path):
    found = _project(tmp_path, {**HELPERS, "train.py": NPU_TRAIN})
    assert [(d.code, d.path.endswith("train.py"), d.line) for d in found] == [("RPL601", True, 6)]
    assert apply_fixes(NPU_TRAIN.replace("\n    ", "\n").lstrip("\n"), found).count('os.environ.setdefault("HCCL_DETERMINISTIC", "true")') == 1


def test_rpl601_a_literal_hccl_group_in_a_helper_is_reported_once_at_its_call(tmp_path):
    """The helper names HCCL itself: the finding is at that call, and the entry point that
    reaches it is not reported a second time."""
    helpers = {**HELPERS, "dist_utils/comm.py": HELPERS["dist_utils/comm.py"].replace("backend=backend", "backend='hccl'")}
    found = _project(tmp_path, {**helpers, "train.py": NPU_TRAIN})
    assert [(d.code, d.path.rsplit("/", 1)[-1]) for d in found] == [("RPL601", "comm.py")]


@pytest.mark.parametrize(
    "extra",
    [
        {"env.py": "import os\nos.environ['HCCL_DETERMINISTIC'] = 'true'\n"},
        {"env.py": "import os\nos.environ.setdefault('HCCL_DETERMINISTIC', 'STRICT')\n"},
        {"env.py": "import os\nos.environ.update(HCCL_DETERMINISTIC=os.getenv('DET', 'true'))\n"},
    ],
)
def test_rpl601_quiet_when_a_valid_value_is_set_anywhere(tmp_path, extra):
    assert codes(_project(tmp_path, {**HELPERS, "train.py": NPU_TRAIN, **extra})) == []


def test_rpl601_a_setting_in_another_program_does_not_count(tmp_path):
    """Another NPU training script of the tree sets the variable for its own run only; a
    module nothing runs (``env.py`` above) still counts."""
    other = NPU_TRAIN.replace("    if __name__", "    import os\n    os.environ['HCCL_DETERMINISTIC'] = 'true'\n    if __name__")
    found = _project(tmp_path, {**HELPERS, "train.py": NPU_TRAIN, "other/train_other.py": other.replace("setup(None)\n", "")})
    assert [(d.code, d.path.rsplit("/", 1)[-1]) for d in found] == [("RPL601", "train.py")]


def test_rpl601_quiet_on_cuda(tmp_path):
    assert codes(_project(tmp_path, {**HELPERS, "train.py": NPU_TRAIN.replace("import torch_npu\n", "").replace("npu:0", "cuda")})) == []


@pytest.mark.parametrize("value", ["1", "True ", "yes", "false"])
def test_rpl601_an_invalid_value_does_not_count(lint, value):
    code = f"import os\nimport torch.distributed as dist\nos.environ['HCCL_DETERMINISTIC'] = {value!r}\ndist.init_process_group('hccl')\n"
    expected = [] if value.strip().lower() == "true" else ["RPL601"]
    assert codes(lint(code, select=["RPL601"])) == expected


def test_rpl601_a_setting_under_a_parameter_counts_only_when_a_caller_turns_it_on(tmp_path):
    helper = """
        import os
        import torch.distributed as dist

        def init(deterministic=False):
            if deterministic:
                os.environ["HCCL_DETERMINISTIC"] = "true"
            dist.init_process_group("hccl")
    """
    train = "from helper import init\n\nif __name__ == '__main__':\n    init({args})\n"
    assert codes(_project(tmp_path, {"helper.py": helper, "train.py": train.format(args="")})) == ["RPL601"]
    assert codes(_project(tmp_path, {"helper.py": helper, "train.py": train.format(args="deterministic=True")})) == []


@pytest.mark.parametrize(
    "call, expected",
    [
        ("deepspeed.init_distributed(dist_backend='hccl')", ["RPL601"]),
        ("deepspeed.init_distributed('hccl')", ["RPL601"]),
        ("deepspeed.init_distributed(dist_backend='nccl')", []),
    ],
)
def test_rpl601_deepspeed(lint, call, expected):
    assert codes(lint(f"import deepspeed\n{call}\n", select=["RPL601"])) == expected


# -- RPL601 in the same file: an NPU entry point that starts a process group with a run-time backend --

SAME_FILE = """
    import argparse

    import torch
    import torch.distributed as dist


    def main():
        parser = argparse.ArgumentParser()
        parser.add_argument("--backend", default="hccl")
        args = parser.parse_args()
        {device}
        dist.init_process_group(backend=args.backend)
        model = torch.nn.Linear(2, 2).to({target})


    if __name__ == "__main__":
        main()
"""


@pytest.mark.parametrize(
    "device,target",
    [
        ("torch.npu.set_device(0)", '"npu:0"'),
        ("pass", '"npu:0"'),
        ("torch.npu.set_device(0)", "torch.device('cpu')"),
    ],
)
def test_rpl601_npu_entry_point_starts_a_process_group_with_a_run_time_backend(lint, device, target):
    code = SAME_FILE.format(device=device, target=target)
    found = lint(code, select=["RPL601"])
    assert [(d.code, d.line) for d in found] == [("RPL601", 13)]
    assert "backend chosen at run time" in found[0].message
    fixed = apply_fixes(textwrap.dedent(code), found)
    assert '    os.environ.setdefault("HCCL_DETERMINISTIC", "true")\n    dist.init_process_group(' in fixed


@pytest.mark.parametrize(
    "code",
    [
        # a CUDA program: the run-time backend is NCCL's business
        SAME_FILE.format(device="torch.cuda.set_device(0)", target='"cuda"'),
        SAME_FILE.format(device="pass", target="torch.device('cpu')"),
        # an NPU program that names another backend
        SAME_FILE.format(device="torch.npu.set_device(0)", target='"npu:0"').replace("backend=args.backend", "backend='gloo'"),
        # the variable is set
        SAME_FILE.format(device="os.environ['HCCL_DETERMINISTIC'] = 'true'", target='"npu:0"').replace(
            "import argparse\n", "import argparse\n    import os\n"
        ),
        # not an entry point: a helper's run-time backend is reported where an NPU entry point calls it
        "import torch\nimport torch.distributed as dist\n\n\ndef setup(backend):\n"
        "    torch.npu.set_device(0)\n    dist.init_process_group(backend=backend)\n",
    ],
)
def test_rpl601_quiet_on_a_run_time_backend_without_npu_evidence_or_with_the_variable(lint, code):
    assert codes(lint(code, select=["RPL601"])) == []


@pytest.mark.parametrize(
    "code, expected",
    [
        # torch_npu's migration module turns the nccl backend into HCCL
        ("import torch_npu\nfrom torch_npu.contrib import transfer_to_npu\nimport torch.distributed as dist\n"
         "dist.init_process_group(backend='nccl')\n", ["RPL601"]),
        ("import torch\nimport torch_npu.contrib.transfer_to_npu\nimport torch.distributed as dist\n"
         "dist.init_process_group('nccl')\n", ["RPL601"]),
        # without it, nccl is nccl
        ("import torch_npu\nimport torch.distributed as dist\ndist.init_process_group(backend='nccl')\n", []),
        # an option's value is chosen at run time whatever its default (Ascend AlexNet's --dist-backend)
        ("import argparse\nimport torch_npu\nimport torch.distributed as dist\n\nparser = argparse.ArgumentParser()\n"
         "parser.add_argument('--dist-backend', default='nccl')\nargs = parser.parse_args()\n"
         "dist.init_process_group(backend=args.dist_backend)\n", ["RPL601"]),
        # a backend set on the options object just before: that literal (BEiT v2's init_distributed_mode)
        ("import torch_npu\nimport torch.distributed as dist\n\n\ndef init(args):\n    args.dist_backend = 'nccl'\n"
         "    dist.init_process_group(backend=args.dist_backend)\n", []),
        ("import torch_npu\nimport torch.distributed as dist\n\n\ndef init(args):\n    args.dist_backend = 'hccl'\n"
         "    dist.init_process_group(backend=args.dist_backend)\n", ["RPL601"]),
        # Conformer_Ti on Ascend: the same in a helper module that does not import torch_npu
        ("import torch.distributed as dist\n\n\ndef init(args):\n    args.dist_backend = 'hccl'\n"
         "    dist.init_process_group(backend=args.dist_backend)\n", ["RPL601"]),
        ("import torch.distributed as dist\n\n\ndef init(args):\n    args.dist_backend = 'gloo'\n"
         "    dist.init_process_group(backend=args.dist_backend)\n", []),
        ("import torch_npu\nfrom torch_npu.contrib import transfer_to_npu\nimport torch.distributed as dist\n\n\n"
         "def init(args):\n    args.dist_backend = 'nccl'\n    dist.init_process_group(backend=args.dist_backend)\n", ["RPL601"]),
    ],
)
def test_rpl601_nccl_made_hccl_by_transfer_to_npu_and_literal_backends_on_an_object(lint, code, expected):
    found = lint(code, select=["RPL601"])
    assert codes(found) == expected
    if "transfer_to_npu" in code and expected:
        assert "transfer_to_npu" in found[0].message


@pytest.mark.parametrize("migrated", [True, False])
def test_rpl601_a_helper_starting_an_nccl_group_for_an_entry_point_that_imports_transfer_to_npu(tmp_path, migrated):
    """BEiT v2 on Ascend: ``utils.init_distributed_mode`` sets ``args.dist_backend = 'nccl'``;
    the training script imports ``transfer_to_npu``, which makes it HCCL."""
    helper = (
        "import torch.distributed as dist\n\n\ndef init_distributed_mode(args):\n    args.dist_backend = 'nccl'\n"
        "    dist.init_process_group(backend=args.dist_backend, init_method='env://')\n"
    )
    train = (
        "import argparse\n\nimport torch\nimport torch_npu\n"
        + ("from torch_npu.contrib import transfer_to_npu\n" if migrated else "")
        + "\nimport utils\n\nif __name__ == '__main__':\n    args = argparse.Namespace()\n"
        "    utils.init_distributed_mode(args)\n    torch.use_deterministic_algorithms(True)\n"
    )
    found = _project(tmp_path, {"utils.py": helper, "train.py": train})
    assert [(d.code, d.path.rsplit("/", 1)[-1]) for d in found] == ([("RPL601", "train.py")] if migrated else [])


@pytest.mark.parametrize(
    "code, expected",
    [
        # accelerate's is_npu_available: an import that only asks whether the device is there
        ("def is_npu_available():\n    try:\n        import torch_npu\n    except ImportError:\n        return False\n"
         "    return True\n\n\nif __name__ == '__main__':\n    torch.manual_seed(0)\n    print(is_npu_available())\n", []),
        # the same import where the script runs: it loads the NPU backend the program uses
        ("try:\n    import torch_npu\nexcept ImportError:\n    pass\n\nif __name__ == '__main__':\n    torch.manual_seed(0)\n", ["RPL202"]),
        # what else the ``try`` does still counts
        ("def train(model):\n    try:\n        import torch_npu\n        model.npu()\n    except Exception:\n        return None\n\n\n"
         "if __name__ == '__main__':\n    torch.manual_seed(0)\n    train(torch.nn.Linear(2, 2))\n", ["RPL202"]),
    ],
)
def test_rpl202_an_import_that_probes_for_the_npu(lint, code, expected):
    assert codes(lint("import torch\n\n" + code, select=["RPL202"])) == expected



@pytest.mark.parametrize(
    "choose, expected",
    [
        # RAVE: the accelerator Lightning is given is chosen in a variable
        ("    accelerator = None\n    if torch.cuda.is_available():\n        accelerator = 'cuda'\n", True),
        ("    accelerator = 'gpu'\n", True),
        ("    accelerator = 'cpu'\n", False),
    ],
)
def test_rpl202_a_lightning_accelerator_chosen_in_a_variable(lint, choose, expected):
    code = (
        "import lightning.pytorch as pl\nimport torch\n\n\ndef main():\n"
        + choose
        + "    trainer = pl.Trainer(accelerator=accelerator, devices=1)\n\n\nif __name__ == '__main__':\n    main()\n"
    )
    line = code.splitlines().index("    trainer = pl.Trainer(accelerator=accelerator, devices=1)") + 1
    found = lint(code, select=["RPL202"])
    assert [(d.code, d.line) for d in found] == ([("RPL202", line)] if expected else [])


@pytest.mark.parametrize(
    "parsed, expected",
    [
        # iddm: the options stored on ``self.args``; ``--latent`` off by default
        ("parser.parse_args()", 11),
        ("parser.parse_args(['--latent'])", 10),  # options given: not the defaults
        ("load_config()", 10),  # not the parsed options
    ],
)
def test_rpl202_an_option_read_from_the_options_stored_on_self(lint, parsed, expected):
    code = (
        "import argparse\n\nimport torch\n\n\nclass Generator:\n    def __init__(self, args):\n        self.args = args\n"
        "        if self.args.latent:\n            self.vae = torch.nn.Linear(4, 4).to('cuda')\n"
        "        self.model = torch.nn.Linear(4, 2).to('cuda')\n\n\n"
        "if __name__ == '__main__':\n    parser = argparse.ArgumentParser()\n    parser.add_argument('--latent', default=False, action='store_true')\n"
        f"    args = {parsed}\n    torch.manual_seed(0)\n    Generator(args)\n"
    )
    assert [(d.code, d.line) for d in lint(code, select=["RPL202"])] == [("RPL202", expected)]


@pytest.mark.parametrize(
    "returned, expected",
    [
        # Efficient-3DCNNs: ``opt = parse_opts()`` from a helper that builds the parser and parses
        ("parser.parse_args()", 11),  # --distributed off by default: the if is skipped
        ("parser.parse_args(['--distributed', '1'])", 9),  # options given: not the defaults
        ("parser", 9),  # the parser itself: opt is no options object
        # 3D-ResNets: bound to a local first, then returned
        ("args\n    args = parser.parse_args()", 11),
        ("args\n    args = parser.parse_args(['--distributed', '1'])", 9),
        ("args\n    args = parser.parse_args()\n    args.distributed = 1", 9),  # changed before it is returned
    ],
)
def test_rpl202_options_parsed_by_a_helper_of_another_module_decide_the_default_path(tmp_path, returned, expected):
    write(
        tmp_path,
        {
            "opts.py": "import argparse\n\n\ndef parse_opts():\n    parser = argparse.ArgumentParser()\n"
            "    parser.add_argument('--distributed', default=0, type=int)\n"
            # (``args\n    args = ...``: the binding goes before the ``return``)
            + (f"    {returned.split(chr(10), 1)[1].strip()}\n    return args\n" if "\n" in returned else f"    return {returned}\n"),
            "main.py": "import torch\n\nfrom opts import parse_opts\n\nif __name__ == '__main__':\n    opt = parse_opts()\n"
            "    torch.manual_seed(0)\n    if opt.distributed:\n        torch.cuda.set_device(0)\n    else:\n"
            "        device = torch.device('cuda:0')\n    model = torch.nn.Linear(4, 2).to(device)\n",
        },
    )
    found = lint_files_in(sorted(tmp_path.glob("*.py")), tmp_path, ["RPL202"])
    assert [(d.path.rsplit("/", 1)[-1], d.line) for d in found] == [("main.py", expected)]


@pytest.mark.parametrize(
    "action, run, expected",
    [
        # KnowledgeGraphEmbedding: ``--cuda`` off by default, the options handed to main(), and
        # every ``.cuda()`` under ``if args.cuda:`` in another module
        ("store_true", "main(parser.parse_args())", []),
        ("store_true", "args = parser.parse_args()\n    main(args)", []),
        ("store_false", "main(parser.parse_args())", [14]),
        ("store_true", "main(parser.parse_known_args()[0])", [14]),  # not followed: the benefit of the doubt goes to the use
        ("store_true", "main(parser.parse_args(['--cuda']))", [14]),  # options given: not the defaults
    ],
)
def test_rpl202_a_device_another_module_uses_only_under_an_option_handed_through_main(tmp_path, action, run, expected):
    write(
        tmp_path,
        {
            "model.py": "import torch\n\n\ndef step(model, args):\n    x = torch.ones(2, 4)\n    if args.cuda:\n        x = x.cuda()\n    return model(x)\n",
            "train.py": "import argparse\n\nimport torch\n\nfrom model import step\n\n\ndef main(args):\n    torch.manual_seed(0)\n"
            "    step(torch.nn.Linear(4, 2), args)\n\n\nparser = argparse.ArgumentParser()\n"
            f"if __name__ == '__main__':\n    parser.add_argument('--cuda', action='{action}')\n    {run}\n",
        },
    )
    found = lint_files_in(sorted(tmp_path.glob("*.py")), tmp_path, ["RPL202"])
    assert [(d.path.rsplit("/", 1)[-1], d.line) for d in found] == [("train.py", line) for line in expected]


@pytest.mark.parametrize(
    "action, expected",
    [
        # soft-actor-critic: ``torch.device("cuda" if args.cuda else "cpu")`` in the agent's
        # module, ``--cuda`` off by default, as ``if args.cuda:`` there is read
        ("store_true", []),
        ("store_false", [12]),
    ],
)
def test_rpl202_a_device_another_module_names_in_a_conditional_expression(tmp_path, action, expected):
    write(
        tmp_path,
        {
            "agent.py": "import torch\n\n\nclass Agent:\n    def __init__(self, args):\n"
            "        self.device = torch.device(\"cuda\" if args.cuda else \"cpu\")\n"
            "        self.net = torch.nn.Linear(4, 2).to(self.device)\n",
            "main.py": "import argparse\n\nimport torch\nfrom agent import Agent\n\nparser = argparse.ArgumentParser()\n"
            f"parser.add_argument('--seed', type=int, default=0)\nparser.add_argument('--cuda', action='{action}')\n"
            "args = parser.parse_args()\n\ntorch.manual_seed(args.seed)\nagent = Agent(args)\n",
        },
    )
    found = lint_files_in(sorted(tmp_path.glob("*.py")), tmp_path, ["RPL202"])
    assert [(d.path.rsplit("/", 1)[-1], d.line) for d in found] == [("main.py", line) for line in expected]


@pytest.mark.parametrize(
    "default, call, expected",
    [
        # boltz: the accelerator is a parameter whose default Lightning reads as the GPU
        ("'gpu'", "predict()", True),
        ("'cuda'", "predict()", True),
        ("'gpu'", "predict('cpu')", False),  # the only call passes the CPU
        ("'gpu'", "predict(accelerator='cpu')", False),
        ("'cpu'", "predict()", False),
        ("'auto'", "predict()", True),  # Lightning's default: the accelerator there is, as a bare Trainer()
        ("'GPU'", "predict()", False),  # not Lightning's spelling
    ],
)
def test_rpl202_a_lightning_accelerator_given_as_a_parameter_default(lint, default, call, expected):
    code = (
        f"import torch\nfrom pytorch_lightning import Trainer\n\n\ndef predict(accelerator={default}):\n"
        "    torch.manual_seed(0)\n    trainer = Trainer(accelerator=accelerator)\n    trainer.predict(torch.nn.Linear(2, 2))\n\n\n"
        f"if __name__ == '__main__':\n    {call}\n"
    )
    found = lint(code, select=["RPL202"])
    assert [(d.code, d.line) for d in found] == ([("RPL202", 7)] if expected else [])


def test_rpl202_an_accelerator_label_shown_to_the_user_is_no_evidence(lint):
    """accelerate's ``env`` command: ``accelerator = "CUDA"`` is a label it prints."""
    code = (
        "import torch\n\n\ndef main():\n    accelerator = 'N/A'\n    if torch.cuda.is_available():\n"
        "        accelerator = 'CUDA'\n    print({'PyTorch accelerator': accelerator})\n\n\n"
        "if __name__ == '__main__':\n    main()\n"
    )
    assert codes(lint(code, select=["RPL202"])) == []
    assert codes(lint(code.replace("'CUDA'", "'cuda'"), select=["RPL202"])) == ["RPL202"]


@pytest.mark.parametrize("default", ["'gpu'", "'auto'"])
def test_rpl202_a_config_class_declaring_an_accelerator_uses_none(lint, default):
    """pytorch_tabular's configs: ``accelerator: str = field(default="auto")`` declares an option;
    a module whose ``__main__`` block only prints the config runs on nothing."""
    code = (
        "from dataclasses import dataclass, field\n\n\n@dataclass\nclass TrainerConfig:\n"
        f"    accelerator: str = field(default={default})\n    devices: int = 1\n\n\n"
        "if __name__ == '__main__':\n    print(TrainerConfig())\n"
    )
    assert codes(lint(code, select=["RPL202"])) == []


@pytest.mark.parametrize(
    "use, expected",
    [
        ("main(device=dev)", ["RPL202"]),  # ignite's dcgan: the device chosen in a local, handed on
        ("x = torch.ones(2).to(dev)", ["RPL202"]),
        ("print(dev)", []),  # named, never used as a device
    ],
)
def test_rpl202_a_local_device_string_used_as_the_device(lint, use, expected):
    code = (
        "import argparse\n\nimport torch\n\n\ndef main(device):\n    return torch.ones(2).to(device)\n\n\n"
        "if __name__ == '__main__':\n    parser = argparse.ArgumentParser()\n    parser.add_argument('--no-cuda', action='store_true')\n"
        "    args = parser.parse_args()\n    dev = 'cpu' if (not torch.cuda.is_available() or args.no_cuda) else 'cuda:0'\n"
        f"    {use}\n"
    )
    assert codes(lint(code, select=["RPL202"])) == expected


def test_rpl202_a_device_string_built_with_format(lint):
    """Ascend MnasNet's export script: ``loc = 'npu:{}'.format(args.npu)``, then ``model.to(loc)``."""
    code = (
        "import torch\n\n\ndef run(npu):\n    loc = 'npu:{}'.format(npu)\n    model = torch.nn.Linear(2, 2)\n"
        "    model.to(loc)\n\n\nif __name__ == '__main__':\n    torch.manual_seed(0)\n    run(0)\n"
    )
    assert [(d.code, d.line) for d in lint(code, select=["RPL202"])] == [("RPL202", 7)]
    assert codes(lint(code.replace("'npu:{}'", "'cpu:{}'"), select=["RPL202"])) == []


@pytest.mark.parametrize(
    "init, expected",
    [
        # collie's CollieTrainer: the Lightning Trainer built by a subclass with deterministic=True
        ("super().__init__(deterministic=True, **kwargs)", []),
        ("super().__init__(max_epochs=1)", ["RPL202"]),
        ("super().__init__(deterministic=False)", ["RPL202"]),
        ("super().__init__(**kwargs)", []),  # what the mapping holds is not known: as Trainer(**kwargs)
        # torch-uncertainty's TUTrainer: its own parameter passed on, which no call gives
        ("super().__init__(deterministic=deterministic)", ["RPL202"]),
    ],
)
def test_rpl202_a_trainer_subclass_that_turns_deterministic_algorithms_on(lint, init, expected):
    code = (
        f"import torch\nfrom pytorch_lightning import Trainer\n\n\nclass MyTrainer(Trainer):\n    def __init__(self, deterministic=None, **kwargs):\n        {init}\n\n\n"
        "if __name__ == '__main__':\n    torch.manual_seed(0)\n    model = torch.nn.Linear(4, 2).cuda()\n    trainer = MyTrainer()\n"
    )
    assert codes(lint(code, select=["RPL202"])) == expected


@pytest.mark.parametrize(
    "bound, expected",
    [
        # BY571's DDPG: the device is a global the __main__ block binds, used in functions above it
        ("    device = torch.device('cuda' if torch.cuda.is_available() else 'cpu')\n", 5),
        ("    device = 'cpu'\n    torch.cuda.set_device(0)\n", 10),  # the global names no accelerator
    ],
)
def test_rpl202_a_device_global_bound_in_the_main_block_is_the_functions_device(lint, bound, expected):
    code = (
        "import torch\n\n\ndef step(x):\n    return torch.ones(2).to(device) + x\n\n\n"
        "if __name__ == '__main__':\n" + bound + "    torch.manual_seed(0)\n    print(step(1))\n"
    )
    assert [(d.code, d.line) for d in lint(code, select=["RPL202"])] == [("RPL202", expected)]


@pytest.mark.parametrize(
    "label, expected",
    [
        ("'npu'", [("RPL202", "train.py", 3, "an Ascend NPU")]),
        ("'cpu'", []),
        # where torch_npu imports, else CUDA: the first, as TrTr's ``adapter/device.py`` does
        ("'npu'\ntry:\n    import torch_npu\n    device_label = 'npu'\nexcept ImportError:\n    device_label = 'cuda'",
         [("RPL202", "train.py", 3, "an Ascend NPU")]),
        ("'npu'\ntry:\n    import torch_npu\nexcept ImportError:\n    device_label = 'cpu'", []),  # may be the CPU
    ],
)
def test_rpl202_a_device_variable_a_called_module_imports_from_a_third(tmp_path, label, expected):
    """TrTr: ``adapter/device.py`` assigns ``device_label = 'npu'``; a module the entry point
    calls imports it and places the model with ``torch.device(device_label, rank)``."""
    write(
        tmp_path,
        {
            "settings.py": f"device_label = {label}\n",
            "exp.py": "import torch\nfrom settings import device_label\n\n\ndef run():\n    torch.manual_seed(0)\n"
            "    return torch.nn.Linear(4, 2).to(torch.device(device_label, 0))\n",
            "train.py": "from exp import run\n\nif __name__ == '__main__':\n    run()\n",
        },
    )
    found = lint_files_in(sorted(tmp_path.rglob("*.py")), tmp_path, ["RPL202"])
    assert [(d.code, d.path.rsplit("/", 1)[-1], d.line, d.message[25:38]) for d in found] == expected


@pytest.mark.parametrize("device, expected", [("'cpu'", []), ("'cuda'", [("RPL202", 13)])])
def test_rpl202_a_class_nested_in_another_is_built_with_its_callers_device(lint, device, expected):
    """An agent's network class nested in the agent, built with ``self.Net(device=device)``:
    the device the agent is given decides ``if self.device != "cpu":`` in ``forward``."""
    code = (
        "import torch\n\n\nclass Agent:\n    class Net(torch.nn.Module):\n        def __init__(self, device='cpu'):\n"
        "            super().__init__()\n            self.layer = torch.nn.Linear(3, 2)\n            self.device = device\n\n"
        "        def forward(self, x):\n            if self.device != 'cpu':\n                x = x.cuda()\n            return self.layer(x)\n\n"
        "    def __init__(self, device):\n        self.q = self.Net(device=device)\n\n    def act(self, x):\n        return self.q(x)\n\n\n"
        f"if __name__ == '__main__':\n    torch.manual_seed(0)\n    agent = Agent({device})\n    agent.act(torch.ones(3))\n"
    )
    assert [(d.code, d.line) for d in lint(code, select=["RPL202"])] == expected


def test_rpl202_placed_at_a_trainer_given_an_option_the_function_sets_on_some_paths(lint):
    """WAG-NAT's scripts: ``args.device = "cuda"`` when a GPU is there, then
    ``pl.Trainer(accelerator=args.device)``: the Trainer is where the device is used."""
    code = (
        "import argparse\n\nimport pytorch_lightning as pl\nimport torch\n\n\ndef main(args):\n    pl.seed_everything(args.seed)\n"
        "    if torch.cuda.is_available():\n        args.device = 'cuda'\n    trainer = pl.Trainer(max_epochs=1, accelerator=args.device)\n"
        "    print(trainer)\n\n\nif __name__ == '__main__':\n    parser = argparse.ArgumentParser()\n"
        "    parser.add_argument('--seed', default=0, type=int)\n    parser.add_argument('--device', default='cpu', type=str)\n"
        "    main(parser.parse_args())\n"
    )
    assert [(d.code, d.line) for d in lint(code, select=["RPL202"])] == [("RPL202", 11)]


@pytest.mark.parametrize(
    "flag, choose, expected",
    [
        # ``--cuda`` off by default: the device string the default path keeps is "cpu"
        ("store_true", "    device = 'cuda' if args.cuda else 'cpu'\n", []),
        ("store_true", "    device = 'cpu'\n    if args.cuda:\n        device = 'cuda'\n", []),
        ("store_true", "    args.device = 'cpu'\n    if args.cuda:\n        args.device = 'cuda'\n    device = args.device\n", []),
        # SR-GNN: the conditional expression is itself under the skipped ``if``
        ("store_true", "    if args.cuda:\n        device = torch.device('cuda') if torch.cuda.is_available() else torch.device('cpu')\n"
         "    else:\n        device = torch.device('cpu')\n", []),
        # on by default, or decided by the machine: CUDA
        ("store_false", "    device = 'cuda' if args.cuda else 'cpu'\n", [("RPL202", 9)]),
        ("store_false", "    device = 'cpu'\n    if args.cuda:\n        device = 'cuda'\n", [("RPL202", 11)]),
        ("store_true", "    device = 'cuda' if torch.cuda.is_available() else 'cpu'\n", [("RPL202", 9)]),
        ("store_true", "    device = 'cpu'\n    if torch.cuda.is_available():\n        device = 'cuda'\n", [("RPL202", 11)]),
    ],
)
def test_rpl202_a_device_string_the_default_path_does_not_choose(lint, flag, choose, expected):
    """``device = "cuda" if args.cuda else "cpu"`` with ``--cuda`` off by default runs on the
    CPU, as ``torch.device("cuda" if args.cuda else "cpu")`` does."""
    code = (
        "import argparse\n\nimport torch\n\n\ndef main(args):\n    torch.manual_seed(0)\n"
        f"{choose}    model = torch.nn.Linear(2, 2).to(device)\n    return model\n\n\n"
        f"if __name__ == '__main__':\n    parser = argparse.ArgumentParser()\n    parser.add_argument('--cuda', action='{flag}')\n"
        "    main(parser.parse_args())\n"
    )
    assert [(d.code, d.line) for d in lint(code, select=["RPL202"])] == expected


def test_rpl202_reported_at_the_guard_when_set_defaults_names_the_device(lint):
    """``parser.set_defaults(gpus=1)`` declares the default as ``add_argument`` does: the
    finding goes to the ``__main__`` guard, not to the declaration."""
    code = (
        "from argparse import ArgumentParser\n\nimport torch\nfrom pytorch_lightning import Trainer, seed_everything\n\n"
        "seed_everything(0)\n\n\ndef main():\n    parser = ArgumentParser()\n    parser = Trainer.add_argparse_args(parser)\n"
        "    parser.set_defaults(gpus=1)\n    args = parser.parse_args()\n    trainer = Trainer.from_argparse_args(args)\n"
        "    trainer.fit(torch.nn.Linear(4, 2))\n\n\nif __name__ == '__main__':\n    main()\n"
    )
    assert [(d.code, d.line) for d in lint(code, select=["RPL202"])] == [("RPL202", 18)]


@pytest.mark.parametrize(
    "device, call, expected",
    [
        ('torch.device("cuda" if torch.cuda.is_available() else "cpu")', "Agent()", [("RPL202", "train.py", 8)]),
        ('torch.device("cuda" if torch.cuda.is_available() else "cpu")', 'Agent(device="cpu")', []),  # passed: not the default
        ('torch.device("cpu")', "Agent()", []),  # the default names no accelerator
    ],
)
def test_rpl202_a_device_parameter_defaulting_to_an_imported_variable(tmp_path, device, call, expected):
    """``def __init__(self, device=DEFAULT_DEVICE)`` with ``DEFAULT_DEVICE`` imported from the
    module that assigns it: where the call leaves the parameter out, that is the device."""
    write(
        tmp_path,
        {
            "algorithms/__init__.py": "",
            "algorithms/common.py": f"import torch\n\nDEFAULT_DEVICE = {device}\n",
            "algorithms/agent.py": "import torch\nfrom torch import nn\n\nfrom algorithms.common import DEFAULT_DEVICE\n\n\nclass Agent:\n"
            "    def __init__(self, device=DEFAULT_DEVICE):\n        torch.manual_seed(0)\n        self.net = nn.Linear(2, 2).to(device)\n",
            "train.py": f"from algorithms.agent import Agent\n\n\ndef main():\n    {call}\n\n\nif __name__ == '__main__':\n    main()\n",
        },
    )
    found = lint_files_in(sorted(tmp_path.rglob("*.py")), tmp_path, ["RPL202"])
    assert [(d.code, d.path.rsplit("/", 1)[-1], d.line) for d in found] == expected


SETTINGS = "try:\n    import torch_npu\n    backend_label = 'hccl'\nexcept ImportError:\n    backend_label = 'nccl'\n"


@pytest.mark.parametrize(
    "first, expected",
    [
        # a backend chosen when the module is imported (HCCL where torch_npu imports)
        ("pass", [("RPL601", "train.py", 3)]),
        ("import os\n    os.environ['HCCL_DETERMINISTIC'] = 'true'", []),
    ],
)
def test_rpl601_an_entry_point_that_names_no_npu_itself(tmp_path, first, expected):
    """The entry point's own text names neither HCCL nor the NPU: the process group and the
    device are in the module it calls, with the backend imported from a third."""
    write(
        tmp_path,
        {
            "settings.py": SETTINGS,
            "exp.py": "import torch\nimport torch.distributed as dist\nfrom settings import backend_label\n\n\n"
            "def run(rank):\n    torch.manual_seed(0)\n    dist.init_process_group(backend=backend_label)\n"
            "    return torch.nn.Linear(4, 2).to(torch.device('npu', rank))\n",
            "train.py": f"from exp import run\n\nif __name__ == '__main__':\n    {first}\n    run(0)\n",
        },
    )
    found = lint_files_in(sorted(tmp_path.rglob("*.py")), tmp_path, ["RPL601"])
    assert [(d.code, d.path.rsplit("/", 1)[-1], d.line) for d in found] == expected


@pytest.mark.parametrize("use, expected", [("print(batch)", []), ("print(batch.to(config.DEVICE))", ["RPL202"])])
def test_rpl202_a_default_device_string_in_an_imported_config(tmp_path, use, expected):
    """CycleGAN's ``config.py``: ``DEVICE = "cuda" if torch.cuda.is_available() else "cpu"`` at
    its top level is the default device, as an option's default is: it counts where the path
    places something on it, not where the entry point only imports the module."""
    write(
        tmp_path,
        {
            "config.py": "import torch\n\nDEVICE = 'cuda' if torch.cuda.is_available() else 'cpu'\nBATCH_SIZE = 4\n",
            "data.py": "import torch\nfrom torch.utils.data import DataLoader\n\nimport config\n\n\ndef show():\n"
            f"    torch.manual_seed(0)\n    for batch in DataLoader(torch.arange(8), batch_size=config.BATCH_SIZE):\n        {use}\n\n\n"
            "if __name__ == '__main__':\n    show()\n",
        },
    )
    found = lint_files_in(sorted(tmp_path.rglob("*.py")), tmp_path, ["RPL202"])
    assert [d.code for d in found] == expected


@pytest.mark.parametrize("flag, expected", [("store_true", 12), ("store_false", 10)])
def test_rpl202_options_parsed_at_the_top_level_of_another_module(tmp_path, flag, expected):
    """3D_EDSR: ``from option import args``, ``option.py`` parsing the command line at its top
    level; ``if args.use_npu:`` picks the NPU, else CUDA: the default path's branch is reported."""
    write(
        tmp_path,
        {
            "option.py": f"import argparse\n\nparser = argparse.ArgumentParser()\nparser.add_argument('--use_npu', action='{flag}')\n"
            "args = parser.parse_args()\n",
            "train.py": "import torch\nfrom torch import nn\n\nfrom option import args\n\n\ndef main():\n    torch.manual_seed(0)\n"
            "    if args.use_npu:\n        device = torch.device('npu:0')\n    else:\n        device = torch.device('cuda:0')\n"
            "    model = nn.Linear(4, 2).to(device)\n\n\nif __name__ == '__main__':\n    main()\n",
        },
    )
    found = lint_files_in([tmp_path / "train.py"], tmp_path, ["RPL202"])
    assert [(d.code, d.line) for d in found] == [("RPL202", expected)]


@pytest.mark.parametrize(
    "chosen, expected",
    [
        ("args.device if args.device is not None else ('cuda' if torch.cuda.is_available() else 'cpu')", 8),
        ("'cuda' if torch.cuda.is_available() else 'cpu'", 8),
        # the string names no accelerator where it is chosen: the function's placement is not the use
        ("'cpu'", None),
    ],
)
def test_rpl202_placed_where_a_function_places_on_a_device_its_caller_built_from_a_string(lint, chosen, expected):
    """``device = torch.device(device_str)`` in ``main``, handed to ``load_model(device)``
    defined above it: its ``.to(device)`` is the first placement in the text."""
    code = (
        "import argparse\n\nimport torch\nfrom torch import nn\n\n\ndef load_model(device):\n    model = nn.Linear(2, 2).to(device)\n"
        "    model.load_state_dict(torch.load('ckpt.pt'))\n    return model\n\n\ndef main():\n    parser = argparse.ArgumentParser()\n"
        "    parser.add_argument('--device', type=str, default=None)\n    args = parser.parse_args()\n    torch.manual_seed(0)\n"
        f"    device_str = {chosen}\n    device = torch.device(device_str)\n    model = load_model(device)\n"
        "    print(model(torch.ones(1, 2, device=device)))\n    x = torch.ones(1).cuda()\n\n\nif __name__ == '__main__':\n    main()\n"
    )
    found = [(d.code, d.line) for d in lint(code, select=["RPL202"])]
    assert found == ([("RPL202", expected)] if expected else [("RPL202", 22)])


@pytest.mark.parametrize(
    "declared, expected",
    [
        ('torch.device("cuda" if torch.cuda.is_available() else "cpu")', [("RPL202", 7)]),
        ('"cuda:0"', [("RPL202", 7)]),
        ('torch.device("cpu")', []),
    ],
)
def test_rpl202_placed_at_a_device_a_config_object_of_another_module_declares(tmp_path, declared, expected):
    """``from config import model_config``, ``model_config = ModelConfig()`` whose class body
    declares the device: ``x.to(model_config.device)`` is where the device is used."""
    write(
        tmp_path,
        {
            "config.py": f"import torch\n\n\nclass ModelConfig(object):\n    device = {declared}\n\n\nmodel_config = ModelConfig()\n",
            "main.py": "import torch\n\nfrom config import model_config\n\nif __name__ == '__main__':\n    x = torch.ones(3)\n"
            "    y = x.to(model_config.device)\n    print(y)\n",
        },
    )
    found = lint_files_in([tmp_path / "main.py"], tmp_path, ["RPL202"])
    assert [(d.code, d.line) for d in found] == expected


def test_a_call_that_may_name_no_keyword_binds_none_of_them():
    """``CallArgs.may_name`` lets the classifier skip its keyword questions: when it says no,
    each of those parameters is MISSING by keyword; when a keyword or ``**`` may bind one, it
    says yes."""
    import ast

    from repro_lint.syntax import MISSING, AstArgs, CstArgs
    import libcst as cst

    names = frozenset({"device", "accelerator"})
    cases = {
        "f(x)": False, "f(x, *rest)": False, "f(x, dev='cuda')": False, "f(device='cuda')": True,
        "f(x, accelerator=a)": True, "f(**kw)": True, "f(x, **{'device': 'cuda'})": True, "f()": False,
    }
    for text, expected in cases.items():
        for args in (AstArgs(ast.parse(text).body[0].value), CstArgs(cst.parse_expression(text))):
            assert args.may_name(names) is expected, text
            if not expected:
                assert all(args.node(name, None) is MISSING for name in names)


@pytest.mark.parametrize(
    "imports, expected",
    [
        ("import argparse\n", []),  # a code generator: device names in a table, no torch
        ("import argparse\n\nimport torch\n", ["RPL202"]),
        ("import argparse\n\nfrom transformers import Trainer\n", ["RPL202"]),  # a library built on torch
        ("import argparse\n\nimport torchvision\n", ["RPL202"]),  # a package named for torch
        # the names a star import of a module outside the project binds are not known
        ("import argparse\n\nfrom common import *\n", ["RPL202"]),
    ],
)
def test_rpl202_a_program_that_imports_no_torch_runs_nothing_on_a_device(tmp_path, imports, expected):
    """torch's ``torchgen``: ``dispatch_device_map = {is_cuda_dispatch_key: "cuda", ...}`` in
    ``model.py``, read by generator scripts that write C++ and never import torch. Its own
    package is named for torch: that name is the project's, not a library's."""
    write(
        tmp_path,
        {
            "torchgen/__init__.py": "",
            "torchgen/model.py": "def is_cuda_key(k):\n    return k.startswith('CUDA')\n\n\n"
            "dispatch_device_map = {is_cuda_key: 'cuda'}\n\n\ndef parse(args, device):\n    return args.to(device)\n",
            "torchgen/gen.py": f"{imports}\nfrom torchgen.model import dispatch_device_map, parse\n\n\ndef main():\n"
            "    parser = argparse.ArgumentParser()\n    parse(parser.parse_args(), 'x')\n    print(dispatch_device_map)\n\n\n"
            "if __name__ == '__main__':\n    main()\n",
        },
    )
    found = lint_files_in(sorted(tmp_path.rglob("*.py")), tmp_path, ["RPL202"])
    assert [d.code for d in found] == expected


@pytest.mark.parametrize("models_import, expected", [("import torch\n", ["RPL202"]), ("", [])])
def test_rpl202_torch_imported_by_a_module_the_path_reaches_counts(tmp_path, models_import, expected):
    """The entry point itself may import no torch: the module whose function it calls does."""
    write(
        tmp_path,
        {
            "models.py": f"{models_import}\n\ndef build(device='cuda'):\n    return make_model().to(device)\n",
            "train.py": "from models import build\n\nif __name__ == '__main__':\n    build()\n",
        },
    )
    found = lint_files_in(sorted(tmp_path.rglob("*.py")), tmp_path, ["RPL202"])
    assert [d.code for d in found] == expected


def test_rpl202_torch_itself_counts_in_its_own_source(tmp_path):
    """Linting torch's source, ``import torch`` resolves to the project's own package: it is
    still torch (a benchmark script of ``torch/utils/benchmark/examples`` runs on CUDA)."""
    write(
        tmp_path,
        {
            "torch/__init__.py": "",
            "torch/utils/__init__.py": "",
            "torch/utils/bench.py": "import torch\n\n\ndef run():\n    x = torch.ones(3, device='cuda')\n    return x\n\n\n"
            "if __name__ == '__main__':\n    run()\n",
        },
    )
    found = lint_files_in(sorted(tmp_path.rglob("*.py")), tmp_path, ["RPL202"])
    assert [(d.code, d.path.rsplit("/", 1)[-1]) for d in found] == [("RPL202", "bench.py")]


def test_rpl601_message_names_the_migration_module(lint):
    code = (
        "import torch_npu\nfrom torch_npu.contrib import transfer_to_npu\nimport torch.distributed as dist\n"
        "dist.init_process_group(backend='nccl')\n"
    )
    (found,) = lint(code, select=["RPL601"])
    assert '(transfer_to_npu, which turns backend="nccl" into HCCL) but never sets' in found.message


@pytest.mark.parametrize(
    "entry, expected",
    [
        # accelerate's estimate command: imports state.py, which imports torch_npu where an NPU is
        # there, and places nothing on a device
        ("import torch\n\nimport support\n\nif __name__ == '__main__':\n    torch.manual_seed(0)\n    print(support.NAME)\n", []),
        # a program that places something on a device named elsewhere runs on it
        ("import torch\n\nimport support\n\nif __name__ == '__main__':\n    torch.manual_seed(0)\n"
         "    torch.nn.Linear(2, 2).to(support.pick())\n", ["RPL202"]),
        # the entry point's own top level imports it: that program uses the NPU where there is one
        ("import torch\n\nif torch.npu.is_available():\n    import torch_npu\n\nif __name__ == '__main__':\n"
         "    torch.manual_seed(0)\n", ["RPL202"]),
        # not under an availability test: the import is the evidence wherever it is
        ("import torch\n\nimport plain\n\nif __name__ == '__main__':\n    torch.manual_seed(0)\n    print(plain.NAME)\n", ["RPL202"]),
    ],
)
def test_rpl202_torch_npu_imported_where_an_npu_is_available_is_a_supported_device(tmp_path, entry, expected):
    write(
        tmp_path,
        {
            "support.py": "import torch\n\n\ndef is_npu_available():\n    return False\n\n\n"
            "if is_npu_available():\n    import torch_npu\n\nNAME = 'x'\n\n\ndef pick(name=None):\n    return name\n",
            "plain.py": "import torch\nimport torch_npu\n\nNAME = 'x'\n",
            "train.py": entry,
        },
    )
    found = lint_files_in([tmp_path / "train.py"], tmp_path, ["RPL202"])
    assert [d.code for d in found] == expected


@pytest.mark.parametrize(
    "test, expected",
    [
        # one false part of an ``and`` decides it, in either order (orobix's prototypical networks)
        ("torch.cuda.is_available() and args.cuda", []),
        ("args.cuda and torch.cuda.is_available()", []),
        # a true part alone does not
        ("torch.cuda.is_available() and not args.cuda", ["RPL202"]),
        # one true part of an ``or`` does
        ("torch.cuda.is_available() or not args.cuda", ["RPL202"]),
        ("torch.cuda.is_available() or args.cuda", ["RPL202"]),
    ],
)
def test_rpl202_a_device_test_one_part_of_which_decides_it(lint, test, expected):
    code = (
        "import argparse\nimport torch\n\n\ndef main():\n    parser = argparse.ArgumentParser()\n"
        "    parser.add_argument('--cuda', action='store_true')\n    args = parser.parse_args()\n"
        "    torch.manual_seed(0)\n"
        f"    device = 'cuda:0' if {test} else 'cpu'\n    model = torch.nn.Linear(2, 2).to(device)\n\n\n"
        "if __name__ == '__main__':\n    main()\n"
    )
    assert codes(lint(code, select=["RPL202"])) == expected


@pytest.mark.parametrize(
    "value, expected",
    [
        # a question about the model, not a device (GMvandeVen's continual-learning evaluate.py)
        ("hasattr(model, 'cuda')", []),
        ("model.cuda if hasattr(model, 'cuda') else False", []),
        ("str(next(model.parameters()).device).startswith('cuda')", []),
        ("next(model.parameters()).device.type == 'cuda'", []),
        # a device string that is the value
        ("'cuda' if torch.cuda.is_available() else 'cpu'", ["RPL202"]),
        ("getattr(model, 'where', 'cuda')", ["RPL202"]),
    ],
)
def test_rpl202_a_predicate_on_a_device_name_is_no_device(lint, value, expected):
    code = (
        "import torch\nfrom torch.utils.data import DataLoader\n\n\ndef evaluate(model, dataset):\n"
        f"    cuda = {value}\n    return DataLoader(dataset, pin_memory=bool(cuda), device=cuda)\n\n\n"
        "torch.manual_seed(0)\nevaluate(torch.nn.Linear(4, 2), [1])\n"
    )
    assert codes(lint(code, select=["RPL202"])) == expected


@pytest.mark.parametrize(
    "call, expected",
    [
        # nerf-pytorch: new tensors and layers are made on CUDA
        ("torch.set_default_tensor_type('torch.cuda.FloatTensor')", ["RPL202"]),
        ("torch.set_default_device('cuda')", ["RPL202"]),
        ("torch.set_default_device('npu:0')", ["RPL202"]),
        # the CPU
        ("torch.set_default_tensor_type('torch.FloatTensor')", []),
        ("torch.set_default_device('cpu')", []),
    ],
)
def test_rpl202_a_default_device_moved_to_an_accelerator(lint, call, expected):
    code = (
        "import torch\nfrom torch import nn\n\n\ndef train():\n    torch.manual_seed(0)\n"
        "    model = nn.Conv2d(3, 3, 3)\n    model(torch.ones(1, 3, 8, 8)).sum().backward()\n\n\n"
        f"if __name__ == '__main__':\n    {call}\n    train()\n"
    )
    assert codes(lint(code, select=["RPL202"])) == expected


@pytest.mark.parametrize(
    "parsed, change, expected",
    [
        # jakesnell's prototypical networks: ``main(vars(parser.parse_args()))``, ``opt["cuda"]``
        ("vars(parser.parse_args())", "", []),
        ("parser.parse_args()", "", []),
        # a dict of the options the program changes: not the default any more
        ("vars(parser.parse_args())", "args['cuda'] = torch.cuda.is_available()\n", ["RPL202"]),
        ("vars(parser.parse_args())", "args.update(cuda=True)\n", ["RPL202"]),
    ],
)
def test_rpl202_a_dict_of_the_options_handed_to_another_module(tmp_path, parsed, change, expected):
    from conftest import lint_files_in, write

    getter = "opt['cuda']" if parsed.startswith("vars") else "opt.cuda"
    write(tmp_path, {
        "run.py": f"import argparse\nimport torch\n\nfrom train import main\n\nparser = argparse.ArgumentParser()\n"
        f"parser.add_argument('--cuda', action='store_true')\nargs = {parsed}\n{change}main(args)\n",
        "train.py": f"import torch\n\n\ndef main(opt):\n    torch.manual_seed(0)\n    model = torch.nn.Linear(2, 2)\n"
        f"    if {getter}:\n        model.cuda()\n",
    })
    found = lint_files_in([tmp_path / "run.py", tmp_path / "train.py"], tmp_path, ["RPL202"])
    assert [d.code for d in found] == expected


@pytest.mark.parametrize(
    "after, expected",
    [
        # only reading the options through vars() changes none of them (pix2pix's print_options)
        ("for k, v in sorted(vars(args).items()):\n    print(k, v)\n", []),
        ("print(vars(args))\n", []),
        # changing them through vars() may change any
        ("vars(args).update(json.load(open('cfg.json')))\n", ["RPL202"]),
        ("vars(args)['cuda'] = True\n", ["RPL202"]),
    ],
)
def test_rpl202_options_read_or_changed_through_vars(tmp_path, after, expected):
    from conftest import lint_files_in, write

    write(tmp_path, {
        "run.py": "import argparse\nimport json\n\nfrom train import main\n\nparser = argparse.ArgumentParser()\n"
        f"parser.add_argument('--cuda', action='store_true')\nargs = parser.parse_args()\n{after}main(args)\n",
        "train.py": "import torch\n\n\ndef main(opt):\n    torch.manual_seed(0)\n    model = torch.nn.Linear(2, 2)\n"
        "    if opt.cuda:\n        model.cuda()\n",
    })
    found = lint_files_in([tmp_path / "run.py", tmp_path / "train.py"], tmp_path, ["RPL202"])
    assert [d.code for d in found] == expected


@pytest.mark.parametrize(
    "group, expected",
    [
        # pytorch/examples' multigpu_torchrun.py: NCCL, then ``.to(local_rank)``
        ("dist.init_process_group(backend='nccl')", ["RPL202"]),
        ("dist.init_process_group('nccl')", ["RPL202"]),
        ("dist.init_process_group(backend='gloo')", []),
        ("if args.distributed:\n        dist.init_process_group(backend='nccl')", []),  # off by default
    ],
)
def test_rpl202_an_nccl_process_group_runs_on_cuda(lint, group, expected):
    code = (
        "import argparse\nimport os\nimport torch\nimport torch.distributed as dist\n\n\ndef main():\n"
        "    parser = argparse.ArgumentParser()\n    parser.add_argument('--distributed', action='store_true')\n"
        f"    args = parser.parse_args()\n    {group}\n    torch.manual_seed(0)\n"
        "    local_rank = int(os.environ.get('LOCAL_RANK', 0))\n    model = torch.nn.Linear(8, 8).to(local_rank)\n\n\n"
        "if __name__ == '__main__':\n    main()\n"
    )
    assert codes(lint(code, select=["RPL202"])) == expected


# -- a device keyword passed on inside a function's own ``**kwargs`` --------------------------


def _kwargs_function_call(call: str, caller_keys, own: dict):
    """The arguments of ``call`` made in a function whose ``**kwargs`` its callers fill with
    ``caller_keys`` (None: not known) and that writes ``own`` into it, and the questions the
    callers were asked."""
    import ast

    from repro_lint.syntax import MERGE, AstArgs, DictScopes

    asked = []
    dicts = DictScopes(
        lambda node: [(MERGE if k is None else k.value, v) for k, v in zip(node.keys, node.values)] if isinstance(node, ast.Dict) else None,
        lambda node: node.id if isinstance(node, ast.Name) else None,
    )
    dicts.enter("kwargs", lambda: asked.append(call) or caller_keys)
    for key, value in own.items():
        dicts.assign_key("kwargs", key, ast.parse(value, mode="eval").body)
    return AstArgs(ast.parse(call, mode="eval").body, dicts.expand), asked


CALLS = ["torch.zeros(3, **kwargs)", "torch.zeros(**kwargs, device=d)", "torch.zeros(device='cpu', **kwargs)", "torch.zeros(**kwargs, **other)", "torch.zeros(3)"]
CALLER_KEYS = [None, frozenset(), frozenset({"device"}), frozenset({"dtype"})]
OWN = [{}, {"device": "'cuda'"}]


@pytest.mark.parametrize("call", CALLS)
@pytest.mark.parametrize("caller_keys", CALLER_KEYS)
@pytest.mark.parametrize("own", OWN)
def test_a_device_keyword_question_reads_kwargs_as_when_its_callers_are_asked(call, caller_keys, own):
    """Whether a call names a device by keyword does not depend on the keys a function's
    callers put into its ``**kwargs`` (their values are not known, so they name no device):
    the classifier gets the same effect without asking them, except where a later argument
    may bind the keyword too (``f(**kwargs, device=d)``), where the order decides."""
    from repro_lint.classify import classify_call
    from repro_lint.syntax import MISSING, UNKNOWN, bind

    args, asked = _kwargs_function_call(call, caller_keys, own)
    effect = classify_call("torch.zeros", None, args)
    # the answer as it was when the callers were always asked
    always, _ = _kwargs_function_call(call, caller_keys, own)
    always.expand = (lambda expand: lambda node, callers=True: expand(node))(always.expand)
    assert classify_call("torch.zeros", None, always) == effect
    slots = args._known_slots()
    for name in ("device", "dtype"):
        exact, fast = bind(slots, name, None, args.expand), bind(slots, name, None, args.expand, callers=False)
        assert (exact in (MISSING, UNKNOWN)) == (fast in (MISSING, UNKNOWN)), (name, exact, fast)
        if exact not in (MISSING, UNKNOWN):
            assert fast is exact
    if "**kwargs, " in call:
        assert asked  # a later argument: which binds ``device`` depends on the callers' keys


@pytest.mark.parametrize("call", ["torch.zeros(3, **kwargs)", "torch.zeros(device='cpu', **kwargs)"])
def test_a_device_keyword_question_does_not_ask_the_callers_of_a_kwargs_function(call):
    """On torch's source, where many functions pass their ``**kwargs`` on, asking their callers
    for it searched the project's calls of each (about 4 % of a serial run)."""
    from repro_lint.classify import classify_call

    args, asked = _kwargs_function_call(call, frozenset({"device"}), {})
    classify_call("torch.zeros", None, args)
    assert asked == []
