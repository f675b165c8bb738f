"""Distributed samplers whose epoch never moves (RPL304).

``DistributedSampler`` shuffles with ``seed + epoch``; a program that never calls
``sampler.set_epoch(epoch)`` (in this module, or in another module that runs with it) shuffles
every epoch in the same order. A sampler built for a Lightning Trainer's loader hooks gets its
epoch from the fit loop."""

from __future__ import annotations

from typing import List, Optional

from .._lazy import cst
from ..catalog import DISTRIBUTED_SAMPLER_SHUFFLE_POSITION, DISTRIBUTED_SAMPLERS, SAMPLER_EPOCH_SETTERS
from ..children import syntax_children
from .base import KwargsDicts, Rule, is_false
from .dataloader import bound
from .trainer_loaders import built_for_loader_hooks


def _base_built_unshuffled(module: cst.Module, name: str) -> bool:
    """Does module-level class ``name`` build its base with ``shuffle=False`` (``super().__init__(
    ..., shuffle=False)``) in an ``__init__`` that takes no ``shuffle`` of its own?"""
    cls = next((s for s in module.body if isinstance(s, cst.ClassDef) and s.name.value == name), None)
    body = cls.body.body if cls is not None and isinstance(cls.body, cst.IndentedBlock) else ()
    init = next((s for s in body if isinstance(s, cst.FunctionDef) and s.name.value == "__init__"), None)
    if init is None or any(p.name.value == "shuffle" for p in (*init.params.params, *init.params.kwonly_params)):
        return False
    stack: List[cst.CSTNode] = [init.body]
    while stack:
        node = stack.pop()
        if isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and node.func.attr.value == "__init__":
            given = next((a.value for a in node.args if a.keyword is not None and a.keyword.value == "shuffle"), None)
            if given is not None and is_false(given):
                return True
        stack.extend(syntax_children(node))
    return False


class DistributedSamplerWithoutSetEpoch(Rule):
    code = "RPL304"
    name = "distributed-sampler-without-set-epoch"
    message = (
        "DistributedSampler shuffles with seed + epoch, but set_epoch is never called in this module "
        "(or in another module that runs with it), so every epoch repeats the same order: call "
        "sampler.set_epoch(epoch) at the start of each epoch"
    )
    # a project subclass is built by its own name (GaitSet's ``TripletSampler``): the family word
    triggers = ("Sampler",)
    whole_words = False
    uses = (KwargsDicts,)

    def __init__(self, file) -> None:  # type: ignore[no-untyped-def]
        super().__init__(file)
        self.samplers: List[cst.Call] = []
        self.sets_epoch = False

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        if isinstance(func, cst.Attribute) and func.attr.value == "set_epoch":
            self.sets_epoch = True
            return
        qualified = self.qualify(func)
        position: Optional[int] = DISTRIBUTED_SAMPLER_SHUFFLE_POSITION
        if qualified not in DISTRIBUTED_SAMPLERS:
            # a project subclass (mmselfsup's ``class DistributedSampler(_DistributedSampler)``):
            # its own parameters, so ``shuffle`` is read by keyword only
            written = func.value if isinstance(func, cst.Name) else None  # a class of this module
            bases = self.file.project.called_class_library_bases(self.file.path, self.file.source, qualified, written)
            if bases.isdisjoint(DISTRIBUTED_SAMPLERS):
                return
            if isinstance(func, cst.Name) and _base_built_unshuffled(self.file.module, func.value):
                return  # ``super().__init__(sampler, ..., shuffle=False)``: it never shuffles
            position = None
        shuffle = bound(self, node.args, "shuffle", position)
        if isinstance(shuffle, cst.BaseExpression) and is_false(shuffle):
            return
        if built_for_loader_hooks(self):
            return  # built for a Lightning Trainer, whose fit loop calls the sampler's set_epoch
        self.samplers.append(node)

    def leave_Module(self, node: cst.Module) -> None:
        if self.sets_epoch or not self.samplers:
            return
        if any(self.file.project.mentioned_with(self.file.path, setter) for setter in SAMPLER_EPOCH_SETTERS):
            return  # another module that runs with this one calls it (``def set_epoch(`` is no call)
        for sampler in self.samplers:
            self.report(sampler)
