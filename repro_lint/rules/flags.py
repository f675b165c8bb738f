"""Determinism switches and backend flags (RPL2xx)."""

from __future__ import annotations

import difflib
from typing import Iterator, Optional, Tuple

import libcst as cst

from ..catalog import BACKEND_ATTRIBUTES, BACKEND_FLAGS, CUDNN_FLAGS_PARAMS, TRAINERS_WITH_BENCHMARK
from ..diagnostics import SAFE, UNSAFE
from .base import Rule, argument, is_true, string_value

CUDNN = "torch.backends.cudnn"


def assigned_attributes(node: cst.Assign) -> Iterator[cst.Attribute]:
    for target in node.targets:
        if isinstance(target.target, cst.Attribute):
            yield target.target


class CudnnBenchmarkEnabled(Rule):
    code = "RPL201"
    name = "cudnn-benchmark-enabled"
    message = (
        "cudnn.benchmark = True lets cuDNN pick convolution algorithms by timing them, so runs differ: "
        "set torch.backends.cudnn.benchmark = False"
    )
    fix = SAFE
    fix_message = "Set cudnn.benchmark to False"
    triggers = ("benchmark", "cudnn")  # cudnn.flags(enabled, benchmark, ...) takes it by position

    def visit_Assign(self, node: cst.Assign) -> None:
        if not is_true(node.value):
            return  # dynamic values (a flag from the command line) are the user's choice
        for target in assigned_attributes(node):
            if target.attr.value == "benchmark" and self.qualify(target.value) == CUDNN:
                self.report(target, edits=[self.replace(node.value, "False")])

    def visit_Call(self, node: cst.Call) -> None:
        qualified = self.qualify(node.func)
        if qualified is None:
            return
        if qualified == f"{CUDNN}.flags":
            arg = argument(node, "benchmark", CUDNN_FLAGS_PARAMS.index("benchmark"))
        elif qualified in TRAINERS_WITH_BENCHMARK:
            arg = argument(node, "benchmark")
        else:
            return
        if arg is not None and is_true(arg.value):
            self.report(arg, edits=[self.replace(arg.value, "False")])

    def visit_Expr(self, node: cst.Expr) -> None:
        # setattr(torch.backends.cudnn, "benchmark", True)
        call = node.value
        if not (isinstance(call, cst.Call) and isinstance(call.func, cst.Name) and call.func.value == "setattr"):
            return
        if len(call.args) != 3 or any(a.keyword or a.star for a in call.args):
            return
        obj, attr, value = (a.value for a in call.args)
        if string_value(attr) == "benchmark" and is_true(value) and self.qualify(obj) == CUDNN:
            self.report(call, edits=[self.replace(value, "False")])


def suggest(attribute: str, module: str) -> Optional[str]:
    matches = difflib.get_close_matches(attribute, sorted(BACKEND_FLAGS[module]), n=1, cutoff=0.6)
    return matches[0] if matches else None


class UnknownBackendFlag(Rule):
    code = "RPL205"
    name = "unknown-backend-flag"
    message = "{module} has no attribute '{attr}': the assignment {effect}; {advice}"
    fix = UNSAFE
    fix_message = "Assign {module}.{suggestion} instead"
    triggers = ("cudnn", "mkldnn", "matmul")

    def _check(self, target: cst.Attribute) -> Optional[Tuple[str, str]]:
        module = self.qualify(target.value)
        if module not in BACKEND_ATTRIBUTES:
            return None
        attr = target.attr.value
        if attr in BACKEND_ATTRIBUTES[module] or attr.startswith("_"):
            return None
        return module, attr

    def visit_Assign(self, node: cst.Assign) -> None:
        for target in assigned_attributes(node):
            found = self._check(target)
            if found is None:
                continue
            module, attr = found
            effect = "raises AttributeError" if module.endswith("matmul") else "is accepted silently and changes nothing"
            suggestion = suggest(attr, module)
            if suggestion:
                advice = f"did you mean {module}.{suggestion}?"
                edits = [self.replace(target.attr, suggestion)]
            else:
                flags = ", ".join(sorted(BACKEND_FLAGS[module]))
                advice = f"use one of {flags}"
                edits = []
            self.report(
                target, module=module, attr=attr, effect=effect, advice=advice,
                suggestion=suggestion or "", edits=edits,
            )
