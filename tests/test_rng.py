"""Seeding mistakes visible in one file (RPL104, RPL106-RPL109): repro_lint/rules/rng.py."""

from __future__ import annotations

import pytest

from conftest import codes
from fixtools import apply_fixes

# -- RPL104 ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "code",
    [
        "import os\nos.environ['PYTHONHASHSEED'] = '0'\n",
        "import os\nos.environ['PYTHONHASHSEED'] = str(seed)\n",
        "from os import environ\nenviron['PYTHONHASHSEED'] = '0'\n",
        "import os\nos.environ.setdefault('PYTHONHASHSEED', '0')\n",
        "import os\nos.environ.update(PYTHONHASHSEED='0')\n",
        "import os\nos.environ.update({'PYTHONHASHSEED': '0'})\n",
        "import os\nos.putenv('PYTHONHASHSEED', '0')\n",
        # the variable's name in a module constant (clinicadl's ``seed.py``)
        "import os\nPYTHON_HASH_SEED = 'PYTHONHASHSEED'\n\n\ndef seed_everything(seed):\n    os.environ[PYTHON_HASH_SEED] = str(seed)\n",
        "import os\nKEY = 'PYTHONHASHSEED'\nos.environ.setdefault(KEY, '0')\n",
    ],
)
def test_rpl104_fires(lint, code):
    assert codes(lint(code, select=["RPL104"])) == ["RPL104"]


@pytest.mark.parametrize(
    "code",
    [
        "import os, subprocess\nsubprocess.run(['x'], env={**os.environ, 'PYTHONHASHSEED': '0'})\n",
        "import os\nenv = os.environ.copy()\nenv['PYTHONHASHSEED'] = '0'\n",
        "import os\nprint(os.environ['PYTHONHASHSEED'])\n",
        "import os\nos.environ['CUDA_VISIBLE_DEVICES'] = '0'\n",
        # a name bound twice is not a constant
        "import os\nKEY = 'PYTHONHASHSEED'\nKEY = 'OTHER'\nos.environ[KEY] = '0'\n",
    ],
)
def test_rpl104_quiet(lint, code):
    assert codes(lint(code, select=["RPL104"])) == []


@pytest.mark.parametrize(
    "body, expected",
    [
        # sympy's run_in_subprocess_with_hash_randomization: set for the interpreter it starts
        ("os.environ['PYTHONHASHSEED'] = str(seed)\n    subprocess.run(['python', 'train.py'], check=True)", []),
        ("if not os.getenv('PYTHONHASHSEED'):\n        os.environ['PYTHONHASHSEED'] = '0'\n"
         "    try:\n        p = subprocess.Popen(['python', '-c', 'pass'])\n    finally:\n        pass", []),
        ("os.environ.setdefault('PYTHONHASHSEED', '0')\n    os.execv(sys.executable, [sys.executable, 'train.py'])", []),
        ("os.environ['PYTHONHASHSEED'] = '0'\n    mp.spawn(work, nprocs=2)", []),  # spawn children start fresh
        # a process started before the setting, or none: the running interpreter's hash is unchanged
        ("subprocess.run(['ls'])\n    os.environ['PYTHONHASHSEED'] = str(seed)", ["RPL104"]),
        ("os.environ['PYTHONHASHSEED'] = str(seed)\n    random.seed(seed)", ["RPL104"]),
        # one a nested function would start, where it is called
        ("os.environ['PYTHONHASHSEED'] = '0'\n\n    def later():\n        subprocess.run(['ls'])", ["RPL104"]),
        # sympy's finally: the value the interpreter started with, put back after the process
        ("saved = os.getenv('PYTHONHASHSEED')\n    os.environ['PYTHONHASHSEED'] = '0'\n    subprocess.run(['ls'])\n"
         "    os.environ['PYTHONHASHSEED'] = saved", []),
        ("saved = os.environ.get('PYTHONHASHSEED', '')\n    os.environ['PYTHONHASHSEED'] = saved", []),
        ("saved = os.environ['PYTHONHASHSEED']\n    os.environ['PYTHONHASHSEED'] = saved", []),
        # another variable's value, or the saved one changed: a setting
        ("saved = os.getenv('SEED')\n    os.environ['PYTHONHASHSEED'] = saved", ["RPL104"]),
        ("saved = os.getenv('PYTHONHASHSEED') or '0'\n    os.environ['PYTHONHASHSEED'] = saved", ["RPL104"]),
    ],
)
def test_rpl104_a_setting_for_the_interpreter_the_function_starts_next(lint, body, expected):
    code = (
        "import os\nimport random\nimport subprocess\nimport sys\n\nimport torch.multiprocessing as mp\n\n\n"
        "def work(rank):\n    pass\n\n\n"
        f"def run(seed):\n    {body}\n"
    )
    assert codes(lint(code, select=["RPL104"])) == expected


# -- RPL106 ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "code",
    [
        "import numpy as np\nrng = np.random.default_rng()\n",
        "import numpy as np\nrng = np.random.default_rng(None)\n",
        "import numpy as np\nrng = np.random.default_rng(seed=None)\n",
        "from numpy.random import default_rng\nrng = default_rng()\n",
        "import numpy as np\nrs = np.random.RandomState()\n",
        "import numpy as np\ng = np.random.Generator(np.random.PCG64())\n",
        "import numpy as np\nss = np.random.SeedSequence()\n",
        "import random\nr = random.Random()\n",
        "from random import Random\nr = Random()\n",
    ],
)
def test_rpl106_fires(lint, code):
    assert codes(lint(code, select=["RPL106"])) == ["RPL106"]


@pytest.mark.parametrize(
    "code",
    [
        "import numpy as np\nrng = np.random.default_rng(0)\n",
        "import numpy as np\nrng = np.random.default_rng(args.seed)\n",
        "import numpy as np\nrng = np.random.default_rng(*seeds)\n",
        "import numpy as np\ng = np.random.Generator(np.random.PCG64(1))\n",
        "import random\nr = random.Random(7)\n",
        "import random\nr = random.SystemRandom()\n",
        "import torch\ng = torch.Generator()\n",
    ],
)
def test_rpl106_quiet(lint, code):
    assert codes(lint(code, select=["RPL106"])) == []


def test_rpl106_objects_that_get_a_state_later_or_draw_a_seed(lint):
    # torch.utils.data.datapipes: created empty, seeded before use
    reseeded = "import random\n\nclass Shuffler:\n    def __init__(self):\n        self._rng = random.Random()\n\n    def reset(self):\n        self._rng.seed(self._seed)\n"
    assert codes(lint(reseeded, select=["RPL106"])) == []
    restored = "import random\nrng = random.Random()\nrng.setstate(state)\n"
    assert codes(lint(restored, select=["RPL106"])) == []
    never = "import random\n\nclass Shuffler:\n    def __init__(self):\n        self._rng = random.Random()\n        self.other.seed(0)\n"
    assert codes(lint(never, select=["RPL106"])) == ["RPL106"]
    # torch.utils.benchmark's Fuzzer: a fresh seed drawn on purpose when none is given
    fresh = "import numpy as np\nif seed is None:\n    seed = int(np.random.RandomState().randint(0, 2**32 - 1))\n"
    assert codes(lint(fresh, select=["RPL106"])) == []


# -- RPL107 ------------------------------------------------------------------------------------


def test_rpl107_is_off_by_default_and_fires_when_selected(lint):
    code = "import torch\nx = torch.randn(3, device='cuda')\ny = torch.rand(3, device=device)\nz = torch.randint(0, 5, (3,), device='cpu')\nw = torch.randn(3, device=torch.device('cpu'))\n"
    assert "RPL107" not in codes(lint(code))
    assert [d.line for d in lint(code, select=["RPL107"])] == [2, 3]


# -- RPL108 ------------------------------------------------------------------------------------

DATASET = """
    import random
    import numpy as np
    import torch
    from torch.utils.data import Dataset, IterableDataset

    class Data({base}):
        def __init__(self):
            self.rng = {ctor}
            self.other = 1

        def {method}(self{params}):
            return self.rng.random()
"""


@pytest.mark.parametrize(
    "base,ctor,method,params",
    [
        ("Dataset", "np.random.default_rng(0)", "__getitem__", ", i"),
        ("Dataset", "np.random.RandomState(0)", "__getitem__", ", i"),
        ("IterableDataset", "random.Random(0)", "__iter__", ""),
        ("torch.utils.data.Dataset", "torch.Generator().manual_seed(0)", "__getitem__", ", i"),
        ("BaseDataset", "np.random.default_rng(0)", "__getitem__", ", i"),
        # boltz: one branch of a conditional expression builds it (the other shares np.random)
        ("Dataset", "np.random if overfit else np.random.RandomState(0)", "__getitem__", ", i"),
        ("Dataset", "None if overfit else (random.Random(1) if fast else np.random.default_rng(0))", "__getitem__", ", i"),
    ],
)
def test_rpl108_fires(lint, base, ctor, method, params):
    found = lint(DATASET.format(base=base, ctor=ctor, method=method, params=params), select=["RPL108"])
    assert codes(found) == ["RPL108"] and found[0].line == 9 and "self.rng" in found[0].message


def test_rpl108_quiet(lint):
    # not used when drawing
    assert codes(lint(DATASET.format(base="Dataset", ctor="np.random.default_rng(0)", method="describe", params=""), select=["RPL108"])) == []
    # neither branch builds a generator
    assert codes(lint(DATASET.format(base="Dataset", ctor="np.random if overfit else random", method="__getitem__", params=", i"), select=["RPL108"])) == []
    # not a dataset
    assert codes(lint(DATASET.format(base="object", ctor="np.random.default_rng(0)", method="__getitem__", params=", i"), select=["RPL108"])) == []
    # reseeded per worker
    code = DATASET.format(base="Dataset", ctor="np.random.default_rng(0)", method="__getitem__", params=", i")
    code += "\ndef init_fn(worker_id):\n    info = torch.utils.data.get_worker_info()\n    info.dataset.rng = np.random.default_rng(info.seed)\n"
    assert codes(lint(code, select=["RPL108"])) == []


# -- RPL109 ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "arg,fixed",
    [
        ("torch.initial_seed()", "torch.initial_seed() % 2**32"),
        ("torch.initial_seed() + worker_id", "(torch.initial_seed() + worker_id) % 2**32"),
        ("seed=torch.initial_seed()", "seed=torch.initial_seed() % 2**32"),
        ("torch.utils.data.get_worker_info().seed", "torch.utils.data.get_worker_info().seed % 2**32"),
        ("2**40", "(2**40) % 2**32"),
        ("-1", "(-1) % 2**32"),
        ("(torch.initial_seed())", "(torch.initial_seed() % 2**32)"),
        ("(a + torch.initial_seed())", "((a + torch.initial_seed()) % 2**32)"),
    ],
)
def test_rpl109_fires_and_fixes(lint, arg, fixed):
    code = f"import numpy as np\nimport torch\n\ndef init_fn(worker_id):\n    np.random.seed({arg})\n"
    found = lint(code, select=["RPL109"])
    assert codes(found) == ["RPL109"] and found[0].fix.applicability == "safe"
    result = apply_fixes(code, found)
    assert result == code.replace(f"seed({arg})", f"seed({fixed})")
    assert codes(lint(result, select=["RPL109"])) == []


def test_rpl109_through_a_worker_info_variable(lint):
    code = "import numpy as np\nfrom torch.utils.data import get_worker_info\n\ndef f(i):\n    info = get_worker_info()\n    np.random.RandomState(info.seed)\n"
    assert codes(lint(code, select=["RPL109"])) == ["RPL109"]


@pytest.mark.parametrize(
    "arg",
    [
        "torch.initial_seed() % 2**32",
        "torch.initial_seed() % (2**32 - 1)",
        "torch.initial_seed() & 0xFFFFFFFF",
        "torch.initial_seed() % 2**32 + worker_id",
        "(torch.initial_seed() + worker_id) % (1 << 31)",
        "0",
        "4294967295",
        "args.seed",
        "seed + worker_id",
    ],
)
def test_rpl109_quiet(lint, arg):
    code = f"import numpy as np\nimport torch\n\ndef init_fn(worker_id):\n    np.random.seed({arg})\n"
    assert codes(lint(code, select=["RPL109"])) == []


@pytest.mark.parametrize(
    "code, expected",
    [
        # openpifpaf's paired augmentation: the state is saved, drawn from, and put back
        ("import random\n\nif __name__ == '__main__':\n    random.seed(0)\n    state = random.getstate()\n"
         "    x = random.random()\n    random.setstate(state)\n    print(x)\n", []),
        # a restore is no seed: nothing seeds random here
        ("import random\n\nif __name__ == '__main__':\n    state = random.getstate()\n    x = random.random()\n"
         "    random.setstate(state)\n    print(x)\n", ["RPL103"]),
        # a state loaded from a checkpoint does set it
        ("import pickle\nimport random\n\nif __name__ == '__main__':\n    random.setstate(pickle.load(open('c', 'rb')))\n"
         "    print(random.random())\n", []),
        ("import numpy as np\n\n\ndef pair(items):\n    _ = np.random.rand(1)\n    s = np.random.get_state()\n"
         "    out = np.random.permutation(len(items))\n    np.random.set_state(s)\n    return out\n", []),
    ],
)
def test_a_generator_state_put_back_is_no_seed(lint, code, expected):
    assert codes(lint(code, select=["RPL103", "RPL105"])) == expected


@pytest.mark.parametrize(
    "bound, expected",
    [
        ("torch.initial_seed()", ["RPL109"]),
        ("torch.utils.data.get_worker_info().seed", ["RPL109"]),
        ("(torch.initial_seed() + worker_id) % 2**32", []),
        ("torch.initial_seed() % 2**32 + worker_id", []),  # as the same expression written inline
        ("args.seed", []),  # not known
    ],
)
def test_rpl109_follows_a_local_variable(lint, bound, expected):
    code = f"import numpy as np\nimport torch\n\ndef init_fn(worker_id, args):\n    seed = {bound}\n    np.random.seed(seed)\n"
    assert codes(lint(code, select=["RPL109"])) == expected


@pytest.mark.parametrize("base", ["Dataset", "Dataset[Sample]", "data.Dataset[Sample]"])
def test_rpl108_a_dataset_base_written_with_its_type_argument(lint, base):
    """VBPR-PyTorch's ``class TradesyDataset(Dataset[TradesySample])``: the typed way of writing
    torch's ``Dataset``."""
    code = (
        "from typing import Tuple\n\nimport numpy as np\nfrom torch.utils import data\nfrom torch.utils.data import Dataset\n\n"
        "Sample = Tuple[int, int]\n\n\n"
        f"class Pairs({base}):\n    def __init__(self, n):\n        self.n = n\n        self.rng = np.random.default_rng(0)\n\n"
        "    def __getitem__(self, i):\n        return i, int(self.rng.integers(self.n))\n\n    def __len__(self):\n        return self.n\n"
    )
    assert codes(lint(code, select=["RPL108"])) == ["RPL108"]
