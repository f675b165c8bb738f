"""RPL301/RPL302 on loaders by any other name, on values known on the default path, and on
loaders whose workers a library seeds."""

from __future__ import annotations

import os
import textwrap
from pathlib import Path

import pytest

from conftest import codes, lint_files_in, write
from fixtools import apply_fixes


def lines(diagnostics):
    return [(d.code, d.line) for d in diagnostics]


# -- DataLoaders by any other name ------------------------------------------------------------


@pytest.mark.parametrize(
    "head, call",
    [
        ("from torch_geometric.loader import NeighborLoader", "NeighborLoader(data, num_neighbors=[25, 10], shuffle=True, num_workers=6)"),
        ("from torch_geometric.loader import LinkNeighborLoader", "LinkNeighborLoader(data, [10], shuffle=True, num_workers=4)"),
        ("from torch_geometric.loader import DataLoader", "DataLoader(data, 32, True, num_workers=2)"),
        ("from torch_geometric.data import DataLoader", "DataLoader(data, 32, True, num_workers=2)"),
        ("from torch_geometric.loader import DenseDataLoader", "DenseDataLoader(data, 32, shuffle=True, num_workers=2)"),
        ("from torch_geometric.data import DataListLoader", "DataListLoader(data, 32, True, num_workers=2)"),
        ("from dgl.dataloading import GraphDataLoader", "GraphDataLoader(data, batch_size=8, shuffle=True, num_workers=2)"),
        ("from torchdata.stateful_dataloader import StatefulDataLoader", "StatefulDataLoader(data, 8, True, num_workers=2)"),
        ("from torch_geometric.loader import ClusterLoader", "ClusterLoader(data, batch_size=1, shuffle=True, num_workers=2)"),
        ("from torch_geometric.data import ClusterLoader", "ClusterLoader(data, batch_size=1, shuffle=True, num_workers=2)"),
        ("from torch_geometric.loader import GraphSAINTRandomWalkSampler", "GraphSAINTRandomWalkSampler(data, 32, 2, shuffle=True, num_workers=2)"),
        ("from torch_geometric.loader import ShaDowKHopSampler", "ShaDowKHopSampler(data, 2, 5, shuffle=True, num_workers=2)"),
        ("from torch_geometric.loader import RandomNodeLoader", "RandomNodeLoader(data, 4, shuffle=True, num_workers=2)"),
        ("from torch_geometric.loader import NeighborSampler", "NeighborSampler(data.edge_index, [10], shuffle=True, num_workers=2)"),
        ("from torch_geometric.data import NeighborSampler", "NeighborSampler(data.edge_index, sizes=[10], shuffle=True, num_workers=2)"),
        ("from torch_geometric.loader import RandomNodeSampler", "RandomNodeSampler(data, 4, True, num_workers=2)"),
        ("import dgl", "dgl.dataloading.DataLoader(data, idx, sampler, batch_size=8, shuffle=True, num_workers=2)"),
        ("from dgl.dataloading import DataLoader", "DataLoader(data, idx, sampler, None, False, 0, 8, False, True, num_workers=2)"),
        ("from dgl.dataloading import NodeDataLoader", "NodeDataLoader(data, idx, sampler, shuffle=True, num_workers=2)"),
    ],
)
def test_library_loaders_are_dataloaders(lint, head, call):
    found = lint(f"{head}\n\ndef make(data):\n    return {call}\n", select=["RPL301", "RPL302"])
    assert sorted(codes(found)) == ["RPL301", "RPL302"]


@pytest.mark.parametrize(
    "call, expected",
    [
        # MONAI's DataLoader installs its own worker_init_fn when none is passed
        ("DataLoader(data, 2, batch_size=8, shuffle=True)", ["RPL302"]),
        ("DataLoader(data, num_workers=2, batch_size=8, shuffle=True, worker_init_fn=None)", ["RPL301", "RPL302"]),
        ("DataLoader(data, num_workers=2, batch_size=8, shuffle=True, generator=g)", []),
        ("DataLoader(data, batch_size=8)", []),
    ],
)
def test_monai_dataloader(lint, call, expected):
    found = lint(f"from monai.data import DataLoader\n\ndef make(data, g):\n    return {call}\n", select=["RPL301", "RPL302"])
    assert sorted(codes(found)) == expected


@pytest.mark.parametrize(
    "call",
    [
        "DataLoader(data, 32, True, generator=g, num_workers=2, worker_init_fn=seed_fn)",
        "DataLoader(data, 32)",
        "DenseDataLoader(data, 32, False)",
    ],
)
def test_pyg_data_module_loaders_quiet(lint, call):
    code = f"from torch_geometric.data import DataLoader, DenseDataLoader\n\ndef make(data, g, seed_fn):\n    return {call}\n"
    assert codes(lint(code, select=["RPL301", "RPL302"])) == []


@pytest.mark.parametrize(
    "head, call",
    [
        # their own positional parameters are not DataLoader's batch_size and shuffle
        ("from torch_geometric.loader import ShaDowKHopSampler", "ShaDowKHopSampler(data, 2, 5, idx, True)"),
        ("from torch_geometric.loader import GraphSAINTNodeSampler", "GraphSAINTNodeSampler(data, 32, 5, 100)"),
        ("from torch_geometric.loader import ClusterLoader", "ClusterLoader(data, batch_size=1, shuffle=True, generator=g)"),
        ("from torch_geometric.loader import NeighborSampler", "NeighborSampler(data, [10], idx, 100, True)"),
        ("from torch_geometric.data import RandomNodeSampler", "RandomNodeSampler(data, 4)"),
        ("from dgl.dataloading import DataLoader", "DataLoader(data, idx, sampler, None, True, 0, 8, True)"),
        ("import dgl", "dgl.dataloading.DataLoader(data, idx, sampler, batch_size=8, shuffle=False, num_workers=0)"),
    ],
)
def test_graph_library_loaders_quiet(lint, head, call):
    code = f"{head}\n\ndef make(data, idx, sampler, g):\n    return {call}\n"
    assert codes(lint(code, select=["RPL301", "RPL302"])) == []


@pytest.mark.parametrize("extra", ["", ", generator=g", ", use_ddp=True"])
def test_a_loader_that_shuffles_itself_ignores_a_generator(lint, extra):
    # DGL's node DataLoader shuffles its index tensor with np.random.shuffle: neither a
    # generator nor use_ddp gives it a seeded order, and the finding offers no generator fix
    code = (
        "import dgl\n\n"
        f"def make(g, idx, sampler, gen):\n    return dgl.dataloading.DataLoader(g, idx, sampler, shuffle=True{extra})\n"
    )
    found = lint(code, select=["RPL302"])
    assert codes(found) == ["RPL302"]
    assert "global NumPy RNG" in found[0].message and "generator= does not change the order" in found[0].message
    assert found[0].fix is None


REBOUND = """\
from torch.utils.data import DataLoader


def build_dataloader(dataset, shuffle=True, sampler=None):
    if sampler is not None:
        shuffle = False
{rest}    return DataLoader(dataset, sampler=sampler, shuffle=shuffle)
"""


def test_a_parameter_rebound_on_some_paths_keeps_its_default_on_the_others(lint):
    found = lint(REBOUND.format(rest=""), select=["RPL302"])
    assert lines(found) == [("RPL302", 7)]


@pytest.mark.parametrize(
    "rest",
    [
        "    else:\n        shuffle = False\n",  # rebound on every path
        "    shuffle = False\n",
    ],
)
def test_a_parameter_rebound_on_every_path_has_only_the_new_values(lint, rest):
    assert codes(lint(REBOUND.format(rest=rest), select=["RPL302"])) == []


def test_library_loaders_keep_their_own_positions(lint):
    # NeighborLoader's second positional parameter is num_neighbors, not batch_size: a third
    # positional argument is input_nodes, not shuffle
    code = (
        "from torch_geometric.loader import NeighborLoader\n\n"
        "def make(data, mask):\n    return NeighborLoader(data, [10], mask)\n"
    )
    assert codes(lint(code, select=["RPL301", "RPL302"])) == []


@pytest.mark.parametrize(
    "call",
    [
        "GraphDataLoader(data, batch_size=8, shuffle=True, use_ddp=True)",  # its own seeded sampler
        "GraphDataLoader(data, None, True, shuffle=True)",
        "GraphDataLoader(data, batch_size=8, shuffle=True, generator=g)",
        "GraphDataLoader(data, batch_size=8, shuffle=False, num_workers=2, worker_init_fn=seed_fn)",
    ],
)
def test_library_loaders_quiet(lint, call):
    code = f"from dgl.dataloading import GraphDataLoader\n\ndef make(data, g, seed_fn):\n    return {call}\n"
    assert codes(lint(code, select=["RPL301", "RPL302"])) == []


SUBCLASS = """\
from torch.utils.data import DataLoader


class InfiniteDataLoader(DataLoader):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)


class SeededLoader(DataLoader):
    def __init__(self, dataset, batch_size, shuffle=False, **kwargs):
        super().__init__(dataset, batch_size, shuffle, worker_init_fn=seed_fn, **kwargs)


class FixedLoader(DataLoader):
    def __init__(self, dataset, shuffle):
        super().__init__(dataset, shuffle=shuffle)


def make(ds):
    a = InfiniteDataLoader(ds, 8, True, num_workers=4)
    b = SeededLoader(ds, 8, True, num_workers=4)
    c = FixedLoader(ds, True)
    return a, b, c
"""


def test_the_projects_own_subclasses(lint):
    found = lint(SUBCLASS, select=["RPL301", "RPL302"])
    assert lines(found) == [("RPL301", 20), ("RPL302", 20), ("RPL302", 21), ("RPL302", 22)]


def test_no_fix_passes_a_keyword_a_subclass_does_not_take(lint):
    code = SUBCLASS + '\n\nif __name__ == "__main__":\n    make([])\n'
    fixed = apply_fixes(code, lint(code, select=["RPL302"]))
    assert "c = FixedLoader(ds, True)\n" in fixed  # FixedLoader has no **kwargs
    assert "a = InfiniteDataLoader(ds, 8, True, num_workers=4, generator=" in fixed


def test_a_module_level_partial_of_a_loader(lint):
    code = (
        "import functools\nfrom torch.utils.data import DataLoader\n\n"
        "Loader = functools.partial(DataLoader, num_workers=4, shuffle=True)\n\n"
        "def make(ds):\n    return Loader(ds, batch_size=8)\n"
    )
    assert lines(lint(code, select=["RPL301", "RPL302"])) == [("RPL301", 4), ("RPL302", 4)]


# -- values on the default path -------------------------------------------------------------------

SCRIPT = """\
import argparse

import torch
from torch.utils.data import DataLoader

parser = argparse.ArgumentParser()
parser.add_argument("-j", "--workers", default={workers}, type=int)
parser.add_argument("--distributed", action="store_true")
parser.add_argument("--eval", action="store_true")


def main():
    args = parser.parse_args()
    torch.manual_seed(0)
    if args.distributed:
        sampler = torch.utils.data.distributed.DistributedSampler(ds)
    else:
        sampler = None
    loader = DataLoader(ds, shuffle=(sampler is None), num_workers=args.workers, sampler=sampler)
    other = DataLoader(ds, shuffle=False if args.eval else True)
    return loader, other


if __name__ == "__main__":
    main()
"""


def test_argparse_defaults_and_branches_decide_the_default_path(lint):
    found = lint(SCRIPT.format(workers=4), select=["RPL301", "RPL302"])
    assert lines(found) == [("RPL301", 19), ("RPL302", 19), ("RPL302", 20)]


def test_no_workers_on_the_default_path(lint):
    found = lint(SCRIPT.format(workers=0), select=["RPL301"])
    assert codes(found) == []


@pytest.mark.parametrize(
    "code, expected",
    [
        # a parameter's default, and the file's own calls
        ("def make(ds, shuffle=True):\n    return DataLoader(ds, shuffle=shuffle)\n", ["RPL302"]),
        ("def make(ds, shuffle=False):\n    return DataLoader(ds, shuffle=shuffle)\n", []),
        ("def make(ds, shuffle=False):\n    return DataLoader(ds, shuffle=shuffle)\n\nmake([], shuffle=True)\n", ["RPL302"]),
        ("def make(ds, split):\n    return DataLoader(ds, shuffle=split == 'train')\n\nmake([], 'train')\nmake([], 'val')\n", ["RPL302"]),
        ("def make(ds, split):\n    return DataLoader(ds, shuffle=split == 'train')\n\nmake([], 'val')\n", []),
        # an attribute set from a constructor parameter
        (
            "class DM:\n    def __init__(self, shuffle=True):\n        self.shuffle = shuffle\n"
            "    def train_dataloader(self):\n        return DataLoader([], shuffle=self.shuffle)\n",
            ["RPL302"],
        ),
        # ... in one statement with another (PatchTST's ``DataLoaders``), and from a call's result
        (
            "class DM:\n    def __init__(self, shuffle_train=True, shuffle_val=False):\n"
            "        self.shuffle_train, self.shuffle_val = shuffle_train, shuffle_val\n"
            "    def train_dataloader(self):\n        return DataLoader([], shuffle=self.shuffle_train)\n",
            ["RPL302"],
        ),
        (
            "class DM:\n    def __init__(self, shuffle_train=True, shuffle_val=False):\n"
            "        self.shuffle_train, self.shuffle_val = shuffle_train, shuffle_val\n"
            "    def val_dataloader(self):\n        return DataLoader([], shuffle=self.shuffle_val)\n",
            [],
        ),
        (
            "class DM:\n    shuffle = False\n    def __init__(self, flags):\n        self.shuffle, self.other = flags.pair()\n"
            "    def train_dataloader(self):\n        return DataLoader([], shuffle=self.shuffle)\n",
            [],
        ),
        (
            "class DM:\n    def __init__(self, shuffle: bool = False):\n        self.save_hyperparameters()\n"
            "    def train_dataloader(self):\n        return DataLoader([], shuffle=self.hparams.shuffle)\n",
            [],
        ),
        # num_workers known to be 0 on every path the file shows
        ("def make(ds, workers=0):\n    return DataLoader(ds, num_workers=workers)\n\nmake([])\n", []),
        # ... and a function nothing in the project calls runs with its default, as shuffle= above
        ("def make(ds, workers=0):\n    return DataLoader(ds, num_workers=workers)\n", []),
        ("def make(ds, workers):\n    return DataLoader(ds, num_workers=workers)\n", ["RPL301"]),
        ("def make(ds, workers=0):\n    return DataLoader(ds, num_workers=workers)\n\nmake([], workers=8)\n", ["RPL301"]),
        # a worker_init_fn that is None unless an option gives one
        (
            "def make(ds, seed=None):\n    init_fn = None\n    if seed is not None:\n        init_fn = seed_fn\n"
            "    return DataLoader(ds, num_workers=2, worker_init_fn=init_fn)\n\nmake([])\n",
            ["RPL301"],
        ),
        (
            "def make(ds, seed=0):\n    init_fn = None\n    if seed is not None:\n        init_fn = seed_fn\n"
            "    return DataLoader(ds, num_workers=2, worker_init_fn=init_fn)\n\nmake([])\n",
            [],
        ),
        # assigned on one path and unknown on the other: the benefit of the doubt
        (
            "def make(ds, flag):\n    if flag:\n        init_fn = None\n    else:\n        init_fn = seed_fn\n"
            "    return DataLoader(ds, num_workers=2, worker_init_fn=init_fn)\n",
            [],
        ),
    ],
)
def test_values_through_parameters_and_defaults(lint, code, expected):
    code = "from torch.utils.data import DataLoader\n\n" + code
    assert sorted(codes(lint(code, select=["RPL301", "RPL302"]))) == expected


MOCO_WORKER = """\
from torch.utils.data import DataLoader, DistributedSampler


def main_worker(gpu, args, dataset):
    if args.distributed:
        print("DistributedDataParallel")
    elif args.gpu is not None:
        raise NotImplementedError("Only DistributedDataParallel is supported.")
    else:
        raise NotImplementedError("Only DistributedDataParallel is supported.")
{between}
    if args.distributed:
        sampler = DistributedSampler(dataset)
    else:
        sampler = None
    return DataLoader(dataset, shuffle=(sampler is None), sampler=sampler)
"""


@pytest.mark.parametrize(
    "between, expected",
    [
        ("    args.start_epoch = 0\n", []),  # MoCo's and SimSiam's: past the guard, args.distributed holds
        ("    args.distributed = world_size() > 1\n", ["RPL302"]),  # set again after the guard
        ("    args = other(args)\n", ["RPL302"]),
    ],
)
def test_a_test_holds_after_a_guard_whose_other_branches_raise(lint, between, expected):
    """``args.distributed`` is an attribute its caller sets, which the values cannot read; the
    guard tells anyway: the code after it runs only where the test held."""
    assert codes(lint(MOCO_WORKER.format(between=between), select=["RPL302"])) == expected


def test_a_worker_init_fn_none_only_on_the_default_path_is_not_replaced(lint):
    code = textwrap.dedent(
        """\
        import torch
        from torch.utils.data import DataLoader


        def main(seed=None):
            torch.manual_seed(0)
            init_fn = None
            if seed is not None:
                init_fn = seed_fn
            return DataLoader([], num_workers=2, worker_init_fn=init_fn)


        if __name__ == "__main__":
            main()
        """
    )
    found = lint(code, select=["RPL301"])
    assert codes(found) == ["RPL301"]
    assert apply_fixes(code, found) == code


# -- worker seeding a library installs (Lightning) ---------------------------------------------------

LIGHTNING_SCRIPT = """\
from lightning.pytorch import Trainer, seed_everything
from torch.utils.data import DataLoader

if __name__ == "__main__":
    seed_everything(42, workers={workers})
    train_loader = DataLoader(ds, batch_size=16, num_workers=8)
    val_loader = DataLoader(ds, batch_size=16, num_workers=8)
    probe = DataLoader(ds, num_workers=8)
    trainer = Trainer(max_epochs=1)
    trainer.fit(model, train_loader, val_loader)
    for batch in probe:
        pass
"""


def test_lightning_workers_true_seeds_the_loaders_its_trainer_runs(lint):
    seeded = lint(LIGHTNING_SCRIPT.format(workers=True), select=["RPL301"])
    assert lines(seeded) == [("RPL301", 8)]  # the probe loader never reaches the Trainer
    unseeded = lint(LIGHTNING_SCRIPT.format(workers=False), select=["RPL301"])
    assert lines(unseeded) == [("RPL301", 6), ("RPL301", 7), ("RPL301", 8)]


def test_lightning_workers_true_through_a_combined_loader(lint):
    code = (
        "import pytorch_lightning as pl\nfrom pytorch_lightning.utilities import CombinedLoader\n"
        "from torch.utils.data import DataLoader\n\n"
        "if __name__ == '__main__':\n"
        "    pl.seed_everything(42, workers=True)\n"
        "    src = DataLoader(a, num_workers=4)\n"
        "    loaders = CombinedLoader({'src': src}, mode='max_size_cycle')\n"
        "    pl.Trainer().fit(model, train_dataloaders=loaders)\n"
    )
    assert codes(lint(code, select=["RPL301"])) == []


def test_a_datamodule_in_another_file_seeded_by_the_entry_point(tmp_path):
    write(
        tmp_path,
        {
            "data.py": """\
                import lightning as L
                from torch.utils.data import DataLoader


                class DM(L.LightningDataModule):
                    def train_dataloader(self):
                        return DataLoader(self.ds, shuffle=True, num_workers=4)
                """,
            "train.py": """\
                import lightning as L
                from data import DM

                if __name__ == "__main__":
                    L.seed_everything(0, workers={workers})
                    L.Trainer().fit(model, datamodule=DM())
                """,
        },
    )
    files = [tmp_path / "data.py", tmp_path / "train.py"]
    (tmp_path / "train.py").write_text((tmp_path / "train.py").read_text().replace("{workers}", "True"))
    seeded = lint_files_in(files, tmp_path, ["RPL301"])
    (tmp_path / "train.py").write_text((tmp_path / "train.py").read_text().replace("workers=True", "workers=False"))
    unseeded = lint_files_in(files, tmp_path, ["RPL301"])
    assert codes(seeded) == [] and codes(unseeded) == ["RPL301"]


FACTORY_DATA = """\
from torch.utils.data import DataLoader


def make_loader(dataset, num_workers=4):
    return DataLoader(dataset, batch_size=8, num_workers=num_workers)
"""

FACTORY_TRAIN = """\
import lightning.pytorch as pl

from data import make_loader

if __name__ == "__main__":
    pl.seed_everything(0, workers={workers})
    loader = make_loader(list(range(64)))
    {use}
"""


@pytest.mark.parametrize(
    "workers, use, expected",
    [
        (True, "pl.Trainer().fit(model, loader)", []),  # the Trainer runs what the factory returns
        (True, "pl.Trainer().fit(model, train_dataloaders=[loader])", []),
        (False, "pl.Trainer().fit(model, loader)", ["RPL301"]),  # nothing seeds the workers
        (True, "for batch in loader:\n        pass", ["RPL301"]),  # iterated by the script, not the Trainer
        (True, "pl.Trainer().fit(model, loader)\n    probe = make_loader([1, 2])", ["RPL301"]),  # one call's loader is not
    ],
)
def test_lightning_workers_true_seeds_a_loader_a_factory_returns_to_the_trainer(tmp_path, workers, use, expected):
    # stable-audio-tools: ``train_dl = create_dataloader_from_config(...)``, then ``trainer.fit(model, train_dl)``
    write(tmp_path, {"data.py": FACTORY_DATA, "train.py": FACTORY_TRAIN.format(workers=workers, use=use)})
    found = lint_files_in(sorted(tmp_path.glob("*.py")), tmp_path, ["RPL301"])
    assert [(d.code, os.path.basename(d.path)) for d in found] == [(c, "data.py") for c in expected]


@pytest.mark.parametrize(
    "body, use, expected",
    [
        # finetune-openai-whisper: the loader is bound to a name, then returned (alone or in a tuple)
        ("    loader = DataLoader(dataset, num_workers=4)\n    return loader\n", "loader = make_loader([1])\n    pl.Trainer().fit(m, loader)", []),
        ("    train = DataLoader(dataset, num_workers=4)\n    val = DataLoader(dataset, num_workers=4)\n    return train, val\n",
         "train, val = make_loader([1])\n    pl.Trainer().fit(m, train, val)", []),
        # one of them is not handed to the Trainer: both may be iterated elsewhere
        ("    train = DataLoader(dataset, num_workers=4)\n    val = DataLoader(dataset, num_workers=4)\n    return train, val\n",
         "train, val = make_loader([1])\n    pl.Trainer().fit(m, train)", [6, 7]),
        # bound but not returned: the factory uses it itself
        ("    loader = DataLoader(dataset, num_workers=4)\n    return list(loader)\n", "batches = make_loader([1])\n    pl.Trainer().fit(m, batches)", [6]),
    ],
)
def test_lightning_workers_true_seeds_a_loader_a_factory_binds_then_returns_to_the_trainer(tmp_path, body, use, expected):
    data = "import lightning.pytorch as pl\nfrom torch.utils.data import DataLoader\n\n\ndef make_loader(dataset):\n" + body
    train = f"import lightning.pytorch as pl\n\nfrom data import make_loader\n\nif __name__ == '__main__':\n    pl.seed_everything(0, workers=True)\n    m = None\n    {use}\n"
    write(tmp_path, {"data.py": data, "train.py": train})
    found = lint_files_in(sorted(tmp_path.glob("*.py")), tmp_path, ["RPL301"])
    assert [(d.code, os.path.basename(d.path), d.line) for d in found] == [("RPL301", "data.py", line) for line in expected]


@pytest.mark.parametrize(
    "call, expected",
    [
        ("dm.train_dataloader(drop_last=True)", ["RPL301"]),  # the keywords passed are known: no worker_init_fn
        ("dm.train_dataloader(worker_init_fn=seed_worker)", []),
        ("dm.train_dataloader(**options)", []),  # not known: the benefit of the doubt
    ],
)
def test_rpl301_a_method_factory_s_keywords_come_from_its_calls(lint, call, expected):
    # centroids-reid: ``def train_dataloader(self, cfg, **kwargs): return DataLoader(...,
    # num_workers=self.num_workers, **kwargs)``, called with ``drop_last`` only
    code = (
        "from torch.utils.data import DataLoader\n\n\nclass DataModule:\n    def __init__(self, num_workers=6):\n"
        "        self.num_workers = num_workers\n\n    def train_dataloader(self, **kwargs):\n"
        "        return DataLoader(self.ds, 2, num_workers=self.num_workers, **kwargs)\n\n\n"
        f"def run(options, seed_worker):\n    dm = DataModule()\n    return {call}\n"
    )
    assert codes(lint(code, select=["RPL301"])) == expected


def test_rpl301_a_method_factory_called_from_a_module_that_does_not_import_its_class(tmp_path):
    # centroids-reid: the data module comes from a registry, and ``utils/misc.py`` (which never
    # imports it) calls ``dm.train_dataloader(cfg, trainer, drop_last=...)``
    write(
        tmp_path,
        {
            "data.py": "from torch.utils.data import DataLoader\n\n\nclass DataModule:\n    num_workers = 6\n\n"
            "    def train_dataloader(self, cfg, **kwargs):\n"
            "        return DataLoader(self.ds, 2, num_workers=self.num_workers, **kwargs)\n",
            "misc.py": "def run(dm, cfg):\n    return dm.train_dataloader(cfg, drop_last={drop})\n",
        },
    )
    misc = tmp_path / "misc.py"
    text = misc.read_text()
    misc.write_text(text.replace("drop_last={drop}", "drop_last=True"))
    assert codes(lint_files_in(sorted(tmp_path.glob("*.py")), tmp_path, ["RPL301"])) == ["RPL301"]
    misc.write_text(text.replace("drop_last={drop}", "**cfg.loader"))  # not known: the benefit of the doubt
    assert codes(lint_files_in(sorted(tmp_path.glob("*.py")), tmp_path, ["RPL301"])) == []


def test_a_seeding_program_of_another_project_does_not_exempt_a_data_module(tmp_path):
    # two projects in one tree: ``proj_a`` seeds Lightning's workers, ``proj_b``'s data module
    # is run by no entry point of the run (its console script is not in it), and nothing seeds it
    write(
        tmp_path,
        {
            "proj_a/train.py": FACTORY_TRAIN.format(workers=True, use="pl.Trainer().fit(model, loader)"),
            "proj_a/data.py": FACTORY_DATA,
            "proj_b/pkg/__init__.py": "",
            "proj_b/pkg/dm.py": """\
                import lightning.pytorch as pl
                from torch.utils.data import DataLoader


                class DM(pl.LightningDataModule):
                    def train_dataloader(self):
                        return DataLoader(self.ds, num_workers=4)
                """,
        },
    )
    files = sorted(tmp_path.rglob("*.py"))
    found = lint_files_in(files, tmp_path, ["RPL301"])
    assert [os.path.relpath(d.path, tmp_path) for d in found] == [os.path.join("proj_b", "pkg", "dm.py")]
    # a seeding script of its own project, beside the package, may run it (chosen by a config)
    write(tmp_path, {"proj_b/train.py": FACTORY_TRAIN.format(workers=True, use="pl.Trainer().fit(model, loader)"), "proj_b/data.py": FACTORY_DATA})
    found = lint_files_in(sorted(tmp_path.rglob("*.py")), tmp_path, ["RPL301"])
    assert found == []


def test_a_seeding_script_that_imports_from_the_data_module_s_package_exempts_it(tmp_path):
    # libcll: ``scripts/train.py`` seeds the workers and imports ``libcll.datasets``, whose
    # data module it builds from a registry (no call the graph follows); ``libcll/libcll`` has
    # no ``__init__.py``
    dm = """\
        import lightning.pytorch as pl
        from torch.utils.data import DataLoader


        class DM(pl.LightningDataModule):
            def train_dataloader(self):
                return DataLoader(self.ds, num_workers=4)
        """
    write(
        tmp_path,
        {
            "libcll/libcll/datasets/__init__.py": "",
            "libcll/libcll/datasets/dm.py": dm,
            "libcll/scripts/train.py": "import lightning.pytorch as pl\nfrom libcll.datasets import prepare\n\n"
            "if __name__ == '__main__':\n    pl.seed_everything(0, workers={workers})\n    pl.Trainer().fit(model, datamodule=prepare())\n",
        },
    )
    train = tmp_path / "libcll/scripts/train.py"
    train.write_text(train.read_text().replace("{workers}", "True"))
    assert lint_files_in(sorted(tmp_path.rglob("*.py")), tmp_path, ["RPL301"]) == []
    train.write_text(train.read_text().replace("workers=True", "workers=False"))
    assert codes(lint_files_in(sorted(tmp_path.rglob("*.py")), tmp_path, ["RPL301"])) == ["RPL301"]


# -- worker seeds that never change (RPL303) ----------------------------------------------------------

MMENGINE_STYLE = """\
import random
from functools import partial

import numpy as np
import torch
from torch.utils.data import DataLoader


def worker_init_fn(worker_id, num_workers, rank, seed):
    worker_seed = num_workers * rank + worker_id + seed
    np.random.seed(worker_seed)
    random.seed(worker_seed)
    torch.manual_seed(worker_seed)


def build(ds, seed, rank, persistent=False):
    init_fn = partial(worker_init_fn, num_workers=4, rank=rank, seed=seed) if seed is not None else None
    return DataLoader(ds, num_workers=4, worker_init_fn=init_fn, persistent_workers=persistent)
"""


def test_rpl303_a_partial_seeding_from_the_worker_id_repeats_every_epoch(lint):
    found = lint(MMENGINE_STYLE, select=["RPL303"])
    # once for the loader and the function, at the loader's worker_init_fn argument, naming
    # each generator the function seeds that way
    assert lines(found) == [("RPL303", 18)]
    assert "every epoch" in found[0].message and "initial_seed" in found[0].message
    assert "numpy.random.seed, random.seed, torch.manual_seed with `worker_seed`" in found[0].message


def test_rpl303_is_reported_at_each_loader_whose_workers_are_renewed(lint):
    """One function, two loaders: the one whose workers persist keeps its streams, the other
    replays them every epoch (the recall of OpenMMLab 1.x's ``build_dataloader``, which passes
    ``persistent_workers`` only on torch >= 1.8)."""
    code = MMENGINE_STYLE + (
        "\n\ndef build_old(ds, seed, rank):\n"
        "    init_fn = partial(worker_init_fn, num_workers=4, rank=rank, seed=seed)\n"
        "    fresh = DataLoader(ds, num_workers=4, worker_init_fn=init_fn)\n"
        "    kept = DataLoader(ds, num_workers=4, worker_init_fn=init_fn, persistent_workers=True)\n"
        "    return fresh, kept\n"
    )
    found = lint(code.replace("persistent=False", "persistent=True"), select=["RPL303"])
    assert lines(found) == [("RPL303", 23)]


def test_rpl303_persistent_workers_keep_their_streams(lint):
    code = MMENGINE_STYLE.replace("persistent=False", "persistent=True")
    assert codes(lint(code, select=["RPL303"])) == []


@pytest.mark.parametrize("persistent", [False, True])
@pytest.mark.parametrize("params, bind, same_in_every_worker", [
    # Faster-RCNN: ``rank + seed``, both bound, the worker's id unused
    ("worker_id, rank, seed", "partial(worker_init_fn, rank=0, seed=seed)", True),
    ("rank, worker_id, seed", "partial(worker_init_fn, 0, seed=seed)", True),  # ``rank`` bound by position
    ("rank, seed, worker_id", "partial(worker_init_fn, 0, 1)", True),
    ("seed, rank", "partial(worker_init_fn, seed)", False),  # the worker's id goes to ``rank``
    ("worker_id, rank=0, seed=0", "worker_init_fn", False),  # defaults are not read as bound
])
def test_rpl303_a_seed_made_only_of_what_a_partial_binds_is_the_same_in_every_worker(lint, params, bind, same_in_every_worker, persistent):
    """The parameters a ``functools.partial`` binds hold the same values in every worker: a seed
    made of them alone is a constant, whether the workers persist or not."""
    code = (
        "from functools import partial\n\nimport numpy as np\nfrom torch.utils.data import DataLoader\n\n\n"
        f"def worker_init_fn({params}):\n    np.random.seed(rank + seed)\n\n\n"
        f"def build(ds, seed):\n    return DataLoader(ds, num_workers=4, worker_init_fn={bind}, persistent_workers={persistent})\n"
    )
    found = lint(code, select=["RPL303"])
    if same_in_every_worker:
        assert codes(found) == ["RPL303"] and "the same in every worker" in found[0].message
    else:
        assert codes(found) == ([] if persistent else ["RPL303"])


KWARGS_PERSIST = """\
from functools import partial

import numpy as np
from torch.utils.data import DataLoader


def build(ds, workers=2, seed=0, persistent_workers=True, **kwargs):
    init_fn = partial(worker_init_fn, num_workers=workers, seed=seed)
    {write}
    return DataLoader(ds, num_workers=workers, worker_init_fn=init_fn, **kwargs)


def worker_init_fn(worker_id, num_workers, seed):
    np.random.seed(num_workers + worker_id + seed)
"""


@pytest.mark.parametrize(
    "write",
    [
        "kwargs['persistent_workers'] = persistent_workers",  # the parameter's default, True
        "if workers > 0:\n        kwargs['persistent_workers'] = persistent_workers",  # on some path
        "kwargs.update(persistent_workers=True)",
        "kwargs.setdefault('persistent_workers', True)",  # True unless the caller passes one
        "kwargs['persistent_workers'] = ds.persist",  # a value we cannot evaluate
    ],
)
def test_rpl303_persistent_workers_written_into_the_kwargs_parameter(lint, write):
    assert codes(lint(KWARGS_PERSIST.format(write=write), select=["RPL303"])) == []


@pytest.mark.parametrize(
    "write",
    [
        "kwargs['persistent_workers'] = False",
        "kwargs['persistent_workers'] = persistent_workers and False",
        "kwargs['pin_memory'] = True",  # another key: persistent_workers is the caller's, default False
    ],
)
def test_rpl303_the_kwargs_parameter_without_persistent_workers(lint, write):
    found = lint(KWARGS_PERSIST.format(write=write), select=["RPL303"])
    assert lines(found) == [("RPL303", 10)]


@pytest.mark.parametrize(
    "seed",
    [
        "torch.initial_seed() % 2**32",
        "(torch.initial_seed() + worker_id) % 2**32",
        "np.random.get_state()[1][0] + worker_id",
        "int(time.time()) + worker_id",  # varies (though not reproducibly): not this rule's case
    ],
)
def test_rpl303_seeds_that_change_every_epoch(lint, seed):
    code = MMENGINE_STYLE.replace("num_workers * rank + worker_id + seed", seed).replace("import random\n", "import random\nimport time\n")
    assert codes(lint(code, select=["RPL303"])) == []


def test_rpl303_follows_the_partial_into_another_module(tmp_path):
    write(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/dataset/__init__.py": "from .utils import worker_init_fn\n",
            "pkg/dataset/utils.py": """\
                import numpy as np


                def worker_init_fn(worker_id, num_workers, rank, seed):
                    np.random.seed(num_workers * rank + worker_id + seed)
                """,
            "pkg/runner.py": """\
                from functools import partial

                from torch.utils.data import DataLoader

                from pkg.dataset import worker_init_fn as default_worker_init_fn


                def build_dataloader(ds, seed, rank):
                    init_fn = None
                    if seed is not None:
                        init_fn = partial(default_worker_init_fn, num_workers=2, rank=rank, seed=seed)
                    return DataLoader(ds, num_workers=2, worker_init_fn=init_fn)
                """,
        },
    )
    files = sorted(tmp_path.rglob("*.py"))
    found = lint_files_in(files, tmp_path, ["RPL303"])
    assert [(d.path.rsplit("/", 1)[-1], d.line) for d in found] == [("runner.py", 12)]
    assert "`worker_init_fn` seeds numpy.random.seed with `num_workers * rank + worker_id + seed`" in found[0].message


# -- a switch that is on on the default path (RPL201) ---------------------------------------------------


@pytest.mark.parametrize(
    "code, expected",
    [
        ("def setup(benchmark=True):\n    torch.backends.cudnn.benchmark = benchmark\n", ["RPL201"]),
        ("def setup(benchmark=False):\n    torch.backends.cudnn.benchmark = benchmark\n", []),
        ("def setup(benchmark=True):\n    torch.backends.cudnn.benchmark = benchmark\n\nsetup(benchmark=False)\n", []),
        (
            "import argparse\np = argparse.ArgumentParser()\np.add_argument('--benchmark', action='store_true')\n"
            "args = p.parse_args()\ntorch.backends.cudnn.benchmark = args.benchmark\n",
            [],
        ),
        (
            "import argparse\np = argparse.ArgumentParser()\np.add_argument('--no-benchmark', dest='benchmark', action='store_false')\n"
            "args = p.parse_args()\ntorch.backends.cudnn.benchmark = args.benchmark\n",
            ["RPL201"],
        ),
        ("import lightning as L\n\ndef fit(bench=True):\n    L.Trainer(benchmark=bench)\n", ["RPL201"]),
    ],
)
def test_rpl201_on_the_default_path(lint, code, expected):
    found = lint("import torch\n" + code, select=["RPL201"])
    assert codes(found) == expected
    assert all(not d.fix or not d.fix.edits for d in found)  # a variable is never rewritten


# -- loaders built in a project factory ---------------------------------------------------------------


def test_rpl302_a_factory_called_by_the_entry_point_with_literal_arguments(tmp_path):
    write(
        tmp_path,
        {
            "data/__init__.py": "",
            "data/build.py": """\
                from torch.utils.data import DataLoader


                def build_dataloader(dataset, batch_size=32, shuffle=False, workers=0):
                    return DataLoader(dataset, batch_size, shuffle, num_workers=workers)


                def build_always_shuffled(dataset):
                    return DataLoader(dataset, shuffle=True)
                """,
            "train.py": """\
                import torch
                from data.build import build_always_shuffled, build_dataloader

                if __name__ == "__main__":
                    torch.manual_seed(0)
                    train_loader = build_dataloader(ds, shuffle=True)
                    val_loader = build_dataloader(ds)
                    other = build_always_shuffled(ds)
                """,
        },
    )
    files = sorted(tmp_path.rglob("*.py"))
    found = lint_files_in(files, tmp_path, ["RPL302"])
    where = [(d.path.rsplit("/", 1)[-1], d.line) for d in found]
    # the factory that always shuffles is reported at its constructor, the other at the call
    assert where == [("build.py", 9), ("train.py", 6)]
    assert "build_dataloader(...)" in found[1].message and not found[1].fix


def test_rpl302_a_factory_call_that_passes_a_generator_is_quiet(tmp_path):
    """...and one that leaves the factory's generator=None is not."""
    write(
        tmp_path,
        {
            "build.py": """\
                from torch.utils.data import DataLoader


                def build_dataloader(dataset, shuffle=False, generator=None):
                    return DataLoader(dataset, shuffle=shuffle, generator=generator)
                """,
            "train.py": """\
                from build import build_dataloader

                if __name__ == "__main__":
                    loader = build_dataloader(ds, shuffle=True, generator=g)
                    quiet = build_dataloader(ds, shuffle=False)
                    shuffled = build_dataloader(ds, shuffle=True)
                """,
        },
    )
    files = sorted(tmp_path.rglob("*.py"))
    assert lines(lint_files_in(files, tmp_path, ["RPL302"])) == [("RPL302", 6)]


def test_rpl302_a_factory_s_own_generator_is_decided_by_each_call_s_arguments(tmp_path):
    """unimol_tools' ``Trainer``: ``g = torch.Generator().manual_seed(seed) if seeded else
    None`` in the factory; the shuffling call passes ``seeded=False`` (another call seeds)."""
    write(
        tmp_path,
        {
            "build.py": """\
                import torch
                from torch.utils.data import DataLoader


                def make_loader(dataset, shuffle=False, seeded=False):
                    g = torch.Generator().manual_seed(0) if seeded else None
                    return DataLoader(dataset, batch_size=8, shuffle=shuffle, generator=g)
                """,
            "train.py": """\
                from build import make_loader

                if __name__ == "__main__":
                    shuffled = make_loader(ds, shuffle=True, seeded=False)
                    evaluated = make_loader(ds, shuffle=False, seeded=True)
                    seeded = make_loader(ds, shuffle=True, seeded=True)
                """,
        },
    )
    files = sorted(tmp_path.rglob("*.py"))
    assert lines(lint_files_in(files, tmp_path, ["RPL302"])) == [("RPL302", 4)]


FORWARDING_FACTORY = """\
    from torch.utils.data import DataLoader


    def get_dataloader(ds, pad_to_longest=True, **kwargs):
        collate_fn = None if pad_to_longest else list
        return DataLoader(ds, collate_fn=collate_fn, **kwargs)


    def get_seeded_dataloader(ds, **kwargs):
        return DataLoader(ds, generator=make_generator(0), worker_init_fn=seed_worker, **kwargs)


    def get_named_dataloader(ds, shuffle=False, workers=0, **kwargs):
        return DataLoader(ds, shuffle=shuffle, num_workers=workers, **kwargs)
    """


@pytest.mark.parametrize(
    "code, keyword, expected",
    [
        ("RPL302", "shuffle=True", True),
        ("RPL302", "shuffle=False", False),
        ("RPL302", "shuffle=True, generator=g", False),
        ("RPL302", "shuffle=flag", False),  # not known here
        ("RPL302", "**cfg", False),  # may pass a generator
        ("RPL302", "shuffle=True, **cfg", False),
        ("RPL301", "num_workers=4", True),
        ("RPL301", "num_workers=0", False),
        ("RPL301", "num_workers=4, worker_init_fn=seed_worker", False),
        ("RPL301", "num_workers=n", True),  # not known: maybe some, as at a loader
        ("RPL301", "num_workers=cfg['workers']", True),
        ("RPL301", "num_workers=n, worker_init_fn=seed_worker", False),
        ("RPL301", "num_workers=4, **cfg", False),
    ],
)
def test_a_factory_that_passes_its_kwargs_on_is_reported_at_its_call(tmp_path, code, keyword, expected):
    """The factory is a module, not an entry point, and so is the module that calls it; the
    loader inside the factory is not reported: its keywords are the call's."""
    write(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/data.py": FORWARDING_FACTORY,
            "pkg/trainer.py": f"""\
                from pkg.data import get_dataloader


                class Trainer:
                    def __init__(self, ds, flag, n, cfg):
                        self.dl = get_dataloader(ds, batch_size=4, {keyword})
                """,
        },
    )
    found = lint_files_in(sorted(tmp_path.rglob("*.py")), tmp_path, [code])
    assert [(d.path.rsplit("/", 1)[-1], d.line) for d in found] == ([("trainer.py", 6)] if expected else [])
    if expected:
        assert not found[0].fix


@pytest.mark.parametrize(
    "call, expected",
    [
        ("get_seeded_dataloader(ds, shuffle=True, num_workers=4)", []),  # the factory passes its own
        ("get_named_dataloader(ds, shuffle=True, workers=2)", ["RPL301", "RPL302"]),  # named, and passed on
        ("get_named_dataloader(ds, True, 2, generator=g, worker_init_fn=seed_worker)", []),  # the rest, through **kwargs
        ("get_named_dataloader(ds)", []),
    ],
)
def test_a_factory_call_is_reported_only_when_its_arguments_switch_the_hazard_on(tmp_path, call, expected):
    write(
        tmp_path,
        {
            "data.py": FORWARDING_FACTORY,
            "train.py": f"from data import get_named_dataloader, get_seeded_dataloader\n\nloader = {call}\n",
        },
    )
    found = lint_files_in(sorted(tmp_path.rglob("*.py")), tmp_path, ["RPL301", "RPL302"])
    assert sorted((d.path.rsplit("/", 1)[-1], d.code) for d in found) == [("train.py", c) for c in expected]


def test_a_factory_that_shuffles_whoever_calls_it_is_reported_once_at_its_loader(tmp_path):
    write(
        tmp_path,
        {
            "data.py": """\
                from torch.utils.data import DataLoader


                def get_dataloader(ds, shuffle=True, workers=2):
                    return DataLoader(ds, shuffle=shuffle, num_workers=workers)
                """,
            "train.py": "from data import get_dataloader\n\nloader = get_dataloader(ds, shuffle=True, workers=4)\n",
        },
    )
    found = lint_files_in(sorted(tmp_path.rglob("*.py")), tmp_path, ["RPL301", "RPL302"])
    assert sorted((d.path.rsplit("/", 1)[-1], d.code) for d in found) == [("data.py", "RPL301"), ("data.py", "RPL302")]


# -- values returned by the project's functions --------------------------------------------------

SAMPLER_FACTORY = """\
    from torch.utils.data import WeightedRandomSampler


    def create_sampler(weights, y):
        if isinstance(weights, int):
            if weights == 0:
                need_shuffle = True
                sampler = None
            elif weights == 1:
                need_shuffle = False
                sampler = WeightedRandomSampler(y, len(y), generator=g)
            else:
                raise ValueError("weights should be 0, 1 or a list")
        else:
            need_shuffle = False
            sampler = WeightedRandomSampler(weights, len(weights), generator=g)
        return need_shuffle, sampler


    def never_shuffled(weights, y):
        if weights == 0:
            return False, None
        return False, WeightedRandomSampler(weights, len(weights), generator=g)


    def seeded_order(seed):
        return True, torch.Generator().manual_seed(seed)
    """

SAMPLER_CALLER = """\
    from torch.utils.data import DataLoader


    def create_dataloaders(ds, weights, y, {params}):
        {call}
        return DataLoader(ds, batch_size=32, sampler=sampler, shuffle=need_shuffle{extra})
    """


@pytest.mark.parametrize(
    "call, params, extra, expected",
    [
        ("need_shuffle, sampler = create_sampler(weights, y)", "", "", True),  # weights=0 shuffles
        ("need_shuffle, sampler = create_sampler(0, y)", "", "", True),
        ("need_shuffle, sampler = create_sampler([1.0, 2.0], y)", "", "", False),  # picks its branch
        ("need_shuffle, sampler = create_sampler(1, y)", "", "", False),
        ("need_shuffle, sampler = never_shuffled(weights, y)", "", "", False),  # False on every return
        ("need_shuffle, g = seeded_order(0)\n    sampler = None", "", ", generator=g", False),
        ("need_shuffle, sampler = make_sampler(weights, y)", "make_sampler", "", False),  # not known
    ],
)
@pytest.mark.parametrize("cross_file", [False, True])
def test_rpl302_follows_a_shuffle_flag_returned_by_a_project_function(tmp_path, call, params, extra, expected, cross_file):
    """tabnet's create_sampler/create_dataloaders: the flag comes back from a function of the
    module, or of another project module imported by name."""
    caller = textwrap.dedent(SAMPLER_CALLER).format(call=call, params=params or "unused=None", extra=extra)
    factory = textwrap.dedent(SAMPLER_FACTORY)
    if cross_file:
        files = {"pkg/__init__.py": "", "pkg/samplers.py": factory,
                 "pkg/loaders.py": "from pkg.samplers import create_sampler, never_shuffled, seeded_order\n" + caller}
    else:
        files = {"loaders.py": factory + "\n\n" + caller}
    write(tmp_path, files)
    found = lint_files_in(sorted(tmp_path.rglob("*.py")), tmp_path, ["RPL302"])
    assert [(d.path.rsplit("/", 1)[-1], d.message.split(" ", 1)[0]) for d in found] == (
        [("loaders.py", "DataLoader(shuffle=True)")] if expected else []
    )


def test_a_finding_at_a_factory_call_names_the_factory(tmp_path):
    write(
        tmp_path,
        {
            "data.py": FORWARDING_FACTORY,
            "train.py": "from data import get_named_dataloader\n\nloader = get_named_dataloader(ds, shuffle=True, workers=2)\n",
        },
    )
    found = {d.code: d.message for d in lint_files_in(sorted(tmp_path.rglob("*.py")), tmp_path, ["RPL301", "RPL302"])}
    assert found["RPL301"].startswith("get_named_dataloader(...) builds a DataLoader with num_workers=2 and no worker_init_fn: pass")
    assert found["RPL302"].startswith("get_named_dataloader(...) builds a DataLoader(shuffle=True) that draws the data order")
    assert "pass generator=" in found["RPL302"]


@pytest.mark.parametrize(
    "body",
    [
        # a nested function of the same name
        "def run(ds):\n    def get_dataloader(ds, **kwargs):\n        return list(ds)\n    return get_dataloader(ds, shuffle=True)\n",
        # a parameter of the same name
        "def run(ds, get_dataloader):\n    return get_dataloader(ds, shuffle=True)\n",
        # a local variable of the same name
        "def run(ds, make):\n    get_dataloader = make\n    return get_dataloader(ds, shuffle=True)\n",
    ],
)
def test_a_local_name_that_shadows_a_factory_is_not_the_factory(tmp_path, body):
    write(
        tmp_path,
        {
            "data.py": FORWARDING_FACTORY,
            "train.py": "from data import get_dataloader\n\n\n" + body,
            "other.py": "def get_dataloader(ds, **kwargs):\n    return list(ds)\n\n\nloader = get_dataloader(ds, shuffle=True)\n",
        },
    )
    assert lint_files_in(sorted(tmp_path.rglob("*.py")), tmp_path, ["RPL302"]) == []

# -- DataLoader subclasses of other project modules, and loaders called through a local name ------

MEL = """\
    import torch


    class MultiEpochsDataLoader(torch.utils.data.DataLoader):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
    """


def lint_project(tmp_path, files, select=("RPL301", "RPL302")):
    write(tmp_path, files)
    return lint_files_in([tmp_path / name for name in files], tmp_path, list(select))


def test_a_subclass_from_another_module_is_a_dataloader(tmp_path):
    found = lint_project(
        tmp_path,
        {
            "mel.py": MEL,
            "train.py": """\
                from mel import MultiEpochsDataLoader


                def get_loader(ds, workers=5):
                    return MultiEpochsDataLoader(ds, batch_size=8, shuffle=True, num_workers=workers)
                """,
        },
    )
    assert [(os.path.basename(d.path), d.code) for d in found] == [("train.py", "RPL301"), ("train.py", "RPL302")]


def test_a_subclass_of_a_subclass_in_a_package(tmp_path):
    found = lint_project(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/mel.py": MEL,
            "pkg/fast.py": """\
                from .mel import MultiEpochsDataLoader


                class FastLoader(MultiEpochsDataLoader):
                    def __init__(self, dataset, batch_size=1, **kwargs):
                        super().__init__(dataset, batch_size=batch_size, shuffle=True, **kwargs)
                """,
            "train.py": """\
                from pkg.fast import FastLoader


                def get_loader(ds):
                    return FastLoader(ds, 8, num_workers=4)
                """,
        },
    )
    # FastLoader's own __init__ shuffles: RPL302 is about its call, not this one's arguments
    assert [(os.path.basename(d.path), d.code) for d in found] == [("train.py", "RPL301")]


def test_a_subclass_from_another_module_given_everything_is_quiet(tmp_path):
    found = lint_project(
        tmp_path,
        {
            "mel.py": MEL,
            "train.py": """\
                import torch
                from mel import MultiEpochsDataLoader


                def get_loader(ds, seed_fn, workers=5):
                    g = torch.Generator()
                    g.manual_seed(0)
                    return MultiEpochsDataLoader(
                        ds, batch_size=8, shuffle=True, num_workers=workers, worker_init_fn=seed_fn, generator=g
                    )
                """,
        },
    )
    assert codes(found) == []


def test_a_class_named_as_a_loader_that_is_no_dataloader_is_quiet(tmp_path):
    found = lint_project(
        tmp_path,
        {
            "data.py": """\
                class CsvLoader:
                    def __init__(self, path, shuffle=False, num_workers=0):
                        self.path = path
                """,
            "train.py": """\
                from data import CsvLoader


                def get_loader(path):
                    loader_cls = CsvLoader
                    return loader_cls(path, shuffle=True, num_workers=4)
                """,
        },
    )
    assert codes(found) == []


@pytest.mark.parametrize(
    "binding",
    [
        "dataloader_fn = MultiEpochsDataLoader",
        "dataloader_fn = MultiEpochsDataLoader if fast else DataLoader",
        "dataloader_fn = DataLoader\n    if fast:\n        dataloader_fn = MultiEpochsDataLoader",
    ],
)
def test_a_loader_called_through_a_local_name(tmp_path, binding):
    found = lint_project(
        tmp_path,
        {
            "mel.py": MEL,
            "train.py": (
                "from torch.utils.data import DataLoader\nfrom mel import MultiEpochsDataLoader\n\n\n"
                "def get_loader(ds, workers=5, fast=True):\n"
                f"    {binding}\n"
                "    return dataloader_fn(ds, batch_size=8, shuffle=True, num_workers=workers)\n"
            ),
        },
    )
    assert sorted(codes(found)) == ["RPL301", "RPL302"]


def test_a_same_module_subclass_through_a_local_name(lint):
    code = """\
        import torch


        class MultiEpochsDataLoader(torch.utils.data.DataLoader):
            pass


        def get_loader(ds, workers=5):
            dataloader_fn = MultiEpochsDataLoader
            return dataloader_fn(ds, batch_size=8, shuffle=True, num_workers=workers)
        """
    assert codes(lint(code, select=["RPL301", "RPL302"])) == ["RPL301", "RPL302"]


@pytest.mark.parametrize(
    "function",
    [
        # a parameter: the caller's choice, not followed
        "def get_loader(ds, loader_cls):\n    return loader_cls(ds, shuffle=True, num_workers=4)\n",
        # the name is rebound to something else on the default path
        "def get_loader(ds):\n    fn = DataLoader\n    fn = make_batches\n    return fn(ds, shuffle=True, num_workers=4)\n",
        # a loader given what it needs through the alias
        "def get_loader(ds, g, seed_fn):\n    fn = DataLoader\n    return fn(ds, shuffle=True, num_workers=4, generator=g, worker_init_fn=seed_fn)\n",
    ],
)
def test_local_names_that_are_not_unseeded_loaders_are_quiet(lint, function):
    code = "from torch.utils.data import DataLoader\nfrom batching import make_batches\n\n\n" + function
    assert codes(lint(code, select=["RPL301", "RPL302"])) == []


def test_rpl101_sees_the_loaders_that_rpl302_reports(tmp_path):
    """One resolver for both rule families: a subclass from another module called through a
    local name is a shuffled loader for RPL101 too, and RPL301/RPL302 report it as before."""
    files = {
        "mel.py": MEL,
        "train.py": """\
            from torch.utils.data import DataLoader
            from mel import MultiEpochsDataLoader


            def get_loader(ds, sampler=None, workers=4, fast=True):
                fn = MultiEpochsDataLoader if fast else DataLoader
                return fn(ds, batch_size=8, shuffle=(sampler is None), sampler=sampler, num_workers=workers)


            if __name__ == "__main__":
                get_loader(list(range(10)))
            """,
    }
    found = lint_project(tmp_path, files, select=("RPL101", "RPL301", "RPL302"))
    assert sorted((os.path.basename(d.path), d.code, d.line) for d in found) == [
        ("train.py", "RPL101", 7),  # the shuffled loader built in this file is the first use
        ("train.py", "RPL301", 7),
        ("train.py", "RPL302", 7),
    ]


KWARGS_FACTORY = """\
from torch.utils.data import DataLoader


def build_dataloader(dataset, batch_size=2, shuffle=True, **kwargs):
    return DataLoader(dataset, batch_size=batch_size, shuffle=shuffle, **kwargs)
"""


@pytest.mark.parametrize(
    "caller, expected",
    [
        ("build_dataloader(dataset, 4, drop_last=True)", ["RPL302"]),  # the callers' keywords are known
        ("build_dataloader(dataset, 4)", ["RPL302"]),
        ("build_dataloader(dataset, 4, generator=g)", []),  # a caller passes a generator
        ("build_dataloader(dataset, **cfg)", []),  # a config we cannot see may hold one
        ("register(build_dataloader)", []),  # handed on: called where we cannot see
        ("None", []),  # never called in the project: its callers are elsewhere
    ],
)
def test_a_factory_kwargs_parameter_holds_what_its_project_callers_pass(tmp_path, caller, expected):
    write(tmp_path, {
        "factory.py": KWARGS_FACTORY,
        "train.py": f"from factory import build_dataloader\n\n\ndef train(dataset, g, cfg, register):\n    return {caller}\n",
    })
    found = lint_files_in(sorted(tmp_path.rglob("*.py")), tmp_path, ["RPL302"])
    assert [(os.path.basename(d.path), d.code) for d in found] == [("factory.py", c) for c in expected]


@pytest.mark.parametrize("generator, expected", [("", ["RPL302"]), (", generator=g", [])])
def test_a_factory_called_through_a_package_that_re_exports_it(tmp_path, generator, expected):
    write(tmp_path, {
        "pkg/__init__.py": "from .builder import build_dataloader\n",
        "pkg/builder.py": KWARGS_FACTORY,
        "train.py": f"from pkg import build_dataloader\n\n\ndef train(dataset, g):\n    return build_dataloader(dataset, 4{generator})\n",
    })
    found = lint_files_in(sorted(tmp_path.rglob("*.py")), tmp_path, ["RPL302"])
    assert [(os.path.basename(d.path), d.code) for d in found] == [("builder.py", c) for c in expected]


@pytest.mark.parametrize(
    "imported, called, expected",
    [
        ("from pkg import data", "data.build_loaders", [("data.py", "RPL302", 5)]),
        ("import pkg", "pkg.data.build_loaders", [("data.py", "RPL302", 5)]),
        ("from pkg.core import data", "data.build_loaders", [("data.py", "RPL302", 5)]),
    ],
)
def test_a_factory_called_through_a_package_that_re_exports_its_module(tmp_path, imported, called, expected):
    """bioencoder: ``pkg/__init__.py`` does ``from .core import utils``, and the scripts call
    ``utils.build_loaders(...)`` after ``from bioencoder import utils``, leaving
    ``shuffle_train=True`` as it is; a call that turns it off (``plots.py``) is not every call."""
    write(tmp_path, {
        "pkg/__init__.py": "from .core import data\n",
        "pkg/core/__init__.py": "",
        "pkg/core/data.py": "import torch\n\n\ndef build_loaders(dataset, shuffle_train=True):\n"
        "    return torch.utils.data.DataLoader(dataset, batch_size=4, shuffle=shuffle_train)\n",
        "pkg/plots.py": "from pkg.core import data\n\nif __name__ == '__main__':\n"
        "    print(data.build_loaders(list(range(16)), shuffle_train=False))\n",
        "pkg/train.py": f"{imported}\n\nif __name__ == '__main__':\n    print({called}(list(range(16))))\n",
    })
    found = lint_files_in(sorted(tmp_path.rglob("*.py")), tmp_path, ["RPL302"])
    assert [(os.path.basename(d.path), d.code, d.line) for d in found] == expected


@pytest.mark.parametrize(
    "call, expected",
    [
        ("make(ds, shuffle=True)", [("data.py", "RPL302")]),  # another module's call switches it on
        ("make(ds, True)", [("data.py", "RPL302")]),
        ("make(ds)", []),  # the default
        ("make(ds, shuffle=flag)", []),  # not a literal: the benefit of the doubt
        ("make(*args)", []),  # a call we cannot bind
    ],
)
def test_a_parameter_takes_the_literal_arguments_of_calls_in_other_modules(tmp_path, call, expected):
    write(tmp_path, {
        "data.py": "from torch.utils.data import DataLoader\n\n\ndef make(ds, shuffle=False):\n    return DataLoader(ds, shuffle=shuffle)\n",
        "train.py": f"from data import make\n\n\ndef train(ds, flag, args):\n    return {call}\n",
    })
    found = lint_files_in(sorted(tmp_path.rglob("*.py")), tmp_path, ["RPL302"])
    assert [(os.path.basename(d.path), d.code) for d in found] == expected


@pytest.mark.parametrize(
    "main, expected",
    [
        ("exp = Exp(args)", []),  # --num_workers defaults to 0
        ("exp = Exp(args)\nexp2 = Exp(parser.parse_args(['--num_workers', '4']))", [("exp.py", "RPL301")]),  # not known
        ("args.num_workers = 4\nexp = Exp(args)", [("exp.py", "RPL301")]),  # changed: not the default
        ("exp = Exp(cfg)", [("exp.py", "RPL301")]),  # not the parsed options: not known
    ],
)
def test_options_parsed_in_the_entry_point_and_handed_to_an_object(tmp_path, main, expected):
    """The parsed command-line options handed to a project class (Informer's ``Exp(args)``),
    which keeps them and reads ``self.args.num_workers``: the option's default in the module
    that parses them."""
    write(tmp_path, {
        "exp.py": (
            "from torch.utils.data import DataLoader\n\n\nclass Exp:\n    def __init__(self, args):\n        self.args = args\n\n"
            "    def loader(self, ds):\n        args = self.args\n        return DataLoader(ds, batch_size=2, num_workers=args.num_workers)\n"
        ),
        "main.py": (
            "import argparse\n\nfrom exp import Exp\n\nparser = argparse.ArgumentParser()\n"
            "parser.add_argument('--num_workers', type=int, default=0)\nargs = parser.parse_args()\ncfg = load()\n" + main + "\n"
        ),
    })
    found = lint_files_in(sorted(tmp_path.rglob("*.py")), tmp_path, ["RPL301"])
    assert [(os.path.basename(d.path), d.code) for d in found] == expected


@pytest.mark.parametrize(
    "init, expected",
    [
        ("super(Exp, self).__init__(args)", []),
        ("super().__init__(args)", []),
        ("Basic.__init__(self, args)", []),
        ("super().__init__(load())", [("exp.py", "RPL301")]),  # not the parsed options
    ],
)
def test_options_kept_by_a_base_class_of_another_module(tmp_path, init, expected):
    """The options kept by the ``__init__`` of a base class in another module (``self.args =
    args``), which the subclass calls with what it was given."""
    write(tmp_path, {
        "basic.py": "class Basic:\n    def __init__(self, args):\n        self.args = args\n        self.device = 'cpu'\n",
        "exp.py": (
            "from torch.utils.data import DataLoader\n\nfrom basic import Basic\n\n\nclass Exp(Basic):\n"
            f"    def __init__(self, args):\n        {init}\n\n"
            "    def loader(self, ds):\n        return DataLoader(ds, batch_size=2, num_workers=self.args.num_workers)\n"
        ),
        "main.py": (
            "import argparse\n\nfrom exp import Exp\n\nparser = argparse.ArgumentParser()\n"
            "parser.add_argument('--num_workers', type=int, default=0)\nargs = parser.parse_args()\nargs.gpu = 0\n"
            "Exp(args).loader([1, 2])\n"
        ),
    })
    found = lint_files_in(sorted(tmp_path.rglob("*.py")), tmp_path, ["RPL301"])
    assert [(os.path.basename(d.path), d.code) for d in found] == expected


@pytest.mark.parametrize("mode, expected", [('"bicubic"', ["RPL402"]), ('"nearest"', []), ("chosen", [])])
def test_an_op_mode_given_by_a_call_in_another_module(tmp_path, mode, expected):
    write(tmp_path, {
        "ops.py": "import torch.nn.functional as F\n\n\ndef resize(x, mode=\"nearest\"):\n    return F.interpolate(x, scale_factor=2, mode=mode)\n",
        "model.py": f"from ops import resize\n\n\ndef forward(x, chosen):\n    return resize(x, mode={mode})\n",
    })
    found = lint_files_in(sorted(tmp_path.rglob("*.py")), tmp_path, ["RPL402"])
    assert [d.code for d in found if d.path.endswith("ops.py")] == expected


@pytest.mark.parametrize("mode, expected", [('"val"', []), ('"train"', [("data.py", "RPL302")])])
def test_a_loader_factory_decides_by_what_its_calls_pass(tmp_path, mode, expected):
    """What a factory's calls pass decides inside it (``mode``), where it is not passed straight on."""
    write(tmp_path, {
        "data.py": (
            "from torch.utils.data import DataLoader\n\n\ndef build_loader(ds, mode=\"train\", **kwargs):\n"
            "    shuffle = mode == \"train\"\n    return DataLoader(ds, shuffle=shuffle, **kwargs)\n"
        ),
        "train.py": f"from data import build_loader\n\n\ndef run(ds):\n    return build_loader(ds, mode={mode}, drop_last=True)\n",
    })
    found = lint_files_in(sorted(tmp_path.rglob("*.py")), tmp_path, ["RPL302"])
    assert [(os.path.basename(d.path), d.code) for d in found] == expected


SEEDED_FACTORY = """\
from torch.utils.data import DataLoader, RandomSampler


def make(ds, seed=None, shuffle=True):
    sampler = RandomSampler(ds, generator=seeded(seed)) if shuffle and seed is not None else None
    return DataLoader(ds, shuffle=sampler is None and shuffle, sampler=sampler)
"""


@pytest.mark.parametrize(
    "calls, expected",
    [
        ("make(ds, seed=3)\n    make(ds, shuffle=False)", []),  # each call's arguments decide together
        ("make(ds, seed=3)\n    make(ds, shuffle=False)\n    make(ds)", [("data.py", "RPL302")]),  # no seed: shuffles
    ],
)
def test_the_arguments_of_one_call_decide_together(tmp_path, calls, expected):
    write(tmp_path, {"data.py": SEEDED_FACTORY, "train.py": f"from data import make\n\n\ndef run(ds):\n    {calls}\n"})
    found = lint_files_in(sorted(tmp_path.rglob("*.py")), tmp_path, ["RPL302"])
    assert [(os.path.basename(d.path), d.code) for d in found] == expected


def test_an_option_default_passed_by_a_call_in_another_module(tmp_path):
    """``make(ds, seed=args.seed)`` where ``--seed`` defaults to 0 passes 0."""
    train = (
        "import argparse\n\nfrom data import make\n\n\ndef run(ds, args):\n    make(ds, seed=args.seed)\n    make(ds, shuffle=False)\n\n\n"
        "if __name__ == '__main__':\n    parser = argparse.ArgumentParser()\n    parser.add_argument('--seed', type=int, default={default})\n"
    )
    write(tmp_path, {"data.py": SEEDED_FACTORY, "train.py": train.format(default=0)})
    assert lint_files_in(sorted(tmp_path.rglob("*.py")), tmp_path, ["RPL302"]) == []
    write(tmp_path, {"data.py": SEEDED_FACTORY, "train.py": train.format(default=None)})
    assert [d.code for d in lint_files_in(sorted(tmp_path.rglob("*.py")), tmp_path, ["RPL302"])] == ["RPL302"]


# -- a class's constructor parameters, from the project's constructor calls --------------------

DATAMODULE = """\
from torch.utils.data import DataLoader


class ImageDataModule:
    def __init__(self, data, batch_size=32, num_workers=0):
        self.data = data
        self.num_workers = num_workers

    def train_dataloader(self):
        return DataLoader(self.data, batch_size=4, num_workers=self.num_workers)
"""


@pytest.mark.parametrize(
    "main, subclass, expected",
    [
        # every call leaves num_workers at its default 0: no worker process
        ("dm = ImageDataModule([1, 2, 3], 16)", "", []),
        ("dm = ImageDataModule(data=[1], num_workers=0)", "", []),
        # a call passes workers: by keyword, by position, or from an option's default
        ("dm = ImageDataModule([1, 2, 3], num_workers=4)", "", [("dm.py", 10)]),
        ("dm = ImageDataModule([1, 2, 3], 16, 8)", "", [("dm.py", 10)]),
        ("dm = ImageDataModule([1], num_workers=args.workers)", "", [("dm.py", 10)]),
        ("dm = ImageDataModule(*sys.argv)", "", [("dm.py", 10)]),
        ("dm = ImageDataModule([1], num_workers=len(sys.argv))", "", [("dm.py", 10)]),
        # the class is handed on (a registry, a partial): built where we cannot see
        ("dm = build(ImageDataModule)", "", [("dm.py", 10)]),
        # a subclass elsewhere passes its own arguments to this __init__
        ("dm = ImageDataModule([1])", "class Big(ImageDataModule):\n    pass\n", [("dm.py", 10)]),
    ],
)
def test_rpl301_reads_a_classs_defaults_through_the_projects_constructor_calls(tmp_path: Path, main: str, subclass: str, expected):
    """A data module built only in other modules: its ``__init__`` parameters take the values
    the project's constructor calls give, as a module-level function's do."""
    write(
        tmp_path,
        {
            "dm.py": DATAMODULE,
            "other.py": "from dm import ImageDataModule\n\n" + subclass,
            "train.py": "import argparse\nimport sys\n\nfrom dm import ImageDataModule\nfrom util import build\n\n"
            "parser = argparse.ArgumentParser()\nparser.add_argument('--workers', type=int, default=4)\n\n"
            "if __name__ == '__main__':\n    args = parser.parse_args()\n    " + main + "\n    dm.train_dataloader()\n",
            "util.py": "def build(cls):\n    return cls([])\n",
        },
    )
    files = sorted(tmp_path.glob("*.py"))
    found = lint_files_in(files, tmp_path, ["RPL301"])
    assert [(d.path.rsplit("/", 1)[-1], d.line) for d in found] == expected


NAMESPACE_FACTORY = """\
from torch.utils.data import DataLoader
from torch.utils.data.distributed import DistributedSampler


def get_data_loader(dataset, batch_size, multi_gpu=True, shuffle=True):
    if multi_gpu:
        loader_shuffle = False
        sampler = DistributedSampler(dataset, shuffle=shuffle)
    else:
        loader_shuffle = shuffle
        sampler = None
    return DataLoader(dataset, batch_size=batch_size, sampler=sampler, shuffle=loader_shuffle)
"""


@pytest.mark.parametrize("package", [False, True])
@pytest.mark.parametrize("multi_gpu, expected", [("True", []), ("False", ["RPL302"])])
def test_a_factory_in_a_folder_without_init_is_called_by_its_dotted_name(tmp_path: Path, package, multi_gpu, expected):
    """``common/dataset.py`` with no ``__init__.py`` beside it is imported as
    ``common.dataset``: the calls made under that name give the factory's parameters."""
    files = {
        "common/dataset.py": NAMESPACE_FACTORY,
        "train.py": "import torch\nfrom common.dataset import get_data_loader\n\n\ndef main():\n    torch.manual_seed(0)\n"
        f"    loader = get_data_loader(list(range(8)), 2, multi_gpu={multi_gpu})\n    loader.sampler.set_epoch(0)\n\n\n"
        "if __name__ == '__main__':\n    main()\n",
    }
    if package:
        files["common/__init__.py"] = ""
    write(tmp_path, files)
    found = lint_files_in(sorted(tmp_path.rglob("*.py")), tmp_path, ["RPL302"])
    assert codes(found) == expected


@pytest.mark.parametrize(
    "calls, expected",
    [
        # every call turns the switches off: the factory's defaults never apply
        (["get_data_loaders(ds, batch_size=4, shuffle=False, workers=0)"], []),
        (["get_data_loaders(ds, 4, False, 0)", "get_data_loaders(ds, shuffle=None, workers=0)"], []),
        # one call leaves them to the defaults: the factory's loader shuffles, with workers
        (
            ["get_data_loaders(ds, shuffle=False, workers=0)", "get_data_loaders(ds)"],
            [("utils.py", "RPL301"), ("utils.py", "RPL302")],
        ),
        # a value we cannot read may be anything
        (["get_data_loaders(ds, shuffle=flag, workers=0)"], [("utils.py", "RPL302")]),
    ],
)
def test_a_factory_switch_that_every_call_turns_off_is_off(tmp_path, calls, expected):
    """A loader factory whose defaults shuffle and start workers, called only from another
    module, each call passing ``shuffle=False`` and ``workers=0``: nothing shuffles and no
    worker starts, in the factory or at the calls."""
    write(
        tmp_path,
        {
            "utils.py": """\
                from torch.utils.data import DataLoader


                def get_data_loaders(train_set, batch_size=64, shuffle=True, workers=4):
                    return DataLoader(train_set, batch_size=batch_size, shuffle=shuffle, num_workers=workers)
                """,
            "train.py": "import utils\n\n\ndef main(ds, flag):\n" + "".join(f"    utils.{c}\n" for c in calls),
        },
    )
    found = lint_files_in(sorted(tmp_path.rglob("*.py")), tmp_path, ["RPL301", "RPL302"])
    assert sorted((d.path.rsplit("/", 1)[-1], d.code) for d in found) == expected


@pytest.mark.parametrize(
    "defaults, expected",
    [
        ("cfg.num_workers = 0\n    cfg.loader.shuffle = False", []),  # yacs's set_cfg(cfg): no workers, no shuffle
        ("cfg.num_workers = 4\n    cfg.loader.shuffle = False", ["RPL301"]),
        ("cfg.num_workers = 0\n    cfg.loader.shuffle = True", ["RPL302"]),
        ("cfg.num_workers = 0\n    cfg.num_workers = 2\n    cfg.loader.shuffle = False", ["RPL301"]),  # two values: either
        ("cfg.num_workers = int('0')\n    cfg.loader.shuffle = False", ["RPL301"]),  # not a literal
    ],
)
def test_a_config_objects_defaults_are_its_attributes_values(tmp_path, defaults, expected):
    """``num_workers=cfg.num_workers`` where ``cfg`` is a project module's config object (a
    yacs ``CfgNode`` bound at its top level, its defaults set in ``set_cfg(cfg)``): the literal
    that module gives the attribute, on the default path; anything else is not known (RPL301
    then reports, RPL302 gives the benefit of the doubt)."""
    write(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/config.py": f"""\
                from yacs.config import CfgNode as CN

                cfg = CN()


                def set_cfg(cfg):
                    {defaults}


                set_cfg(cfg)
                """.replace("\n    cfg", "\n                    cfg"),
            "pkg/loader.py": """\
                from torch.utils.data import DataLoader

                from pkg.config import cfg


                def make(dataset):
                    return DataLoader(dataset, batch_size=8, num_workers=cfg.num_workers, shuffle=cfg.loader.shuffle)
                """,
        },
    )
    found = lint_files_in(sorted(tmp_path.rglob("*.py")), tmp_path, ["RPL301", "RPL302"])
    assert codes(found) == expected


def test_a_config_object_the_module_changes_is_not_known(tmp_path):
    write(
        tmp_path,
        {
            "config.py": "from types import SimpleNamespace\n\ncfg = SimpleNamespace()\ncfg.num_workers = 0\n",
            "loader.py": """\
                from torch.utils.data import DataLoader

                from config import cfg


                def make(dataset, n):
                    cfg.num_workers = n
                    return DataLoader(dataset, num_workers=cfg.num_workers)
                """,
        },
    )
    assert codes(lint_files_in(sorted(tmp_path.rglob("*.py")), tmp_path, ["RPL301"])) == ["RPL301"]


FACTORY_SEEDED_FOR_TRAINING = """
from functools import partial

from torch.utils.data import DataLoader


def worker_init_fn(worker_id, seed):
    pass


def build_dataloader(dataset, workers=2, seed=None):
    init_fn = partial(worker_init_fn, seed=seed) if seed is not None else None
    return DataLoader(dataset, num_workers=workers, worker_init_fn=init_fn)
"""


@pytest.mark.parametrize(
    "calls, expected",
    [
        # training is seeded, validation is not: the validation call's loader has no worker_init_fn
        ("train = build_dataloader(ds, seed=0)\nval = build_dataloader(ds)\n", ["RPL301"]),
        ("train = build_dataloader(ds, seed=0)\nval = build_dataloader(ds, seed=1)\n", []),
        # the unseeded call starts no workers
        ("train = build_dataloader(ds, seed=0)\nval = build_dataloader(ds, workers=0)\n", []),
    ],
)
def test_a_factory_whose_calls_decide_worker_init_fn_each_with_its_own_arguments(tmp_path, calls, expected):
    """Each call of the factory decides with its arguments taken together, in the factory's
    module and from another module."""
    same = FACTORY_SEEDED_FOR_TRAINING + "\n\ndef build_all(ds):\n" + textwrap.indent(calls, "    ")
    write(tmp_path, {"same/builder.py": same})
    assert codes(lint_files_in([tmp_path / "same/builder.py"], tmp_path, ["RPL301"])) == expected
    write(tmp_path, {"pkg/__init__.py": "", "pkg/builder.py": FACTORY_SEEDED_FOR_TRAINING,
                     "train.py": "from pkg.builder import build_dataloader\n\n\ndef main(ds):\n" + textwrap.indent(calls, "    ")})
    files = [tmp_path / "pkg/builder.py", tmp_path / "train.py"]
    found = lint_files_in(files, tmp_path, ["RPL301"])
    assert [(d.code, d.path.rsplit("/", 1)[-1]) for d in found] == [(code, "builder.py") for code in expected]


@pytest.mark.parametrize(
    "call, expected",
    [
        ("Gen(data).generate_dataloader(batch_size=4)", []),  # the default: no workers
        ("g = Gen(data)\n    g.generate_dataloader(batch_size=4, num_workers=0)", []),
        ("Gen(data).generate_dataloader(batch_size=4, num_workers=4)", ["RPL301"]),
        ("g = Gen(data)\n    g.generate_dataloader(num_workers=n)", ["RPL301"]),  # not known
    ],
)
def test_a_methods_parameter_holds_what_the_projects_calls_of_it_pass(tmp_path, call, expected):
    """torch-rechub: a loader-making method whose ``num_workers`` defaults to 0, called from
    another module on the class's objects: those calls decide, as for a module-level function."""
    write(
        tmp_path,
        {
            "lib.py": "from torch.utils.data import DataLoader\n\n\nclass Gen:\n    def __init__(self, data):\n"
            "        self.data = data\n\n    def generate_dataloader(self, batch_size=16, num_workers=0):\n"
            "        return DataLoader(self.data, batch_size=batch_size, num_workers=num_workers)\n",
            "train.py": f"from lib import Gen\n\n\ndef main(data, n):\n    {call}\n",
        },
    )
    found = lint_files_in([tmp_path / "lib.py", tmp_path / "train.py"], tmp_path, ["RPL301"])
    assert codes(found) == expected


@pytest.mark.parametrize(
    "loaders, expected",
    [
        ("from torch.utils.data import Dataset, DataLoader\n", ["RPL302"]),  # Pyraformer's data_loader.py
        ("from torch.utils.data import Dataset, DataLoader\n__all__ = ['Dataset']\n", []),  # not exported
        ("from torch.utils.data import Dataset\n\n\ndef DataLoader(*args, **kwargs):\n    return list(args)\n", []),  # its own
    ],
)
def test_a_library_loader_a_project_module_re_exports_through_a_star_import(tmp_path, loaders, expected):
    write(
        tmp_path,
        {
            "loaders.py": loaders,
            "train.py": "from loaders import *\n\n\ndef make():\n    return DataLoader(list(range(8)), batch_size=2, shuffle=True)\n",
        },
    )
    found = lint_files_in(sorted(tmp_path.glob("*.py")), tmp_path, ["RPL302"])
    assert [d.code for d in found] == expected


@pytest.mark.parametrize(
    "given",
    [
        # basicsr: the conditional given directly, or through a dict of the loader's keywords
        "worker_init_fn=partial(init_fn, num_workers=4, rank=rank, seed=seed) if seed is not None else None",
        "**dict(worker_init_fn=partial(init_fn, num_workers=4, rank=rank, seed=seed) if seed is not None else None)",
    ],
)
def test_rpl303_a_worker_init_fn_chosen_by_a_conditional_expression(lint, given):
    code = (
        "from functools import partial\n\nimport numpy as np\nfrom torch.utils.data import DataLoader\n\n\n"
        "def init_fn(worker_id, num_workers, rank, seed):\n    np.random.seed(num_workers * rank + worker_id + seed)\n\n\n"
        f"def build(dataset, seed, rank=0):\n    return DataLoader(dataset, num_workers=4, {given})\n"
    )
    assert codes(lint(code, select=["RPL303"])) == ["RPL303"]


@pytest.mark.parametrize(
    "call, expected",
    [
        ("DataLoader(dataset, shuffle=True, batch_size=4)", ["RPL302"]),  # magvit2's trainer
        ("DataLoader(dataset, batch_size=4)", []),
        ("DataLoader(dataset, shuffle=True, generator=g)", []),
        ("DataLoader(dataset, 4, True)", ["RPL302"]),  # by position, as torch's DataLoader takes it
    ],
)
def test_a_project_wrapper_that_passes_its_arguments_on_to_the_loader(tmp_path, call, expected):
    write(
        tmp_path,
        {
            "data.py": "from torch.utils.data import DataLoader as PytorchDataLoader\n\n\ndef collate(batch):\n    return batch\n\n\n"
            "def DataLoader(*args, **kwargs):\n    return PytorchDataLoader(*args, collate_fn=collate, **kwargs)\n",
            "trainer.py": f"from data import DataLoader\n\n\ndef build(dataset, g):\n    return {call}\n",
        },
    )
    found = lint_files_in(sorted(tmp_path.glob("*.py")), tmp_path, ["RPL302"])
    assert [d.code for d in found] == expected


@pytest.mark.parametrize(
    "helper, extra, expected",
    [
        ("_get_dataloader", "", []),  # torchmd-net: built in a private helper the hooks call
        ("_get_dataloader", "\n    def probe(self):\n        return self._get_dataloader([1, 2])\n", ["RPL301"]),  # also run by other code
        ("get_dataloader", "", ["RPL301"]),  # a public method: other code may call it
    ],
)
def test_lightning_workers_true_seeds_a_loader_built_in_a_helper_of_the_hooks(lint, helper, extra, expected):
    code = (
        "import lightning.pytorch as pl\nfrom torch.utils.data import DataLoader\n\n\n"
        "class Data(pl.LightningDataModule):\n    def __init__(self, num_workers=4):\n        super().__init__()\n"
        "        self.num_workers = num_workers\n\n"
        f"    def train_dataloader(self):\n        return self.{helper}(list(range(64)))\n\n"
        f"    def {helper}(self, dataset):\n        return DataLoader(dataset, batch_size=8, num_workers=self.num_workers)\n"
        + extra
        + "\n\nif __name__ == '__main__':\n    pl.seed_everything(0, workers=True)\n"
        "    pl.Trainer(max_epochs=1, accelerator='cpu').fit(None, Data())\n"
    )
    assert codes(lint(code, select=["RPL301"])) == expected


@pytest.mark.parametrize(
    "init, expected",
    [
        ('        kwargs["shuffle"] = False\n        super().__init__(dataset=dataset, **kwargs)\n', []),  # cogdl's ClusteredLoader
        ('        kwargs.pop("shuffle", None)\n        super().__init__(dataset=dataset, shuffle=False, **kwargs)\n', []),
        ("        super().__init__(dataset=dataset, **kwargs)\n", ["RPL302"]),  # the caller's shuffle=True holds
        ('        kwargs["batch_size"] = 1\n        super().__init__(dataset=dataset, **kwargs)\n', ["RPL302"]),
    ],
)
def test_rpl302_a_loader_subclass_that_sets_shuffle_itself(lint, init, expected):
    code = (
        "from torch.utils.data import DataLoader\n\n\nclass ClusteredLoader(DataLoader):\n"
        "    def __init__(self, dataset, **kwargs):\n" + init + "\n\n"
        "def train_loader(dataset):\n    return ClusteredLoader(dataset, batch_size=4, shuffle=True, num_workers=0)\n"
    )
    assert codes(lint(code, select=["RPL302"])) == expected


@pytest.mark.parametrize(
    "init, expected",
    [
        # its parameters passed on by position, in DataLoader's order (ELR's BaseDataLoader shape)
        ("super().__init__(dataset, batch_size, shuffle, num_workers=num_workers)", ["RPL101", "RPL301", "RPL302"]),
        ("super().__init__(dataset=dataset, batch_size=batch_size, shuffle=shuffle, num_workers=num_workers)", ["RPL101", "RPL301", "RPL302"]),
        # through a dict of its parameters it keeps (ELR's ``super().__init__(**self.init_kwargs)``)
        ("self.init_kwargs = {'dataset': dataset, 'batch_size': batch_size, 'shuffle': shuffle, 'num_workers': num_workers}\n"
         "        super().__init__(**self.init_kwargs)", ["RPL101", "RPL301", "RPL302"]),
        ("kw = {'dataset': dataset, 'shuffle': False, 'num_workers': num_workers}\n        super().__init__(**kw)", ["RPL301"]),
        # a parameter passed on as the attribute it keeps it in (ELR: ``'shuffle': self.shuffle``)
        ("self.shuffle = shuffle\n        super().__init__(dataset, batch_size, shuffle=self.shuffle, num_workers=num_workers)", ["RPL101", "RPL301", "RPL302"]),
        # by position, but set by the class itself: not the caller's
        ("super().__init__(dataset, batch_size, False, num_workers=num_workers)", ["RPL301"]),
    ],
)
def test_a_loader_subclass_passes_its_parameters_on_by_position_or_in_a_dict(lint, init, expected):
    code = (
        "from torch.utils.data import DataLoader\n\n\nclass BaseDataLoader(DataLoader):\n"
        f"    def __init__(self, dataset, batch_size, shuffle=True, num_workers=4):\n        {init}\n\n\n"
        "if __name__ == '__main__':\n    for batch in BaseDataLoader(list(range(64)), 8):\n        print(batch)\n"
    )
    assert sorted(set(codes(lint(code, select=["RPL101", "RPL301", "RPL302"])))) == expected


def test_a_subclass_of_a_loader_subclass_passing_its_parameters_on_by_position(lint):
    """ELR's ``CIFAR10DataLoader(BaseDataLoader)``: positions follow the project base's own
    parameters, not DataLoader's (a fourth one is that base's ``num_workers``, not ``sampler``)."""
    code = (
        "from torch.utils.data import DataLoader\n\n\nclass BaseDataLoader(DataLoader):\n"
        "    def __init__(self, dataset, batch_size, shuffle, num_workers):\n"
        "        super().__init__(dataset=dataset, batch_size=batch_size, shuffle=shuffle, num_workers=num_workers)\n\n\n"
        "class ListLoader(BaseDataLoader):\n    def __init__(self, batch_size, shuffle=True, num_workers=4):\n"
        "        super().__init__(list(range(64)), batch_size, shuffle, num_workers)\n\n\n"
        "if __name__ == '__main__':\n    for batch in ListLoader(8):\n        print(batch)\n"
    )
    assert sorted(set(codes(lint(code, select=["RPL101", "RPL301", "RPL302"])))) == ["RPL101", "RPL301", "RPL302"]


@pytest.mark.parametrize(
    "default, call, expected",
    [
        # floodwater's factory: ``shuffle`` has no default, so every call gives it: the call that
        # passes True is where the loader shuffles, as for a factory whose default is off
        (None, "shuffle=True", [("RPL302", "train.py", 4)]),
        (None, "shuffle=False", []),
        ("False", "shuffle=True", [("RPL302", "train.py", 4)]),
        ("True", "shuffle=True", [("RPL302", "data.py", 5)]),  # its own default shuffles: at the loader
    ],
)
def test_rpl302_a_factory_whose_shuffle_parameter_has_no_default(tmp_path, default, call, expected):
    write(
        tmp_path,
        {
            "data.py": "from torch.utils.data import DataLoader\n\n\n"
            f"def get_dataloader(ds, shuffle{'' if default is None else '=' + default}):\n"
            "    return DataLoader(ds, batch_size=2, shuffle=shuffle)\n",
            "train.py": f"from data import get_dataloader\n\nif __name__ == '__main__':\n    loader = get_dataloader(list(range(8)), {call})\n",
        },
    )
    found = lint_files_in(sorted(tmp_path.glob("*.py")), tmp_path, ["RPL302"])
    assert [(d.code, os.path.basename(d.path), d.line) for d in found] == expected


@pytest.mark.parametrize(
    "default, expected",
    [
        ("0", [("RPL301", "train.py")]),  # daisyRec: no workers by default, 4 from the call in another module
        ("4", [("RPL301", "data.py")]),  # workers whoever calls it: the factory's own finding, once
        (None, [("RPL301", "data.py")]),  # pytorchyolo: no default, every call gives workers: once, at the loader
    ],
)
def test_rpl301_a_factory_call_in_another_module_that_starts_workers(tmp_path, default, expected):
    write(
        tmp_path,
        {
            "data.py": "from torch.utils.data import DataLoader\n\n\n"
            f"def get_dataloader(ds, batch_size, shuffle, num_workers{'' if default is None else '=' + default}):\n"
            "    return DataLoader(ds, batch_size=batch_size, shuffle=shuffle, num_workers=num_workers)\n",
            "train.py": "from data import get_dataloader\n\nif __name__ == '__main__':\n"
            "    loader = get_dataloader(list(range(8)), batch_size=2, shuffle=False, num_workers=4)\n",
        },
    )
    found = lint_files_in(sorted(tmp_path.glob("*.py")), tmp_path, ["RPL301"])
    assert [(d.code, os.path.basename(d.path)) for d in found] == expected


@pytest.mark.parametrize(
    "init, call, expected",
    [
        # fuxictr's loaders: their own default starts workers, and the **kwargs they take never reach torch
        ("num_workers=1, **kwargs", "ArrayLoader(ds)", ["RPL301"]),
        ("num_workers=1, **kwargs", "ArrayLoader(ds, num_workers=0)", []),
        ("num_workers=0, **kwargs", "ArrayLoader(ds)", []),
        ("shuffle=True, num_workers=0", "ArrayLoader(ds)", ["RPL302"]),
        ("shuffle=True, num_workers=0", "ArrayLoader(ds, shuffle=False)", []),
    ],
)
def test_a_loader_subclass_s_own_defaults(lint, init, call, expected):
    keyword = "shuffle=shuffle" if "shuffle" in init else "num_workers=num_workers"
    code = (
        "from torch.utils.data import DataLoader\n\n\nclass ArrayLoader(DataLoader):\n"
        f"    def __init__(self, ds, batch_size=2, {init}):\n"
        f"        super().__init__(dataset=ds, batch_size=batch_size, {keyword})\n\n\n"
        f"def make(ds):\n    return {call}\n"
    )
    found = lint(code, select=["RPL301", "RPL302"])
    assert codes(found) == expected
    # a keyword the class would drop is never added by a fix
    assert not [d for d in found if d.fix is not None and "worker_init_fn" in str(d.fix)]


@pytest.mark.parametrize(
    "factory, calls, expected",
    [
        # a module-level factory whose default does not shuffle: the calls that shuffle, not its loader
        ("def data_loader(dataset, shuffle=False):\n    return DataLoader(dataset, batch_size=8, shuffle=shuffle)\n",
         "def train(ds):\n    return data_loader(ds, shuffle=True)\n\n\ndef val(ds):\n    return data_loader(ds, shuffle=False)\n",
         [("RPL302", 9)]),
        # torch-uncertainty's data modules: a method factory called on ``self``
        ("class Data:\n    def _data_loader(self, dataset, shuffle=False):\n        return DataLoader(dataset, shuffle=shuffle)\n\n"
         "    def train_dataloader(self):\n        return self._data_loader(self.ds, shuffle=True)\n\n"
         "    def val_dataloader(self):\n        return self._data_loader(self.ds)\n",
         "", [("RPL302", 9)]),
        # a default that shuffles: the factory's own finding, once
        ("def data_loader(dataset, shuffle=True):\n    return DataLoader(dataset, batch_size=8, shuffle=shuffle)\n",
         "def train(ds):\n    return data_loader(ds)\n", [("RPL302", 5)]),
        # the same, for workers
        ("def data_loader(dataset, num_workers=0):\n    return DataLoader(dataset, num_workers=num_workers)\n",
         "def train(ds):\n    return data_loader(ds, num_workers=4)\n", [("RPL301", 9)]),
    ],
)
def test_a_factory_s_loader_that_a_call_switches_on_is_reported_at_the_call(lint, factory, calls, expected):
    code = "from torch.utils.data import DataLoader\n\n\n" + factory + ("\n\n" + calls if calls else "")
    assert [(d.code, d.line) for d in lint(code, select=["RPL301", "RPL302"])] == expected


def test_a_loader_factory_method_a_subclass_in_another_module_calls_on_self(tmp_path):
    """torch-uncertainty: ``TUDataModule._data_loader(self, dataset, shuffle=False)``, and
    ``CIFAR10DataModule(TUDataModule)`` in another module returns
    ``self._data_loader(self.train, shuffle=True)``: reported at that call, not at the loader."""
    write(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/abstract.py": "from torch.utils.data import DataLoader\n\n\nclass TUDataModule:\n"
            "    def _data_loader(self, dataset, shuffle=False):\n        return DataLoader(dataset, shuffle=shuffle)\n\n"
            "    def val_dataloader(self):\n        return self._data_loader(self.val)\n",
            "pkg/cifar10.py": "from pkg.abstract import TUDataModule\n\n\nclass CIFAR10DataModule(TUDataModule):\n"
            "    def train_dataloader(self):\n        return self._data_loader(self.train, shuffle=True)\n",
        },
    )
    found = lint_files_in(sorted(tmp_path.rglob("*.py")), tmp_path, ["RPL302"])
    assert [(d.code, os.path.basename(d.path), d.line) for d in found] == [("RPL302", "cifar10.py", 6)]


@pytest.mark.parametrize(
    "val_setting, expected",
    [
        ("dict(workers_per_gpu=2)", ["RPL301"]),  # pyskl: the validation loader gets no seed, so no worker_init_fn
        ("{'workers_per_gpu': 2}", ["RPL301"]),
        ("dict(workers_per_gpu=2, seed=0)", []),
        ("dict(workers_per_gpu=2, **cfg)", []),  # a config merged in: not known, the benefit of the doubt
    ],
)
def test_rpl301_factory_calls_given_a_dict_built_in_the_caller(lint, val_setting, expected):
    code = (
        "from functools import partial\n\nimport numpy as np\nfrom torch.utils.data import DataLoader\n\n\n"
        "def worker_init_fn(worker_id, seed):\n    np.random.seed(seed + worker_id)\n\n\n"
        "def build_dataloader(dataset, workers_per_gpu, seed=None, **kwargs):\n"
        "    init_fn = partial(worker_init_fn, seed=seed) if seed is not None else None\n"
        "    return DataLoader(dataset, num_workers=workers_per_gpu, worker_init_fn=init_fn, **kwargs)\n\n\n"
        f"def train(ds, val_ds, cfg):\n    setting = dict(workers_per_gpu=2, seed=0)\n    build_dataloader(ds, **setting)\n"
        f"    setting = {val_setting}\n    build_dataloader(val_ds, **setting)\n"
    )
    assert codes(lint(code, select=["RPL301"])) == expected


def test_a_factory_that_rebinds_its_switch_is_reported_once_at_its_loader(lint):
    """YOLOv6's ``create_dataloader``: ``shuffle=False`` by default, set to False again on one
    path (``if rect and shuffle:``), then passed on: the factory's loader is where it is decided,
    so it is reported there once, not also at the call that passes True."""
    code = (
        "from torch.utils.data import DataLoader\n\n\ndef create_dataloader(ds, rect=False, shuffle=False):\n"
        "    if rect and shuffle:\n        shuffle = False\n    return DataLoader(ds, batch_size=4, shuffle=shuffle)\n\n\n"
        "def train(ds):\n    return create_dataloader(ds, shuffle=True)\n"
    )
    assert [(d.code, d.line) for d in lint(code, select=["RPL302"])] == [("RPL302", 7)]


@pytest.mark.parametrize("passed, expected", [("num_workers=4", ["RPL301"]), ("num_workers=0", []), ("", [])])
def test_a_factory_that_passes_its_parameter_on_through_a_dict_it_builds(lint, passed, expected):
    """ddpm-torch's ``get_dataloader``: ``cfg = {"batch_size": 2, "num_workers": num_workers}``,
    then ``DataLoader(ds, **cfg)``; a call that gives it workers is reported there."""
    code = (
        "from torch.utils.data import DataLoader\n\n\ndef get_dataloader(ds, num_workers=0):\n"
        '    cfg = {"batch_size": 2, "num_workers": num_workers}\n    return DataLoader(ds, **cfg)\n\n\n'
        f"def main(ds):\n    get_dataloader(ds{', ' + passed if passed else ''})\n"
    )
    assert codes(lint(code, select=["RPL301"])) == expected


def test_a_factory_method_that_builds_a_project_loader_subclass(lint):
    """tsl: ``get_dataloader(self, shuffle=False)`` returns ``StaticGraphLoader(...)``, a
    DataLoader subclass of the project, and ``train_dataloader`` calls it with its own
    ``shuffle=True``: reported at that call, as for torch's DataLoader."""
    code = (
        "from torch.utils.data import DataLoader\n\n\nclass StaticGraphLoader(DataLoader):\n"
        "    def __init__(self, dataset, batch_size=1, shuffle=False, **kwargs):\n"
        "        super().__init__(dataset, batch_size=batch_size, shuffle=shuffle, **kwargs)\n\n\n"
        "class DataModule:\n    def get_dataloader(self, shuffle=False):\n"
        "        return StaticGraphLoader(self.dataset, batch_size=4, shuffle=shuffle)\n\n"
        "    def train_dataloader(self, shuffle=True):\n        return self.get_dataloader(shuffle)\n"
    )
    assert [(d.code, d.line) for d in lint(code, select=["RPL302"])] == [("RPL302", 14)]


def test_a_constructor_call_through_two_package_re_exports(tmp_path):
    """tsl's entry points build the data module with ``workers=cfg.workers`` after ``from
    tsl.data import SpatioTemporalDataModule``, where ``tsl/data/__init__.py`` star-imports
    ``datamodule``, whose ``__init__.py`` imports the class from its module: those calls decide
    ``self.workers``."""
    write(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/data/__init__.py": "from .datamodule import *\n",
            "pkg/data/datamodule/__init__.py": 'from .dm import DataModule\n\n__all__ = ["DataModule"]\n',
            "pkg/data/datamodule/dm.py": "from torch.utils.data import DataLoader\n\n\nclass DataModule:\n"
            "    def __init__(self, dataset, workers=0):\n        self.dataset = dataset\n        self.workers = workers\n\n"
            "    def train_dataloader(self):\n        return DataLoader(self.dataset, batch_size=4, num_workers=self.workers)\n",
            "train.py": "import torch\nfrom pkg.data import DataModule\n\nif __name__ == '__main__':\n    torch.manual_seed(0)\n"
            "    dm = DataModule(list(range(10)), workers=4)\n    for batch in dm.train_dataloader():\n        print(batch)\n",
        },
    )
    found = lint_files_in(sorted(tmp_path.rglob("*.py")), tmp_path, ["RPL301"])
    assert [(d.code, os.path.basename(d.path)) for d in found] == [("RPL301", "dm.py")]


@pytest.mark.parametrize(
    "build, expected",
    [
        # dalle-pytorch's train_vae.py: a sampler only under Horovod, else None
        ("    if hvd:\n        sampler = DistributedSampler(ds)\n    else:\n        sampler = None\n", [("RPL302", 9)]),
        ("    sampler = DistributedSampler(ds)\n", []),  # always a sampler: never shuffled by the loader
        ("    sampler = make_sampler(ds)\n", []),  # not known
    ],
)
def test_rpl302_shuffle_is_not_a_sampler_that_is_none_on_one_path(lint, build, expected):
    code = (
        "from torch.utils.data import DataLoader, DistributedSampler\n\n\n"
        "def loader(ds, hvd=False):\n" + build + "    return DataLoader(ds, 8, shuffle=not sampler, sampler=sampler)\n"
    )
    found = lint(code, select=["RPL302"])
    line = code.splitlines().index("    return DataLoader(ds, 8, shuffle=not sampler, sampler=sampler)") + 1
    assert lines(found) == [(c, line) for c, _ in expected]


@pytest.mark.parametrize(
    "store, default, expected",
    [
        # DeepRank-GNN: every parameter stored through a loop over locals()
        ("for k, v in dict(locals()).items():\n            if k not in ['self']:\n                self.__setattr__(k, v)", "True", True),
        ("for k, v in dict(locals()).items():\n            if k not in ['self']:\n                self.__setattr__(k, v)", "False", False),
        # nequip: the names of a list, each value taken from locals()
        ("for key in self.init_keys:\n            setattr(self, key, locals()[key])", "True", True),
        ("self.__dict__.update(locals())", "True", True),
        ("self.__dict__.update(locals())", "False", False),
        # a setattr of something else: not known, so not reported
        ("for key in keys:\n            setattr(self, key, True)", "True", False),
    ],
)
def test_rpl302_a_constructor_that_stores_its_parameters_through_locals(lint, store, default, expected):
    code = (
        "from torch.utils.data import DataLoader\n\n\nclass Trainer:\n"
        f"    def __init__(self, data, shuffle={default}, keys=()):\n        {store}\n        self.data = data\n\n"
        "    def loader(self):\n        return DataLoader(self.data, shuffle=self.shuffle)\n"
    )
    assert codes(lint(code, select=["RPL302"])) == (["RPL302"] if expected else [])


@pytest.mark.parametrize(
    "default, build, expected",
    [
        ('"train"', "Solver(config).train()", [("data_loader.py", 5)]),
        ('"test"', "Solver(config).train()", []),
        # the class built with something else: the option is not known to reach it
        ('"train"', "Solver(load_config()).train()", []),
    ],
)
def test_rpl302_a_factory_given_self_attribute_that_init_takes_from_the_options(tmp_path, default, build, expected):
    """StarGAN: ``Solver(config)`` stores ``self.mode = config.mode``, and its method calls
    ``get_loader(path, self.mode)``, whose loader shuffles when ``mode == 'train'``."""
    write(
        tmp_path,
        {
            "main.py": f"""\
                import argparse

                from solver import Solver

                if __name__ == "__main__":
                    parser = argparse.ArgumentParser()
                    parser.add_argument("--mode", type=str, default={default})
                    config = parser.parse_args()
                    {build}
                """,
            "solver.py": """\
                from data_loader import get_loader


                class Solver(object):
                    def __init__(self, config):
                        self.mode = config.mode

                    def train(self):
                        return get_loader(list(range(10)), self.mode)
                """,
            "data_loader.py": """\
                from torch.utils.data import DataLoader


                def get_loader(dataset, mode="train"):
                    return DataLoader(dataset, batch_size=4, shuffle=(mode == "train"))
                """,
        },
    )
    found = lint_files_in(sorted(tmp_path.glob("*.py")), tmp_path, ["RPL302"])
    assert [(d.path.rsplit("/", 1)[-1], d.line) for d in found] == expected


@pytest.mark.parametrize("sampler, expected", [("None", [("common.py", 5)]), ("RandomSampler(dataset, generator=g)", [])])
def test_rpl302_a_factory_that_derives_shuffle_from_the_sampler_its_callers_pass(tmp_path, sampler, expected):
    """pytorch-metric-learning: ``get_train_dataloader(dataset, sampler)`` builds
    ``DataLoader(..., sampler=sampler, shuffle=sampler is None)``; the parameter it passes on as
    ``sampler=`` keeps what the calls give it."""
    write(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/common.py": """\
                from torch.utils.data import DataLoader


                def get_train_dataloader(dataset, sampler):
                    return DataLoader(dataset, batch_size=8, sampler=sampler, shuffle=sampler is None)
                """,
            "pkg/trainer.py": f"""\
                from torch.utils.data import RandomSampler

                from . import common as c_f


                def train(dataset, g):
                    return c_f.get_train_dataloader(dataset, {sampler})
                """,
        },
    )
    found = lint_files_in(sorted(tmp_path.rglob("*.py")), tmp_path, ["RPL302"])
    assert [(d.path.rsplit("/", 1)[-1], d.line) for d in found] == expected


@pytest.mark.parametrize("call, expected", [
    ("loader(dataset, batch_size=2, shuffle=True, num_workers=workers)", [("RPL301", 9), ("RPL302", 9)]),
    ("loader(dataset, batch_size=2, shuffle=True, num_workers=workers, klass=Other)", []),  # given a class of its own
])
@pytest.mark.parametrize("varargs", ["", "*args, "])
def test_a_factory_that_calls_a_parameter_defaulting_to_dataloader(tmp_path, call, expected, varargs):
    """denoiser's ``distrib.loader(dataset, *args, shuffle=False, klass=DataLoader, **kwargs)``:
    ``klass(...)`` builds a DataLoader where no call gives another class."""
    write(
        tmp_path,
        {
            "proj/__init__.py": "",
            "proj/loaders.py": f"""\
                from torch.utils.data import DataLoader

                from .other import Other

                def loader(dataset, {varargs}shuffle=False, klass=DataLoader, **kwargs):
                    return klass(dataset, {varargs}shuffle=shuffle, **kwargs)

                def train(dataset, workers):
                    return {call}
                """,
            "proj/other.py": "class Other:\n    def __init__(self, *args, **kwargs):\n        pass\n",
        },
    )
    files = sorted(tmp_path.rglob("*.py"))
    assert lines(lint_files_in(files, tmp_path, ["RPL301", "RPL302"])) == expected


@pytest.mark.parametrize("call, expected", [
    ("make_loader(ds, num_workers=2)", [("RPL301", 7)]),
    ("make_loader(ds, 2, num_workers=2)", [("RPL301", 7)]),  # a positional argument it names (batch_size)
    ("make_loader(ds, 8, False, num_workers=2)", []),  # more positional arguments than it names: *args not known
])
def test_a_factory_s_varargs_passed_on_is_empty_for_a_call_that_gives_none(tmp_path, call, expected):
    """denoiser's ``loader(dataset, *args, ..., **kwargs)`` passes ``*args`` on: a call that
    gives no more positional arguments than the factory names gives the loader none."""
    write(
        tmp_path,
        {
            "proj/__init__.py": "",
            "proj/data.py": f"""\
                from torch.utils.data import DataLoader

                def make_loader(dataset, batch_size=1, *args, **kwargs):
                    return DataLoader(dataset, batch_size, *args, **kwargs)

                def train(ds):
                    return {call}
                """,
        },
    )
    files = sorted(tmp_path.rglob("*.py"))
    assert lines(lint_files_in(files, tmp_path, ["RPL301"])) == expected


@pytest.mark.parametrize("passed, expected", [("0", []), ("4", [("RPL301", 11)])])
def test_rpl301_self_attribute_stored_two_bases_up_in_other_modules(tmp_path, passed, expected):
    """pypots: ``TEFN(BaseNNDetector)`` passes ``num_workers`` to ``BaseNNDetector.__init__``,
    which passes it on to ``BaseNNModel.__init__`` (another module), which stores it."""
    write(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/base.py": "class BaseNNModel:\n    def __init__(self, num_workers: int = 0):\n        self.num_workers = num_workers\n",
            "pkg/det/__init__.py": "",
            "pkg/det/base.py": (
                "from ..base import BaseNNModel\n\n\nclass BaseNNDetector(BaseNNModel):\n"
                "    def __init__(self, num_workers: int = 0):\n        super().__init__(num_workers=num_workers)\n"
            ),
            "pkg/det/leaf.py": (
                "from torch.utils.data import DataLoader\n\nfrom .base import BaseNNDetector\n\n\nclass Leaf(BaseNNDetector):\n"
                f"    def __init__(self, num_workers: int = 0):\n        super().__init__(num_workers={passed})\n\n"
                "    def fit(self, data):\n        return DataLoader(data, batch_size=8, num_workers=self.num_workers)\n"
            ),
        },
    )
    files = sorted(tmp_path.rglob("*.py"))
    assert lines(lint_files_in(files, tmp_path, ["RPL301"])) == expected


@pytest.mark.parametrize("passed, expected", [("0", []), ("4", [("RPL301", 8)])])
def test_rpl301_a_base_whose_subclass_in_another_module_passes_its_workers(tmp_path, passed, expected):
    """pypots' ``BaseNNDetector``, whose loaders use ``self.num_workers``: the only construction
    is the subclass's ``super().__init__(num_workers=...)``, in another module."""
    write(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/base.py": (
                "from torch.utils.data import DataLoader\n\n\nclass Base:\n    def __init__(self, num_workers=0):\n"
                "        self.num_workers = num_workers\n\n    def fit(self, data):\n"
                "        return DataLoader(data, batch_size=8, num_workers=self.num_workers)\n"
            ),
            "pkg/leaf.py": f"from .base import Base\n\n\nclass Leaf(Base):\n    def __init__(self):\n        super().__init__(num_workers={passed})\n",
        },
    )
    files = sorted(tmp_path.rglob("*.py"))
    found = lines(lint_files_in(files, tmp_path, ["RPL301"]))
    assert found == ([("RPL301", 9)] if expected else [])


@pytest.mark.parametrize("call, expected", [
    ("self.train_dataloader(ds, num_workers=2)", [("RPL301", 9)]),
    ("self.train_dataloader(ds, 8, num_workers=2)", []),  # 8 goes to ``*args``: the loader's places are not known
])
def test_a_factory_method_s_varargs_count_without_self(tmp_path, call, expected):
    write(
        tmp_path,
        {
            "proj/__init__.py": "",
            "proj/data.py": f"""\
                from torch.utils.data import DataLoader


                class Data:
                    def train_dataloader(self, dataset, *args, **kwargs):
                        return DataLoader(dataset, *args, **kwargs)

                    def setup(self, ds):
                        return {call}
                """,
        },
    )
    files = sorted(tmp_path.rglob("*.py"))
    assert lines(lint_files_in(files, tmp_path, ["RPL301"])) == expected


@pytest.mark.parametrize(
    "decorator, first",
    [("@staticmethod\n    ", ""), ("@classmethod\n    ", "cls, "), ("", "self, ")],
)
def test_a_static_or_class_loader_factory_method_is_read_at_its_calls(lint, decorator, first):
    """ctunet: ``@staticmethod def get_dataloader(dataset, batch_size=1, shuffle=True,
    n_workers=0)`` called as ``self.get_dataloader(ds, n_workers=self.params["n_workers"],
    shuffle=False)``: the call turns shuffling off (no RPL302 at the factory's loader) and
    passes workers the program does not know, without a ``worker_init_fn`` (RPL301 at the call)."""
    code = (
        "from torch.utils.data import DataLoader\n\n\nclass Model:\n    def __init__(self, params):\n"
        "        self.params = params\n"
        "        self.loader = self.get_dataloader(list(range(8)), n_workers=self.params['n_workers'], shuffle=False)\n\n"
        f"    {decorator}def get_dataloader({first}dataset, batch_size=1, shuffle=True, n_workers=0):\n"
        "        return DataLoader(dataset, batch_size=batch_size, num_workers=n_workers, shuffle=shuffle)\n"
    )
    assert [(d.code, d.line) for d in lint(code, select=["RPL301", "RPL302"])] == [("RPL301", 7)]


@pytest.mark.parametrize("call", ["num_workers=0, pin_memory=True", ""])
@pytest.mark.parametrize(
    "loader, expected",
    [
        # an explicit ``shuffle=True`` that the factory's ``**kwargs`` cannot turn off
        ("DataLoader(data, batch_size=2, shuffle=True, **kwargs)", [("RPL101", 7), ("RPL302", 7)]),
        # shuffling only if a caller passes it: none does
        ("DataLoader(data, batch_size=2, **kwargs)", []),
    ],
)
def test_rpl101_counts_a_shuffled_loader_in_a_factory_that_takes_kwargs(tmp_path, loader, expected, call):
    files = {
        "train.py": f"""\
            import torch
            from torch.utils.data import DataLoader


            def make_loader(**kwargs):
                data = list(range(8))
                return {loader}


            def main():
                loader = make_loader({call})
                for batch in loader:
                    print(batch)


            if __name__ == "__main__":
                main()
            """,
    }
    found = lint_project(tmp_path, files, select=("RPL101", "RPL302"))
    assert sorted((d.code, d.line) for d in found) == expected


@pytest.mark.parametrize(
    "shuffle, workers, expected",
    [
        ("False", "0", []),
        ("True", "0", [("RPL302", 8)]),
        ("False", "4", [("RPL301", 8)]),
    ],
)
def test_options_parsed_at_the_top_level_of_another_module(tmp_path, shuffle, workers, expected):
    """``from option import args``, where ``option.py`` parses the command line at its top
    level: the loader's arguments are those options' defaults."""
    write(
        tmp_path,
        {
            "option.py": "import argparse\n\nparser = argparse.ArgumentParser()\n"
            f"parser.add_argument('--shuffle', type=bool, default={shuffle})\nparser.add_argument('--workers', type=int, default={workers})\n"
            "args = parser.parse_args()\n",
            "train.py": "import torch\nfrom torch.utils.data import DataLoader\n\nfrom option import args\n\nif __name__ == '__main__':\n"
            "    torch.manual_seed(0)\n    loader = DataLoader(list(range(8)), shuffle=args.shuffle, num_workers=args.workers)\n"
            "    for batch in loader:\n        print(batch)\n",
        },
    )
    found = lint_files_in([tmp_path / "train.py"], tmp_path, ["RPL301", "RPL302"])
    assert [(d.code, d.line) for d in found] == expected


@pytest.mark.parametrize("base", ["DataLoader", "DataLoader[int]"])
def test_a_project_loader_whose_base_is_written_with_its_type_argument(tmp_path, base):
    """``class MyLoader(DataLoader[int])`` is a DataLoader subclass as ``DataLoader`` is."""
    write(
        tmp_path,
        {
            "train.py": "import torch\nfrom torch.utils.data import DataLoader\n\n\n"
            f"class MyLoader({base}):\n    def __init__(self, data, **kwargs):\n        super().__init__(data, **kwargs)\n\n\n"
            "if __name__ == '__main__':\n    torch.manual_seed(0)\n    loader = MyLoader(list(range(8)), shuffle=True)\n"
            "    for batch in loader:\n        print(batch)\n",
        },
    )
    found = lint_files_in([tmp_path / "train.py"], tmp_path, ["RPL302"])
    assert [(d.code, d.line) for d in found] == [("RPL302", 12)]


@pytest.mark.parametrize(
    "call, expected",
    [
        ("model.getDataLoaders(64, True, 'cpu', *args.data_params)", [("RPL302", 12)]),
        ("model.getDataLoaders(64, False, 'cpu', *args.data_params)", []),
        # the star may fill ``shuffle`` itself: not known
        ("model.getDataLoaders(64, *args.data_params)", []),
    ],
)
def test_a_call_with_a_star_gives_the_parameters_before_it(tmp_path, call, expected):
    """pvae: ``model.getDataLoaders(args.batch_size, True, device, *args.data_params)``, the
    only call of a loader factory method with ``shuffle`` and no default."""
    write(
        tmp_path,
        {
            "models.py": "import torch\nfrom torch.utils.data import DataLoader, TensorDataset\n\n\nclass Tree(torch.nn.Module):\n"
            "    def __init__(self):\n        super().__init__()\n        self.fc = torch.nn.Linear(4, 4)\n\n"
            "    def getDataLoaders(self, batch_size, shuffle, device, *args):\n        dataset = TensorDataset(torch.zeros(8, 4))\n"
            "        return DataLoader(dataset, batch_size=batch_size, shuffle=shuffle)\n",
            "main.py": "import argparse\n\nimport torch\n\nimport models\n\nparser = argparse.ArgumentParser()\n"
            "parser.add_argument('--model', type=str, default='Tree')\nparser.add_argument('--data-params', nargs='+', default=[])\n"
            f"args = parser.parse_args()\ntorch.manual_seed(0)\n\nmodel = getattr(models, args.model)()\ntrain_loader = {call}\n\n"
            "if __name__ == '__main__':\n    for batch in train_loader:\n        print(batch)\n",
        },
    )
    found = lint_files_in(sorted(tmp_path.glob("*.py")), tmp_path, ["RPL302"])
    assert [(d.code, d.line) for d in found] == expected


@pytest.mark.parametrize(
    "binding, asked, loaders",
    [
        ("fn = helpers.collate if quick else helpers.pad", False, 1),  # never a loader: not asked
        ("fn = helpers.pad\n    if quick:\n        fn = helpers.collate", False, 1),
        ("fn = helpers.collate if quick else DataLoader", True, 2),
        ("other = helpers.collate if quick else DataLoader\n    fn = other", True, 2),  # through another name
        ("fn = DataLoader if quick else helpers.pad", True, 1),  # asked: not a loader on the default path
    ],
)
def test_a_call_through_a_local_name_asks_the_evaluator_only_when_it_may_be_a_loader(lint, monkeypatch, binding, asked, loaders):
    """Following a local name to what it stands for on the default path is the evaluator's
    costliest question (reaching definitions, tests decided on the way); the loader rules ask
    it of a call through a local name only when something the file ever binds that name to
    is a loader (``Values.may_name``)."""
    import libcst as cst

    from repro_lint.values import Values

    seen = []
    original = Values.names

    def names(self, expr, chain, depth=0):
        if depth == 0 and isinstance(expr, cst.Name) and expr.value == "fn":
            seen.append(expr.value)
        return original(self, expr, chain, depth)

    monkeypatch.setattr(Values, "names", names)
    code = (
        "import helpers\nfrom torch.utils.data import DataLoader\n\n\n"
        "def run(ds, quick=False):\n"
        f"    {binding}\n"
        "    loader = DataLoader(ds, shuffle=True, num_workers=2)\n"
        "    return fn(ds, shuffle=True, num_workers=2), loader\n"
    )
    found = codes(lint(code, select=["RPL301", "RPL302"]))
    assert bool(seen) is asked
    assert found == ["RPL301", "RPL302"] * loaders


@pytest.mark.parametrize(
    "signature, passed, asked, expected",
    [
        # the factory passes no switch on: its calls' arguments cannot decide one, not read
        ("ds, bs", "shuffle=True, num_workers=4", False, ["RPL301", "RPL302"]),
        # it passes shuffle on, and every call turns it off: read, and the loader is not reported
        ("ds, shuffle=True", "shuffle=shuffle, num_workers=4", True, ["RPL301"]),
    ],
)
def test_a_loader_factorys_callers_are_read_only_when_it_passes_a_switch_on(tmp_path, monkeypatch, signature, passed, asked, expected):
    """What every call of a loader factory passes decides only the switches (``shuffle``,
    ``num_workers``) the factory hands on to its loader as they are; reading the calls reads
    every module that may make one, with its calls' literal arguments, so a factory that hands
    none on is not asked about."""
    from repro_lint.context import ProjectContext

    seen = []
    original = ProjectContext.caller_arguments

    def caller_arguments(self, path, function, *args, **kwargs):
        seen.append(function)
        return original(self, path, function, *args, **kwargs)

    monkeypatch.setattr(ProjectContext, "caller_arguments", caller_arguments)
    found = lint_project(
        tmp_path,
        {
            "data.py": (
                "from torch.utils.data import DataLoader\n\n\n"
                f"def make_loader({signature}):\n"
                f"    return DataLoader(ds, batch_size=8, {passed})\n"
            ),
            "train.py": "from data import make_loader\n\nloader = make_loader([1, 2, 3], shuffle=False)\n" if asked else "from data import make_loader\n\nloader = make_loader([1, 2, 3], 8)\n",
        },
    )
    assert ("make_loader" in seen) is asked
    assert codes(found) == expected


@pytest.mark.parametrize("star", ["from loaders import  *", "from loaders import \\\n    *", "from loaders import\t*"])
def test_a_star_import_spelt_with_other_spacing_binds_the_same_names(tmp_path, star):
    """A star import is one whatever stands between ``import`` and ``*`` (spaces, a tab, a
    line continuation): the library names it binds are known as with one space."""
    write(
        tmp_path,
        {
            "loaders.py": "from torch.utils.data import Dataset, DataLoader\n",
            "train.py": f"{star}\n\n\ndef make():\n    return DataLoader(list(range(8)), batch_size=2, shuffle=True)\n",
        },
    )
    found = lint_files_in(sorted(tmp_path.glob("*.py")), tmp_path, ["RPL302"])
    assert [d.code for d in found] == ["RPL302"]


@pytest.mark.parametrize("config, expected", [
    # DACON hand-gesture's trainer: a plain config class in config.py, no worker processes
    ("class TrainerConfig:\n    batch_size = 32\n    num_workers = 0\n    shuffle = False\n", []),
    ("class TrainerConfig:\n    batch_size = 32\n    num_workers = 4\n    shuffle = True\n", ["RPL301", "RPL302"]),
    # the same as a dataclass's field defaults
    ("from dataclasses import dataclass\n\n\n@dataclass\nclass TrainerConfig:\n    num_workers: int = 0\n    shuffle: bool = False\n", []),
    ("from dataclasses import dataclass\n\n\n@dataclass\nclass TrainerConfig:\n    num_workers: int = 2\n    shuffle: bool = True\n", ["RPL301", "RPL302"]),
])
def test_a_config_class_of_another_module_gives_the_loader_its_values(tmp_path, config, expected):
    """``Trainer(TrainerConfig())`` with the class in config.py: its body's values are what
    ``self.config.num_workers`` and ``cfg.shuffle`` hold, as they are for a class in the same
    module (no worker processes with 0: nothing to seed; no shuffling with False)."""
    write(tmp_path, {
        "config.py": config,
        "train.py": (
            "import torch\nfrom torch.utils.data import DataLoader\n\nfrom config import TrainerConfig\n\n\n"
            "class Trainer:\n    def __init__(self, config):\n        self.config = config\n\n"
            "    def run_epoch(self, dataset):\n"
            "        loader = DataLoader(dataset, batch_size=self.config.batch_size if hasattr(self.config, 'batch_size') else 8,\n"
            "                            num_workers=self.config.num_workers, shuffle=self.config.shuffle)\n"
            "        for batch in loader:\n            print(batch)\n\n\n"
            "if __name__ == \"__main__\":\n    torch.manual_seed(0)\n    Trainer(TrainerConfig()).run_epoch(list(range(64)))\n"
        ),
    })
    found = lint_files_in(sorted(tmp_path.glob("*.py")), tmp_path, ["RPL301", "RPL302"])
    assert sorted(codes(found)) == expected


_HELPER_LOADER = (
    "import torch.utils.data\n\n\n"
    "def make(opt, ds):\n"
    "    return torch.utils.data.DataLoader(ds, shuffle=not opt.serial_batches, num_workers=opt.workers)\n"
)
_OPTIONS = (
    "parser = argparse.ArgumentParser()\n"
    "    parser.add_argument('--serial_batches', action='store_true')\n"
    "    parser.add_argument('--workers', type=int, default={workers})\n"
)


@pytest.mark.parametrize(
    "files, expected",
    [
        # ``args = parse_args()``, a helper of the entry point (pix2pix's shape, and most scripts')
        (
            {"train.py": "import argparse\nimport torch\nfrom loader import make\n\n\ndef parse_args():\n    "
             + _OPTIONS.format(workers=0) + "    return parser.parse_args()\n\n\n"
             "def main():\n    args = parse_args()\n    torch.manual_seed(0)\n    make(args, list(range(8)))\n\n\nmain()\n"},
            [("RPL302", 5)],
        ),
        # the same, four workers by default: RPL301 too
        (
            {"train.py": "import argparse\nimport torch\nfrom loader import make\n\n\ndef parse_args():\n    "
             + _OPTIONS.format(workers=4) + "    args, _ = parser.parse_known_args()\n    return args\n\n\n"
             "def main():\n    args = parse_args()\n    torch.manual_seed(0)\n    make(args, list(range(8)))\n\n\nmain()\n"},
            [("RPL301", 5), ("RPL302", 5)],
        ),
        # an options class of another module (``opt = TrainOptions().parse()``), passed on directly
        (
            {
                "options.py": "import argparse\n\n\nclass TrainOptions:\n    def parse(self):\n        "
                + _OPTIONS.format(workers=0).replace("\n    ", "\n        ") + "        return parser.parse_known_args()[0]\n",
                "train.py": "import torch\nfrom loader import make\nfrom options import TrainOptions\n\n"
                "torch.manual_seed(0)\nmake(TrainOptions().parse(), list(range(8)))\n",
            },
            [("RPL302", 5)],
        ),
        # pix2pix's BaseOptions: ``parse()`` keeps what ``gather_options()`` parses and returns it
        (
            {
                "options.py": "import argparse\n\n\nclass BaseOptions:\n    def gather_options(self):\n        "
                + _OPTIONS.format(workers=0).replace("\n    ", "\n        ") + "        return parser.parse_args()\n\n"
                "    def parse(self):\n        opt = self.gather_options()\n        opt.isTrain = True\n"
                "        self.opt = opt\n        return self.opt\n\n\nclass TrainOptions(BaseOptions):\n    pass\n",
                "train.py": "import torch\nfrom loader import make\nfrom options import TrainOptions\n\n"
                "torch.manual_seed(0)\nopt = TrainOptions().parse()\nmake(opt, list(range(8)))\n",
            },
            [("RPL302", 5)],
        ),
        # a helper that returns something else too is not the options: not known, as before
        (
            {"train.py": "import argparse\nimport torch\nfrom loader import make\n\n\ndef parse_args(argv):\n    "
             + _OPTIONS.format(workers=0) + "    if argv:\n        return argv\n    return parser.parse_args()\n\n\n"
             "def main():\n    args = parse_args(None)\n    torch.manual_seed(0)\n    make(args, list(range(8)))\n\n\nmain()\n"},
            [("RPL301", 5)],
        ),
        # nor a name bound to two different calls
        (
            {"train.py": "import argparse\nimport torch\nfrom loader import make\n\n\ndef parse_args():\n    "
             + _OPTIONS.format(workers=0) + "    return parser.parse_args()\n\n\n"
             "def main(other):\n    args = parse_args()\n    if other:\n        args = other()\n"
             "    torch.manual_seed(0)\n    make(args, list(range(8)))\n\n\nmain(None)\n"},
            [("RPL301", 5)],
        ),
    ],
)
def test_options_returned_by_a_parse_helper_reach_the_functions_they_are_passed_to(tmp_path, files, expected):
    """``make(args, ...)`` in ``loader.py`` after ``args = parse_args()``, where the helper
    returns ``parser.parse_args()``: ``opt.serial_batches`` is False and ``opt.workers`` the
    option's default on the default path, as for ``args = parser.parse_args()`` in place."""
    found = lint_project(tmp_path, {"loader.py": _HELPER_LOADER, **files}, select=("RPL301", "RPL302"))
    assert sorted((d.code, d.line) for d in found) == expected


@pytest.mark.parametrize("parsed, expected", [("[]", [("RPL302", 8)]), ("", [("RPL302", 8)]), ("['--shuffle', '']", [])])
def test_a_helper_of_another_module_that_parses_the_defaults_themselves(tmp_path, parsed, expected):
    """``parser.parse_args([])`` (egnn's ``qm9/args.py``) gives the options' defaults, as a
    command line with no options does; a list of options gives what it says, unread here."""
    files = {
        "args.py": "import argparse\n\n\ndef init_argparse(name):\n    parser = argparse.ArgumentParser()\n"
        f"    parser.add_argument('--shuffle', type=bool, default=True)\n    return parser.parse_args({parsed})\n",
        "main.py": "import torch\nfrom torch.utils.data import DataLoader\n\nfrom args import init_argparse\n\n"
        "torch.manual_seed(0)\nargs = init_argparse('qm9')\nloader = DataLoader(list(range(8)), shuffle=args.shuffle)\n",
    }
    found = lint_project(tmp_path, files, select=("RPL302",))
    assert [(d.code, d.line) for d in found] == expected


@pytest.mark.parametrize(
    "seeding, loader, expected",
    [
        # Fabric installs Lightning's worker seeding on the loaders it sets up
        ("fabric.seed_everything(42, workers=True)", "fabric.setup_dataloaders(DataLoader(data, num_workers=4))", []),
        ("L.seed_everything(42, workers=True)", "fabric.setup_dataloaders(DataLoader(data, num_workers=4))", []),
        ("fabric.seed_everything(42, workers=True)", "DataLoader(data, num_workers=4)", [("RPL301", 11)]),  # not set up
        ("fabric.seed_everything(42)", "fabric.setup_dataloaders(DataLoader(data, num_workers=4))", [("RPL301", 11)]),
    ],
)
def test_rpl301_loaders_fabric_sets_up_after_seeding_workers(tmp_path, seeding, loader, expected):
    files = {
        "train.py": "import lightning as L\nimport torch\nfrom torch.utils.data import DataLoader\n\n\n"
        "def main():\n    fabric = L.Fabric(accelerator='cpu')\n    "
        f"{seeding}\n    data = torch.ones(64, 4)\n    model = fabric.setup(torch.nn.Linear(4, 1))\n"
        f"    loader = {loader}\n    for x in loader:\n        model(x).sum()\n\n\nif __name__ == '__main__':\n    main()\n",
    }
    found = lint_project(tmp_path, files, select=("RPL301",))
    assert [(d.code, d.line) for d in found] == expected
