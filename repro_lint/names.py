"""Qualified-name resolution from a module's own import table.

``import torch.nn.functional as F`` makes ``F.dropout`` resolve to
``torch.nn.functional.dropout``; ``from torch.backends import cudnn as cb`` makes
``cb.benchmark`` resolve to ``torch.backends.cudnn.benchmark``. A simple alias assignment at
any level (``cudnn = torch.backends.cudnn``) is followed too. This is deliberately much
cheaper than LibCST's scope analysis: one dictionary per module, filled as imports are met.
"""

from __future__ import annotations

from typing import Dict, List, Optional, Set, Union

from ._lazy import cst
from .catalog import public_name


def dotted_name(node: cst.CSTNode) -> Optional[str]:
    """``a.b.c`` for a Name/Attribute chain, else None (calls, subscripts, ...)."""
    parts = []
    attribute = cst.Attribute
    while type(node) is attribute:  # LibCST's node classes are final: ``is`` is ``isinstance``, cheaper
        parts.append(node.attr.value)  # type: ignore[attr-defined]
        node = node.value  # type: ignore[attr-defined]
    if type(node) is not cst.Name:
        return None
    parts.append(node.value)
    return ".".join(reversed(parts))


def module_name_of(node: Union[cst.Attribute, cst.Name]) -> str:
    name = dotted_name(node)
    assert name is not None
    return name


def resolve_relative(module_name: str, is_package: bool, level: int, module: str) -> Optional[str]:
    """The absolute module that ``from <level dots><module> import ...`` refers to, written in
    module ``module_name`` (a package's ``__init__`` when ``is_package``); None when it reaches
    above the top-level package or the module's own name is unknown."""
    if level == 0:
        return module
    if not module_name:
        return None
    parts = module_name.split(".")
    if not is_package:
        parts = parts[:-1]
    if level - 1 > len(parts):
        return None
    parts = parts[: len(parts) - (level - 1)]
    if module:
        parts.append(module)
    return ".".join(parts) if parts else None


class ImportTable:
    """Maps local names to the fully qualified names they were imported as."""

    def __init__(self, module_name: str = "", is_package: bool = False) -> None:
        self.module_name = module_name
        self.is_package = is_package
        self.aliases: Dict[str, str] = {}
        #: names whose alias a function's own assignment made (a later function variable of that
        #: name unbinds it; an import or a top-level alias stays)
        self._local_aliases: Set[str] = set()

    # -- filling -----------------------------------------------------------------------
    def add(self, node: cst.CSTNode) -> None:
        if isinstance(node, cst.Import):
            self.add_import(node)
        elif isinstance(node, cst.ImportFrom):
            self.add_import_from(node)

    def add_import(self, node: cst.Import) -> None:
        for alias in node.names:
            full = module_name_of(alias.name)
            if alias.asname is not None and isinstance(alias.asname.name, cst.Name):
                self._bind(alias.asname.name.value, full)
            else:
                head = full.split(".", 1)[0]
                self._bind(head, head)

    def add_import_from(self, node: cst.ImportFrom) -> None:
        base = self.resolve_relative(len(node.relative), module_name_of(node.module) if node.module else "")
        if base is None or isinstance(node.names, cst.ImportStar):
            return
        for alias in node.names:
            name = module_name_of(alias.name)
            local = name
            if alias.asname is not None and isinstance(alias.asname.name, cst.Name):
                local = alias.asname.name.value
            self._bind(local, f"{base}.{name}" if base else name)

    def _bind(self, local: str, qualified: str) -> None:
        """An import binds ``local``: no function variable unbinds it."""
        self.aliases[local] = qualified
        self._local_aliases.discard(local)

    def resolve_relative(self, level: int, module: str) -> Optional[str]:
        """The absolute module that ``from <dots><module> import ...`` refers to."""
        return resolve_relative(self.module_name, self.is_package, level, module)

    def imported_modules(self, node: "cst.Import | cst.ImportFrom") -> List[str]:
        """The modules an import statement imports, qualified (``from pkg import utils``: ``pkg``
        and ``pkg.utils``, which is imported when it is a module); none for a relative import
        that leaves the package."""
        if isinstance(node, cst.Import):
            return [module_name_of(alias.name) for alias in node.names]
        base = self.resolve_relative(len(node.relative), module_name_of(node.module) if node.module else "")
        if base is None:
            return []
        modules = [base] if isinstance(node.names, cst.ImportStar) or not base else []
        if not isinstance(node.names, cst.ImportStar):
            modules += [f"{base}.{module_name_of(alias.name)}" if base else module_name_of(alias.name) for alias in node.names]
        return modules

    def add_assignment(self, target: cst.CSTNode, value: cst.CSTNode, forget: bool = True) -> None:
        """Follow ``alias = torch.backends.cudnn``; rebinding a known alias to anything but
        ``None`` forgets it (with ``forget``: a binding of the module's top level, not a function's
        local variable)."""
        if not isinstance(target, cst.Name):
            return
        name = target.value
        if isinstance(value, cst.Name) and value.value == "None" and name in self.aliases:
            # ``except ImportError: torch_scatter = None``: an optional import's fallback; where
            # the name is used as a module, it is that module
            return
        qualified = self.qualify(value)
        if qualified is not None and "." in qualified:
            self.aliases[name] = qualified
            if forget:
                self._local_aliases.discard(name)
            else:
                self._local_aliases.add(name)
        elif name in self.aliases and (forget or name in self._local_aliases):
            # a function's variable unbinds what a function's assignment bound, never an
            # import or an alias of the module's top level
            del self.aliases[name]
            self._local_aliases.discard(name)

    # -- querying ----------------------------------------------------------------------
    def qualify(self, node: cst.CSTNode) -> Optional[str]:
        """The qualified name of a Name/Attribute chain whose head was imported, else None."""
        name = dotted_name(node)
        if name is None:
            return None
        return self.qualify_dotted(name)

    def qualify_dotted(self, name: str) -> Optional[str]:
        head, _, rest = name.partition(".")
        target = self.aliases.get(head)
        if target is None:
            return None
        return public_name(f"{target}.{rest}" if rest else target)

    def local_name(self, qualified: str) -> Optional[str]:
        """A local name bound to exactly ``qualified`` (the first in import order), or None."""
        for local, target in self.aliases.items():
            if target == qualified:
                return local
        return None

    def imports_module(self, prefix: str) -> bool:
        """True if anything was imported from ``prefix`` (a module or one of its submodules)."""
        dotted = prefix + "."
        return any(v == prefix or v.startswith(dotted) for v in self.aliases.values())
