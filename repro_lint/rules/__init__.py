"""The rules, one module per family. Every module in this package is imported by
:func:`all_rules`, and every :class:`~repro_lint.rules.base.Rule` subclass with a code
registers itself, so adding a rule never means editing a list."""

from __future__ import annotations

import importlib
import pkgutil
from pathlib import Path
from typing import TYPE_CHECKING, Dict, Iterable, List, Optional, Sequence, Type

from ..config import ConfigError, Settings

if TYPE_CHECKING:  # pragma: no cover
    from .base import Rule

_loaded = False
#: every code and whether its rule is on by default, as kept in the results cache folder
#: (:func:`use_kept_defaults`); None: ask the rules themselves
_kept: Optional[Dict[str, bool]] = None


def all_rules() -> Dict[str, Type[Rule]]:
    """Every registered rule, by code, in code order."""
    global _loaded
    from .base import RULES

    if not _loaded:
        from .._lazy import code_cache_path, generated_code_compiled_once

        # (their data classes, and those of the modules they import, compiled once: as LibCST's)
        with generated_code_compiled_once(code_cache_path()):
            for info in pkgutil.iter_modules(__path__):
                if info.name != "base":
                    importlib.import_module(f"{__name__}.{info.name}")
        _loaded = True
    return dict(sorted(RULES.items()))


def rule_defaults() -> Dict[str, bool]:
    """Every rule's code, in code order, and whether the rule is on by default: all that
    selecting rules needs."""
    if _kept is not None and not _loaded:
        return _kept
    return {code: rule.default for code, rule in all_rules().items()}


def use_kept_defaults(folder: Path) -> None:
    """Take :func:`rule_defaults` from the copy kept in the results cache ``folder`` for this
    version of repro-lint's code, and keep one there when there is none (the rule modules,
    and LibCST with them, are then imported only if some file has to be linted)."""
    global _kept
    from ..cache import read_rule_defaults, write_rule_defaults

    kept = read_rule_defaults(folder)
    if kept is None:
        kept = {code: rule.default for code, rule in all_rules().items()}
        write_rule_defaults(folder, kept)
    _kept = kept


# -- rule selection ------------------------------------------------------------------------


def check_settings(settings: Settings) -> None:
    """Raise ConfigError if the configuration file selects or ignores an unknown code."""
    where = settings.config_path
    for key in ("select", "ignore", "extend-select"):
        validate_selectors(getattr(settings, key.replace("-", "_")) or [], f"{where}: '{key}'")
    for pattern, codes in settings.per_file_ignores.items():
        validate_selectors(codes, f"{where}: 'per-file-ignores' for {pattern!r}")


def validate_selectors(selectors: Iterable[str], where: str) -> None:
    codes = list(rule_defaults())
    for selector in selectors:
        if selector == "ALL":
            continue
        if not any(code.startswith(selector) for code in codes):
            raise ConfigError(f"{where}: unknown rule code or prefix {selector!r}")


def _longest_match(code: str, selectors: Sequence[str]) -> int:
    """Length of the most specific selector matching ``code`` (-1: none; ``ALL`` counts 0)."""
    best = -1
    for selector in selectors:
        if selector == "ALL":
            best = max(best, 0)
        elif code.startswith(selector):
            best = max(best, len(selector))
    return best


def selected_codes(settings: Settings) -> List[str]:
    """Codes of the enabled rules, resolved the way ruff resolves them: the most specific
    selector wins, so ``select = ["RPL2"]`` with ``ignore = ["RPL205"]`` keeps RPL201 only,
    and ``ignore = ["RPL2"]`` with ``extend-select = ["RPL201"]`` keeps RPL201. Rules that
    are off by default are enabled only when a selector names them (or ``ALL``)."""
    enabled = []
    explicit = list(settings.select or []) + list(settings.extend_select)
    for code, default in rule_defaults().items():
        chosen = _longest_match(code, explicit)
        if settings.select is None and default:
            chosen = max(chosen, 0)
        if chosen < 0:
            continue
        if _longest_match(code, settings.ignore) >= chosen and _longest_match(code, settings.ignore) >= 0:
            continue
        enabled.append(code)
    return enabled
