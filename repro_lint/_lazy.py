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
ordinary import; only the compiling is skipped. repro-lint's own data classes are compiled
once the same way: the command line runs whole inside the block (:func:`~repro_lint.cli.entry`),
the flake8 plugin imports the engine inside it, and :func:`~repro_lint.rules.all_rules` the rules."""

from __future__ import annotations

import builtins
import contextlib
import importlib.util
import marshal
import os
import sys
from types import CodeType, FrameType, ModuleType
from typing import Any, Dict, Iterator, Optional, Set

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


def _load(path: str) -> Dict[str, bytes]:
    """What ``path`` keeps: for each module whose code made data classes, its texts and their
    code objects, still marshalled (:func:`_texts` reads a module's when first needed: a run
    that never imports LibCST never reads LibCST's). Read whole, then unmarshalled:
    ``marshal.load`` on the file object reads it a few bytes at a time, through a method call
    each (LibCST's 623 texts, 743 KB: 30 ms, against 5 ms from the bytes)."""
    try:
        with open(path, "rb") as stream:
            groups = marshal.loads(stream.read())
    except (OSError, EOFError, ValueError, TypeError):
        return {}  # none yet, or unreadable: compile as usual (and write a new one)
    if not isinstance(groups, dict):
        return {}
    return {module: texts for module, texts in groups.items() if type(module) is str and type(texts) is bytes}


def _texts(data: Optional[bytes]) -> Dict[str, CodeType]:
    """One module's texts and code objects, from what :func:`_load` gave (nothing: none)."""
    try:
        codes = marshal.loads(data) if data is not None else {}
    except (EOFError, ValueError, TypeError):
        return {}
    if not isinstance(codes, dict):
        return {}
    return {text: code for text, code in codes.items() if type(text) is str and type(code) is CodeType}


def _store(path: str, groups: Dict[str, bytes]) -> None:
    """Write ``groups`` whole or not at all (a temporary file renamed over the old one)."""
    temporary = f"{path}.{os.getpid()}.tmp"
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(temporary, "wb") as stream:
            marshal.dump(groups, stream)
        os.replace(temporary, path)
    except (OSError, ValueError):  # a read-only installation, a full disk: as Python does with bytecode
        with contextlib.suppress(OSError):
            os.unlink(temporary)


def _maker(frame: Optional[FrameType], generator: str) -> str:
    """The module whose code asked ``dataclasses`` for the text being run: that of the first
    frame above ``frame`` outside ``generator`` (``dataclasses``' own file)."""
    while frame is not None and frame.f_code.co_filename == generator:
        frame = frame.f_back
    return frame.f_globals.get("__name__", "") if frame is not None else ""


@contextlib.contextmanager
def generated_code_compiled_once(path: Optional[str]) -> Iterator[None]:
    """While the block runs, ``dataclasses`` executes the code object kept in ``path`` for a
    text it compiled before (``exec(text, globals, namespace)`` is ``exec(compile(text,
    "<string>", "exec"), globals, namespace)``, and the same text compiles to the same code).
    The texts are kept by the module whose code made the class (:func:`_maker`), so that what
    one run keeps does not depend on which modules it imported, or in which order: a run
    that imports only some modules leaves the others' as they are. Afterwards, each module
    with a text compiled anew has exactly the texts it used kept (those of an older version
    of its code go), not where Python is told not to write bytecode (``-B``,
    ``PYTHONDONTWRITEBYTECODE``)."""
    import dataclasses

    if path is None or "exec" in vars(dataclasses):  # no place to keep it, or already inside one
        yield
        return
    stored = _load(path)
    known: Dict[str, Dict[str, CodeType]] = {}
    used: Dict[str, Dict[str, CodeType]] = {}
    compiled: Set[str] = set()  # the modules with a text compiled anew
    generator = dataclasses.__file__

    def exec_once(source: Any, globals: Any = None, locals: Any = None) -> None:
        if type(source) is str:
            module = _maker(sys._getframe(1), generator)
            texts = known.get(module)
            if texts is None:
                texts = known[module] = _texts(stored.get(module))
            code = texts.get(source)
            if code is None:  # (once: several classes may generate the same text)
                code = texts[source] = compile(source, "<string>", "exec", dont_inherit=True)
                compiled.add(module)
            used.setdefault(module, {})[source] = code
            source = code
        builtins.exec(source, globals, locals)

    dataclasses.exec = exec_once  # type: ignore[attr-defined]  # found before the builtin
    try:
        yield
    finally:
        del dataclasses.exec  # type: ignore[attr-defined]
    if compiled and not sys.dont_write_bytecode:
        _store(path, {**stored, **{module: marshal.dumps(used[module]) for module in compiled}})


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
