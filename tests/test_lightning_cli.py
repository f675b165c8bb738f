"""LightningCLI: it seeds through ``seed_everything_default`` (with ``workers=True``) and builds
its Trainer from ``trainer_defaults``, so RPL101, RPL201, RPL202 and RPL301 read both."""

from __future__ import annotations

import pytest

from conftest import codes, lint_files_in, write

SCRIPT = """\
from lightning.pytorch import LightningModule
from {module} import LightningCLI
from torch import nn
from torch.utils.data import DataLoader


class Model(LightningModule):
    def __init__(self):
        super().__init__()
        self.layer = nn.Linear(4, 2)

    def train_dataloader(self):
        return DataLoader(list(range(64)), batch_size=8, num_workers=4)


if __name__ == "__main__":
    LightningCLI(Model{args})
"""

MODERN = ("lightning.pytorch.cli", "pytorch_lightning.cli")
OLD = "pytorch_lightning.utilities.cli"
SEEDING = ["RPL101", "RPL301"]


def script(module, args=""):
    return SCRIPT.format(module=module, args=args)


@pytest.mark.parametrize("module", MODERN)
@pytest.mark.parametrize("args", ["", ", seed_everything_default=42", ", seed_everything_default=True", ", seed_everything_default=0"])
def test_the_cli_seeds_everything_and_the_workers_by_default(lint, module, args):
    # True (the default) calls seed_everything(workers=True): PL_GLOBAL_SEED or 0
    assert codes(lint(script(module, args), select=SEEDING)) == []


@pytest.mark.parametrize("module", MODERN)
@pytest.mark.parametrize("args", [", seed_everything_default=False", ", seed_everything_default=None"])
def test_the_cli_told_not_to_seed_leaves_the_run_unseeded(lint, module, args):
    assert codes(lint(script(module, args), select=SEEDING)) == SEEDING


def test_the_1x_cli_seeds_only_when_given_a_seed(lint):
    assert codes(lint(script(OLD), select=SEEDING)) == SEEDING
    assert codes(lint(script(OLD, ", seed_everything_default=7"), select=SEEDING)) == []
    # 1.x: (model, datamodule, save_config_callback, filename, overwrite, multifile,
    # trainer_class, trainer_defaults, seed_everything_default)
    positional = ", None, None, 'c.yaml', False, False, None, None, 3"
    assert codes(lint(script(OLD, positional), select=SEEDING)) == []


@pytest.mark.parametrize("module", MODERN + (OLD,))
def test_trainer_defaults_benchmark_is_reported_and_fixed(lint, module):
    found = lint(script(module, ', trainer_defaults={"benchmark": True}'), select=["RPL201"])
    assert [(d.code, d.line) for d in found] == [("RPL201", 17)]
    assert found[0].fix is not None


def test_trainer_defaults_benchmark_through_a_variable(lint):
    code = script(MODERN[0], ", trainer_defaults=defaults").replace(
        '    LightningCLI', '    defaults = dict(max_epochs=3)\n    defaults["benchmark"] = True\n    LightningCLI'
    )
    assert codes(lint(code, select=["RPL201"])) == ["RPL201"]


@pytest.mark.parametrize(
    "args", [', trainer_defaults={"benchmark": False}', ', trainer_defaults={"max_epochs": 3}', ", trainer_defaults=None"]
)
def test_trainer_defaults_without_benchmark_are_quiet(lint, args):
    assert codes(lint(script(MODERN[0], args), select=["RPL201"])) == []


@pytest.mark.parametrize(
    "defaults",
    [
        '{"accelerator": "auto"}', '{"accelerator": "gpu", "devices": 2}', 'dict(accelerator="cuda")',
        # the Trainer's own default, ``accelerator="auto"``
        "None", "{}", '{"max_epochs": 3}',
    ],
)
def test_trainer_defaults_accelerator_is_device_evidence(lint, defaults):
    found = lint(script(MODERN[0], f", trainer_defaults={defaults}"), select=["RPL202"])
    assert codes(found) == ["RPL202"]


def test_the_1x_cli_counts_gpus(lint):
    assert codes(lint(script(OLD, ', trainer_defaults={"gpus": 1}'), select=["RPL202"])) == ["RPL202"]
    assert codes(lint(script(OLD, ', trainer_defaults={"gpus": 0}'), select=["RPL202"])) == []
    # 1.x's Trainer ran on the CPU by default
    assert codes(lint(script(OLD, ""), select=["RPL202"])) == []


@pytest.mark.parametrize(
    "defaults",
    [
        '{"accelerator": "gpu", "deterministic": True}',
        '{"accelerator": "cpu"}',
    ],
)
def test_deterministic_or_cpu_trainer_defaults_are_quiet(lint, defaults):
    assert codes(lint(script(MODERN[0], f", trainer_defaults={defaults}"), select=["RPL202"])) == []


def test_the_cli_in_another_file_seeds_the_model_module(tmp_path):
    write(
        tmp_path,
        {
            "model.py": SCRIPT.split("\n\nif __name__")[0].format(module=MODERN[0]) + "\n",
            "main.py": """\
                from lightning.pytorch.cli import LightningCLI
                from model import Model

                if __name__ == "__main__":
                    LightningCLI(Model, seed_everything_default={seed}, trainer_defaults={"accelerator": "gpu"})
                """,
        },
    )
    main = tmp_path / "main.py"
    files = [tmp_path / "model.py", main]
    template = main.read_text()
    main.write_text(template.replace("{seed}", "1234"))
    seeded = lint_files_in(files, tmp_path, ["RPL101", "RPL202", "RPL301"])
    main.write_text(template.replace("{seed}", "False"))
    unseeded = lint_files_in(files, tmp_path, ["RPL101", "RPL202", "RPL301"])
    assert sorted(codes(seeded)) == ["RPL202"]
    assert sorted(codes(unseeded)) == ["RPL101", "RPL202", "RPL301"]


def test_workers_seeded_by_one_entry_point_do_not_exempt_another(tmp_path):
    write(
        tmp_path,
        {
            "yolo.py": SCRIPT.format(module=OLD, args=", seed_everything_default=42"),
            "dcgan.py": """\
                import pytorch_lightning as pl
                from torch.utils.data import DataLoader


                def cli_main(model, dataset):
                    pl.seed_everything(1234)
                    loader = DataLoader(dataset, batch_size=8, shuffle=True, num_workers=8)
                    pl.Trainer().fit(model, loader)


                if __name__ == "__main__":
                    cli_main(None, list(range(8)))
                """,
        },
    )
    found = lint_files_in([tmp_path / "yolo.py", tmp_path / "dcgan.py"], tmp_path, ["RPL301"])
    assert [(d.path.rsplit("/", 1)[-1], d.code) for d in found] == [("dcgan.py", "RPL301")]


@pytest.mark.parametrize("module", MODERN)
def test_a_project_subclass_of_the_cli_seeds_as_the_cli_does(tmp_path, module):
    """anomalib's ``class AnomalibCLI(LightningCLI)``, built by a console script's function."""
    write(
        tmp_path,
        {
            "model.py": SCRIPT.split("\n\nif __name__")[0].format(module=MODERN[0]) + "\n",
            "cli.py": f"""\
                from {module} import LightningCLI


                class ProjectCLI(LightningCLI):
                    pass


                class LoggingCLI(ProjectCLI):
                    pass
                """,
            "main.py": """\
                from cli import {cls}
                from model import Model

                if __name__ == "__main__":
                    {cls}(Model)
                """,
        },
    )
    main = tmp_path / "main.py"
    files = [tmp_path / "model.py", tmp_path / "cli.py", main]
    template = main.read_text()
    for cls in ("ProjectCLI", "LoggingCLI"):
        main.write_text(template.replace("{cls}", cls))
        assert codes(lint_files_in(files, tmp_path, SEEDING)) == [], cls
    # a class of the same shape that derives from something else seeds nothing
    (tmp_path / "cli.py").write_text("class ProjectCLI:\n    def __init__(self, model):\n        self.model = model\n")
    main.write_text(template.replace("{cls}", "ProjectCLI"))
    assert sorted(codes(lint_files_in(files, tmp_path, SEEDING))) == SEEDING


def test_a_cli_class_derived_from_a_project_subclass_of_lightning_cli_in_another_module(tmp_path):
    """perceiver-io: ``class ModelCLI(CLI)`` in each script, ``class CLI(LightningCLI)`` in
    ``scripts/cli.py``: building it seeds, as LightningCLI does by default."""
    write(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/cli.py": "from pytorch_lightning.cli import LightningCLI\n\n\nclass CLI(LightningCLI):\n"
            "    def __init__(self, model_class, run=True, **kwargs):\n        super().__init__(model_class, run=run, **kwargs)\n",
            "pkg/model.py": "import pytorch_lightning as pl\nfrom torch import nn\n\n\nclass Model(pl.LightningModule):\n"
            "    def __init__(self):\n        super().__init__()\n        self.layer = nn.Linear(4, 2)\n",
            "pkg/train.py": "from pkg.cli import CLI\nfrom pkg.model import Model\n\n\nclass ModelCLI(CLI):\n    pass\n\n\n"
            "if __name__ == '__main__':\n    ModelCLI(Model, run=True)\n",
        },
    )
    assert lint_files_in(sorted(tmp_path.rglob("*.py")), tmp_path, ["RPL101"]) == []
    # a project class that derives from no seeding class does not seed
    (tmp_path / "pkg/cli.py").write_text("class CLI:\n    def __init__(self, model_class, run=True, **kwargs):\n        model_class()\n")
    assert [d.code for d in lint_files_in(sorted(tmp_path.rglob("*.py")), tmp_path, ["RPL101"])] == ["RPL101"]
