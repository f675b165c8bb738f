"""LibCST, imported when first used, and its generated code compiled once per machine.

Importing LibCST costs about 0.2-0.4 s: it builds a few hundred node classes. A run that the
results cache answers entirely never needs it, yet the modules it goes through (the project
context and the syntax helpers it shares with the rules) name LibCST's classes in their
functions. Every module of repro-lint takes ``cst`` from here: a module object that imports
LibCST on the first read of one of its names and then gives each module LibCST itself, the
module every other module gets from ``import libcst``.

Most of that import is not LibCST's own code but the standard library's ``dataclasses``
writing the source of each node class's ``__init__``, ``__eq__``, ``__repr__``, ``__hash__``
and frozen ``__setattr__`` and compiling it (``compile`` is half of the import). The text is the
same in every process, so while LibCST is imported here, each distinct text is compiled once
and its code object kept beside repro-lint's own bytecode (:func:`generated_code_compiled_once`),
as Python keeps a module's: a later process executes the same code object instead of compiling
the same text again. The class, its methods and their behaviour are exactly those of an
ordinary import; only the compiling is skipped."""

from __future__ import annotations

import builtins
import contextlib
import importlib.util
import marshal
import os
import sys
from types import CodeType, ModuleType
from typing import Any, Dict, Iterator, Optional

#: the code objects depend on the interpreter's bytecode, which its magic number names
_STAMP = importlib.util.MAGIC_NUMBER.hex()


def code_cache_path() -> Optional[str]:
    """Where the compiled code is kept: beside this module's own bytecode (``__pycache__``, or
    under ``sys.pycache_prefix``), named for the interpreter; None where Python keeps none."""
    try:
        pyc = importlib.util.cache_from_source(__file__)
    except (NotImplementedError, ValueError):  # no cache tag (an interpreter without bytecode files)
        return None
    return f"{os.path.splitext(pyc)[0]}.generated-{_STAMP}.marshal"


def _load(path: str) -> Dict[str, CodeType]:
    try:
        with open(path, "rb") as stream:
            codes = marshal.load(stream)
    except (OSError, EOFError, ValueError, TypeError):
        return {}  # none yet, or unreadable: compile as usual (and write a new one)
    if not isinstance(codes, dict):
        return {}
    return {text: code for text, code in codes.items() if type(text) is str and type(code) is CodeType}


def _store(path: str, codes: Dict[str, CodeType]) -> None:
    """Write ``codes`` whole or not at all (a temporary file renamed over the old one)."""
    temporary = f"{path}.{os.getpid()}.tmp"
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(temporary, "wb") as stream:
            marshal.dump(codes, stream)
        os.replace(temporary, path)
    except (OSError, ValueError):  # a read-only installation, a full disk: as Python does with bytecode
        with contextlib.suppress(OSError):
            os.unlink(temporary)


@contextlib.contextmanager
def generated_code_compiled_once(path: Optional[str]) -> Iterator[None]:
    """While the block runs, ``dataclasses`` executes the code object kept in ``path`` for a
    text it compiled before (``exec(text, globals, namespace)`` is ``exec(compile(text,
    "<string>", "exec"), globals, namespace)``, and the same text compiles to the same code).
    Afterwards the texts used are written back if any was new (not where Python is told not
    to write bytecode: ``-B``, ``PYTHONDONTWRITEBYTECODE``)."""
    import dataclasses

    if path is None or "exec" in vars(dataclasses):  # no place to keep it, or already inside one
        yield
        return
    known = _load(path)
    used: Dict[str, CodeType] = {}
    compiled = []

    def exec_once(source: Any, globals: Any = None, locals: Any = None) -> None:
        if type(source) is str:
            code = known.get(source)
            if code is None:
                code = compile(source, "<string>", "exec", dont_inherit=True)
                compiled.append(source)
            used[source] = code
            source = code
        builtins.exec(source, globals, locals)

    dataclasses.exec = exec_once  # type: ignore[attr-defined]  # found before the builtin
    try:
        yield
    finally:
        del dataclasses.exec  # type: ignore[attr-defined]
    if compiled and not sys.dont_write_bytecode:
        _store(path, used)  # only what this import used: texts of an older LibCST go


def import_libcst() -> ModuleType:
    """LibCST itself, imported now if no one has yet (with the code its classes generate
    compiled once, :func:`generated_code_compiled_once`)."""
    module = sys.modules.get("libcst")
    if module is None:
        with generated_code_compiled_once(code_cache_path()):
            module = importlib.import_module("libcst")
    return module


class _Libcst(ModuleType):
    """Stands for ``libcst`` until one of its names is first read. It is never put in
    ``sys.modules``, so another module's ``import libcst`` or ``from libcst.metadata import
    ...`` is an ordinary import, whether or not repro-lint has imported LibCST yet (a lazy
    module there would be imported twice by an import of its submodule). On that first read,
    every module that took it as ``cst`` gets LibCST itself in its place, so that later reads
    are LibCST's, and what is patched on LibCST (a test's ``monkeypatch``) is seen."""

    def __getattr__(self, name: str) -> Any:  # only for what the module's dictionary lacks
        module = import_libcst()
        global cst
        cst = module
        for each in list(sys.modules.values()):
            if isinstance(each, ModuleType) and vars(each).get("cst") is self:
                vars(each)["cst"] = module
        if not self.__dict__.get("__file__"):
            self.__dict__.update(module.__dict__)  # for a reference held elsewhere
        return getattr(module, name)


#: LibCST, imported on the first read of one of its names
cst: Any = _Libcst("libcst")
