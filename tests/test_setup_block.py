"""The canonical setup block: where it goes, what it holds, and that it is inserted once.

A probe rule (registered only inside each test) reports every module and attaches
``setup_block_edits``; the real fixer applies the edits, so these tests see the text a user
would get from ``--fix``.
"""

from __future__ import annotations

import ast
import textwrap
from pathlib import Path

import libcst as cst
import pytest

from fixtools import fix_text, temporary_rules
from repro_lint.setup_block import setup_block_edits
from repro_lint.syntax import is_main_guard


def probe(code: str, generators=()):
    def leave_Module(self, node):
        self.report(node, edits=setup_block_edits(self.file, generators))

    return {"code": code, "leave_Module": leave_Module}


@pytest.fixture
def block(tmp_path: Path):
    """``block(code, generators=(), **settings) -> fixed text``; checks the fix is clean and stable."""

    def run(code: str, generators=(), dedent=True, **settings) -> str:
        with temporary_rules(probe("RPL990", generators)):
            outcome = fix_text(tmp_path, code, ["RPL990"], dedent=dedent, **settings)
            assert not outcome.errors, outcome.errors
            assert outcome.fixed["RPL990"] == 1, "the block must be inserted exactly once"
            ast.parse(outcome.text)
            again = fix_text(tmp_path, outcome.text, ["RPL990"], dedent=False, **settings)
            assert again.text == outcome.text, "a second --fix must change nothing"
            return outcome.text

    return run


def d(text: str) -> str:
    return textwrap.dedent(text)


def test_runtime_block_goes_at_the_top_of_the_main_guard(block):
    fixed = block(
        '''\
        """Train."""
        import torch

        def main():
            model = torch.nn.Linear(2, 2)

        if __name__ == "__main__":
            # run it
            main()
        '''
    )
    assert fixed == d(
        '''\
        """Train."""
        import torch
        from repro_lint.runtime import seed_everything

        def main():
            model = torch.nn.Linear(2, 2)

        if __name__ == "__main__":
            seed_everything(0)
            # run it
            main()
        '''
    )


def test_block_after_the_header_without_a_guard(block):
    fixed = block(
        '''\
        #!/usr/bin/env python
        """Train at module level."""
        from __future__ import annotations

        import torch

        model = torch.nn.Linear(2, 2)
        model(torch.randn(1, 2)).sum().backward()
        ''',
        seed=7,
    )
    assert fixed == d(
        '''\
        #!/usr/bin/env python
        """Train at module level."""
        from __future__ import annotations

        import torch
        from repro_lint.runtime import seed_everything

        seed_everything(7)

        model = torch.nn.Linear(2, 2)
        model(torch.randn(1, 2)).sum().backward()
        '''
    )


def test_module_starting_with_code_keeps_its_coding_cookie_first(block):
    fixed = block("# -*- coding: utf-8 -*-\nx = torch.randn(3)\n", generators={"torch"}, fix_style="inline",
                  torch_version_text="2.13")
    assert fixed.splitlines()[0] == "# -*- coding: utf-8 -*-"
    assert fixed.splitlines()[1:4] == ["import torch", "", "torch.manual_seed(0)"]
    assert fixed.rstrip().endswith("x = torch.randn(3)")


def test_a_docstring_only_header(block):
    fixed = block('"""Doc."""\nx = 1\n', generators={"torch"})
    assert fixed == '"""Doc."""\n\nfrom repro_lint.runtime import seed_everything\n\nseed_everything(0)\nx = 1\n'


def test_module_seed_variable_is_used_and_the_block_follows_it(block):
    fixed = block(
        '''\
        import torch

        SEED = 1234
        model = torch.nn.Linear(2, 2)
        '''
    )
    assert "SEED = 1234\nseed_everything(SEED)\nmodel = torch.nn.Linear(2, 2)\n" in fixed


def test_module_seed_variable_before_the_guard_is_used_inside_it(block):
    fixed = block(
        '''\
        import torch
        seed = 5

        if __name__ == '__main__':
            torch.randn(2)
        '''
    )
    assert "if __name__ == '__main__':\n    seed_everything(seed)\n    torch.randn(2)\n" in fixed


def test_a_seed_variable_after_the_first_work_is_not_waited_for(block):
    fixed = block(
        '''\
        import torch
        model = torch.nn.Linear(2, 2)
        SEED = 3
        '''
    )
    assert fixed.splitlines()[:5] == [
        "import torch", "from repro_lint.runtime import seed_everything", "", "seed_everything(0)",
        "model = torch.nn.Linear(2, 2)",
    ]


def test_parsed_args_seed_is_used_after_parse_args(block):
    fixed = block(
        '''\
        import argparse
        import torch

        if __name__ == "__main__":
            parser = argparse.ArgumentParser()
            parser.add_argument("--seed", type=int, default=42)
            args = parser.parse_args()
            model = torch.nn.Linear(2, 2)
        '''
    )
    assert "    args = parser.parse_args()\n    seed_everything(args.seed)\n    model = " in fixed


@pytest.mark.parametrize(
    "setup",
    ['warnings.simplefilter("ignore")', "logging.basicConfig(level=logging.INFO)", 'sys.path.append("..")', 'print("start")'],
)
def test_the_block_waits_for_the_seed_past_statements_that_only_set_up_the_process(block, setup):
    """clovaai/voxceleb_trainer's shape: a warnings filter between the imports and the module's
    parser; the block in front of it would seed with the configured 0, whatever ``--seed`` says."""
    fixed = block(
        f'''\
        import argparse
        import logging
        import sys
        import warnings
        import torch
        {setup}

        parser = argparse.ArgumentParser()
        parser.add_argument("--seed", type=int, default=10)
        args = parser.parse_args()
        model = torch.nn.Linear(2, 2)
        '''
    )
    assert "args = parser.parse_args()\nseed_everything(args.seed)\nmodel = " in fixed
    assert "seed_everything(0)" not in fixed


def test_a_call_that_may_draw_before_the_parser_keeps_the_block_above_it(block):
    fixed = block(
        '''\
        import argparse
        import torch
        noise = torch.randn(3)

        parser = argparse.ArgumentParser()
        parser.add_argument("--seed", type=int, default=10)
        args = parser.parse_args()
        '''
    )
    assert "seed_everything(0)\nnoise = torch.randn(3)" in fixed


OWN_SWITCHES = """\
import numpy as np
import torch
import torch.backends.cudnn as cudnn


def main():
    if torch.cuda.is_available():
        cudnn.deterministic = True
        cudnn.benchmark = True
    print(np.random.uniform(0.9, 1.1))


if __name__ == "__main__":
    main()
"""


@pytest.mark.parametrize("style", ["inline", "runtime"])
def test_a_program_that_turns_determinism_on_itself_gets_the_seeds_alone(block, style):
    """sthalles/SimCLR's shape: the file sets cuDNN's switches itself (``deterministic = True``,
    which RPL202 counts, and ``benchmark = True``, which RPL201 reports). A finding about NumPy's
    seed gets the seed: no ``benchmark = False`` that the file's own line overrides, and no
    deterministic algorithms that no finding asked for."""
    fixed = block(OWN_SWITCHES, generators=("numpy",), dedent=False, fix_style=style)
    assert "use_deterministic_algorithms" not in fixed
    assert "torch.backends.cudnn.benchmark = False" not in fixed
    if style == "inline":
        assert "    np.random.seed(0)\n" in fixed
    else:
        assert "    seed_everything(0, deterministic=False)\n" in fixed


def test_a_function_that_mp_spawn_runs_gets_the_switches_the_parent_turned_on(tmp_path):
    """The children that ``mp.spawn`` starts never run the ``__main__`` block, where the parent
    turns deterministic algorithms on: their block holds the switches too."""
    from conftest import run_cli, write

    write(tmp_path, {
        "pyproject.toml": "[tool.repro-lint]\nfix-style = \"inline\"\n",
        "train.py": (
            "import torch\nimport torch.multiprocessing as mp\n\n\ndef worker(rank):\n"
            "    model = torch.nn.Linear(2, 2)\n    model(torch.ones(1, 2)).sum().backward()\n\n\n"
            "if __name__ == '__main__':\n    torch.use_deterministic_algorithms(True)\n    mp.spawn(worker, nprocs=2)\n"
        ),
    })
    done = run_cli(["--fix", "--no-cache", "--select", "RPL101,RPL202", "."], tmp_path)
    assert done.returncode in (0, 1), done.stderr
    text = (tmp_path / "train.py").read_text()
    worker = text[text.index("def worker"):text.index("if __name__")]
    assert "torch.manual_seed(0)" in worker and "torch.use_deterministic_algorithms(True)" in worker, text


def test_a_switch_the_file_sets_to_another_value_is_left_to_its_rule(block):
    code = OWN_SWITCHES.replace("        cudnn.deterministic = True\n", "")
    fixed = block(code, generators=("numpy",), dedent=False, fix_style="inline")
    assert "torch.backends.cudnn.benchmark = False" not in fixed  # RPL201 reports the file's True
    assert "torch.backends.cudnn.deterministic = True" in fixed and "torch.use_deterministic_algorithms(True)" in fixed


def test_optional_seed_option_falls_back_to_the_configured_seed(block):
    fixed = block(
        '''\
        import argparse
        import torch

        def get_parser():
            p = argparse.ArgumentParser()
            p.add_argument("--random-seed", type=int)
            return p

        if __name__ == "__main__":
            opts, _ = get_parser().parse_known_args()
            torch.randn(1)
        ''',
        seed=9,
    )
    assert "    seed_everything(opts.random_seed if opts.random_seed is not None else 9)\n" in fixed


def test_dest_of_the_seed_option(block):
    fixed = block(
        '''\
        import argparse, torch
        parser = argparse.ArgumentParser()
        parser.add_argument("--seed", dest="rng", type=int, required=True)
        args = parser.parse_args()
        torch.randn(1)
        '''
    )
    assert "args = parser.parse_args()\nseed_everything(args.rng)\ntorch.randn(1)\n" in fixed


@pytest.mark.parametrize("indent", ["  ", "\t", "        "])
def test_the_block_takes_the_guards_indentation(block, indent):
    code = f"import torch\nif __name__ == '__main__':\n{indent}x = 1\n{indent}torch.randn(x)\n"
    fixed = block(code, dedent=False)
    assert f"if __name__ == '__main__':\n{indent}seed_everything(0)\n{indent}x = 1\n" in fixed


def test_inline_block_uses_the_files_names_and_adds_only_missing_imports(block):
    fixed = block(
        '''\
        import random
        import numpy as onp
        from torch import nn

        if __name__ == "__main__":
            net = nn.Linear(2, 2)
            print(random.random(), onp.random.rand())
        ''',
        fix_style="inline",
        torch_version_text="2.13",
    )
    assert fixed == d(
        '''\
        import random
        import numpy as onp
        from torch import nn
        import torch

        if __name__ == "__main__":
            random.seed(0)
            onp.random.seed(0)
            torch.manual_seed(0)
            torch.backends.cudnn.benchmark = False
            torch.backends.cudnn.deterministic = True
            torch.use_deterministic_algorithms(True)
            net = nn.Linear(2, 2)
            print(random.random(), onp.random.rand())
        '''
    )


def test_inline_block_without_numpy_has_no_numpy_line(block):
    fixed = block("import torch\nif __name__ == '__main__':\n    torch.randn(1)\n", fix_style="inline", torch_version_text="2.13")
    assert "numpy" not in fixed and "np." not in fixed and "random.seed" not in fixed
    assert "    torch.manual_seed(0)\n" in fixed


def test_inline_block_sets_cublas_workspace_before_torch_210(block):
    code = "import torch\nif __name__ == '__main__':\n    torch.randn(1)\n"
    old = block(code, fix_style="inline", torch_version_text="2.9")
    assert old.startswith("import torch\nimport os\n")
    body = old.split("if __name__ == '__main__':\n", 1)[1].splitlines()
    assert body[0] == '    os.environ.setdefault("CUBLAS_WORKSPACE_CONFIG", ":4096:8")'
    assert body.index("    torch.manual_seed(0)") > 0
    new = block(code, fix_style="inline", torch_version_text="2.10")
    assert "CUBLAS_WORKSPACE_CONFIG" not in new and "import os" not in new


def test_inline_block_for_requested_generators_not_imported(block):
    fixed = block("x = 1\nif __name__ == '__main__':\n    run()\n", generators={"torch", "numpy"},
                  fix_style="inline", torch_version_text="2.13")
    assert fixed.startswith("import numpy as np\nimport torch\n\nx = 1\n")
    assert "    np.random.seed(0)\n    torch.manual_seed(0)\n" in fixed


def test_np_bound_to_something_else_is_not_reused(block):
    fixed = block("import torch\nnp = 3\nimport numpy\nif __name__ == '__main__':\n    numpy.random.rand()\n",
                  fix_style="inline", torch_version_text="2.13")
    assert "    numpy.random.seed(0)\n" in fixed and "np.random" not in fixed.replace("numpy.random", "")


def test_another_seed_everything_in_the_file_is_not_shadowed(block):
    fixed = block("import torch\nfrom lightning import seed_everything\nif __name__ == '__main__':\n    torch.randn(1)\n")
    assert "from repro_lint.runtime import seed_everything as repro_seed_everything\n" in fixed
    assert "    repro_seed_everything(0)\n" in fixed


def test_crlf_file_gets_crlf_lines(block):
    code = "import torch\r\n\r\nif __name__ == '__main__':\r\n    torch.randn(1)\r\n"
    fixed = block(code, dedent=False)
    assert fixed == (
        "import torch\r\nfrom repro_lint.runtime import seed_everything\r\n\r\n"
        "if __name__ == '__main__':\r\n    seed_everything(0)\r\n    torch.randn(1)\r\n"
    )


def test_file_without_final_newline(block):
    fixed = block("import torch", generators={"torch"})
    assert fixed == "import torch\nfrom repro_lint.runtime import seed_everything\n\nseed_everything(0)\n"


def test_one_block_for_several_findings(tmp_path: Path):
    """RPL101, RPL102 and RPL103 in one file each carry the block: it is inserted once."""
    code = d(
        '''\
        import random
        import numpy as np
        import torch

        if __name__ == "__main__":
            torch.randn(1), np.random.rand(), random.random()
        '''
    )
    for style in ("runtime", "inline"):
        specs = [probe("RPL990", {"torch"}), probe("RPL991", {"numpy"}), probe("RPL992", {"random"})]
        with temporary_rules(*specs):
            outcome = fix_text(tmp_path, code, ["RPL990", "RPL991", "RPL992"], fix_style=style, torch_version_text="2.13")
        assert not outcome.errors
        assert sum(outcome.fixed.values()) == 3 and outcome.passes == 1
        seed_line = "seed_everything(0)" if style == "runtime" else "torch.manual_seed(0)"
        assert outcome.text.count(seed_line) == 1
        if style == "inline":
            assert outcome.text.count("np.random.seed(0)") == 1 and outcome.text.count("random.seed(0)") == 2  # random. and np.random.


def test_no_edits_when_the_block_is_already_there(tmp_path: Path):
    code = "import torch\nfrom repro_lint.runtime import seed_everything\nif __name__ == '__main__':\n    seed_everything(0)\n    torch.randn(1)\n"
    with temporary_rules(probe("RPL990")):
        outcome = fix_text(tmp_path, code, ["RPL990"], dedent=False)
    assert outcome.text == code and outcome.fixed["RPL990"] == 0
    (diag,) = outcome.result.diagnostics
    assert diag.fix is None


@pytest.mark.parametrize(
    "code,expected",
    [
        ('if __name__ == "__main__":\n    pass\n', True),
        ("if '__main__' == __name__:\n    pass\n", True),
        ("if __name__ != '__main__':\n    pass\n", False),
        ("if name == '__main__':\n    pass\n", False),
    ],
)
def test_main_guard_forms(code, expected):
    assert is_main_guard(cst.parse_module(code).body[0]) is expected


def test_findings_asking_for_different_generators_share_one_block(tmp_path: Path):
    """Torch used through project modules (not imported here), NumPy through another finding:
    each finding asks for its own generator, and all get the same, widened block."""
    code = "from mylib import train\nif __name__ == '__main__':\n    train()\n"
    specs = [probe("RPL990", {"torch"}), probe("RPL991", {"numpy"}), probe("RPL992", {"deterministic"})]
    with temporary_rules(*specs):
        outcome = fix_text(tmp_path, code, ["RPL990", "RPL991", "RPL992"], dedent=False, fix_style="inline",
                           torch_version_text="2.13")
    fixes = [d.fix for d in outcome.result.diagnostics]
    assert not outcome.errors and outcome.passes == 1 and sum(outcome.fixed.values()) == 3
    assert outcome.text == (
        "import numpy as np\nimport torch\nfrom mylib import train\nif __name__ == '__main__':\n"  # sorted, as isort does
        "    np.random.seed(0)\n    torch.manual_seed(0)\n    torch.backends.cudnn.benchmark = False\n"
        "    torch.backends.cudnn.deterministic = True\n    torch.use_deterministic_algorithms(True)\n    train()\n"
    )
    assert fixes == [None, None, None]  # after the fix: the block is there, nothing left to add


def test_module_without_statements(block):
    fixed = block("# nothing to import yet\n", generators={"torch"}, fix_style="inline", torch_version_text="2.13")
    assert fixed.startswith("# nothing to import yet\nimport torch\n\ntorch.manual_seed(0)\n")


def test_imports_in_every_branch_of_module_level_blocks_are_seen(block):
    code = d(
        '''\
        try:
            import numpy as np1
        except ImportError:
            import numpy as np2
        else:
            import numpy as np3
        finally:
            import torch as T
        if __name__ == "__main__":
            T.randn(1)
        '''
    )
    fixed = block(code, fix_style="inline", torch_version_text="2.13")
    assert "    np1.random.seed(0)\n    T.manual_seed(0)\n" in fixed and "import torch\n" not in fixed


# -- the block writes what the run's selected rules ask for, nothing already there -------------

GPU_SCRIPT = """\
import random

import numpy as np
import torch
from torch.backends import cudnn


def main():
    cudnn.benchmark = False
    model = torch.nn.Linear(2, 2).cuda()
    x = np.random.rand(2)
    y = random.random()


if __name__ == "__main__":
    main()
"""


@pytest.mark.parametrize("style", ["inline", "runtime"])
def test_the_block_leaves_out_what_the_run_ignores(tmp_path, style):
    """--ignore RPL1: only RPL202 runs, so the block sets the switches and seeds nothing; and
    cudnn.benchmark = False, already set under another name, is not set twice. In the runtime
    style too: seed_everything would seed, so the block writes the switches themselves."""
    from fixtools import fix_text

    outcome = fix_text(tmp_path, GPU_SCRIPT, ["RPL202"], dedent=False, fix_style=style)
    assert outcome.fixed == {"RPL202": 1}
    new = outcome.text
    assert "repro_lint" not in new and "seed_everything" not in new
    for seeding in ("random.seed(", "np.random.seed(", "torch.manual_seed("):
        assert seeding not in new
    assert "torch.use_deterministic_algorithms(True)" in new
    assert "torch.backends.cudnn.deterministic = True" in new
    assert "torch.backends.cudnn.benchmark = False" not in new


def test_the_inline_block_seeds_every_generator_when_its_rules_run(tmp_path):
    from fixtools import fix_text

    outcome = fix_text(tmp_path, GPU_SCRIPT, ["RPL101", "RPL102", "RPL103", "RPL202"], dedent=False, fix_style="inline")
    for seeding in ("random.seed(0)", "np.random.seed(0)", "torch.manual_seed(0)", "torch.use_deterministic_algorithms(True)"):
        assert seeding in outcome.text
    assert "torch.backends.cudnn.benchmark = False" not in outcome.text


def test_the_block_only_warns_where_the_entry_point_reaches_an_op_that_would_raise(tmp_path):
    """RPL202's fix must not turn a working GPU run into a RuntimeError: the model (another
    file) uses AdaptiveMaxPool2d, whose CUDA backward has no deterministic implementation."""
    from conftest import write
    from fixtools import fix_text

    write(tmp_path, {"model.py": "import torch.nn as nn\n\n\ndef build():\n    return nn.Sequential(nn.Conv2d(3, 8, 3), nn.AdaptiveMaxPool2d(1))\n"})
    script = (
        "import torch\nfrom model import build\n\n\ndef main():\n    torch.manual_seed(0)\n"
        "    net = build().cuda()\n\n\nif __name__ == \"__main__\":\n    main()\n"
    )
    for style, expected in (("runtime", "seed_everything(0, warn_only=True)"), ("inline", "torch.use_deterministic_algorithms(True, warn_only=True)")):
        outcome = fix_text(tmp_path, script, ["RPL101", "RPL202"], dedent=False, fix_style=style)
        assert expected in outcome.text, outcome.text
    (tmp_path / "model.py").write_text("import torch.nn as nn\n\n\ndef build():\n    return nn.Sequential(nn.Conv2d(3, 8, 3))\n")
    outcome = fix_text(tmp_path, script, ["RPL202"], dedent=False, fix_style="inline")
    assert "torch.use_deterministic_algorithms(True)" in outcome.text


@pytest.mark.parametrize("layer, warns", [
    ("nn.AdaptiveAvgPool2d(3)", True),  # CSAIL's pyramid pooling: raises in backward for these sizes
    ("nn.AdaptiveAvgPool2d((2, 2))", True),
    ("nn.Upsample(scale_factor=2, mode='bicubic')", True),
    ("nn.AdaptiveAvgPool2d(1)", False),  # a global pool is a mean: deterministic
    ("nn.Upsample(scale_factor=2)", False),  # nearest
    # a size that is no literal: a pyramid's levels (DenseFusion's ``(size, size)`` for each
    # size of ``(1, 2, 3, 6)``); the global pool is written ``1``
    ("nn.AdaptiveAvgPool2d(size)", True),
    ("*[nn.AdaptiveAvgPool2d(output_size=(s, s)) for s in (1, 2, 3, 6)]", True),
    ("nn.AdaptiveMaxPool2d(1)", True),  # no deterministic kernel whatever its size
])
def test_the_block_warns_where_a_module_on_the_path_calls_an_op_with_arguments_that_raise(tmp_path, layer, warns):
    """An op that raises under deterministic mode only for some arguments counts where a module
    the entry point reaches calls it with literal arguments that decide it."""
    from conftest import write
    from fixtools import fix_text

    write(tmp_path, {"model.py": f"import torch.nn as nn\n\n\ndef build(size=3):\n    return nn.Sequential(nn.Conv2d(3, 8, 3), {layer})\n"})
    script = (
        "import torch\nfrom model import build\n\n\ndef main():\n    torch.manual_seed(0)\n"
        "    net = build().cuda()\n\n\nif __name__ == \"__main__\":\n    main()\n"
    )
    text = fix_text(tmp_path, script, ["RPL101", "RPL202"], dedent=False).text
    assert ("seed_everything(0, warn_only=True)" if warns else "seed_everything(0)\n") in text, text


@pytest.mark.parametrize("base, warns", [
    ("nn.CTCLoss", True),  # an ASR template's ``class CTCLossWrapper(nn.CTCLoss)``: no deterministic backward
    ("nn.AdaptiveAvgPool2d", False),  # its size not known: the module's own calls decide
    ("nn.MSELoss", False),
])
def test_the_block_warns_where_a_module_on_the_path_derives_a_class_from_an_op_that_raises(tmp_path, base, warns):
    from conftest import write
    from fixtools import fix_text

    write(tmp_path, {"losses.py": f"import torch.nn as nn\n\n\nclass Wrapped({base}):\n    pass\n"})
    script = (
        "import torch\nfrom losses import Wrapped\n\n\ndef main():\n    torch.manual_seed(0)\n"
        "    criterion = Wrapped()\n    net = torch.nn.Linear(2, 2).cuda()\n\n\nif __name__ == \"__main__\":\n    main()\n"
    )
    text = fix_text(tmp_path, script, ["RPL101", "RPL202"], dedent=False).text
    assert ("seed_everything(0, warn_only=True)" if warns else "seed_everything(0)\n") in text, text


@pytest.mark.parametrize("build, warns", [
    # transformers' CTC heads compute ``nn.functional.ctc_loss`` with cuDNN off: the native
    # kernel, whose CUDA backward has no deterministic implementation
    ("from transformers import Wav2Vec2ForCTC\n\n\ndef build():\n    return Wav2Vec2ForCTC.from_pretrained('facebook/wav2vec2-base')\n", True),
    ("import transformers\n\n\ndef build(config):\n    return transformers.HubertForCTC(config)\n", True),
    ("from transformers import AutoModelForCTC as Auto\n\n\ndef build(config):\n    return Auto.from_config(config)\n", True),
    ("from transformers import Wav2Vec2ForSequenceClassification\n\n\ndef build():\n    return Wav2Vec2ForSequenceClassification.from_pretrained('x')\n", False),
    ("class Wav2Vec2ForCTC:\n    pass\n\n\ndef build():\n    return Wav2Vec2ForCTC()\n", False),  # the project's own class
])
def test_the_block_warns_where_a_module_on_the_path_builds_a_library_model_that_runs_an_op_that_raises(tmp_path, build, warns):
    """A wav2vec2 CTC fine-tune: ``Wav2Vec2ForCTC`` computes its loss with ``ctc_loss``; strict
    deterministic mode would make the first ``backward()`` on CUDA raise."""
    from conftest import write
    from fixtools import fix_text

    write(tmp_path, {"model.py": build})
    script = (
        "import torch\nfrom model import build\n\n\ndef main():\n    torch.manual_seed(0)\n"
        "    net = build(None).cuda()\n\n\nif __name__ == \"__main__\":\n    main()\n"
    )
    text = fix_text(tmp_path, script, ["RPL101", "RPL202"], dedent=False).text
    assert ("seed_everything(0, warn_only=True)" if warns else "seed_everything(0)\n") in text, text


@pytest.mark.parametrize("loss, warns", [
    # DETR's classification loss: (N, queries, classes) swapped to (N, classes, queries)
    ("F.cross_entropy(logits.transpose(1, 2), target)", True),
    ("F.cross_entropy(logits.transpose(1, 2), target, weight)", True),
    ("F.nll_loss(logits.view(n, c, h, w), target, reduction='sum')", True),
    ("F.cross_entropy(logits.transpose(1, 2), target, reduction='none').mean()", False),
    ("F.cross_entropy(logits, target)", False),  # the rank is not shown: strict, as before
    ("F.cross_entropy(torch.transpose(logits, 1, 2), target)", False),  # a function: not read here
])
def test_the_block_warns_where_a_module_on_the_path_calls_a_loss_on_spatial_input(tmp_path, loss, warns):
    """``cross_entropy``/``nll_loss`` on an input that shows rank 3 or more, with the mean or sum
    reduction, raises under deterministic mode on CUDA (RPL402): a module the entry point
    reaches that calls it so makes the block only warn."""
    from conftest import write
    from fixtools import fix_text

    write(tmp_path, {"criterion.py": (
        "import torch\nimport torch.nn.functional as F\n\n\n"
        f"def loss_labels(logits, target, weight=None, n=2, c=3, h=4, w=4):\n    return {loss}\n"
    )})
    script = (
        "import torch\nfrom criterion import loss_labels\n\n\ndef main():\n    torch.manual_seed(0)\n"
        "    logits = torch.randn(2, 10, 5, device='cuda')\n    print(loss_labels(logits, None))\n\n\n"
        "if __name__ == \"__main__\":\n    main()\n"
    )
    text = fix_text(tmp_path, script, ["RPL202"], dedent=False, fix_style="inline").text
    expected = "torch.use_deterministic_algorithms(True, warn_only=True)" if warns else "torch.use_deterministic_algorithms(True)\n"
    assert expected in text, text


def test_no_seeding_fix_that_would_reuse_a_seed_drawn_at_random(tmp_path):
    """pytorch-vdsr: ``opt.seed = random.randint(1, 10000)``, then ``torch.manual_seed(opt.seed)``.
    The block would go after that call and take its seed, drawn from the unseeded ``random``:
    nothing would become reproducible, so RPL103 gets no fix (RPL101 reports the call, without
    one); a fixed seed given there keeps the fix."""
    from fixtools import fix_text

    script = (
        "import argparse\nimport random\n\nimport torch\n\n\ndef main():\n    parser = argparse.ArgumentParser()\n"
        "    opt = parser.parse_args()\n    opt.seed = {seed}\n    torch.manual_seed(opt.seed)\n"
        "    print(torch.nn.Linear(4, 4), random.random())\n\n\nif __name__ == \"__main__\":\n    main()\n"
    )
    drawn = fix_text(tmp_path, script.format(seed="random.randint(1, 10000)"), ["RPL101", "RPL103"], dedent=False)
    assert "seed_everything" not in drawn.text and "random.seed(" not in drawn.text, drawn.text
    fixed = fix_text(tmp_path, script.format(seed="1234"), ["RPL101", "RPL103"], dedent=False)
    assert "seed_everything(opt.seed)" in fixed.text, fixed.text


@pytest.mark.parametrize("seeding", ["generator.manual_seed(SEED)", "rng.seed(SEED)"])
def test_an_object_s_own_seeding_is_not_the_program_s_seeding_call(tmp_path, seeding):
    """A plant-disease classifier seeds its loader's ``torch.Generator`` in
    ``create_dataloaders()``, which another entry point calls too: that seeds the generator
    alone, so the block does not go after it (into a function every caller runs, after the
    model it should come before), but at the top of the ``__main__`` block."""
    from fixtools import fix_text

    script = (
        "import random\n\nimport numpy as np\nimport torch\nfrom torch.utils.data import DataLoader\n\nSEED = 42\n\n\n"
        f"def make_loader():\n    generator = torch.Generator()\n    rng = np.random.default_rng()\n    {seeding}\n"
        "    return DataLoader(list(range(8)), batch_size=4, shuffle=True, generator=generator)\n\n\n"
        "if __name__ == \"__main__\":\n    model = torch.nn.Linear(2, 2)\n    for xb in make_loader():\n"
        "        print(xb, random.random())\n"
    )
    text = fix_text(tmp_path, script, ["RPL101", "RPL103"], dedent=False).text
    assert "if __name__ == \"__main__\":\n    seed_everything(SEED)\n    model" in text, text


def test_a_seeding_call_of_torch_bound_by_a_star_import_is_the_program_s(tmp_path):
    """pytorch-deeplab-xception binds ``torch`` only through ``from modeling.deeplab import *``;
    its ``torch.manual_seed(args.seed)`` is still the program's seeding call, which the block
    follows and whose seed it takes."""
    from conftest import write
    from fixtools import fix_text

    write(tmp_path, {"helpers.py": "import torch\n"})
    script = (
        "import argparse\n\nfrom helpers import *\n\n\ndef main():\n    parser = argparse.ArgumentParser()\n"
        "    parser.add_argument('--seed', type=int, default=1)\n    args = parser.parse_args()\n    print(args)\n"
        "    torch.manual_seed(args.seed)\n    print(torch.nn.Linear(4, 4).cuda())\n\n\nif __name__ == \"__main__\":\n    main()\n"
    )
    text = fix_text(tmp_path, script, ["RPL202"], dedent=False).text
    assert "    torch.manual_seed(args.seed)\n    torch.backends.cudnn.benchmark = False\n" in text, text


@pytest.mark.parametrize("seed, fixed", [("time.time()", False), ("int(time.time())", False), ("1234", True)])
def test_no_seeding_fix_after_a_device_seeding_call_whose_seed_is_drawn_at_random(tmp_path, seed, fixed):
    """CSRNet: ``args.seed = time.time()``, then ``torch.cuda.manual_seed(args.seed)``. The block
    would take that clock seed, which fixes nothing (and ``seed_everything`` rejects a float,
    so the fixed script would stop where the original ran): no fix."""
    from fixtools import fix_text

    script = (
        "import argparse\nimport time\n\nimport torch\n\n\ndef main():\n    parser = argparse.ArgumentParser()\n"
        f"    args = parser.parse_args()\n    args.seed = {seed}\n    torch.cuda.manual_seed(args.seed)\n"
        "    print(torch.nn.Linear(4, 4))\n\n\nif __name__ == \"__main__\":\n    main()\n"
    )
    text = fix_text(tmp_path, script, ["RPL101"], dedent=False).text
    assert ("seed_everything(args.seed)" in text) is fixed, text


MAIN_WITH_ARGPARSE = """\
import argparse

import torch


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    model = torch.nn.Linear(4, 2)


if __name__ == "__main__":
    main()
"""


@pytest.mark.parametrize("style, call", [("runtime", "seed_everything(args.seed)"), ("inline", "torch.manual_seed(args.seed)")])
def test_a_seed_parsed_inside_main_is_used_right_after_the_parse(tmp_path, style, call):
    from fixtools import fix_text

    outcome = fix_text(tmp_path, MAIN_WITH_ARGPARSE, ["RPL101"], dedent=False, fix_style=style)
    lines = outcome.text.splitlines()
    parse = lines.index("    args = parser.parse_args()")
    assert lines[parse + 1] == f"    {call}", outcome.text
    guard = lines.index('if __name__ == "__main__":')
    assert lines[guard + 1] == "    main()"  # nothing seeds with a literal under the guard
    assert "(0)" not in outcome.text


def test_the_runtime_import_keeps_sorted_imports_sorted(tmp_path):
    """Every runtime import of a fix goes, as one statement, where isort and ruff (I001) put
    it in a file whose imports are sorted: among the third-party from-imports."""
    from fixtools import fix_text

    code = (
        "import argparse\n\nimport torch\nfrom torch.utils.data import DataLoader\n\n\n"
        "def main():\n    parser = argparse.ArgumentParser()\n    parser.add_argument(\"--seed\", type=int, default=0)\n"
        "    args = parser.parse_args()\n    model = torch.nn.Linear(2, 2)\n"
        "    loader = DataLoader(list(range(8)), shuffle=True, num_workers=2)\n\n\n"
        "if __name__ == \"__main__\":\n    main()\n"
    )
    outcome = fix_text(tmp_path, code, ["RPL101", "RPL301", "RPL302"], dedent=False)
    assert outcome.text.startswith(
        "import argparse\n\nimport torch\n"
        "from repro_lint.runtime import make_generator, seed_everything, seed_worker\n"
        "from torch.utils.data import DataLoader\n"
    ), outcome.text


SEEDED_BY_CONFIG = """\
import numpy as np
import torch


def main(cfg):
    torch.manual_seed(cfg.seed)
    noise = np.random.rand(3)
    model = torch.nn.Linear(2, 2)


if __name__ == "__main__":
    main(load_config())
"""


@pytest.mark.parametrize("style, call", [("runtime", "seed_everything(cfg.seed)"), ("inline", "np.random.seed(cfg.seed)")])
def test_the_block_reuses_the_seed_the_program_already_passes(tmp_path, style, call):
    """torch is seeded with cfg.seed but NumPy is not (RPL102): the block seeds NumPy with the
    same cfg.seed, right after the program's own seeding call, not with a literal."""
    from fixtools import fix_text

    outcome = fix_text(tmp_path, SEEDED_BY_CONFIG, ["RPL102"], dedent=False, fix_style=style)
    lines = outcome.text.splitlines()
    assert lines[lines.index("    torch.manual_seed(cfg.seed)") + 1] == f"    {call}", outcome.text
    assert "(0)" not in outcome.text


SEEDED_AFTER_OTHER_WORK = """\
import os

import numpy as np
import torch

{indent}rank = int(os.environ.get("RANK", 0))
{indent}torch.manual_seed(1337 + rank)
{indent}noise = np.random.rand(3)
"""


@pytest.mark.parametrize("where", ["module", "main"])
def test_the_block_goes_after_the_programs_seeding_call_even_after_other_work(tmp_path, where):
    """nanoGPT's shape: the rank is computed, then torch is seeded with 1337 + rank. The block
    goes right after that call and reuses its seed (each rank keeps its own), not above it
    with the configured seed that the program's call then overrides for torch alone."""
    from fixtools import fix_text

    if where == "module":
        code = SEEDED_AFTER_OTHER_WORK.format(indent="") + "loss = torch.ones(1, requires_grad=True).sum()\nloss.backward()\n"
        seeding = "torch.manual_seed(1337 + rank)"
    else:
        code = SEEDED_AFTER_OTHER_WORK.replace("import torch\n\n", "import torch\n\n\ndef main():\n").format(indent="    ")
        code += '\n\nif __name__ == "__main__":\n    main()\n'
        seeding = "    torch.manual_seed(1337 + rank)"
    outcome = fix_text(tmp_path, code, ["RPL102"], dedent=False, fix_style="inline")
    lines = outcome.text.splitlines()
    assert lines[lines.index(seeding) + 1] == seeding.replace("torch.manual_seed", "np.random.seed"), outcome.text
    assert "(0)" not in outcome.text


def test_a_script_that_other_files_import_gains_no_runtime_import(tmp_path):
    """val.py has a __main__ block but train.py imports it (yolov5's shape), and torch.hub
    imports hubconf.py: fixing them must not make their importers depend on repro-lint, so
    their block is the inline one. train.py, which nothing imports, gets the runtime block."""
    from conftest import run_cli, write

    script = "import torch\n\n\ndef main():\n    model = torch.nn.Linear(2, 2).cuda()\n\n\nif __name__ == \"__main__\":\n    main()\n"
    write(tmp_path, {
        "pyproject.toml": "[tool.repro-lint]\n",
        "val.py": script,
        "hubconf.py": script,
        "train.py": "import val\n" + script,
    })
    done = run_cli(["--fix", "--no-cache", "."], tmp_path)
    assert done.returncode in (0, 1), done.stderr
    for name in ("val.py", "hubconf.py"):
        text = (tmp_path / name).read_text()
        assert "repro_lint" not in text and "torch.manual_seed(0)" in text, f"{name}:\n{text}"
        assert "torch.use_deterministic_algorithms(True)" in text
    assert "from repro_lint.runtime import seed_everything" in (tmp_path / "train.py").read_text()


def test_a_module_of_a_namespace_package_others_import_gains_no_runtime_import(tmp_path):
    """PatchTST's shape: ``from src.callback.patch_mask import *`` where ``src`` and
    ``callback`` have no ``__init__.py``; patch_mask.py has a ``__main__`` demo. The importer's
    name for it holds its folders."""
    from conftest import run_cli, write

    demo = "import torch\n\n\nif __name__ == \"__main__\":\n    print(torch.randn(2, 3))\n"
    write(tmp_path, {
        "pyproject.toml": "[tool.repro-lint]\n",
        "src/callback/patch_mask.py": demo,
        "pretrain.py": "from src.callback.patch_mask import *\n\n" + demo,
    })
    done = run_cli(["--fix", "--no-cache", "."], tmp_path)
    assert done.returncode in (0, 1), done.stderr
    module = (tmp_path / "src/callback/patch_mask.py").read_text()
    assert "repro_lint" not in module and "torch.manual_seed(0)" in module, module
    assert "from repro_lint.runtime import seed_everything" in (tmp_path / "pretrain.py").read_text()


def test_a_module_of_a_package_gains_no_runtime_import(tmp_path):
    """A module of a package is what pip installs and what code outside the tree may import,
    even when nothing here imports it: a ``__main__`` demo in a package module (pip's vendored
    ``rich/layout.py``), a ``python -m pkg.train`` entry point, a package's ``__main__.py`` and
    a script in a folder with ``__init__.py`` all get the inline block and the torch-only
    generator, and no repro-lint import. scripts/train.py, outside any package and imported
    by nothing, keeps the runtime block and its worker seeding."""
    from conftest import run_cli, write

    body = (
        "import torch\nfrom torch.utils.data import DataLoader\n{imports}\n\n"
        "def main():\n    model = torch.nn.Linear(2, 2).cuda()\n"
        "    for batch in DataLoader(list(range(8)), shuffle=True, num_workers=2):\n        model(batch)\n\n\n"
        "if __name__ == \"__main__\":\n    main()\n"
    )
    write(tmp_path, {
        "pyproject.toml": "[tool.repro-lint]\n",
        "mypkg/__init__.py": "",
        "mypkg/layout.py": body.format(imports="from .model import Net\n"),
        "mypkg/train.py": body.format(imports="from mypkg.model import Net\n"),
        "mypkg/__main__.py": body.format(imports=""),
        "mypkg/model.py": "import torch\n\n\nclass Net(torch.nn.Module):\n    pass\n",
        "tools/__init__.py": "",
        "tools/run.py": body.format(imports=""),
        "scripts/train.py": body.format(imports="from mypkg.model import Net\n"),
    })
    done = run_cli(["--fix", "--no-cache", "."], tmp_path)
    assert done.returncode in (0, 1), done.stderr
    for name in ("mypkg/layout.py", "mypkg/train.py", "mypkg/__main__.py", "tools/run.py"):
        text = (tmp_path / name).read_text()
        assert "repro_lint" not in text, f"{name}:\n{text}"
        assert "torch.manual_seed(0)" in text and "torch.use_deterministic_algorithms(True)" in text, f"{name}:\n{text}"
        assert "generator=torch.Generator().manual_seed(torch.initial_seed())" in text, f"{name}:\n{text}"
        assert "worker_init_fn" not in text, f"{name}:\n{text}"  # RPL301's fix needs the runtime
        compile(text, name, "exec")
    script = (tmp_path / "scripts/train.py").read_text()
    assert "from repro_lint.runtime import make_generator, seed_everything, seed_worker" in script, script
    assert "worker_init_fn=seed_worker" in script, script


def test_the_block_follows_the_imports_a_main_block_starts_with(tmp_path):
    """hubconf.py's shape: the __main__ block starts with its own imports; the block goes after
    them and uses the names they bind (no second numpy import at the top)."""
    from fixtools import fix_text

    code = (
        "import torch\n\n\nif __name__ == \"__main__\":\n    import argparse\n\n    import numpy as np\n\n"
        "    x = np.random.rand(2)\n    model = torch.nn.Linear(2, 2).cuda()\n"
    )
    outcome = fix_text(tmp_path, code, ["RPL101", "RPL102", "RPL202"], dedent=False, fix_style="inline")
    assert outcome.text.startswith("import torch\n\n\nif __name__"), outcome.text
    lines = outcome.text.splitlines()
    assert lines[lines.index("    import numpy as np") + 1 : lines.index("    import numpy as np") + 4] == [
        "", "    np.random.seed(0)", "    torch.manual_seed(0)"
    ], outcome.text


TOP_LEVEL_SCRIPT_WITH_A_GUARD = """\
import argparse

import torch

parser = argparse.ArgumentParser()
parser.add_argument("--seed", type=int, default=123)
opt = parser.parse_args()
print(opt)
torch.manual_seed(opt.seed)
model = torch.nn.Linear(2, 2).cuda()


def train():
    return torch.nn.functional.dropout(torch.ones(2), 0.5)


if __name__ == "__main__":
    train()
"""


@pytest.mark.parametrize("style", ["runtime", "inline"])
def test_a_script_seeded_at_module_level_gets_its_block_there_not_in_its_guard(tmp_path, style):
    """The super-resolution example's shape: the script parses --seed, seeds torch and builds its
    model at module level; the __main__ block only runs the training. The block goes right after
    the program's seeding call and reuses its seed: at the top of the guard it would reseed with
    the configured seed after the program's own, so --seed would no longer decide training."""
    from fixtools import fix_text

    outcome = fix_text(tmp_path, TOP_LEVEL_SCRIPT_WITH_A_GUARD, ["RPL101", "RPL202"], dedent=False, fix_style=style)
    lines = outcome.text.splitlines()
    after = lines[lines.index("torch.manual_seed(opt.seed)") + 1]
    if style == "runtime":
        assert after == "seed_everything(opt.seed)", outcome.text
    else:
        assert after == "torch.backends.cudnn.benchmark = False", outcome.text
    assert lines[lines.index('if __name__ == "__main__":') + 1] == "    train()", outcome.text
    assert "(0)" not in outcome.text


SEEDED_WITH_AN_OPTIONAL_SEED = """\
import argparse
import random

import torch

if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int, default={default})
    args = parser.parse_args()
    {seeding}
    print(random.random())
"""


@pytest.mark.parametrize("style", ["runtime", "inline"])
@pytest.mark.parametrize(
    "seeding, seed",
    [
        ("torch.manual_seed(args.seed)", "args.seed"),
        ("seed = args.seed", "seed"),
    ],
)
def test_a_reused_seed_that_is_none_by_default_gets_the_configured_seed(tmp_path, style, seeding, seed):
    """The program passes ``args.seed`` (None by default) on: the block must not seed with None
    (``random.seed(None)`` reseeds from OS entropy, ``seed_everything(None)`` raises)."""
    from fixtools import fix_text

    code = SEEDED_WITH_AN_OPTIONAL_SEED.format(default="None", seeding=seeding)
    outcome = fix_text(tmp_path, code, ["RPL103"], dedent=False, fix_style=style)
    assert f"({seed} if {seed} is not None else 0)" in outcome.text, outcome.text
    fixed = SEEDED_WITH_AN_OPTIONAL_SEED.format(default="7", seeding=seeding)
    outcome = fix_text(tmp_path, fixed, ["RPL103"], dedent=False, fix_style=style)
    assert f"({seed})" in outcome.text and "is not None" not in outcome.text, outcome.text


@pytest.mark.parametrize("seeding, seeded", [
    ("from accelerate.utils import set_seed\n\nset_seed(42)\n", {"random", "numpy", "torch"}),
    ("from helpers import seed_all\n\nseed_all(42)\n", {"torch"}),
    ("torch.manual_seed(42)\n", {"torch"}),
])
def test_the_inline_block_seeds_nothing_the_path_seeds_already(tmp_path, seeding, seeded):
    """Only RPL202 is reported where the program seeds every generator it uses itself (a
    library helper, its own helper module, torch's call): the inline block sets the switches
    and writes no second seeding line for a generator already seeded on the path. A generator
    the path leaves unseeded (``random`` beside a torch-only helper) is still reported and
    seeded."""
    from fixtools import fix_text

    (tmp_path / "helpers.py").write_text("import torch\n\n\ndef seed_all(seed):\n    torch.manual_seed(seed)\n")
    code = (
        "import random\n\nimport numpy as np\nimport torch\n" + seeding
        + "\nmodel = torch.nn.Linear(2, 2).cuda()\nx = np.random.rand(2) + random.random()\n"
    )
    outcome = fix_text(tmp_path, code, ["RPL1", "RPL202"], dedent=False, fix_style="inline")
    text = outcome.text
    assert "torch.use_deterministic_algorithms(True)" in text, text
    written = {"torch": "torch.manual_seed(42)", "numpy": "np.random.seed(42)", "random": "random.seed(42)"}
    for generator, line in written.items():
        expected = 1 if generator in seeded and line in seeding else 0 if generator in seeded else 1
        assert text.splitlines().count(line) == expected, f"{generator}:\n{text}"


_SEEDED_MAIN = (
    "import argparse\nimport random\n\nimport numpy as np\nimport torch\n{imports}\n\n"
    "def seed_all(seed, rank):\n    torch.manual_seed(seed + rank)\n\n\n"
    "def main():\n    parser = argparse.ArgumentParser()\n    parser.add_argument(\"--seed\", type=int, default=0)\n"
    "    parser.add_argument(\"--rank\", type=int, default=0)\n    args = parser.parse_args()\n{seeding}"
    "    model = torch.nn.Linear(2, 2).cuda()\n    x = np.random.rand(2) + random.random()\n\n\n"
    "if __name__ == \"__main__\":\n    main()\n"
)


@pytest.mark.parametrize("imports, seeding, runtime", [
    # the program's own calls seed with the block's seed, nothing between: seeding again is a no-op
    ("", "    torch.manual_seed(args.seed)\n", True),
    ("", "    random.seed(args.seed)\n    np.random.seed(args.seed)\n    torch.manual_seed(args.seed)\n", True),
    ("import lightning as L\n", "    L.seed_everything(args.seed, workers=True)\n", True),
    ("from accelerate.utils import set_seed\n", "    set_seed(args.seed)\n", True),
    # the seed the program gives may not be the block's: the runtime call would replace it
    ("from accelerate.utils import set_seed\n", "    set_seed(args.seed, device_specific=True)\n", False),
    ("", "    seed_all(args.seed, args.rank)\n", False),
    ("", "    np.random.seed(args.seed)\n    print(np.random.rand())\n    torch.manual_seed(args.seed)\n", False),
])
def test_the_runtime_block_never_reseeds_what_the_program_seeds_its_own_way(tmp_path, imports, seeding, runtime):
    """seed_everything(SEED) seeds every generator again. Right after the program's own
    seeding calls with that very seed it changes nothing, and the runtime block is kept; where
    the program seeds in a way the block cannot repeat (a helper that adds the rank, accelerate's
    device_specific seed, a draw between two seeding calls), it would throw the program's seed
    away, so the block writes only what the findings ask for (the generators left unseeded)
    and the switches, as plain calls."""
    from fixtools import fix_text

    code = _SEEDED_MAIN.format(imports=imports, seeding=seeding)
    text = fix_text(tmp_path, code, ["RPL1", "RPL202"], dedent=False).text
    assert ("seed_everything(args.seed)" in text) == runtime, text
    assert ("repro_lint" in text) == runtime, text
    if not runtime:
        assert "torch.use_deterministic_algorithms(True)" in text, text
        added = [line.strip() for line in text.splitlines() if line not in code.splitlines()]
        assert not any(line.startswith("torch.manual_seed") for line in added), text  # never reseeded
    compile(text, "train.py", "exec")


@pytest.mark.parametrize("spawn, in_child", [
    ("mp.spawn(example, args=(2,), nprocs=2, join=True)", True),
    ("mp.start_processes(example, args=(2,), nprocs=2, start_method='spawn')", True),
    ("torch.multiprocessing.spawn(fn=example, args=(2,), nprocs=2)", True),
    ("if __name__ == '__main__':\n        mp.spawn(example, args=(2,), nprocs=2)", True),  # (a guard of its own)
    # nnU-Net's run_training: several GPUs spawn, one trains in the process itself
    ("if torch.cuda.device_count() > 1:\n        mp.spawn(example, args=(2,), nprocs=2)\n    else:\n        nn.Linear(2, 2)", False),
    # pytorch/examples' ImageNet, AdaBins: the other path runs the same function in the process
    ("if torch.cuda.device_count() > 1:\n        mp.spawn(example, args=(2,), nprocs=2)\n    else:\n        example(0, 1)", True),
])
def test_the_block_goes_where_spawned_processes_train(tmp_path, spawn, in_child):
    """torch.multiprocessing.spawn runs the function in children that import the module afresh
    and never run its __main__ block: a block there would seed and switch the parent only, and
    the children would train unseeded. The block goes at the top of the spawned function, where
    every run spawns or calls it; a spawn on some paths only leaves it in the __main__ block."""
    from fixtools import fix_text

    code = (
        "import os\n\nimport torch\nimport torch.distributed as dist\nimport torch.multiprocessing as mp\nimport torch.nn as nn\n\n\n"
        "def example(rank, world_size):\n    dist.init_process_group('gloo', rank=rank, world_size=world_size)\n"
        "    model = nn.Linear(10, 10).cuda()\n    model(torch.randn(20, 10).cuda())\n\n\n"
        f"def ddp_main():\n    {spawn}\n\n\n"
        "if __name__ == \"__main__\":\n    os.environ['MASTER_ADDR'] = 'localhost'\n    ddp_main()\n"
    )
    text = fix_text(tmp_path, code, ["RPL101", "RPL202"], dedent=False).text
    lines = text.splitlines()
    assert (lines[lines.index("def example(rank, world_size):") + 1] == "    seed_everything(0)") == in_child, text
    # (in the __main__ block, after the program's own environment setting)
    assert (lines[lines.index('if __name__ == "__main__":') + 2] == "    seed_everything(0)") != in_child, text
    assert text.count("seed_everything(0)") == 1, text
    compile(text, "train.py", "exec")


@pytest.mark.parametrize(
    "options, call, seed",
    [
        # federated-learning's ``args = args_parser()`` from ``utils/options.py``
        ("    parser.add_argument('--seed', type=int, default=1)\n    args = parser.parse_args()\n    return args\n",
         "args_parser()", "args.seed"),
        # a seed option that may be None: the configured seed in its place
        ("    parser.add_argument('--seed', type=int)\n    return parser.parse_args()\n",
         "args_parser()", "args.seed if args.seed is not None else 0"),
        # a helper that returns something else is not the options: the configured seed
        ("    parser.add_argument('--seed', type=int, default=1)\n    return vars(parser.parse_args())\n",
         "args_parser()", None),
    ],
)
def test_the_seed_option_of_options_a_helper_of_another_module_parses(tmp_path, options, call, seed):
    """``args = args_parser()``: the block follows the parse and seeds with ``args.seed``, the
    program's own seed, not the configured one above the parse."""
    from conftest import run_cli, write

    write(tmp_path, {
        "utils/__init__.py": "",
        "utils/options.py": "import argparse\n\n\ndef args_parser():\n    parser = argparse.ArgumentParser()\n" + options,
        "main.py": (
            "import torch\n\nfrom utils.options import args_parser\n\nif __name__ == '__main__':\n"
            f"    args = {call}\n    net = torch.nn.Linear(4, 2)\n    print(net(torch.ones(4)))\n"
        ),
    })
    done = run_cli(["--fix", "--no-cache", "--select", "RPL101", "main.py"], tmp_path)
    assert done.returncode in (0, 1), done.stderr
    text = (tmp_path / "main.py").read_text()
    if seed is None:
        assert "    seed_everything(0)\n    args = args_parser()\n" in text, text
    else:
        assert f"    args = args_parser()\n    seed_everything({seed})\n" in text, text


@pytest.mark.parametrize("made, call, warns", [
    # a loss module's call is the loss function with the module's reduction
    ("nn.CrossEntropyLoss()", "criterion(logits.transpose(1, 2), target)", True),
    ("nn.CrossEntropyLoss(weight=w).cuda()", "criterion(logits.transpose(1, 2), target)", True),
    ("nn.NLLLoss(reduction='sum')", "criterion(logits.view(n, c, h, w), target)", True),
    ("nn.CrossEntropyLoss(reduction='none')", "criterion(logits.transpose(1, 2), target).mean()", False),
    ("nn.CrossEntropyLoss()", "criterion(logits, target)", False),  # the rank is not shown: strict
    ("nn.MSELoss()", "criterion(logits.transpose(1, 2), target)", False),
    # MedicalNet: the rank shown by an unpacking of the input's shape, before the call
    ("nn.CrossEntropyLoss(ignore_index=-1)", "[n, _, d, h, w] = logits.shape\n        return criterion(logits, target)", True),
    ("nn.CrossEntropyLoss()", "n, c, h = logits.size()\n        return criterion(logits, target)", True),
    ("nn.CrossEntropyLoss()", "n, c = logits.shape\n        return criterion(logits, target)", False),
    ("nn.CrossEntropyLoss()", "n, c, h = logits.shape\n        logits = logits.view(n, -1)\n        return criterion(logits, target)", False),
    # MONAI's segmentation loss: cross-entropy on (B, N, H, W[, D]) logits by its contract
    ("DiceCELoss(to_onehot_y=True, softmax=True)", "criterion(logits, target)", True),
    ("DiceCELoss(softmax=True, reduction='none')", "criterion(logits, target).mean()", False),
])
def test_the_block_warns_where_a_loss_module_is_called_on_spatial_input(tmp_path, made, call, warns):
    """``criterion = nn.CrossEntropyLoss()``, then ``criterion(logits.transpose(1, 2), y)``: the
    spatial ``nll_loss`` kernel, which raises under deterministic mode on CUDA, as
    ``F.cross_entropy`` on that input does."""
    from conftest import write
    from fixtools import fix_text

    write(tmp_path, {"criterion.py": (
        "import torch\nimport torch.nn as nn\nfrom monai.losses import DiceCELoss\n\n\nclass Loss(nn.Module):\n"
        f"    def __init__(self, w=None):\n        super().__init__()\n        self.criterion = {made}\n\n"
        f"    def forward(self, logits, target, n=2, c=3, h=4, w=4):\n        criterion = self.criterion\n"
        + ("        " if "return" in call else "        return ") + f"{call}\n"
    )})
    script = (
        "import torch\nfrom criterion import Loss\n\n\ndef main():\n    torch.manual_seed(0)\n"
        "    logits = torch.randn(2, 10, 5, device='cuda')\n    print(Loss()(logits, None))\n\n\n"
        "if __name__ == \"__main__\":\n    main()\n"
    )
    text = fix_text(tmp_path, script, ["RPL202"], dedent=False, fix_style="inline").text
    expected = "torch.use_deterministic_algorithms(True, warn_only=True)" if warns else "torch.use_deterministic_algorithms(True)\n"
    assert expected in text, text


@pytest.mark.parametrize(
    "option, spawn, seed",
    [
        # pytorch/examples' fsdp_mnist: the children get the parsed options, and so the program's --seed
        ("parser.add_argument('--seed', type=int, default=1)", "mp.spawn(worker, args=(2, args), nprocs=2)", "args.seed"),
        ("parser.add_argument('--seed', type=int)", "mp.spawn(worker, args=(2, args), nprocs=2)", "args.seed if args.seed is not None else 0"),
        # not handed over, or no seed option: the configured seed
        ("parser.add_argument('--seed', type=int, default=1)", "mp.spawn(worker, args=(2, None), nprocs=2)", "0"),
        ("parser.add_argument('--lr', type=float, default=1.0)", "mp.spawn(worker, args=(2, args), nprocs=2)", "0"),
    ],
)
def test_a_spawned_function_seeds_with_the_seed_option_it_is_handed(tmp_path, option, spawn, seed):
    from conftest import run_cli, write

    write(tmp_path, {
        "pyproject.toml": "[tool.repro-lint]\nfix-style = \"inline\"\n",
        "train.py": (
            "import argparse\nimport torch\nimport torch.multiprocessing as mp\n\n\ndef worker(rank, world_size, args):\n"
            "    model = torch.nn.Linear(8, 8)\n    model(torch.ones(2, 8)).sum().backward()\n\n\n"
            f"if __name__ == '__main__':\n    parser = argparse.ArgumentParser()\n    {option}\n    args = parser.parse_args()\n"
            f"    torch.manual_seed(1)\n    {spawn}\n"
        ),
    })
    done = run_cli(["--fix", "--no-cache", "--select", "RPL101", "."], tmp_path)
    assert done.returncode in (0, 1), done.stderr
    text = (tmp_path / "train.py").read_text()
    assert f"def worker(rank, world_size, args):\n    torch.manual_seed({seed})\n" in text, text


@pytest.mark.parametrize("setting", [
    'os.environ["CUDA_VISIBLE_DEVICES"] = "2,3"',
    'os.environ.setdefault("CUDA_VISIBLE_DEVICES", "0")',
])
def test_the_block_comes_after_the_programs_own_environment_settings(block, setting):
    """jia-zhuang's ddp_train.py: CUDA reads CUDA_VISIBLE_DEVICES once, when first asked, and the
    block asks: it goes after the program's setting, not before it."""
    fixed = block(f"import os\n{setting}\nimport torch\n\nmodel = torch.nn.Linear(8, 8).cuda()\n", dedent=False)
    assert fixed.index(setting) < fixed.index("seed_everything(0)"), fixed


NET_DRAWS_AT_IMPORT = "import torch.nn as nn\n\ndecoder = nn.Sequential(nn.Conv2d(8, 3, (3, 3)))\n"
TRAINS_IMPORTED_NET = """\
import torch

import net

decoder = net.decoder
optimizer = torch.optim.Adam(decoder.parameters(), lr=1e-4)
loss = decoder(torch.rand(2, 8, 6, 6)).mean()
loss.backward()
"""


@pytest.mark.parametrize("net, before", [(NET_DRAWS_AT_IMPORT, True), ("import torch.nn as nn\n\n\ndef build():\n    return nn.Linear(2, 2)\n", False)])
def test_the_block_goes_before_an_import_whose_module_draws_as_it_is_imported(tmp_path, net, before):
    """``import net`` builds the decoder at import time (pytorch-AdaIN): a block after it
    would seed after its weights were drawn, and RPL105 would report the block itself."""
    (tmp_path / "net.py").write_text(net)
    outcome = fix_text(tmp_path, TRAINS_IMPORTED_NET, ["RPL101", "RPL105"], dedent=False)
    assert outcome.fixed["RPL101"] == 1
    seeded, imported = outcome.text.index("seed_everything(0)\n"), outcome.text.index("import net\n")
    assert (seeded < imported) is before, outcome.text
    again = fix_text(tmp_path, outcome.text, ["RPL101", "RPL105"], dedent=False)
    assert again.text == outcome.text and not again.result.diagnostics, again.result.diagnostics


def test_the_block_before_the_first_import_brings_its_own_import_above_it(tmp_path):
    """huggingface-transformers' ``hf_accelerate.py`` starts with ``from fine_tuning import
    model, ...``, whose module builds the model as it is imported: the block and the import it
    needs both go above it (the file's import groups come after it)."""
    (tmp_path / "net.py").write_text(NET_DRAWS_AT_IMPORT)
    code = "from net import decoder\nimport torch\n\nloss = decoder(torch.rand(2, 8, 6, 6)).mean()\n"
    outcome = fix_text(tmp_path, code, ["RPL101"], dedent=False)
    assert outcome.text == (
        "from repro_lint.runtime import seed_everything\n\nseed_everything(0)\n\n" + code
    ), outcome.text
    again = fix_text(tmp_path, outcome.text, ["RPL101"], dedent=False)
    assert again.text == outcome.text and not again.result.diagnostics


def test_no_block_after_a_module_level_import_that_draws_in_a_script_with_a_guard(tmp_path):
    (tmp_path / "net.py").write_text(NET_DRAWS_AT_IMPORT)
    code = "import torch\n\nimport net\n\nif __name__ == '__main__':\n    loss = net.decoder(torch.rand(2, 8, 6, 6)).mean()\n"
    outcome = fix_text(tmp_path, code, ["RPL101"], dedent=False)
    assert outcome.text == code and not outcome.fixed.get("RPL101")


DATA_MODULE = """\
import numpy as np
from random import seed, shuffle


def get_data(items, random_seed=None):
    items = list(items)
    seed(random_seed)
    shuffle(items)
    return items


if __name__ == '__main__':
    print(get_data(range(10)))
"""


@pytest.mark.parametrize("importer, placed", [(None, True), ("from data import get_data\n\nprint(get_data(range(3)))\n", False)])
def test_no_block_in_a_function_another_module_calls(tmp_path, importer, placed):
    """The ``__main__`` block calls ``get_data``, which seeds from its parameter: the block
    there would reseed every generator for the training script that calls it too, and throw
    away that script's own NumPy seed (Graph-Neural-Networks' Simple_MPNN)."""
    if importer is not None:
        (tmp_path / "train.py").write_text(importer)
    run = ["train.py"] if importer is not None else []
    outcome = fix_text(tmp_path, DATA_MODULE, ["RPL103"], filename="data.py", dedent=False, run=run)
    assert ("seed_everything(random_seed" in outcome.text) is placed, outcome.text
    assert bool(outcome.fixed.get("RPL103")) is placed


@pytest.mark.parametrize("style, script, title", [
    # the program seeds torch itself: the inline block holds only the switches, and says so
    ("inline", "import torch\n\n\ndef main():\n    torch.manual_seed(1)\n    x = torch.randn(3).cuda()\n\n\n"
     "if __name__ == '__main__':\n    main()\n", "Insert the setup block (deterministic algorithms on)"),
    # the block widened by the file's later findings: every one of them has its final title
    ("inline", "import numpy as np\nimport torch\n\n\ndef main():\n    x = torch.randn(3, device='cuda')\n"
     "    print(np.random.rand(), x)\n\n\nif __name__ == '__main__':\n    main()\n",
     "Insert the setup block (seed NumPy and torch, deterministic algorithms on)"),
    ("inline", "import random\nimport numpy as np\nimport torch\n\n\ndef main():\n    x = torch.randn(3, device='cuda')\n"
     "    print(np.random.rand(), random.random(), x)\n\n\nif __name__ == '__main__':\n    main()\n",
     "Insert the setup block (seed Python's random, NumPy and torch, deterministic algorithms on)"),
    ("runtime", "import numpy as np\nimport torch\n\n\ndef main():\n    x = torch.randn(3, device='cuda')\n"
     "    print(np.random.rand(), x)\n\n\nif __name__ == '__main__':\n    main()\n",
     "Insert the setup block (seed everything, deterministic algorithms on)"),
    # the canonical block turns the switches on beside torch's seed, also for a CPU program
    ("inline", "import torch\n\n\ndef main():\n    print(torch.randn(3))\n\n\nif __name__ == '__main__':\n    main()\n",
     "Insert the setup block (seed torch, deterministic algorithms on)"),
])
def test_a_setup_block_fix_is_titled_with_what_the_block_does(lint, style, script, title):
    found = [d for d in lint(script, "train.py", ["RPL101", "RPL102", "RPL103", "RPL202"], fix_style=style) if d.fix is not None]
    assert found
    assert {d.fix.message for d in found} == {title}, [(d.code, d.fix.message) for d in found]
    assert len({d.fix.edits for d in found}) == 1  # one block, applied once


def test_the_title_says_when_the_switches_only_warn(tmp_path):
    from conftest import lint_files_in, write

    write(tmp_path, {
        "model.py": "import torch.nn as nn\n\n\ndef build():\n    return nn.Sequential(nn.Conv2d(3, 8, 3), nn.AdaptiveMaxPool2d(1))\n",
        "train.py": "import torch\nfrom model import build\n\n\ndef main():\n    torch.manual_seed(0)\n"
        "    net = build().cuda()\n\n\nif __name__ == \"__main__\":\n    main()\n",
    })
    for style, select, title in (
        ("runtime", ["RPL101", "RPL202"], "seed everything, deterministic algorithms on, warn only"),
        ("inline", ["RPL101", "RPL202"], "deterministic algorithms on, warn only"),  # torch seeded by the program
        ("runtime", ["RPL202"], "deterministic algorithms on, warn only"),  # no seeding rule: the switches alone
    ):
        found = [d for d in lint_files_in([tmp_path / "train.py"], tmp_path, select, fix_style=style) if d.fix is not None]
        assert [d.fix.message for d in found] == [f"Insert the setup block ({title})"], (style, select)


@pytest.mark.parametrize("header, expected", [
    # only the project's own imports: torch gets a group of its own before them (isort's order)
    ("from mypkg.config import get_parser\nfrom mypkg.env import env_command\n",
     "import torch\n\nfrom mypkg.config import get_parser\nfrom mypkg.env import env_command\n"),
    # the standard library's group first, then the project's: between them
    ("import os\n\nfrom mypkg.env import env_command\n", "import os\n\nimport torch\n\nfrom mypkg.env import env_command\n"),
    # a third-party group already there: into it, as before
    ("import os\n\nimport numpy as np\n\nfrom mypkg.env import env_command\n",
     "import os\n\nimport numpy as np\nimport torch\n\nfrom mypkg.env import env_command\n"),
])
def test_a_third_party_import_never_joins_the_project_s_own_import_group(tmp_path, header, expected):
    """A block that imports torch into a module whose header holds only the project's own
    imports (accelerate's CLI) keeps the file sorted as isort and ruff sort it: third-party
    imports form a group before the first-party ones."""
    from conftest import write

    write(tmp_path, {
        "mypkg/__init__.py": "", "mypkg/config.py": "def get_parser():\n    pass\n",
        "mypkg/env.py": "import torch\n\n\ndef env_command():\n    return torch.zeros(3).cuda()\n",
    })
    code = header + "\n\ndef main():\n    env_command()\n\n\nif __name__ == '__main__':\n    main()\n"
    others = ["mypkg/config.py", "mypkg/env.py"]
    outcome = fix_text(tmp_path, code, ["RPL202"], filename="mypkg/cli.py", dedent=False, run=others, fix_style="inline")
    assert outcome.text.startswith(expected), outcome.text
    again = fix_text(tmp_path, outcome.text, ["RPL202"], filename="mypkg/cli.py", dedent=False, run=others, fix_style="inline")
    assert again.text == outcome.text
