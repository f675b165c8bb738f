"""Accelerators other than CUDA: Ascend NPU (RPL6xx)."""

from __future__ import annotations

from typing import List, Optional

import libcst as cst

from ..catalog import INIT_PROCESS_GROUP, OTHER_BACKENDS
from ..diagnostics import SAFE
from ..syntax import string_value
from .base import NodeEdit, Rule, argument, enclosing_statement, import_edit, indentation

SETTING = 'os.environ.setdefault("HCCL_DETERMINISTIC", "true")'


class HcclDeterministicMissing(Rule):
    code = "RPL601"
    name = "hccl-deterministic-missing"
    message = (
        "this NPU program starts a process group ({how}) but never sets HCCL_DETERMINISTIC, so HCCL "
        "reductions (all_reduce, reduce_scatter) may sum in a different order on each run: set "
        "HCCL_DETERMINISTIC=true in the launcher or with os.environ before init_process_group"
    )
    fix = SAFE
    fix_message = "Set HCCL_DETERMINISTIC=true before init_process_group"
    triggers = ("hccl", "HCCL", "Hccl", "torch_npu")

    def visit_Call(self, node: cst.Call) -> None:
        if self.qualify(node.func) != INIT_PROCESS_GROUP:
            return
        backend_arg = argument(node, "backend", 0)
        backend = string_value(backend_arg.value) if backend_arg is not None else None
        if backend is not None and "hccl" in backend.lower():
            how = f'backend="{backend}"'
        elif self.file.names.imports_module("torch_npu") and not (
            backend is not None and backend.lower() in OTHER_BACKENDS
        ):
            how = "torch_npu and init_process_group"
        else:
            return
        if "HCCL_DETERMINISTIC" in self.file.source or self.file.project.any_file_mentions("HCCL_DETERMINISTIC"):
            return
        self.report(node, how=how, edits=self._fix())

    def _fix(self) -> List[NodeEdit]:
        ancestors = self.file.ancestors
        statement = enclosing_statement(ancestors)
        if statement is None:
            return []
        index = max(i for i, n in enumerate(ancestors) if n is statement)
        indent = indentation(self.file.module, ancestors[:index])
        edits = [NodeEdit("line_before", f"{indent}{SETTING}\n", statement)]
        imported: Optional[NodeEdit] = import_edit(self.file, "os", "os")
        if imported is not None:
            edits.append(imported)
        return edits
