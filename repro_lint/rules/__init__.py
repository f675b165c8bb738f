"""The rules, one module per family. Every module in this package is imported by
:func:`all_rules`, and every :class:`~repro_lint.rules.base.Rule` subclass with a code
registers itself, so adding a rule never means editing a list."""

from __future__ import annotations

import importlib
import pkgutil
from typing import Dict, Type

from .base import RULES, Rule

_loaded = False


def all_rules() -> Dict[str, Type[Rule]]:
    """Every registered rule, by code, in code order."""
    global _loaded
    if not _loaded:
        for info in pkgutil.iter_modules(__path__):
            if info.name != "base":
                importlib.import_module(f"{__name__}.{info.name}")
        _loaded = True
    return dict(sorted(RULES.items()))
