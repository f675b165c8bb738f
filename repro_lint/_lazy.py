"""LibCST, imported when first used.

Importing LibCST costs about 0.2 s (it builds a few hundred node classes). A run that the
results cache answers entirely never needs it, yet the modules it goes through (the project
context and the syntax helpers it shares with the rules) name LibCST's classes in their
functions. Those modules take ``cst`` from here: a module object that the standard library's
``importlib.util.LazyLoader`` imports on its first attribute access, after which it is the
ordinary ``libcst`` module (``sys.modules["libcst"]``, the same object every other module
gets from ``import libcst``)."""

from __future__ import annotations

import importlib.util
import sys
from types import ModuleType


def lazy_import(name: str) -> ModuleType:
    """The module ``name``: already imported, or imported on its first attribute access."""
    module = sys.modules.get(name)
    if module is not None:
        return module
    spec = importlib.util.find_spec(name)
    if spec is None or spec.loader is None:  # pragma: no cover - a dependency that is missing
        return importlib.import_module(name)  # raises the usual ModuleNotFoundError
    loader = importlib.util.LazyLoader(spec.loader)
    spec.loader = loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    loader.exec_module(module)
    return module


cst = lazy_import("libcst")
