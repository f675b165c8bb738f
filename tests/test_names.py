"""Qualified-name resolution: every import form the rules must see through."""

from __future__ import annotations

import libcst as cst
import pytest

from repro_lint.names import ImportTable


def table_for(code: str, module: str = "pkg.mod", is_package: bool = False) -> ImportTable:
    table = ImportTable(module, is_package)
    for stmt in cst.parse_module(code).body:
        if isinstance(stmt, cst.SimpleStatementLine):
            for small in stmt.body:
                if isinstance(small, (cst.Import, cst.ImportFrom)):
                    table.add(small)
                elif isinstance(small, cst.Assign):
                    table.add_assignment(small.targets[0].target, small.value)
    return table


def qualify(table: ImportTable, expr: str):
    return table.qualify(cst.parse_expression(expr))


@pytest.mark.parametrize(
    "imports,expr,expected",
    [
        ("import torch", "torch.backends.cudnn.benchmark", "torch.backends.cudnn.benchmark"),
        ("import torch.nn.functional as F", "F.dropout", "torch.nn.functional.dropout"),
        ("import torch.nn as nn", "nn.functional.dropout", "torch.nn.functional.dropout"),
        ("from torch.backends import cudnn", "cudnn.benchmark", "torch.backends.cudnn.benchmark"),
        ("from torch.backends import cudnn as cb", "cb.benchmark", "torch.backends.cudnn.benchmark"),
        ("import torch.backends.cudnn as cudnn", "cudnn.deterministic", "torch.backends.cudnn.deterministic"),
        ("from torch.utils.data import DataLoader as DL", "DL", "torch.utils.data.DataLoader"),
        ("from torch.nn import functional", "functional.dropout2d", "torch.nn.functional.dropout2d"),
        ("import torch.nn.functional", "torch.nn.functional.dropout", "torch.nn.functional.dropout"),
        ("import torch\ncb = torch.backends.cudnn", "cb.benchmark", "torch.backends.cudnn.benchmark"),
        ("from . import seeding", "seeding.set_seed", "pkg.seeding.set_seed"),
        ("from .utils.seed import set_seed", "set_seed", "pkg.utils.seed.set_seed"),
        ("from ..common import seed_all", "seed_all", "pkg.common.seed_all"),
    ],
)
def test_import_forms(imports, expr, expected):
    assert qualify(table_for(imports, "pkg.sub.mod" if ".." in imports else "pkg.mod"), expr) == expected


def test_relative_import_inside_a_package_init():
    table = table_for("from .seed import set_seed", "pkg", is_package=True)
    assert qualify(table, "set_seed") == "pkg.seed.set_seed"


def test_unimported_names_do_not_resolve():
    table = table_for("import numpy as np")
    assert qualify(table, "torch.manual_seed") is None
    assert qualify(table, "x.y") is None
    assert qualify(table, "f().benchmark") is None


def test_rebinding_an_alias_forgets_it():
    table = table_for("import torch\ncb = torch.backends.cudnn\ncb = object()")
    assert qualify(table, "cb.benchmark") is None


def test_a_local_variable_in_one_function_keeps_the_modules_import_for_the_others(lint):
    """FastPitch: ``dist = parser.add_argument_group(...)`` in one function; another function's
    ``dist.init_process_group(backend="hccl")`` is still torch.distributed's (RPL601 there)."""
    code = (
        "import torch\nimport torch.distributed as dist\n\n\ndef unrelated():\n    dist = None\n    return dist\n\n\n"
        "def init_distributed():\n    torch.npu.set_device(0)\n    dist.init_process_group(backend='hccl')\n\n\n"
        "if __name__ == '__main__':\n    init_distributed()\n"
    )
    assert [(d.code, d.line) for d in lint(code, select=["RPL601"])] == [("RPL601", 12)]


def test_a_function_variable_unbinds_only_what_a_function_bound():
    table = table_for("import torch\nimport torch.distributed as dist")
    table.add_assignment(cst.Name("dist"), cst.Name("None"), forget=False)  # a local ``dist = None``
    assert qualify(table, "dist.init_process_group") == "torch.distributed.init_process_group"
    table.add_assignment(cst.Name("dtype"), cst.parse_expression("torch.int64"), forget=False)
    assert qualify(table, "dtype") == "torch.int64"
    table.add_assignment(cst.Name("dtype"), cst.parse_expression("x.dtype"), forget=False)
    assert qualify(table, "dtype") is None  # another function's ``dtype = input.dtype``


def test_star_import_binds_nothing():
    table = table_for("from torch.backends.cudnn import *")
    assert table.aliases == {}
