"""RPL101-RPL103: a seed set only off the default path (``if args.seed is not None:`` with
``--seed`` defaulting to None) does not seed a run with the default arguments."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from conftest import codes, lint_files_in, write

SEEDING = ["RPL101", "RPL102", "RPL103", "RPL202"]

SCRIPT = """
    import argparse
    import random

    import numpy as np
    import torch


    def main():
        parser = argparse.ArgumentParser()
        parser.add_argument("--seed", type=int, default={default})
        args = parser.parse_args()
        {before}
        if {test}:
            {seed}
        model = torch.nn.Linear(4, 2)
        x = np.random.rand(3)
        y = random.random()


    if __name__ == "__main__":
        main()
"""

ALL_THREE = "random.seed(args.seed); np.random.seed(args.seed); torch.manual_seed(args.seed)"


def script(default="None", test="args.seed is not None", seed=ALL_THREE, before="pass"):
    return textwrap.dedent(SCRIPT).format(default=default, test=test, seed=seed, before=before)


@pytest.mark.parametrize(
    "default, test",
    [
        ("None", "args.seed is not None"),
        ("None", "args.seed"),
        ("0", "args.seed"),
        ("-1", "args.seed >= 0"),
        ("None", "args.seed != None and args.seed >= 0"),
    ],
)
def test_a_seed_set_only_when_given_does_not_seed_the_default_run(lint, default, test):
    found = lint(script(default, test), select=SEEDING)
    assert sorted(codes(found)) == ["RPL101", "RPL102", "RPL103"]
    assert {d.line for d in found} == {15}  # the guarded calls
    (torch,) = [d for d in found if d.code == "RPL101"]
    assert torch.message.startswith(f"torch.manual_seed(...) seeds the torch RNG only when `{test}` holds")
    assert "default=0" in torch.message and "seed unconditionally" in torch.message
    assert torch.fix is None  # the seed is there, its default is not: nothing to insert


@pytest.mark.parametrize(
    "default, test, before",
    [
        ("0", "args.seed is not None", "pass"),  # an integer default
        ("0", "os.environ.get('SEED') is not None", "import os"),  # cannot be told
        ("None", "args.seed is not None", "args.seed = args.seed or 0"),
        ("None", "args.seed is not None", "args.seed = 42 if args.seed is None else args.seed"),
        ("None", "args.seed is not None", "vars(args).update(load_config())"),  # a configuration may set it
        ("None", "args.seed is not None", "parser.set_defaults(seed=3)"),
        ("None", "args.seed is not None", "setattr(args, 'seed', 7)"),
    ],
)
def test_a_seed_known_or_unknown_on_the_default_path_is_not_reported(lint, default, test, before):
    assert codes(lint(script(default, test, before=before), select=SEEDING)) == []


@pytest.mark.parametrize(
    "option",
    ['parser.add_argument("--seed", type=int, required=True)', 'parser.add_argument("seed", type=int)'],
)
def test_a_seed_every_run_gives_is_not_reported(lint, option):
    code = script().replace('parser.add_argument("--seed", type=int, default=None)', option)
    assert option in code
    assert codes(lint(code, select=SEEDING)) == []


def test_a_seed_given_a_value_when_missing_is_known(lint):
    code = script(before="if args.seed is None:\n        args.seed = 42")
    assert codes(lint(code, select=SEEDING)) == []


def test_a_seed_variable_with_a_fallback_is_known(lint):
    code = script(before="seed = args.seed or 0", test="seed is not None", seed=ALL_THREE.replace("args.seed", "seed"))
    assert codes(lint(code, select=SEEDING)) == []


def test_an_attribute_assigned_in_another_function_is_unknown(lint):
    code = script() + "\n\ndef configure(args):\n    args.seed = 1\n"
    assert codes(lint(code, select=SEEDING)) == []


def test_the_else_branch_of_a_test_that_holds(lint):
    seed = "print('unseeded')\n    else:\n        torch.manual_seed(args.seed)"
    found = lint(script(test="args.seed is None", seed=seed), select=["RPL101"])
    assert codes(found) == ["RPL101"]
    assert "only when `args.seed is None` does not hold" in found[0].message


def test_unconditional_seeding_elsewhere_on_the_path_counts(lint):
    code = script(before="random.seed(0); np.random.seed(0); torch.manual_seed(0)")
    assert codes(lint(code, select=SEEDING)) == []


def test_a_library_seeding_helper_under_the_test(lint):
    code = script(seed="L.seed_everything(args.seed)").replace("import torch\n", "import torch\nimport lightning as L\n")
    assert sorted(codes(lint(code, select=SEEDING))) == ["RPL101", "RPL102", "RPL103"]


def test_a_project_helper_under_the_test(lint):
    helper = "\n\ndef set_seed(seed):\n    random.seed(seed)\n    np.random.seed(seed)\n    torch.manual_seed(seed)\n"
    found = sorted(lint(script(seed="set_seed(args.seed)") + helper, select=SEEDING), key=lambda d: d.code)
    assert codes(found) == ["RPL101", "RPL102", "RPL103"]
    assert found[0].message.startswith("set_seed(...) seeds the torch RNG only when")


def test_a_test_inside_a_helper_the_path_calls(lint):
    code = """
        import argparse
        import torch

        def setup(args):
            if args.seed is not None:
                torch.manual_seed(args.seed)

        def main():
            parser = argparse.ArgumentParser()
            parser.add_argument("--seed", type=int)
            args = parser.parse_args()
            setup(args)
            model = torch.nn.Linear(4, 2)

        if __name__ == "__main__":
            main()
    """
    found = lint(code, select=SEEDING)
    assert codes(found) == ["RPL101"] and found[0].line == 7


HELPERS = """
    import random
    import numpy as np
    import torch

    def prepare_run(seed):
        random.seed(seed)
        np.random.seed(seed)
        torch.manual_seed(seed)
"""

CROSS_FILE = """
    import argparse
    import torch
    from utils.seeding import prepare_run
    {imports}

    if __name__ == "__main__":
        parser = argparse.ArgumentParser()
        parser.add_argument("--seed", type=int, default=None)
        args = parser.parse_args()
        if args.seed is not None:
            prepare_run(args.seed)
        model = {model}
"""


def lint_project(tmp_path: Path, files):
    write(tmp_path, files)
    paths = sorted(tmp_path.rglob("*.py"))
    return [d for d in lint_files_in(paths, tmp_path, SEEDING) if d.path.endswith("train.py")]


def test_a_project_helper_of_another_file_under_the_test(tmp_path):
    files = {
        "utils/__init__.py": "",
        "utils/seeding.py": HELPERS,
        "train.py": CROSS_FILE.format(imports="", model="torch.nn.Linear(4, 2)"),
    }
    found = lint_project(tmp_path, files)
    assert codes(found) == ["RPL101"] and found[0].line == 12


def test_the_same_helper_called_unconditionally_by_other_code_on_the_path_seeds(tmp_path):
    builder = """
        import torch
        from utils.seeding import prepare_run

        def build():
            prepare_run(0)
            return torch.nn.Linear(4, 2)
    """
    files = {
        "utils/__init__.py": "",
        "utils/seeding.py": HELPERS,
        "models.py": builder,
        "train.py": CROSS_FILE.format(imports="from models import build", model="build()"),
    }
    assert codes(lint_project(tmp_path, files)) == []


def test_a_determinism_switch_off_the_default_path_is_not_held_back(lint):
    code = """
        import argparse
        import torch

        if __name__ == "__main__":
            parser = argparse.ArgumentParser()
            parser.add_argument("--deterministic", action="store_true")
            args = parser.parse_args()
            torch.manual_seed(0)
            if args.deterministic:
                torch.use_deterministic_algorithms(True)
            model = torch.nn.Linear(4, 2).cuda()
    """
    assert codes(lint(code, select=SEEDING)) == []


@pytest.mark.parametrize(
    "binding, test, expected",
    [
        # a constant of the code, which no run chooses (boostcamp's ``deterministic = False``)
        ("DETERMINISTIC = False", "DETERMINISTIC", ["RPL202"]),
        ("deterministic = False", "deterministic", ["RPL202"]),
        ("reproducible = 0", "reproducible", ["RPL202"]),
        # chosen at run time, or bound more than once: the user's choice, as an option is
        ("deterministic = args.deterministic", "deterministic", []),
        ("deterministic = False\n            if args.exact:\n                deterministic = True", "deterministic", []),
        ("deterministic = os.environ.get('DETERMINISTIC') == '1'", "deterministic", []),
    ],
)
def test_a_determinism_switch_under_a_constant_of_the_code(lint, binding, test, expected):
    code = f"""
        import argparse
        import os
        import torch

        if __name__ == "__main__":
            parser = argparse.ArgumentParser()
            parser.add_argument("--deterministic", action="store_true")
            parser.add_argument("--exact", action="store_true")
            args = parser.parse_args()
            {binding}
            torch.manual_seed(0)
            if {test}:
                torch.use_deterministic_algorithms(True)
            model = torch.nn.Linear(4, 2).cuda()
    """
    found = lint(code, select=["RPL202"])
    assert codes(found) == expected
    if expected:
        assert f"only when `{test}` holds" in found[0].message


@pytest.mark.parametrize(
    "call, expected",
    [
        ("main()", ["RPL202"]),  # no call passes it: it holds its default
        ("main(deterministic=args.deterministic)", []),  # an option made for it
    ],
)
def test_a_determinism_switch_under_a_parameter(lint, call, expected):
    code = f"""
        import argparse
        import torch

        def main(deterministic=False):
            torch.manual_seed(0)
            if deterministic:
                torch.use_deterministic_algorithms(True)
            model = torch.nn.Linear(4, 2).cuda()

        if __name__ == "__main__":
            parser = argparse.ArgumentParser()
            parser.add_argument("--deterministic", action="store_true")
            args = parser.parse_args()
            {call}
    """
    assert codes(lint(code, select=["RPL202"])) == expected


def test_fix_leaves_a_seed_set_only_when_given_alone(tmp_path):
    from conftest import run_cli

    path = tmp_path / "train.py"
    code = textwrap.dedent(script())
    path.write_text(code, encoding="utf-8")
    result = run_cli(["--no-cache", "--select", "RPL101,RPL102,RPL103", "--fix", str(path)], cwd=tmp_path)
    assert result.returncode == 1
    assert path.read_text(encoding="utf-8") == code  # never seeds with None


@pytest.mark.parametrize(
    "default, switch, expected",
    [
        ("None", "torch.backends.cudnn.deterministic = True", ["RPL202"]),  # only when a seed is given
        ("None", "torch.use_deterministic_algorithms(True)", ["RPL202"]),
        ("0", "torch.use_deterministic_algorithms(True)", []),  # the default run takes the branch
        ("None", "torch.backends.cudnn.deterministic = False", ["RPL202"]),  # never on: the plain finding
    ],
)
def test_a_determinism_switch_under_another_option_off_the_default_path(lint, default, switch, expected):
    code = f"""
        import argparse
        import torch

        if __name__ == "__main__":
            parser = argparse.ArgumentParser()
            parser.add_argument("--seed", type=int, default={default})
            args = parser.parse_args()
            torch.manual_seed(0)
            if args.seed is not None:
                {switch}
            model = torch.nn.Linear(4, 2).cuda()
    """
    found = lint(code, select=["RPL202"])
    assert codes(found) == expected
    if expected and "= False" not in switch:
        assert "only when `args.seed is not None` holds" in found[0].message and found[0].line == 11


HELPER_UNDER_OPTION = """
import argparse

import numpy as np


def subsample(n):
    np.random.seed(123)
    return np.random.permutation(n)


parser = argparse.ArgumentParser()
parser.add_argument("--heuristic", type=str, default=None)
args = parser.parse_args()

if args.heuristic:
    print(subsample(10))
{after}
"""


@pytest.mark.parametrize("after, expected", [("", []), ("noise = np.random.rand(3)", ["RPL102"])])
def test_a_helper_that_seeds_before_its_own_draws_takes_them_off_the_default_path_with_it(lint, after, expected):
    """Called only under an option that is off by default, the helper neither seeds nor draws on
    the default path: nothing is left to report, unless the path draws elsewhere."""
    assert codes(lint(HELPER_UNDER_OPTION.format(after=after), select=["RPL102"])) == expected


@pytest.mark.parametrize("filled, line", [("self.data.append(element)", 10), ("pass", 13)])
def test_a_buffer_a_method_fills_has_no_known_size(lint, filled, line):
    # a replay buffer: ``self.data`` starts empty but the method fills it, so the ``else`` runs
    # once it is full; the draw there is on the default path (reported at it). When nothing fills
    # it, the ``else`` never runs and the draw is only under a branch the default path skips
    code = f"""\
        import random
        class ReplayBuffer:
            def __init__(self, max_size=50):
                self.max_size = max_size
                self.data = []
            def push_and_pop(self, element):
                if len(self.data) < self.max_size:
                    {filled}
                    return element
                elif random.uniform(0, 1) > 0.5:
                    return self.data[0]
                return element
        if __name__ == "__main__":
            buffer = ReplayBuffer()
            for step in range(100):
                buffer.push_and_pop(step)
        """
    found = lint(textwrap.dedent(code), select=["RPL103"])
    assert [(d.code, d.line) for d in found] == [("RPL103", line)]


@pytest.mark.parametrize(
    "parsed, seed, expected",
    [
        ("args = parser.parse_args()", "np.random.seed(args.seed)", ["RPL102"]),
        ("args = vars(parser.parse_args())", "np.random.seed(args['seed'])", ["RPL102"]),
        ("args = parser.parse_args()", "random.seed(args.seed)", ["RPL103"]),
        # under a test the default path cannot decide: when it runs, it seeds from entropy
        ("args = parser.parse_args()", "if os.environ.get('SEED'):\n        np.random.seed(args.seed)", ["RPL102"]),
        # a fallback for the missing seed
        ("args = parser.parse_args()", "np.random.seed(args.seed or 0)", []),
        ("args = parser.parse_args()", "np.random.seed(0 if args.seed is None else args.seed)", []),
    ],
)
def test_a_seeding_call_given_none_by_an_option_default_reseeds_from_entropy(lint, parsed, seed, expected):
    # ``--seed`` defaulting to None: ``np.random.seed(None)`` and ``random.seed(None)`` reseed
    # from OS entropy on the default run, as ``np.random.seed()`` does (mfigura's RL-in-OpenAIGym)
    code = f"""\
import argparse
import os
import random

import numpy as np


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int, default=None)
    {parsed}
    {seed}
    print(np.random.rand(), random.random())


if __name__ == "__main__":
    main()
"""
    found = [d for d in lint(code, select=SEEDING) if d.code in ("RPL102", "RPL103")]
    assert sorted(d.code for d in found if "given None" in d.message) == expected


@pytest.mark.parametrize("own_seed, expected", [("return args.lr", ["RPL101"]), ("torch.manual_seed(1)\n    return args.lr", [])])
def test_a_seed_off_the_default_path_at_the_top_level_with_a_function_called_after(lint, own_seed, expected):
    """mixup-cifar10: ``if args.seed != 0: torch.manual_seed(args.seed)`` at the top level, then
    a call of the module's own function: the function is not seeded by the top level's guarded
    call either (unless it seeds torch itself)."""
    code = (
        "import argparse\nimport torch\n\nparser = argparse.ArgumentParser()\n"
        "parser.add_argument('--seed', default=0, type=int)\nparser.add_argument('--lr', default=0.1, type=float)\n"
        "args = parser.parse_args()\nif args.seed != 0:\n    torch.manual_seed(args.seed)\n\n\n"
        f"def get_lr():\n    {own_seed}\n\n\nprint(get_lr())\nnet = torch.nn.Linear(4, 2)\n"
    )
    assert codes(lint(code, select=["RPL101"])) == expected


@pytest.mark.parametrize("default, expected", [("None", ["RPL101"]), ("0", [])])
def test_a_guarded_seed_of_a_helper_given_an_option_by_another_modules_function(tmp_path, default, expected):
    """schnetpack's shape: ``setup_run(args)`` in another module calls
    ``set_random_seed(args.seed)``, which seeds only ``if seed is not None``: with ``--seed``
    defaulting to None, the default run is not seeded."""
    found = lint_project(tmp_path, {
        "seeding.py": "import torch\n\n\ndef set_random_seed(seed):\n    if seed is not None:\n        torch.manual_seed(seed)\n",
        "setup_mod.py": "from seeding import set_random_seed\n\n\ndef setup_run(args):\n    set_random_seed(args.seed)\n    return args\n",
        "train.py": "import argparse\n\nimport torch\n\nfrom setup_mod import setup_run\n\nif __name__ == '__main__':\n"
        f"    parser = argparse.ArgumentParser()\n    parser.add_argument('--seed', type=int, default={default})\n"
        "    args = parser.parse_args()\n    setup_run(args)\n    model = torch.nn.Linear(4, 2)\n",
    })
    assert sorted(d.code for d in found if d.code.startswith("RPL1")) == expected
