"""RPL301-RPL304: DataLoader arguments as users write them, samplers, worker seeding."""

from __future__ import annotations

import textwrap

import pytest

from fixtools import apply_fixes
from conftest import codes, lint_files_in, write

HEAD = "import functools\nfrom torch.utils.data import DataLoader\n"


def body(code: str) -> str:
    return HEAD + "\n\ndef make(ds, args):\n" + textwrap.indent(textwrap.dedent(code), "    ")


#: makes a snippet an entry point (a script): only there may a fix import repro_lint.runtime
MAIN = '\n\nif __name__ == "__main__":\n    make([], [])\n'


# -- RPL301 ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "code",
    [
        "return DataLoader(ds, num_workers=4)\n",
        "return DataLoader(ds, 32, True, None, None, 4)\n",  # positional num_workers
        "return DataLoader(ds, num_workers=args.workers)\n",
        "kw = {'batch_size': 8, 'num_workers': 2}\nreturn DataLoader(ds, **kw)\n",
        "kw = dict(batch_size=8, num_workers=2)\nreturn DataLoader(ds, **kw)\n",
        "kw = dict(batch_size=8)\nkw.update(num_workers=2)\nreturn DataLoader(ds, **kw)\n",
        "kw = dict(batch_size=8)\nkw.update({'num_workers': args.workers})\nreturn DataLoader(ds, **kw)\n",
        "kw = {}\nkw['num_workers'] = 8\nreturn DataLoader(ds, **kw)\n",
        "return DataLoader(ds, **{'num_workers': 2})\n",
        "make = functools.partial(DataLoader, num_workers=4)\nreturn make(ds)\n",
        "return DataLoader(ds, num_workers=4, worker_init_fn=None)\n",
    ],
)
def test_rpl301_follows_the_values_users_write(lint, code):
    assert codes(lint(body(code), select=["RPL301"])) == ["RPL301"]


@pytest.mark.parametrize(
    "kwargs, expected",
    [
        # the pytorch/examples shape: workers only when CUDA is there
        ("{'num_workers': 1, 'pin_memory': True} if args.cuda else {}", ["RPL301", "RPL302"]),
        ("{} if not args.cuda else {'num_workers': 1}", ["RPL301", "RPL302"]),
        ("dict(num_workers=2) if args.cuda else dict(num_workers=0)", ["RPL301", "RPL302"]),
        # either branch seeds, or neither starts workers
        ("{'num_workers': 2, 'worker_init_fn': init, 'generator': g} if args.cuda else {'generator': g}", []),
        ("{'num_workers': 0, 'generator': g} if args.cuda else {'generator': g}", []),
        # a branch we cannot follow: the benefit of the doubt
        ("{'num_workers': 2} if args.cuda else args.loader_kwargs", []),
    ],
)
def test_rpl301_rpl302_a_kwargs_dict_chosen_by_a_conditional_expression(lint, kwargs, expected):
    code = body(f"init = make_init()\ng = make_generator(0)\nkw = {kwargs}\nreturn DataLoader(ds, batch_size=8, shuffle=True, **kw)\n")
    assert codes(lint(code, select=["RPL301", "RPL302"])) == expected


@pytest.mark.parametrize(
    "call, expected",
    [
        # gnnad: the factory's generator is None unless asked for, and no call asks
        ("get_loader(list(range(8)), 0, seeded=False)", ["RPL302"]),
        ("get_loader(list(range(8)), 0, seeded=True)", []),
        ("get_loader(list(range(8)), 0, seeded=flag)", []),  # not known: the benefit of the doubt
    ],
)
def test_rpl302_a_generator_that_is_none_on_every_path(lint, call, expected):
    code = (
        "import torch\nfrom torch.utils.data import DataLoader\n\n\ndef get_loader(data, seed, seeded):\n"
        "    g = torch.Generator().manual_seed(seed) if seeded else None\n    return DataLoader(data, batch_size=4, shuffle=True, generator=g)\n\n\n"
        f"def main(flag):\n    return {call}\n"
    )
    assert codes(lint(code, select=["RPL302"])) == expected


def test_rpl302_a_generator_none_by_a_method_s_defaults_is_left_to_its_callers(lint):
    """f5-tts: ``Trainer.train(..., resumable_with_seed=None)`` builds a seeded generator when
    given a seed, and its calls on a trainer object elsewhere give one: not known here."""
    code = (
        "import torch\nfrom torch.utils.data import DataLoader\n\n\nclass Trainer:\n"
        "    def train(self, data, seed=None):\n        g = torch.Generator().manual_seed(seed) if seed is not None else None\n"
        "        return DataLoader(data, batch_size=4, shuffle=True, generator=g)\n"
    )
    assert codes(lint(code, select=["RPL302"])) == []


def test_rpl302_a_generator_parameter_passed_on_is_the_callers(lint):
    """torch's own DataLoader: ``RandomSampler(dataset, generator=generator)`` with
    ``generator=None`` by default passes on what its users give."""
    code = (
        "from torch.utils.data import RandomSampler\n\n\ndef make_sampler(dataset, generator=None):\n"
        "    return RandomSampler(dataset, generator=generator)\n\n\ndef main():\n    return make_sampler(list(range(8)))\n"
    )
    assert codes(lint(code, select=["RPL302"])) == []


@pytest.mark.parametrize(
    "stored, also, expected",
    [
        # pvnet: the loader keywords a data module's __init__ keeps on self
        ("{'batch_size': batch_size, 'pin_memory': False}", "", ["RPL302"]),
        ("dict(batch_size=batch_size, pin_memory=False)", "", ["RPL302"]),
        ("{'batch_size': batch_size, 'generator': torch.Generator()}", "", []),
        ("{'batch_size': batch_size, **extra}", "", []),  # may hold a generator
        ("{'batch_size': batch_size}", "\n    def setup(self, stage):\n        self._kwargs.update(self.more)\n", []),  # changed
        ("{'batch_size': batch_size}", "\n    def setup(self, stage):\n        self._kwargs = self.more\n", []),  # bound again
    ],
)
def test_rpl302_loader_keywords_a_class_keeps_on_self(lint, stored, also, expected):
    code = (
        "import torch\nfrom lightning.pytorch import LightningDataModule\nfrom torch.utils.data import DataLoader\n\n\n"
        "class DM(LightningDataModule):\n    def __init__(self, batch_size=8, extra=None):\n        super().__init__()\n"
        f"        self.train_dataset = list(range(64))\n        self._kwargs = {stored}\n{also}\n"
        "    def train_dataloader(self):\n        return DataLoader(self.train_dataset, shuffle=True, **self._kwargs)\n"
    )
    assert codes(lint(code, select=["RPL302"])) == expected


@pytest.mark.parametrize(
    "default, bound, expected, fixed",
    [
        # FixMatch: the sampler class is chosen in a local name, then called; no fix, since the
        # name may stand for a sampler that takes no generator
        (-1, "RandomSampler if args.local_rank == -1 else DistributedSampler", ["RPL302"], False),
        (0, "RandomSampler if args.local_rank == -1 else DistributedSampler", [], False),  # distributed by default
        (-1, "RandomSampler", ["RPL302"], True),  # another name for it: the fix applies
        (-1, "SequentialSampler", [], False),
    ],
)
def test_rpl302_a_random_sampler_called_through_a_local_name(lint, default, bound, expected, fixed):
    code = (
        "import argparse\n\nimport torch\nfrom torch.utils.data import DataLoader, RandomSampler, SequentialSampler\n"
        "from torch.utils.data.distributed import DistributedSampler\n\n\ndef main():\n    parser = argparse.ArgumentParser()\n"
        f"    parser.add_argument('--local_rank', type=int, default={default})\n    args = parser.parse_args()\n    torch.manual_seed(0)\n    data = list(range(10))\n"
        f"    train_sampler = {bound}\n    return DataLoader(data, sampler=train_sampler(data), batch_size=2)\n"
    )
    found = lint(code, select=["RPL302"])
    assert codes(found) == expected
    assert [d.fix is not None for d in found] == [fixed] * len(found)


@pytest.mark.parametrize(
    "kwargs, expected",
    [
        ("{'shuffle': True} if args.train else {'shuffle': False}", ["RPL302"]),
        ("{'shuffle': False} if args.train else {'shuffle': False}", []),
    ],
)
def test_rpl302_a_key_of_both_branches_holds_either_value(lint, kwargs, expected):
    code = body(f"kw = {kwargs}\nreturn DataLoader(ds, batch_size=8, **kw)\n")
    assert codes(lint(code, select=["RPL302"])) == expected


@pytest.mark.parametrize(
    "table, key, splits, expected",
    [
        # deepethogram's loader factory: the key is the split the comprehension visits
        ('{"train": True, "val": True, "test": False}', "split", '["train", "val", "test"]', ["RPL302"]),
        ('{"train": True, "val": True, "test": False}', "split", '("test",)', []),
        ('{"train": False, "val": False}', "split", '["train", "val"]', []),
        ('{"train": True, "val": False}', "'val'", '["train", "val"]', []),  # a literal key: that entry only
        ('{"train": True, "val": False}', "split", "datasets", []),  # keys not known: the benefit of the doubt
        ('{"train": True, **extra}', "split", '["val"]', []),
    ],
)
def test_rpl302_a_dict_entry_under_a_key_a_loop_goes_over(lint, table, key, splits, expected):
    code = (
        "from torch.utils.data import DataLoader\n\n\ndef get_dataloaders(datasets, extra, flag):\n"
        f"    shuffles = {table}\n"
        f"    return {{split: DataLoader(datasets[split], batch_size=8, shuffle=shuffles[{key}]) for split in {splits}}}\n"
    )
    assert codes(lint(code, select=["RPL302"])) == expected


@pytest.mark.parametrize("default, splits, expected", [("True", '["train", "test"]', ["RPL302"]), ("False", '["train", "test"]', []), ("True", '["test"]', [])])
def test_rpl302_a_table_entry_that_is_a_parameter_follows_it(lint, default, splits, expected):
    """deepethogram: ``shuffles = {"train": shuffle, "val": True, "test": False}`` with the
    factory's ``shuffle=True``."""
    code = (
        f"from torch.utils.data import DataLoader\n\n\ndef get_dataloaders(datasets, shuffle={default}):\n"
        "    shuffles = {'train': shuffle, 'test': False}\n"
        f"    return {{split: DataLoader(datasets[split], batch_size=8, shuffle=shuffles[split]) for split in {splits}}}\n"
    )
    assert codes(lint(code, select=["RPL302"])) == expected


@pytest.mark.parametrize("rebinds, expected", [("", ["RPL302"]), ("        split = 'test'\n", [])])
def test_rpl302_a_for_statement_s_target_is_each_literal_it_goes_over(lint, rebinds, expected):
    code = (
        "from torch.utils.data import DataLoader\n\n\ndef get_dataloaders(datasets):\n"
        "    shuffles = {'train': True, 'test': False}\n    loaders = {}\n    for split in ['train', 'test']:\n"
        f"{rebinds}        loaders[split] = DataLoader(datasets[split], batch_size=8, shuffle=shuffles[split])\n    return loaders\n"
    )
    assert codes(lint(code, select=["RPL302"])) == expected


@pytest.mark.parametrize("split, expected", [("'train'", ["RPL302"]), ("'test'", [])])
def test_rpl302_a_dict_entry_under_a_parameter_key_follows_the_parameter(lint, split, expected):
    code = (
        "from torch.utils.data import DataLoader\n\n\ndef get_loader(ds, split):\n"
        "    shuffles = {'train': True, 'test': False}\n    return DataLoader(ds, batch_size=8, shuffle=shuffles[split])\n\n\n"
        f"loader = get_loader([1, 2], {split})\n"
    )
    assert codes(lint(code, select=["RPL302"])) == expected


def test_rpl301_alias_import(lint):
    code = "from torch.utils.data import DataLoader as DL\nloader = DL(ds, num_workers=2)\n"
    assert codes(lint(code, select=["RPL301"])) == ["RPL301"]


@pytest.mark.parametrize(
    "code",
    [
        "return DataLoader(ds)\n",
        "return DataLoader(ds, num_workers=0)\n",
        "return DataLoader(ds, num_workers=4, worker_init_fn=seed_fn)\n",
        "return DataLoader(ds, 32, True, None, None, 4, None, False, False, 0, seed_fn)\n",
        "return DataLoader(ds, **args.loader_kwargs)\n",  # cannot be followed
        "kw = dict(num_workers=2, worker_init_fn=seed_fn)\nreturn DataLoader(ds, **kw)\n",
        "kw = dict(num_workers=2)\nkw.update(other)\nreturn DataLoader(ds, **kw)\n",  # may carry it
        "kw = dict(num_workers=2)\nkw['worker_init_fn'] = seed_fn\nreturn DataLoader(ds, **kw)\n",
        "return DataLoader(ds, *rest)\n",
    ],
)
def test_rpl301_quiet(lint, code):
    assert codes(lint(body(code), select=["RPL301"])) == []


SUBCLASSED = """
from torch.utils.data import DataLoader


class Base:
    def __init__(self, ds, batch_size: int = 8, num_workers: int = 0):
        self.ds = ds
        self.num_workers = num_workers

    def loader(self):
        return DataLoader(self.ds, num_workers=self.num_workers)


class Sub(Base):
    def __init__(self, ds, num_workers: int = 0):
        {init}


class Plain(Base):
    pass


if __name__ == "__main__":
    {main}
"""


@pytest.mark.parametrize(
    "init, main, expected",
    [
        # the subclass's own parameter, default 0, on the file's calls of the subclass
        ("super().__init__(ds, 8, num_workers)", "Sub([]).loader()", []),
        ("super(Sub, self).__init__(ds, num_workers=num_workers)", "Sub([], 0).loader()", []),
        ("Base.__init__(self, ds, 8, num_workers)", "Sub([]).loader()", []),
        # workers on some path the file shows
        ("super().__init__(ds, num_workers=4)", "Sub([]).loader()", ["RPL301"]),
        ("super().__init__(ds, 8, num_workers)", "Sub([], num_workers=4).loader()", ["RPL301"]),
        ("Base.__init__(self, ds, num_workers=4)", "Sub([]).loader()", ["RPL301"]),
        # a subclass that inherits __init__ is a call of it
        ("super().__init__(ds, 8, num_workers)", "Sub([]).loader()\n    Plain([], 8, 4).loader()", ["RPL301"]),
        # arguments we cannot see stay open
        ("super().__init__(ds, **kwargs)", "Sub([]).loader()", ["RPL301"]),
        # Sub built nowhere in the project: its default path (num_workers 0) starts no workers
        ("super().__init__(ds, 8, num_workers)", "pass", []),
    ],
)
def test_rpl301_follows_super_init_to_the_subclass(lint, init, main, expected):
    code = SUBCLASSED.format(init=init, main=main)
    if "kwargs" in init:
        code = code.replace("num_workers: int = 0):\n        super", "num_workers: int = 0, **kwargs):\n        super")
    assert codes(lint(code, select=["RPL301"])) == expected


def test_rpl301_dicts_do_not_leak_between_functions(lint):
    code = HEAD + (
        "def a():\n    kw = dict(num_workers=2)\n    return kw\n\n"
        "def b(ds, kw):\n    return DataLoader(ds, **kw)\n"
    )
    assert codes(lint(code, select=["RPL301"])) == []


def test_rpl301_fix_adds_the_keyword_and_the_import(lint):
    code = body("kw = dict(num_workers=2)\nreturn DataLoader(ds, **kw)\n") + MAIN
    fixed = apply_fixes(code, lint(code, select=["RPL301"]))
    assert "from repro_lint.runtime import seed_worker\n" in fixed
    assert "DataLoader(ds, **kw, worker_init_fn=seed_worker)" in fixed
    compile(fixed, "fixed.py", "exec")


def test_rpl301_fix_uses_a_local_seed_worker(lint):
    code = HEAD + "def seed_worker(i):\n    pass\n\nloader = DataLoader(ds, num_workers=2)\n" + MAIN
    fixed = apply_fixes(code, lint(code, select=["RPL301"]))
    assert "repro_lint.runtime" not in fixed and "worker_init_fn=seed_worker" in fixed


def test_rpl301_fix_replaces_an_explicit_none(lint):
    code = HEAD + "loader = DataLoader(ds, num_workers=2, worker_init_fn=None)\n" + MAIN
    fixed = apply_fixes(code, lint(code, select=["RPL301"]))
    assert "worker_init_fn=seed_worker)" in fixed and "None" not in fixed


# -- RPL302 ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "code",
    [
        "return DataLoader(ds, shuffle=True)\n",
        "return DataLoader(ds, 32, True)\n",  # positional shuffle
        "kw = dict(shuffle=True)\nreturn DataLoader(ds, **kw)\n",
        "return functools.partial(DataLoader, batch_size=4, shuffle=True)\n",
        "return DataLoader(ds, shuffle=True, generator=None)\n",
        # MixMatch's loaders: a partial bound in the function, shuffled where it is called
        "get_loader = functools.partial(DataLoader, batch_size=8)\nreturn get_loader(ds, shuffle=True)\n",
        "get_loader = functools.partial(DataLoader, shuffle=True)\nreturn get_loader(ds, batch_size=8)\n",
    ],
)
def test_rpl302_dataloader_shuffle(lint, code):
    found = lint(body(code), select=["RPL302"])
    assert codes(found) == ["RPL302"]
    assert "generator=" in found[0].message


@pytest.mark.parametrize(
    "code",
    [
        "from torch.utils.data import RandomSampler\ns = RandomSampler(ds)\n",
        "from torch.utils.data import SubsetRandomSampler\ns = SubsetRandomSampler(idx)\n",
        "from torch.utils.data import WeightedRandomSampler\ns = WeightedRandomSampler(w, 10)\n",
        "import torch\ntrain, val = torch.utils.data.random_split(ds, [0.9, 0.1])\n",
        "from torch.utils.data.sampler import RandomSampler as RS\ns = RS(ds, replacement=True)\n",
    ],
)
def test_rpl302_samplers_and_split(lint, code):
    assert codes(lint(code, select=["RPL302"])) == ["RPL302"]


@pytest.mark.parametrize(
    "code",
    [
        "return DataLoader(ds)\n",
        "return DataLoader(ds, shuffle=False)\n",
        "return DataLoader(ds, shuffle=args.shuffle)\n",
        "return DataLoader(ds, shuffle=True, generator=g)\n",
        "kw = dict(shuffle=True, generator=g)\nreturn DataLoader(ds, **kw)\n",
        "from torch.utils.data import RandomSampler\nreturn RandomSampler(ds, False, None, g)\n",
        "from torch.utils.data import DistributedSampler\nreturn DistributedSampler(ds, shuffle=True)\n",
    ],
)
def test_rpl302_quiet(lint, code):
    assert codes(lint(body(code), select=["RPL302"])) == []


def test_rpl302_fix_uses_the_configured_seed_only_where_nothing_seeds_torch(lint):
    code = "from torch.utils.data import random_split\ntrain, val = random_split(ds, [8, 2])\n" + MAIN
    found = lint(code, select=["RPL302"], seed=1234)
    assert found[0].fix.applicability == "safe"
    assert apply_fixes(code, found) == (
        "from repro_lint.runtime import make_generator\n"  # sorted into the file's imports
        "from torch.utils.data import random_split\n"
        "train, val = random_split(ds, [8, 2], generator=make_generator(1234))\n" + MAIN
    )


SEEDED_SCRIPT = """\
import argparse
import torch
from torch.utils.data import DataLoader


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    torch.manual_seed(args.seed)
    loader = DataLoader(list(range(12)), batch_size=12, shuffle=True)
    print(next(iter(loader)).tolist())


if __name__ == "__main__":
    main()
"""


def test_rpl302_fix_keeps_the_scripts_own_seed(lint):
    """The script seeds torch with --seed: the generator follows that seed (no literal)."""
    found = lint(SEEDED_SCRIPT, select=["RPL302"], seed=1234)
    fixed = apply_fixes(SEEDED_SCRIPT, found)
    assert (  # past the file's width (79 here): on a continuation line under the first argument
        "    loader = DataLoader(list(range(12)), batch_size=12, shuffle=True,\n"
        "                        generator=make_generator())\n"
    ) in fixed
    assert "1234" not in fixed


def test_rpl302_fixed_script_still_obeys_its_seed(lint, tmp_path):
    """Run the fixed script: --seed 1 and --seed 2 give different orders, the same seed the same."""
    import subprocess
    import sys

    from conftest import REPO

    pytest.importorskip("torch")
    fixed = apply_fixes(SEEDED_SCRIPT, lint(SEEDED_SCRIPT, select=["RPL302"]))
    script = tmp_path / "train_fixed.py"
    script.write_text(fixed)

    def order(seed: int) -> str:
        env = {"PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin"}
        done = subprocess.run([sys.executable, str(script), "--seed", str(seed)], capture_output=True, text=True, env=env, timeout=120)
        assert done.returncode == 0, done.stderr
        return done.stdout.strip()

    assert order(1) == order(1)
    assert order(1) != order(2)


SEEDED_AFTER_THE_LOADER = SEEDED_SCRIPT.replace(
    "    torch.manual_seed(args.seed)\n    loader = DataLoader(list(range(12)), batch_size=12, shuffle=True)\n",
    "    loader = DataLoader(list(range(12)), batch_size=12, shuffle=True)\n    torch.manual_seed(args.seed)\n",
)


@pytest.mark.parametrize(
    "style, generator",
    [("runtime", "make_generator(args.seed)"), ("inline", "torch.Generator().manual_seed(args.seed)")],
)
def test_rpl302_passes_the_seed_the_script_gives_torch_right_after_the_loader(lint, style, generator):
    """``make_generator()`` would take the seed torch had when the loader was built, drawn at
    random: the fix passes the seed of the seeding statement that follows, known there."""
    found = lint(SEEDED_AFTER_THE_LOADER, select=["RPL101", "RPL302"], fix_style=style)
    assert codes(found) == ["RPL302"]
    assert found[0].fix is not None and found[0].fix.applicability == "safe"
    assert f"generator={generator})" in apply_fixes(SEEDED_AFTER_THE_LOADER, found)


@pytest.mark.parametrize("style", ["runtime", "inline"])
@pytest.mark.parametrize(
    "script",
    [
        # the seed's name is bound only after the loader
        SEEDED_AFTER_THE_LOADER.replace("torch.manual_seed(args.seed)", "seed = args.seed\n    torch.manual_seed(seed)"),
        # seeded under a condition after the loader
        SEEDED_AFTER_THE_LOADER.replace(
            "    torch.manual_seed(args.seed)\n", "    if args.seed is not None:\n        torch.manual_seed(args.seed)\n"
        ),
        # the function that builds it is called before the seed
        SEEDED_AFTER_THE_LOADER.replace(
            "    loader = DataLoader(list(range(12)), batch_size=12, shuffle=True)\n",
            "    loader = build()\n",
        ).replace("\n\ndef main():", "\n\ndef build():\n    return DataLoader(list(range(12)), batch_size=12, shuffle=True)\n\n\ndef main():"),
        # seeded by what a later call runs: a project class whose constructor seeds
        # (Bayesian-Neural-Networks' MC_drop_net, whose create_net() calls torch.manual_seed(42))
        SEEDED_AFTER_THE_LOADER.replace("    torch.manual_seed(args.seed)\n", "    net = Net()\n").replace(
            "\n\ndef main():",
            "\n\nclass Net:\n    def __init__(self):\n        self.build()\n\n    def build(self):\n"
            "        torch.manual_seed(42)\n        self.layer = torch.nn.Linear(2, 2)\n\n\ndef main():",
        ),
        # seeded in the epoch loop, after the loader is built (diffusers' unconditional example)
        SEEDED_SCRIPT.replace("    torch.manual_seed(args.seed)\n", "").replace(
            "    print(next(iter(loader)).tolist())\n",
            "    for epoch in range(2):\n        if epoch > 0:\n            torch.manual_seed(args.seed)\n"
            "        print(next(iter(loader)).tolist())\n",
        ),
    ],
)
def test_rpl302_has_no_fix_where_the_script_seeds_torch_only_after_the_loader(lint, script, style):
    """The generator would take the seed torch had when the loader was built, drawn at random,
    where the sampler drew its order from the seeded RNG as it was iterated."""
    found = lint(script, select=["RPL101", "RPL302"], fix_style=style)
    assert codes(found) == ["RPL302"]
    assert found[0].fix is None


@pytest.mark.parametrize(
    "seeding",
    [
        # the caller seeds before it calls the function that builds the loader
        "def build():\n    return DataLoader(list(range(12)), shuffle=True)\n\n\ndef main():\n"
        "    torch.manual_seed(0)\n    loader = build()\n",
        # seeded before in the same body, under a condition
        "def main(seed=0):\n    if seed is not None:\n        torch.manual_seed(seed)\n"
        "    loader = DataLoader(list(range(12)), shuffle=True)\n    torch.manual_seed(1)\n",
    ],
)
def test_rpl302_keeps_its_fix_where_torch_may_be_seeded_before_the_loader(lint, seeding):
    code = "import torch\nfrom torch.utils.data import DataLoader\n\n\n" + seeding + (
        "    for x in loader:\n        x.float().sum()\n\n\nif __name__ == '__main__':\n    main()\n"
    )
    found = lint(code, select=["RPL302"])
    assert codes(found) == ["RPL302"]
    assert found[0].fix is not None and found[0].fix.applicability == "safe"
    assert "generator=make_generator()" in apply_fixes(code, found)


def test_a_script_seeded_after_its_loader_already_repeats_its_order(lint, tmp_path):
    """Why the fix above is withheld: the sampler draws its order from the global RNG as it is
    iterated, after the seed, so the script repeats its order; a generator seeded with
    ``torch.initial_seed()`` as the loader is built would not."""
    import subprocess
    import sys

    from conftest import REPO

    pytest.importorskip("torch")

    def orders(text: str) -> list:
        script = tmp_path / "train_after.py"
        script.write_text(text)
        env = {"PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin"}
        runs = [subprocess.run([sys.executable, str(script), "--seed", "1"], capture_output=True, text=True, env=env, timeout=120) for _ in range(2)]
        assert all(run.returncode == 0 for run in runs), runs[0].stderr
        return [run.stdout.strip() for run in runs]

    same = orders(SEEDED_AFTER_THE_LOADER)
    assert same[0] == same[1]
    with_generator = SEEDED_AFTER_THE_LOADER.replace(
        "shuffle=True)", "shuffle=True, generator=torch.Generator().manual_seed(torch.initial_seed()))"
    )
    differ = orders(with_generator)
    assert differ[0] != differ[1]  # 12! orders: the same one twice by chance is negligible
    fixed = orders(apply_fixes(SEEDED_AFTER_THE_LOADER, lint(SEEDED_AFTER_THE_LOADER, select=["RPL302"])))
    assert fixed[0] == fixed[1]


@pytest.mark.parametrize("style", ["runtime", "inline"])
def test_a_library_module_never_gains_a_repro_lint_import(lint, style):
    """A module that is not an entry point: RPL301 has no fix, RPL302 only an unsafe one that
    uses torch alone and the seed its caller gave torch."""
    code = "import torch\n" + body("return DataLoader(ds, shuffle=True, num_workers=2)\n")
    found = lint(code, select=["RPL301", "RPL302"], fix_style=style)
    assert codes(found) == ["RPL301", "RPL302"]
    assert found[0].fix is None
    assert found[1].fix is not None and found[1].fix.applicability == "unsafe"
    assert apply_fixes(code, found) == code  # nothing safe to apply
    fixed = apply_fixes(code, found, unsafe=True)
    assert "repro_lint" not in fixed
    assert "generator=torch.Generator().manual_seed(torch.initial_seed())" in fixed


def test_the_inline_style_passes_a_torch_generator_in_a_script(lint):
    found = lint(SEEDED_SCRIPT, select=["RPL301", "RPL302"], fix_style="inline")
    fixed = apply_fixes(SEEDED_SCRIPT, found)
    assert "repro_lint" not in fixed
    assert "generator=torch.Generator().manual_seed(torch.initial_seed())" in fixed
    assert found[0].fix.applicability == "safe"


@pytest.mark.parametrize("style", ["runtime", "inline"])
def test_loaders_built_side_by_side_never_get_the_same_order(lint, style):
    """Domain adaptation: a source and a target loader, both shuffled. A generator seeded with
    the same seed for both would pair each source sample with the target sample of the same
    index every epoch; the fixed program gives each its own order, and the same orders again
    when it runs again."""
    script = (
        "import torch\nfrom torch.utils.data import DataLoader\n\n\ndef main():\n    torch.manual_seed(0)\n"
        "    source = DataLoader(list(range(12)), batch_size=12, shuffle=True)\n"
        "    target = DataLoader(list(range(12)), batch_size=12, shuffle=True)\n"
        "    return [next(iter(source)).tolist(), next(iter(target)).tolist()]\n\n\n"
        "if __name__ == '__main__':\n    main()\n"
    )
    fixed = apply_fixes(script, lint(script, select=["RPL302"], fix_style=style))

    def orders():
        namespace = {"__name__": "fixed"}
        exec(compile(fixed, "fixed.py", "exec"), namespace)
        return namespace["main"]()

    first = orders()
    assert first[0] != first[1], fixed
    assert orders() == first


def test_a_library_module_gives_each_of_its_loaders_its_own_generator_seed(lint):
    code = "import torch\nfrom torch.utils.data import DataLoader\n\n\ndef loaders(a, b):\n    return DataLoader(a, shuffle=True), DataLoader(b, shuffle=True)\n"
    fixed = apply_fixes(code, lint(code, select=["RPL302"]), unsafe=True)
    assert "generator=torch.Generator().manual_seed(torch.initial_seed())" in fixed
    assert "generator=torch.Generator().manual_seed(torch.initial_seed() + 1)" in fixed


def test_rpl301_and_rpl302_fixes_share_one_call(lint):
    code = HEAD + "loader = DataLoader(ds, shuffle=True, num_workers=2)\n" + MAIN
    fixed = apply_fixes(code, lint(code, select=["RPL301", "RPL302"]))
    compile(fixed, "fixed.py", "exec")
    assert "worker_init_fn=seed_worker" in fixed and "generator=make_generator(0)" in fixed


# -- RPL303 ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "code",
    [
        "import numpy as np\ndef init(wid):\n    np.random.seed(0)\nDataLoader(ds, num_workers=2, worker_init_fn=init)\n",
        "import random\nSEED = 1\ndef init(wid):\n    random.seed(SEED)\nDataLoader(ds, worker_init_fn=init)\n",
        "import torch\nDataLoader(ds, worker_init_fn=lambda _: torch.manual_seed(42))\n",
        "import numpy as np\nDataLoader(ds, worker_init_fn=functools.partial(init, base=3))\n"
        "def init(wid, base):\n    rng = np.random.default_rng(7)\n",
        "import numpy as np\ndef init(wid):\n    s = 5\n    np.random.seed(s)\nkw = dict(worker_init_fn=init)\nDataLoader(ds, **kw)\n",
        # every library seeding helper the catalog knows, under each of its names (kraken)
        "def init(wid):\n    from lightning.pytorch import seed_everything\n    seed_everything(42)\nDataLoader(ds, worker_init_fn=init)\n",
        "import lightning.fabric as fabric\ndef init(wid):\n    fabric.seed_everything(42)\nDataLoader(ds, worker_init_fn=init)\n",
    ],
)
def test_rpl303_constant_seeds(lint, code):
    found = lint(HEAD + code, select=["RPL303"])
    assert codes(found) == ["RPL303"]
    assert "initial_seed" in found[0].message


@pytest.mark.parametrize(
    "code",
    [
        # the worker's id alone: a stream per worker, kept from epoch to epoch by persistent workers
        "import numpy as np\ndef init(wid):\n    np.random.seed(wid)\n"
        "DataLoader(ds, worker_init_fn=init, persistent_workers=True)\n",
        "import numpy as np, torch\ndef init(wid):\n    np.random.seed(torch.initial_seed() % 2**32)\n"
        "DataLoader(ds, worker_init_fn=init)\n",
        "import numpy as np, torch\ndef init(wid):\n    s = torch.initial_seed() % 2**32\n    np.random.seed(s)\n"
        "DataLoader(ds, worker_init_fn=init)\n",
        "import random\nfrom torch.utils.data import get_worker_info\ndef init(_):\n    info = get_worker_info()\n"
        "    random.seed(info.seed)\nDataLoader(ds, worker_init_fn=init)\n",
        "import numpy as np\ndef init(wid):\n    np.random.seed()\nDataLoader(ds, worker_init_fn=init)\n",
        # a constant seed in a function that is not a worker_init_fn
        "import numpy as np\ndef setup():\n    np.random.seed(0)\nDataLoader(ds)\n",
        # a class the catalog lists as seeding (a Trainer) takes no seed first
        "import lightning as L\ndef init(wid):\n    L.Trainer(42)\nDataLoader(ds, worker_init_fn=init)\n",
    ],
)
def test_rpl303_quiet(lint, code):
    assert codes(lint(HEAD + code, select=["RPL303"])) == []


# -- RPL304 ----------------------------------------------------------------------------------


def test_rpl304_reports_a_sampler_without_set_epoch(lint):
    code = "from torch.utils.data import DistributedSampler\nsampler = DistributedSampler(ds)\n"
    found = lint(code, select=["RPL304"])
    assert codes(found) == ["RPL304"] and "set_epoch(epoch)" in found[0].message


@pytest.mark.parametrize(
    "code",
    [
        "from torch.utils.data import DistributedSampler\ns = DistributedSampler(ds)\nfor e in range(3):\n    s.set_epoch(e)\n",
        "from torch.utils.data import DistributedSampler\ns = DistributedSampler(ds, shuffle=False)\n",
        "from torch.utils.data import DistributedSampler\ns = DistributedSampler(ds, None, None, False)\n",
        "from torch.utils.data import DistributedSampler\nloader = DataLoader(ds, sampler=DistributedSampler(ds))\n"
        "for e in range(3):\n    loader.sampler.set_epoch(e)\n",
    ],
)
def test_rpl304_quiet(lint, code):
    assert codes(lint(code, select=["RPL304"])) == []


def test_rpl304_set_epoch_in_another_project_file(tmp_path):
    write(
        tmp_path,
        {
            "data.py": "from torch.utils.data.distributed import DistributedSampler\n"
            "def build(ds):\n    return DistributedSampler(ds)\n",
            "train.py": "from data import build\nsampler = build(ds)\nfor e in range(2):\n    sampler.set_epoch(e)\n",
        },
    )
    alone = lint_files_in([tmp_path / "data.py"], tmp_path, ["RPL304"])
    both = lint_files_in([tmp_path / "data.py", tmp_path / "train.py"], tmp_path, ["RPL304"])
    assert codes(alone) == ["RPL304"] and codes(both) == []


def test_rpl304_set_epoch_in_another_program_does_not_count(tmp_path):
    """Two projects linted in one tree: the set_epoch of one does not cover the other's sampler;
    the one that calls it through a module its entry point reaches is quiet."""
    write(
        tmp_path,
        {
            "a/train_a.py": "from torch.utils.data.distributed import DistributedSampler\n"
            "if __name__ == '__main__':\n    sampler = DistributedSampler(ds)\n    model.fit(sampler)\n",
            "b/loop.py": "def run(sampler, epochs):\n    for e in range(epochs):\n        sampler.set_epoch(e)\n",
            "b/train_b.py": "from torch.utils.data.distributed import DistributedSampler\nfrom loop import run\n"
            "if __name__ == '__main__':\n    run(DistributedSampler(ds), 3)\n",
        },
    )
    files = [tmp_path / "a/train_a.py", tmp_path / "b/loop.py", tmp_path / "b/train_b.py"]
    found = lint_files_in(files, tmp_path, ["RPL304"])
    assert [(d.path.rsplit("/", 1)[-1], d.code) for d in found] == [("train_a.py", "RPL304")]


def test_rpl304_a_set_epoch_method_defined_elsewhere_is_no_call(tmp_path):
    """Another module that defines ``set_epoch`` on its own sampler class calls nothing."""
    write(
        tmp_path,
        {
            "data.py": "from torch.utils.data.distributed import DistributedSampler\n"
            "def build(ds):\n    return DistributedSampler(ds)\n",
            "samplers.py": "class InfiniteSampler:\n    def set_epoch(self, epoch):\n        self.epoch = epoch\n",
        },
    )
    found = lint_files_in([tmp_path / "data.py", tmp_path / "samplers.py"], tmp_path, ["RPL304"])
    assert codes(found) == ["RPL304"]


ONE_PER_LINE = """\
import torch
from torch.utils.data import DataLoader

if __name__ == "__main__":
    torch.manual_seed(0)
    loader = DataLoader(
        list(range(10)),
        batch_size=2,
        shuffle=True,  # shuffle it
    )
    other = DataLoader(
        list(range(10)),
        shuffle=True,
        num_workers=2
    )
    flat = DataLoader(list(range(10)), shuffle=True)
"""


def test_new_keywords_follow_the_calls_own_layout(lint):
    """One argument per line: each new keyword on a line of its own, with the arguments'
    indentation and a trailing comma; a call written on one line stays on one line while it
    fits the file's width, else continues under its first argument."""
    fixed = apply_fixes(ONE_PER_LINE, lint(ONE_PER_LINE, select=["RPL301", "RPL302"]))
    assert (
        "        shuffle=True,  # shuffle it\n"
        "        generator=make_generator(),\n"
        "    )\n"
    ) in fixed
    # (each further loader of the file its own stream of the seed)
    assert (
        "        num_workers=2,\n"
        "        worker_init_fn=seed_worker,\n"
        "        generator=make_generator(stream=1),\n"
        "    )\n"
    ) in fixed
    assert "flat = DataLoader(list(range(10)), shuffle=True,\n                      generator=make_generator(stream=2))" in fixed
    short = "import torch\nfrom torch.utils.data import DataLoader\n\nif __name__ == '__main__':\n    torch.manual_seed(0)\n    f = DataLoader(ds, shuffle=True)\n"
    assert "    f = DataLoader(ds, shuffle=True, generator=make_generator())\n" in apply_fixes(short, lint(short, select=["RPL302"]))
    compile(fixed, "fixed.py", "exec")


DDP_SCRIPT = """\
import argparse
import os

import torch
from torch.utils.data import DataLoader, Dataset


class Augmented(Dataset):
    def __len__(self):
        return 8

    def __getitem__(self, index):
        return torch.rand(1).item()  # a random augmentation, drawn in the worker


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    rank = int(os.environ.get("RANK", "0"))
    torch.manual_seed(args.seed + rank)
    loader = DataLoader(Augmented(), batch_size=8, shuffle=True, num_workers=2)
    print(next(iter(loader)).tolist())


if __name__ == "__main__":
    main()
"""


def test_a_seed_plus_rank_script_keeps_a_stream_per_rank_after_the_fix(lint, tmp_path):
    """Each rank seeds torch with seed + rank; the fixed loader's generator follows that seed,
    so the ranks' workers still draw different augmentations (one process per rank, as a
    launcher starts them, RANK from the environment)."""
    import subprocess
    import sys

    from conftest import REPO

    pytest.importorskip("torch")
    found = lint(DDP_SCRIPT, select=["RPL301", "RPL302"])
    fixed = apply_fixes(DDP_SCRIPT, found)
    assert "generator=make_generator()" in fixed and "worker_init_fn=seed_worker" in fixed
    script = tmp_path / "ddp_fixed.py"
    script.write_text(fixed)

    def stream(rank: int) -> str:
        env = {"PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin", "RANK": str(rank)}
        done = subprocess.run([sys.executable, str(script), "--seed", "3"], capture_output=True, text=True, env=env, timeout=120)
        assert done.returncode == 0, done.stderr
        return done.stdout.strip()

    assert stream(0) == stream(0)
    assert stream(0) != stream(1)


@pytest.mark.parametrize(
    "default, expected",
    [("0", []), ("'0'", []), ("4", ["RPL301"]), ("'4'", ["RPL301"]), ("None", ["RPL301"])],
)
def test_rpl301_a_builtin_conversion_of_an_option_is_its_converted_default(lint, default, expected):
    """SPADE: ``num_workers=int(opt.nThreads)`` with ``--nThreads`` defaulting to 0 starts no
    workers; a default that int() rejects (None) is not known, so it is reported."""
    code = (
        "import argparse\nfrom torch.utils.data import DataLoader\n\n"
        f"parser = argparse.ArgumentParser()\nparser.add_argument('--nThreads', default={default})\n"
        "opt = parser.parse_args()\nloader = DataLoader(ds, num_workers=int(opt.nThreads))\n"
    )
    assert codes(lint(code, select=["RPL301"])) == expected


@pytest.mark.parametrize(
    "signature, expected",
    [
        ("num_workers=0", []),  # its default path starts no workers
        ("num_workers=4", ["RPL301", "RPL301"]),
        ("num_workers", ["RPL301", "RPL301"]),  # no default: whatever callers pass
    ],
)
def test_rpl301_a_loader_function_nothing_in_the_project_calls(lint, signature, expected):
    """torch-rechub: ``SequenceDataGenerator.generate_dataloader(..., num_workers=0)``, a
    library method the project never calls: a caller passing workers is where they start."""
    code = (
        "from torch.utils.data import DataLoader\n\n\n"
        f"def make_loader(data, {signature}, batch_size=16):\n"
        "    return DataLoader(data, batch_size=batch_size, num_workers=num_workers)\n\n\n"
        "class Gen:\n    def __init__(self, data):\n        self.data = data\n\n"
        f"    def generate_dataloader(self, {signature}, batch_size=16):\n"
        "        return DataLoader(self.data, batch_size=batch_size, num_workers=num_workers)\n"
    )
    assert codes(lint(code, select=["RPL301"])) == expected


@pytest.mark.parametrize(
    "build, expected",
    [
        ("DistributedSampler(dataset, world_size, rank, shuffle=shuffle)", ["RPL304"]),
        ("DistributedSampler(dataset, world_size, rank, shuffle=False)", []),
        ("GroupSampler(dataset, world_size, rank)", ["RPL304"]),  # through a project class
        ("Plain(dataset)", []),  # a project class that is no DistributedSampler
    ],
)
def test_rpl304_a_project_subclass_of_distributed_sampler(tmp_path, build, expected):
    """mmselfsup: ``class DistributedSampler(_DistributedSampler)`` in ``samplers.py``, built in
    ``build_dataloader``; nothing calls ``set_epoch``."""
    write(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/samplers.py": "from torch.utils.data import DistributedSampler as _DistributedSampler\n\n\n"
            "class DistributedSampler(_DistributedSampler):\n"
            "    def __init__(self, dataset, num_replicas=None, rank=None, shuffle=True):\n"
            "        super().__init__(dataset, num_replicas=num_replicas, rank=rank, shuffle=shuffle)\n\n\n"
            "class GroupSampler(DistributedSampler):\n    pass\n\n\nclass Plain:\n    def __init__(self, dataset):\n        self.dataset = dataset\n",
            "pkg/builder.py": "from torch.utils.data import DataLoader\n\nfrom .samplers import DistributedSampler, GroupSampler, Plain\n\n\n"
            f"def build_dataloader(dataset, world_size, rank, shuffle=True):\n    sampler = {build}\n"
            "    return DataLoader(dataset, batch_size=2, sampler=sampler)\n",
        },
    )
    found = lint_files_in(sorted(tmp_path.rglob("*.py")), tmp_path, ["RPL304"])
    assert [d.code for d in found] == expected


@pytest.mark.parametrize(
    "runner, expected",
    [
        ("from mmcv.runner import IterBasedRunner\n\nrunner = IterBasedRunner(model=None)\n", []),
        ("from mmcv.runner import DistSamplerSeedHook, EpochBasedRunner\n\nrunner = EpochBasedRunner(model=None)\n"
         "runner.register_hook(DistSamplerSeedHook())\n", []),
        ("from mmcv.runner import EpochBasedRunner\n\nrunner = EpochBasedRunner(model=None)\n", ["RPL304"]),
    ],
)
def test_rpl304_a_library_runner_that_sets_the_samplers_epoch(tmp_path, runner, expected):
    """mmediting: ``IterBasedRunner``'s ``IterLoader`` calls ``set_epoch``; mmtrack registers
    ``DistSamplerSeedHook``; an ``EpochBasedRunner`` alone calls nothing."""
    write(
        tmp_path,
        {
            "builder.py": "from torch.utils.data import DataLoader, DistributedSampler\n\n\n"
            "def build_dataloader(dataset):\n    return DataLoader(dataset, sampler=DistributedSampler(dataset))\n",
            "train.py": "from builder import build_dataloader\n" + runner + "\nif __name__ == '__main__':\n"
            "    loader = build_dataloader(list(range(8)))\n",
        },
    )
    found = lint_files_in(sorted(tmp_path.glob("*.py")), tmp_path, ["RPL304"])
    assert [d.code for d in found] == expected


@pytest.mark.parametrize(
    "default, expression, expected",
    [
        ("0", "opt.workers * 2", []),  # arithmetic of a known default: 0 workers
        ("0", "opt.workers + 0", []),
        ("4", "opt.workers * 2", ["RPL301"]),
        ("4", "opt.workers // 8", []),  # 4 // 8 == 0
        ("4", "opt.workers - 4", []),
        ("None", "opt.workers * 2", ["RPL301"]),  # the program would fail there: not known, reported
    ],
)
def test_rpl301_arithmetic_of_known_numbers_is_folded(lint, default, expression, expected):
    code = (
        "import argparse\nfrom torch.utils.data import DataLoader\n\n"
        f"parser = argparse.ArgumentParser()\nparser.add_argument('--workers', type=int, default={default})\n"
        f"opt = parser.parse_args()\nloader = DataLoader(ds, num_workers={expression})\n"
    )
    assert codes(lint(code, select=["RPL301"])) == expected


@pytest.mark.parametrize("default, expected", [("0", []), ("4", ["RPL301"])])
def test_rpl301_options_declared_on_the_parser_by_another_modules_function(tmp_path, default, expected):
    """LINKX: ``parser_add_main_args(parser)`` from ``parse.py`` declares the options on the
    script's parser; their defaults are the default path."""
    write(
        tmp_path,
        {
            "parse.py": "def parser_add_main_args(parser):\n    parser.add_argument('--sampling', action='store_true')\n"
            f"    parser.add_argument('--workers', type=int, default={default})\n",
            "train.py": "import argparse\n\nimport torch\nfrom parse import parser_add_main_args\n\n"
            "parser = argparse.ArgumentParser()\nparser_add_main_args(parser)\nargs = parser.parse_args()\n"
            "loader = torch.utils.data.DataLoader(list(range(8)), num_workers=args.workers)\n",
        },
    )
    found = lint_files_in([tmp_path / "train.py"], tmp_path, ["RPL301"])
    assert codes(found) == expected


@pytest.mark.parametrize("same_module", [False, True])
def test_rpl304_a_project_subclass_built_where_distributed_sampler_is_never_named(tmp_path, same_module):
    """GaitSet: ``model.py`` builds ``TripletSampler``, which ``sampler.py`` derives from
    ``DistributedSampler``; the building module never writes that name."""
    sampler = "from torch.utils.data.distributed import DistributedSampler\n\n\nclass TripletSampler(DistributedSampler):\n    def __init__(self, dataset):\n        self.dataset = dataset\n"
    build = "def fit(dataset):\n    sampler = TripletSampler(dataset)\n    return DataLoader(dataset, batch_sampler=sampler)\n"
    if same_module:  # defined and built in one module (no name qualifies it through an import)
        files = {"pkg/__init__.py": "", "pkg/model.py": "from torch.utils.data import DataLoader\n" + sampler + "\n\n" + build}
    else:
        model = "from torch.utils.data import DataLoader\n\nfrom .sampler import TripletSampler\n\n\n" + build
        files = {"pkg/__init__.py": "", "pkg/sampler.py": sampler, "pkg/model.py": model}
    write(tmp_path, files)
    found = lint_files_in(sorted(tmp_path.rglob("*.py")), tmp_path, ["RPL304"])
    assert [(d.code, d.path.rsplit("/", 1)[-1]) for d in found] == [("RPL304", "model.py")]


@pytest.mark.parametrize(
    "call, expected",
    [
        ("train_data.make_iter(batch_size=8, num_workers=self.num_workers)", ["RPL301"]),  # joeynmt: not known
        ("train_data.make_iter(batch_size=8, num_workers=0)", []),
        ("train_data.make_iter(batch_size=8)", []),
        ("len(train_data)", []),  # never called: its default, 0
    ],
)
def test_rpl301_a_loader_method_called_on_an_object_of_unknown_type(tmp_path, call, expected):
    write(
        tmp_path,
        {
            "datasets.py": "from torch.utils.data import DataLoader, Dataset\n\n\nclass BaseDataset(Dataset):\n"
            "    def __init__(self, items):\n        self.items = items\n\n"
            "    def make_iter(self, batch_size, num_workers: int = 0):\n"
            "        return DataLoader(self, batch_size=batch_size, num_workers=num_workers)\n",
            "training.py": "from datasets import BaseDataset\n\n\nclass TrainManager:\n    def __init__(self, cfg):\n"
            "        self.num_workers = cfg['num_workers']\n\n    def train_and_validate(self, train_data):\n"
            f"        return {call}\n",
        },
    )
    found = lint_files_in(sorted(tmp_path.glob("*.py")), tmp_path, ["RPL301"])
    assert [(d.code, d.path.rsplit("/", 1)[-1]) for d in found] == [(c, "datasets.py") for c in expected]


@pytest.mark.parametrize("update, expected", [("workers *= 2", ["RPL301"]), ("workers -= 4", [])])
def test_rpl301_an_augmented_assignment_of_a_known_number_is_folded(lint, update, expected):
    code = (
        "from torch.utils.data import DataLoader\n\n\ndef make(ds):\n    workers = 4\n"
        f"    {update}\n    return DataLoader(ds, num_workers=workers)\n"
    )
    assert codes(lint(code, select=["RPL301"])) == expected


@pytest.mark.parametrize(
    "kwargs, expected",
    [
        ('{"num_workers": 0, "pin_memory": True}', [("RPL302", "data.py")]),  # DeepLab: nothing passes a generator
        ('{"num_workers": 0, "generator": g}', []),
        ("make_kwargs()", []),  # a dict not known: the benefit of the doubt
    ],
)
def test_rpl302_a_factory_called_with_a_dict_built_by_its_caller(tmp_path, kwargs, expected):
    write(
        tmp_path,
        {
            "data.py": "from torch.utils.data import DataLoader\n\n\ndef make_data_loader(dataset, **kwargs):\n"
            "    return DataLoader(dataset, batch_size=4, shuffle=True, **kwargs)\n",
            "train.py": "import torch\n\nfrom data import make_data_loader\n\nif __name__ == '__main__':\n"
            f"    g = torch.Generator()\n    kwargs = {kwargs}\n    loader = make_data_loader(list(range(8)), **kwargs)\n",
        },
    )
    found = lint_files_in(sorted(tmp_path.glob("*.py")), tmp_path, ["RPL302"])
    assert [(d.code, d.path.rsplit("/", 1)[-1]) for d in found] == expected


def test_rpl304_a_sampler_built_in_a_lightning_loader_hook_gets_its_epoch_from_the_trainer(lint):
    """Lightning's fit loop calls ``set_epoch`` on the sampler of every loader its hooks return;
    a loader built elsewhere gets no such call."""
    code = (
        "import lightning as L\nfrom torch.utils.data import DataLoader, DistributedSampler\n\n\n"
        "class DM(L.LightningDataModule):\n    def train_dataloader(self):\n"
        "        return DataLoader(self.ds, sampler=self._sampler())\n\n"
        "    def _sampler(self):\n        return DistributedSampler(self.ds, shuffle=True)\n\n"
        "    def val_dataloader(self):\n        return DataLoader(self.ds, sampler=DistributedSampler(self.ds))\n\n\n"
        "def plain_loader(ds):\n    return DataLoader(ds, sampler=DistributedSampler(ds))\n"
    )
    found = lint(code, select=["RPL304"])
    assert [(d.code, d.line) for d in found] == [("RPL304", 17)]


@pytest.mark.parametrize("read, expected", [
    ("sampler=self.train_sampler", []),  # ViLT: built in ``setup``, handed over by the hook
    ("sampler=None", [("RPL304", 8)]),  # the stored sampler reaches no loader of a hook
])
def test_rpl304_a_sampler_stored_for_a_lightning_loader_hook_gets_its_epoch_from_the_trainer(lint, read, expected):
    code = (
        "import lightning as L\nfrom torch.utils.data import DataLoader, DistributedSampler\n\n\n"
        "class DM(L.LightningDataModule):\n    def setup(self, stage):\n        self.ds = list(range(8))\n"
        "        self.train_sampler = DistributedSampler(self.ds, shuffle=True)\n\n"
        f"    def train_dataloader(self):\n        return DataLoader(self.ds, {read})\n"
    )
    found = lint(code, select=["RPL304"])
    assert [(d.code, d.line) for d in found] == expected


@pytest.mark.parametrize("helper, expected", [("b/pb/loop.py", ["RPL304"]), ("a/pa/loop.py", [])])
def test_rpl304_set_epoch_in_an_unreached_file_counts_only_in_the_sampler_s_project(tmp_path, helper, expected):
    """fastMRI beside anemoi: a helper that calls ``set_epoch`` and that no entry point reaches
    may run with the sampler only when it is of the sampler's own project."""
    write(
        tmp_path,
        {
            "a/pa/__init__.py": "",
            "a/pa/data.py": "from torch.utils.data import DistributedSampler\n\n\ndef build(ds):\n    return DistributedSampler(ds)\n",
            "a/train.py": "from pa.data import build\n\nif __name__ == '__main__':\n    build([1, 2])\n",
            "b/pb/__init__.py": "",
            helper: "def run(loader, epochs):\n    for e in range(epochs):\n        loader.sampler.set_epoch(e)\n",
        },
    )
    found = lint_files_in(sorted(tmp_path.rglob("*.py")), tmp_path, ["RPL304"])
    assert codes(found) == expected


@pytest.mark.parametrize(
    "use, expected",
    [
        # only named: its objects are built by no one we cannot see, with num_workers=0
        ("def check(dm=None):\n    return isinstance(dm, DM)\n", []),
        ("def check(cls):\n    return issubclass(cls, DM)\n", []),
        # handed on: it may be built anywhere, with any num_workers
        ("def build(factory):\n    return factory(DM)\n", ["RPL301"]),
    ],
)
def test_rpl301_a_class_only_named_in_isinstance_is_not_handed_on(tmp_path, use, expected):
    files = {
        "dm.py": (
            "from torch.utils.data import DataLoader\n\n\nclass DM:\n    def __init__(self, ds, num_workers: int = 0):\n"
            "        self.ds = ds\n        self.num_workers = num_workers\n\n    def train_dataloader(self):\n"
            "        return DataLoader(self.ds, batch_size=2, num_workers=self.num_workers)\n"
        ),
        "exp.py": "from dm import DM\n\n\n" + use,
    }
    write(tmp_path, files)
    found = lint_files_in([tmp_path / "dm.py", tmp_path / "exp.py"], tmp_path, ["RPL301"])
    assert [d.code for d in found] == expected


@pytest.mark.parametrize(
    "built, expected",
    [
        # never built in the project: its *args and **kwargs are empty, the base's defaults hold
        ("", ["RPL302"]),
        # built with arguments that reach the base through **kwargs: not followed, so unknown
        ("from child import Child\n\nChild([1, 2], num_workers=4, shuffle=False)\n", ["RPL301"]),
    ],
)
def test_defaults_a_base_class_keeps_for_a_subclass_that_passes_its_rest_on(tmp_path, built, expected):
    """lightningdata-modules: ``super().__init__(*args, **kwargs)`` in data modules whose base
    sets ``shuffle=True`` and ``num_workers=0``."""
    files = {
        "base.py": "class Base:\n    def __init__(self, shuffle: bool = True, num_workers: int = 0):\n        self.shuffle = shuffle\n        self.num_workers = num_workers\n",
        "child.py": (
            "from torch.utils.data import DataLoader\n\nfrom base import Base\n\n\nclass Child(Base):\n"
            "    def __init__(self, ds, *args, **kwargs):\n        super().__init__(*args, **kwargs)\n        self.ds = ds\n\n"
            "    def train_dataloader(self):\n"
            "        return DataLoader(self.ds, batch_size=2, shuffle=self.shuffle, num_workers=self.num_workers)\n"
        ),
        "main.py": built or "x = 1\n",
    }
    write(tmp_path, files)
    found = lint_files_in([tmp_path / name for name in files], tmp_path, ["RPL301", "RPL302"])
    assert sorted(d.code for d in found) == expected


@pytest.mark.parametrize(
    "init, expected",
    [
        # the subclass builds its base unshuffled, and takes no shuffle of its own
        ("super().__init__(sampler, num_replicas=num_replicas, rank=rank, shuffle=False)", []),
        ("super().__init__(sampler, num_replicas=num_replicas, rank=rank)", ["RPL304"]),
    ],
)
def test_rpl304_a_distributed_sampler_subclass_that_never_shuffles(lint, init, expected):
    code = (
        "from torch.utils.data import DataLoader\nfrom torch.utils.data.distributed import DistributedSampler\n\n\n"
        "class ProxySampler(DistributedSampler):\n    def __init__(self, sampler, num_replicas=None, rank=None):\n"
        f"        {init}\n        self.sampler = sampler\n\n\n"
        "def make(ds, sampler):\n    return DataLoader(ds, batch_size=2, sampler=ProxySampler(sampler))\n"
    )
    assert codes(lint(code, select=["RPL304"])) == expected


@pytest.mark.parametrize(
    "hook, expected",
    [
        ("train_dataloader", []),  # the Trainer calls set_epoch on what its hooks build
        ("make_loader", ["RPL304"]),  # a method anyone may call
    ],
)
def test_rpl304_built_in_private_methods_only_a_loader_hook_reaches(lint, hook, expected):
    code = (
        "import lightning as pl\nfrom torch.utils.data import DataLoader\nfrom torch.utils.data.distributed import DistributedSampler\n\n\n"
        "class M(pl.LightningModule):\n    def _build_one(self, ds):\n"
        "        return DataLoader(ds, batch_size=2, sampler=DistributedSampler(ds))\n\n"
        "    def _build(self, ds):\n        return self._build_one(ds)\n\n"
        f"    def {hook}(self):\n        return self._build(self.ds)\n"
    )
    assert codes(lint(code, select=["RPL304"])) == expected


@pytest.mark.parametrize(
    "train_flag, expected",
    [("True", ["RPL302", "RPL302"]), ("False", [])],
)
def test_rpl302_shuffle_from_the_calls_of_what_a_dispatcher_returns(tmp_path, train_flag, expected):
    """open_clip's data.py: ``get_dataset_fn(path, kind)`` returns ``get_csv_dataset`` or
    ``get_synthetic_dataset``; ``get_data`` calls what it returns with ``is_train=True``, and each
    builds ``DataLoader(..., shuffle=is_train and sampler is None)``."""
    loader = (
        "(args, is_train):\n    sampler = DistributedSampler(args.data) if args.distributed and is_train else None\n"
        "    shuffle = is_train and sampler is None\n    return DataLoader(args.data, shuffle=shuffle, sampler=sampler)\n\n\n"
    )
    write(
        tmp_path,
        {
            "data.py": "from torch.utils.data import DataLoader, DistributedSampler\n\n\n"
            f"def get_csv_dataset{loader}def get_synthetic_dataset{loader}"
            "def get_dataset_fn(kind):\n    if kind == 'csv':\n        return get_csv_dataset\n    return get_synthetic_dataset\n\n\n"
            f"def get_data(args):\n    return get_dataset_fn(args.kind)(args, is_train={train_flag})\n",
        },
    )
    found = lint_files_in(sorted(tmp_path.glob("*.py")), tmp_path, ["RPL302"])
    assert [d.code for d in found] == expected


@pytest.mark.parametrize(
    "elsewhere, expected",
    [
        ("", ["RPL301", "RPL302"]),
        # the dict changes somewhere: what the call passes is not known (the benefit of the doubt)
        ("\n\ndef no_workers():\n    LOADER_KW['num_workers'] = 0\n", []),
        ("\n\ndef no_workers():\n    LOADER_KW.update(num_workers=0)\n", []),
        ("\nLOADER_KW = {}\n", []),
    ],
)
def test_a_dict_of_loader_keywords_bound_at_the_top_level_and_never_changed(lint, elsewhere, expected):
    """``LOADER_KW = {"num_workers": 4, "shuffle": True}`` at the module's top level, passed as
    ``**LOADER_KW`` inside a function."""
    code = (
        "import torch\nfrom torch.utils.data import DataLoader\n\n"
        "LOADER_KW = {'num_workers': 4, 'shuffle': True, 'pin_memory': True}\n\n\n"
        "def main():\n    torch.manual_seed(0)\n    return DataLoader(torch.arange(10), **LOADER_KW)\n"
        f"{elsewhere}"
    )
    assert codes(lint(code, select=["RPL301", "RPL302"])) == expected


def test_a_function_that_binds_the_name_itself_uses_its_own(lint):
    code = (
        "import torch\nfrom torch.utils.data import DataLoader\n\n"
        "KW = {'num_workers': 4, 'shuffle': True}\n\n\n"
        "def main(kwargs):\n    KW = kwargs\n    return DataLoader(torch.arange(10), **KW)\n"
    )
    assert codes(lint(code, select=["RPL301", "RPL302"])) == []


@pytest.mark.parametrize("flag, expected", [("True", ["RPL302"]), ("False", [])])
@pytest.mark.parametrize("owner", ["class Runner:\n    def create_loaders(self, datasets):\n", "def create_loaders(datasets):\n"])
def test_rpl302_a_factory_nested_in_a_method_is_called_by_its_name(lint, flag, expected, owner):
    """LAVIS / MiniGPT-4's ``RunnerBase.create_loaders``: ``def _create_loader(dataset, is_train)``
    nested in the method, with ``shuffle=sampler is None and is_train``; its calls there give
    ``is_train``, as for a function nested in a module-level one."""
    indent = "    " if owner.startswith("class") else ""
    code = "from torch.utils.data import DataLoader\n\n\n" + owner + "".join(indent + line + "\n" for line in (
        "    def _create_loader(dataset, is_train):",
        "        sampler = None",
        "        return DataLoader(dataset, batch_size=2, sampler=sampler, shuffle=sampler is None and is_train)",
        "",
        f"    return [_create_loader(d, {flag}) for d in datasets]",
    ))
    assert codes(lint(code, select=["RPL302"])) == expected


@pytest.mark.parametrize("test, expected", [
    ("not train", []),  # vocos's datamodule: the validation loader, where train is False
    ("not train and self.val_loader is None", []),
    ("train", ["RPL302"]),
    ("train or self.always", ["RPL302"]),  # does not decide train
])
def test_rpl302_a_flag_that_the_branch_around_the_loader_decides(lint, test, expected):
    """The callers pass train=True and train=False; inside ``if not train:`` only False reaches
    ``shuffle=train``."""
    code = (
        "from torch.utils.data import DataLoader\n\n\nclass DM:\n"
        "    def _make(self, train):\n"
        f"        if {test}:\n            self.loader = DataLoader(self.ds, batch_size=8, shuffle=train)\n\n"
        "    def train_dataloader(self):\n        self._make(train=True)\n        return self.loader\n\n"
        "    def val_dataloader(self):\n        self._make(train=False)\n        return self.loader\n"
    )
    assert codes(lint(code, select=["RPL302"])) == expected


@pytest.mark.parametrize(
    "body, fixed",
    [
        # built once: the fix
        ("    loader = make_loader()\n    for epoch in range(3):\n        for x in loader:\n            print(x)\n", True),
        ("    for x in make_loader():\n        print(x)\n", True),  # a ``for``'s iterable runs once
        # rebuilt every epoch by the factory (glow-pytorch): a fresh generator each time would
        # give every epoch the same order, so no fix
        ("    for epoch in range(3):\n        for x in make_loader():\n            print(x)\n", False),
        ("    epoch = 0\n    while epoch < 3:\n        loader = make_loader()\n        epoch += 1\n", False),
        # distinct loaders, each built once (a dict of splits): the fix
        ("    loaders = {split: make_loader() for split in ['train', 'val']}\n", True),
    ],
)
def test_rpl302_no_fix_for_a_loader_built_again_and_again(lint, body, fixed):
    code = (
        "import torch\nfrom torch.utils.data import DataLoader\n\n\n"
        "def make_loader():\n    return DataLoader(list(range(8)), batch_size=8, shuffle=True)\n\n\n"
        f"def main():\n    torch.manual_seed(0)\n{body}\n\nif __name__ == '__main__':\n    main()\n"
    )
    found = lint(code, select=["RPL302"])
    assert codes(found) == ["RPL302"]
    assert (found[0].fix is not None) is fixed


def test_rpl302_no_fix_for_a_loader_built_in_the_loop_itself(lint):
    code = (
        "import torch\nfrom torch.utils.data import DataLoader\n\ntorch.manual_seed(0)\n"
        "for epoch in range(3):\n    loader = DataLoader(list(range(8)), batch_size=8, shuffle=True)\n"
        "    print(next(iter(loader)))\n"
    )
    found = lint(code, select=["RPL302"])
    assert codes(found) == ["RPL302"] and found[0].fix is None


def test_rpl302_a_method_of_the_same_name_called_in_a_loop_is_not_the_factory(lint):
    """``def train(args)`` builds the loader once; ``model.train()`` in its epoch loop is the
    model's method (dgcnn, crnn.pytorch): the loader keeps its fix."""
    code = (
        "import torch\nfrom torch.utils.data import DataLoader\n\n\n"
        "def train(model):\n    loader = DataLoader(list(range(8)), batch_size=8, shuffle=True)\n"
        "    for epoch in range(3):\n        model.train()\n        for x in loader:\n            print(x)\n\n\n"
        "if __name__ == '__main__':\n    torch.manual_seed(0)\n    train(torch.nn.Linear(2, 2))\n"
    )
    found = lint(code, select=["RPL302"])
    assert codes(found) == ["RPL302"] and found[0].fix is not None


@pytest.mark.parametrize(
    "sampler_module, expected",
    [
        ("from torch.utils.data.sampler import RandomSampler, BatchSampler\n", ["RPL302"]),
        # the project's own class of that name draws nothing known
        ("class RandomSampler:\n    def __init__(self, data, **kwargs):\n        self.data = data\n\n\n"
         "class BatchSampler:\n    def __init__(self, *args, **kwargs):\n        pass\n", []),
    ],
)
def test_rpl302_a_sampler_a_project_module_reexports(tmp_path, sampler_module, expected):
    """CoinCheung's FixMatch: ``from sampler import RandomSampler``, where ``sampler.py`` imports
    torch's: it is torch's ``RandomSampler``."""
    write(
        tmp_path,
        {
            "sampler.py": sampler_module,
            "train.py": "import torch\nfrom torch.utils.data import DataLoader\n\nfrom sampler import RandomSampler, BatchSampler\n\n"
            "torch.manual_seed(0)\n\nif __name__ == '__main__':\n    data = list(range(64))\n"
            "    sampler = RandomSampler(data, replacement=True, num_samples=64)\n"
            "    loader = DataLoader(data, batch_sampler=BatchSampler(sampler, 8, drop_last=True))\n"
            "    for batch in loader:\n        print(batch)\n",
        },
    )
    found = lint_files_in([tmp_path / "sampler.py", tmp_path / "train.py"], tmp_path, ["RPL302"])
    assert codes(found) == expected


@pytest.mark.parametrize(
    "train, fixed",
    [
        ("factory = LoaderFactory(list(range(8)))\nfor x in factory.run('train'):\n    print(x)\n", True),
        # DivideMix: ``loader.run("warmup")`` rebuilds the loader in every epoch of another module
        ("factory = LoaderFactory(list(range(8)))\nfor epoch in range(3):\n    for x in factory.run('train'):\n        print(x)\n", False),
    ],
)
def test_rpl302_no_fix_for_a_library_loader_another_module_rebuilds_in_a_loop(tmp_path, train, fixed):
    """A generator seeded afresh at each construction would give every epoch the same order."""
    write(
        tmp_path,
        {
            "loaders.py": "import torch\nfrom torch.utils.data import DataLoader\n\n\nclass LoaderFactory:\n    def __init__(self, data):\n"
            "        self.data = data\n\n    def run(self, mode):\n        return DataLoader(self.data, batch_size=4, shuffle=True)\n",
            "train.py": "import torch\n\nfrom loaders import LoaderFactory\n\ntorch.manual_seed(0)\n" + train,
        },
    )
    found = lint_files_in([tmp_path / "loaders.py", tmp_path / "train.py"], tmp_path, ["RPL302"])
    assert codes(found) == ["RPL302"]
    assert (found[0].fix is not None) is fixed


def test_rpl302_no_fix_for_a_loader_a_library_module_builds_as_it_is_imported(tmp_path):
    """Built at import, before the program that imports it seeds: ``torch.initial_seed()`` there
    is a random seed, and the program's own seed never reaches it."""
    write(
        tmp_path,
        {
            "data.py": "import torch\nfrom torch.utils.data import DataLoader\n\nloader = DataLoader(list(range(10)), batch_size=2, shuffle=True)\n",
            "main.py": "import torch\n\nfrom data import loader\n\nif __name__ == '__main__':\n    torch.manual_seed(0)\n"
            "    for x in loader:\n        print(x)\n",
        },
    )
    found = lint_files_in([tmp_path / "data.py", tmp_path / "main.py"], tmp_path, ["RPL302"])
    assert codes(found) == ["RPL302"] and found[0].fix is None
