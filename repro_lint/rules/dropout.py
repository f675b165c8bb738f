"""Dropout that stays on when it should not (RPL5xx)."""

from __future__ import annotations

from typing import Dict, List, Optional

from .._lazy import cst
from ..catalog import DROPOUT_CALLS, DROPOUT_MODULES, FUNCTIONAL_DROPOUT, FUNCTIONAL_DROPOUT_TRAINING
from ..diagnostics import SAFE
from ..syntax import cst_generic_origin, int_value
from .base import Rule, argument, has_star_kwargs, is_false
from ..children import syntax_children

TRAINING_POSITION = FUNCTIONAL_DROPOUT_TRAINING[1]  # dropout(input, p=0.5, training=True, inplace=False)


def mentions_self_training(node: cst.CSTNode) -> bool:
    """True if ``node`` contains ``<name>.training`` (``self.training``, ``not self.training``)."""
    stack = [node]
    while stack:
        current = stack.pop()
        if isinstance(current, cst.Attribute) and current.attr.value == "training":
            return True
        stack.extend(syntax_children(current))
    return False


class FunctionalDropoutAlwaysOn(Rule):
    code = "RPL501"
    name = "functional-dropout-always-on"
    message = (
        "{func}() defaults to training=True, so it still drops activations after model.eval(): "
        "pass training={owner}.training"
    )
    fix = SAFE
    fix_message = "Pass training={owner}.training"
    triggers = ("dropout",)
    called_words = True
    #: ``FUNCTIONAL_DROPOUT`` is reached only through an import that spells ``functional``
    also_triggers = ("functional",)

    def __init__(self, file) -> None:  # type: ignore[no-untyped-def]
        super().__init__(file)
        #: classes of this file known to be nn.Modules, by name
        self.module_classes: Dict[str, bool] = {}

    def _is_module_class(self, node: cst.ClassDef) -> bool:
        for base in node.bases:
            value = cst_generic_origin(base.value)
            qualified = self.qualify(value)
            if qualified and (qualified.startswith("torch.nn.") or qualified.endswith("LightningModule")):
                return True
            if isinstance(value, cst.Name) and self.module_classes.get(value.value):
                return True
        body = node.body.body if isinstance(node.body, cst.IndentedBlock) else ()
        return any(isinstance(stmt, cst.FunctionDef) and stmt.name.value == "forward" for stmt in body)

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        self.module_classes[node.name.value] = self._is_module_class(node)

    def _method(self) -> Optional[cst.FunctionDef]:
        """The method of an nn.Module subclass that encloses the current node, if any."""
        ancestors: List[cst.CSTNode] = self.file.ancestors
        for index in range(len(ancestors) - 1, -1, -1):
            node = ancestors[index]
            if isinstance(node, cst.ClassDef):
                if not self.module_classes.get(node.name.value):
                    return None
                # ancestors: ClassDef, IndentedBlock, FunctionDef (the method)
                if index + 2 < len(ancestors) and isinstance(ancestors[index + 2], cst.FunctionDef):
                    return ancestors[index + 2]  # type: ignore[return-value]
                return None
        return None

    def _guarded(self, call: cst.Call) -> bool:
        ancestors = self.file.ancestors
        for index, node in enumerate(ancestors):
            if isinstance(node, (cst.If, cst.While)) and mentions_self_training(node.test):
                inside = ancestors[index + 1] if index + 1 < len(ancestors) else call
                if inside is node.body:
                    return True
            if isinstance(node, cst.IfExp) and mentions_self_training(node.test):
                inside = ancestors[index + 1] if index + 1 < len(ancestors) else call
                if inside is node.body:
                    return True
        return False

    def visit_Call(self, node: cst.Call) -> None:
        qualified = self.qualify(node.func)
        if qualified not in FUNCTIONAL_DROPOUT:
            return
        if argument(node, "training", TRAINING_POSITION) is not None or has_star_kwargs(node):
            return
        if any(arg.star == "*" for arg in node.args):
            return  # *args may carry training
        method = self._method()
        if method is None or self._guarded(node):
            return
        params = method.params.params
        is_static = any(
            isinstance(d.decorator, cst.Name) and d.decorator.value in ("staticmethod", "classmethod")
            for d in method.decorators
        )
        owner = params[0].name.value if params and not is_static else "self"
        func = qualified.rsplit(".", 1)[-1]
        edits = []
        if params and not is_static:
            edits = [self._add_keyword(node, f"training={owner}.training")]
        self.report(node, func=f"F.{func}", owner=owner, edits=edits)

    def _add_keyword(self, call: cst.Call, text: str):  # type: ignore[no-untyped-def]
        # the argument's range ends before its comma, so ", text" is right with or without one
        return self.insert_after(call.args[-1], f", {text}")


class DropoutPresent(Rule):
    code = "RPL502"
    name = "dropout-present"
    default = False
    message = (
        "{func} drops activations at random, so outputs cannot be compared bit for bit across runs "
        "or devices: for a precision-alignment run wrap the model with "
        "repro_lint.runtime.disable_dropout(model) (or set p=0)"
    )
    triggers = ("dropout", "Dropout")

    def visit_Call(self, node: cst.Call) -> None:
        qualified = self.qualify(node.func)
        if qualified in DROPOUT_MODULES:
            p = argument(node, "p", 0)
        elif qualified in DROPOUT_CALLS:
            p = argument(node, "p", 1)
            # F.dropout(input, p, training, inplace); torch.dropout(input, p, train)
            keyword = "training" if qualified in FUNCTIONAL_DROPOUT else "train"
            training = argument(node, keyword, TRAINING_POSITION)
            if training is not None and is_false(training.value):
                return
        else:
            return
        if p is not None and _is_zero(p.value):
            return
        short = qualified.replace("torch.nn.functional.", "F.").replace("torch.nn.", "nn.")
        self.report(node, func=f"{short}()")


def _is_zero(node: cst.CSTNode) -> bool:
    if isinstance(node, cst.Integer):
        return int_value(node) == 0
    if isinstance(node, cst.Float):
        try:
            return float(node.value) == 0.0
        except ValueError:
            return False
    return False
