"""Accelerators other than CUDA: Ascend NPU (RPL6xx)."""

from __future__ import annotations

from typing import Any, List, Optional, Tuple

from .._lazy import cst
from ..catalog import (
    ENV_SWITCHES, NCCL_AS_HCCL, NCCL_GROUP, PROCESS_GROUP, PROCESS_GROUP_INITS, device_named, may_be_hccl,
)
from ..diagnostics import SAFE
from ..syntax import is_main_guard, string_value
from ..values import Const
from .base import NodeEdit, Rule, ValueScan, argument, enclosing_statement, import_edit, indentation, value_of

#: the last names of the calls that start a process group
_INIT_NAMES = frozenset(name.rsplit(".", 1)[-1] for name in PROCESS_GROUP_INITS)

VARIABLE = "HCCL_DETERMINISTIC"
SETTING = f'os.environ.setdefault("{VARIABLE}", "true")'


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
    # (``__main__``: an entry point whose process group starts in a module it calls, reported
    # at its guard, may name neither HCCL nor the NPU itself)
    triggers = ("hccl", "HCCL", "Hccl", "torch_npu", ".npu", "'npu", "\"npu", "__main__")
    entry_triggers = ("__main__",)
    needs_project = True

    @classmethod
    def may_report_on(cls, summary: Any) -> bool:
        return "npu" in summary.uses and (PROCESS_GROUP in summary.uses or NCCL_GROUP in summary.uses)

    @classmethod
    def may_fire_in(cls, facts, words, settings, project, path, text) -> bool:  # type: ignore[no-untyped-def]
        # a call of a process-group start (the callee's or its import's last name), or an entry
        # point whose path may start one on an NPU (reported at its guard, :meth:`leave_Module`)
        if any(map(facts.calls, _INIT_NAMES)):
            return True
        return project.is_entry_point(path, text) and (not project.prepared or cls.may_report_on(project.entry_summary(path, text)))

    def __init__(self, file) -> None:  # type: ignore[no-untyped-def]
        super().__init__(file)
        self.starts_group = False

    def visit_Call(self, node: cst.Call) -> None:
        spec = PROCESS_GROUP_INITS.get(self.qualify(node.func) or "")
        if spec is None:
            return
        self.starts_group = True
        backend_arg = argument(node, *spec)
        backend = string_value(backend_arg.value) if backend_arg is not None else None
        # what a name holds on the default path (``args.dist_backend`` after ``args.dist_backend
        # = "nccl"``; an option's default)
        known = backend if backend is not None or backend_arg is None else self._backend(backend_arg.value)
        if known is not None and "hccl" in known.lower():
            # at the call, or set just before it (``args.dist_backend = "hccl"``)
            how = f'backend="{known}"'
        elif known is not None and known.lower() == "nccl" and self._nccl_is_hccl():
            how = 'transfer_to_npu, which turns backend="nccl" into HCCL'
        elif not may_be_hccl(known):
            return
        elif self.file.names.imports_module("torch_npu"):
            how = "torch_npu and init_process_group"
        elif self._runs_on_npu():
            how = "an NPU device and init_process_group with a backend chosen at run time"
        else:
            return
        if self._branch_for_another_device():
            return
        if not self._set_anywhere():
            self.report(node, how=how, edits=self._fix())

    def _backend(self, value: cst.BaseExpression) -> Optional[str]:
        """The backend a call is given, when it is one string the program sets (``args.dist_backend
        = "nccl"`` before the call), else None: an option's value is chosen at run time (a launcher
        passes ``--dist-backend hccl`` on an NPU whatever the default)."""
        if isinstance(value, cst.Attribute) and value.attr.value in self.file.analysis(ValueScan).values.options():
            return None
        found = value_of(self, value)
        texts = {c.value for c in found if isinstance(c, Const)} if found else set()
        if found and len(texts) == 1 and all(isinstance(c, Const) for c in found):
            only = texts.pop()
            return only if isinstance(only, str) else None
        return None

    def _nccl_is_hccl(self) -> bool:
        """Does torch_npu's migration module (``transfer_to_npu``) turn ``nccl`` into HCCL
        here: imported by this file, or on the path of this entry point?"""
        facts = self.file.project.facts(self.file.path, self.file.source)
        bodies = (facts.module_body, facts.main_body, *facts.functions.values()) if facts is not None else ()
        if any(NCCL_AS_HCCL in body.uses for body in bodies):
            return True  # imported anywhere in this file (also in a function: ``if args.npu:``)
        return self.file.is_entry_point and self._runs_on_npu(NCCL_AS_HCCL)

    def _branch_for_another_device(self) -> bool:
        """Is the call in a branch that runs only when the device is not an NPU (the ``else``
        of ``if args.device == "npu":``, the body of ``if device.startswith("cuda"):``)? Such a
        program starts its group for the NPU in the other branch, where it is reported."""
        ancestors = self.file.ancestors
        for depth in range(len(ancestors) - 1, 0, -1):
            branch, parent = ancestors[depth], ancestors[depth - 1]
            if isinstance(parent, cst.If) and (branch is parent.body or branch is parent.orelse):
                found = device_branch(parent.test, branch is parent.body)
                if found is not None and (found[0] == "npu") != found[1]:
                    return True
        return False

    def leave_Module(self, node: cst.Module) -> None:
        """An entry point that runs on an NPU and starts a process group in another module,
        whose backend that module leaves to run time (or to its caller)."""
        if self.starts_group or not self.file.is_entry_point:
            return
        if not (self._runs_on_npu(PROCESS_GROUP) or self._runs_on_npu(NCCL_GROUP, NCCL_AS_HCCL)) or self._set_anywhere():
            return
        where = next((s for s in node.body if isinstance(s, cst.If) and is_main_guard(s)), None)
        if where is None:
            return
        self.report(where, how="an NPU device and init_process_group in a module it calls", edits=self._fix_at(where))

    def _runs_on_npu(self, *also: str) -> bool:
        """Is this file an entry point whose execution path uses an NPU (and ``also``)? The
        device evidence is the project context's, as for RPL202 (``torch.npu.set_device``,
        ``"npu:0"``, ``.npu()``, ``import torch_npu`` in any module the path runs)."""
        if not self.file.is_entry_point:
            return False
        uses = self.file.project.entry_summary(self.file.path, self.file.source).uses
        return "npu" in uses and all(u in uses for u in also)

    def _set_anywhere(self) -> bool:
        """Is HCCL_DETERMINISTIC set to a value that turns it on, where it counts, in the project?"""
        return self.file.project.sets_anywhere(ENV_SWITCHES[VARIABLE][0], VARIABLE, self.file.path, self.file.source)

    def _fix_at(self, guard: cst.If) -> List[NodeEdit]:
        """Set the variable first thing in the ``__main__`` block."""
        body = guard.body
        if not isinstance(body, cst.IndentedBlock) or not body.body:
            return []
        indent = indentation(self.file.module, [body])
        edits = [NodeEdit("line_before", f"{indent}{SETTING}\n", body.body[0])]
        imported: Optional[NodeEdit] = import_edit(self.file, "os", "os")
        if imported is not None:
            edits.append(imported)
        return edits

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


#: the device names a branch test may compare with
BRANCH_DEVICES = ("cuda", "npu", "gpu", "cpu")


def device_branch(test: cst.BaseExpression, taken: bool) -> Optional[Tuple[str, bool]]:
    """What a branch of ``if <test>:`` says of the device, when the test compares a value with
    a device string: (the device, whether the branch runs on it). ``taken``: the branch runs
    when the test holds (the body; False for the ``else``). ``device == "npu"``, ``"npu" in
    device``, ``device.startswith("cuda")``, ``!=``, ``not in`` and ``not``; else None."""
    if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
        return device_branch(test.expression, not taken)
    if isinstance(test, cst.Comparison) and len(test.comparisons) == 1:
        target = test.comparisons[0]
        operator = target.operator
        sides = (test.left, target.comparator)
        if isinstance(operator, (cst.Equal, cst.NotEqual)):
            named = [device_named([text], BRANCH_DEVICES) for text in map(string_value, sides) if text is not None]
        elif isinstance(operator, (cst.In, cst.NotIn)):
            text = string_value(test.left)
            named = [device_named([text], BRANCH_DEVICES)] if text is not None else []
        else:
            return None
        if len(named) != 1 or named[0] is None:
            return None
        return named[0], taken != isinstance(operator, (cst.NotEqual, cst.NotIn))
    if isinstance(test, cst.Call) and isinstance(test.func, cst.Attribute) and test.func.attr.value == "startswith" and test.args:
        text = string_value(test.args[0].value)
        device = device_named([text], BRANCH_DEVICES) if text is not None else None
        return (device, taken) if device is not None else None
    return None
