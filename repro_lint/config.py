"""``[tool.repro-lint]`` configuration: finding it, validating it, and selecting rules.

The configuration is data only: it is parsed as TOML and checked key by key; nothing in it
is ever imported or evaluated. An unknown key or a value of the wrong type is a
:class:`ConfigError` naming the key and the file (the CLI exits with status 2).
"""

from __future__ import annotations

import os
import re
import sys
from dataclasses import dataclass, field, replace
from pathlib import Path

from .catalog import GENERATORS
from .source import TEXT_LIMIT, SourceError, read_bytes, real
from typing import Any, Callable, Dict, List, Optional, Tuple

if sys.version_info >= (3, 11):  # pragma: no cover - version dependent
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

#: the newest torch release whose behaviour the version-aware rules know
NEWEST_KNOWN_TORCH: Tuple[int, int] = (2, 14)
SEED_EFFECTS = GENERATORS + ("deterministic",)
CONFIG_FILES = (".repro-lint.toml", "repro-lint.toml", "pyproject.toml")
SECTION = "repro-lint"


class ConfigError(Exception):
    """Bad configuration: the message names the file and the key."""


def parse_version(text: str) -> Optional[Tuple[int, int]]:
    match = re.match(r"\s*(\d+)\.(\d+)", text)
    return (int(match.group(1)), int(match.group(2))) if match else None


def installed_version(distribution: str) -> Optional[str]:
    """An installed distribution's version from package metadata, without importing it: the
    name of its ``<distribution>-<version>.dist-info`` folder, the first on ``sys.path`` as
    ``importlib.metadata`` would find it (the wheel format puts the version in that name;
    reading it costs one listing per path entry, where importing ``importlib.metadata`` and
    asking it costs a tenth of a one-file run); ``importlib.metadata`` answers for any other
    kind of installation."""
    prefix = distribution + "-"
    for entry in sys.path:
        try:
            names = os.listdir(entry or ".")
        except OSError:  # a zip file, a missing folder
            continue
        for name in names:
            if name.startswith(prefix) and name.endswith(".dist-info"):
                found = name[len(prefix) : -len(".dist-info")]
                if parse_version(found) is not None:
                    return found
    try:
        from importlib.metadata import PackageNotFoundError, version
    except ImportError:  # pragma: no cover
        return None
    try:
        return version(distribution)
    except PackageNotFoundError:
        return None
    except Exception:  # broken metadata must not break linting
        return None


def installed_torch_version() -> Optional[Tuple[int, int]]:
    """The installed torch's (major, minor), read without importing torch."""
    text = installed_version("torch")
    return parse_version(text) if text is not None else None


# -- schema ------------------------------------------------------------------------------


def _str_list(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


def _per_file_ignores(value: Any) -> bool:
    return isinstance(value, dict) and all(isinstance(k, str) and _str_list(v) for k, v in value.items())


def _seed_functions(value: Any) -> bool:
    if _str_list(value):
        return True
    return isinstance(value, dict) and all(
        isinstance(k, str) and _str_list(v) and set(v) <= set(SEED_EFFECTS) for k, v in value.items()
    )


def _torch_version(value: Any) -> bool:
    return isinstance(value, str) and parse_version(value) is not None


def _line_length(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= 320


def _seed(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 2**32 - 1


#: key -> (check, description of the expected type)
SCHEMA: Dict[str, Tuple[Callable[[Any], bool], str]] = {
    "select": (_str_list, "a list of rule codes or prefixes"),
    "ignore": (_str_list, "a list of rule codes or prefixes"),
    "extend-select": (_str_list, "a list of rule codes or prefixes"),
    "per-file-ignores": (_per_file_ignores, "a table of glob = [codes]"),
    "include": (_str_list, "a list of glob patterns"),
    "extend-include": (_str_list, "a list of glob patterns"),
    "exclude": (_str_list, "a list of glob patterns"),
    "extend-exclude": (_str_list, "a list of glob patterns"),
    "respect-gitignore": (lambda v: isinstance(v, bool), "true or false"),
    "entry-points": (_str_list, "a list of glob patterns"),
    "seed-functions": (
        _seed_functions,
        "a list of qualified function names, or a table of name = [generators] "
        f"with generators among {', '.join(SEED_EFFECTS)}",
    ),
    "torch-version": (_torch_version, 'a version string such as "2.13"'),
    "seed": (_seed, "an integer between 0 and 2**32-1"),
    "fix-style": (lambda v: v in ("runtime", "inline"), '"runtime" or "inline"'),
    "max-file-size": (
        lambda v: isinstance(v, int) and not isinstance(v, bool) and v > 0,
        "a positive number of bytes",
    ),
    "line-length": (_line_length, "a whole number of characters between 1 and 320"),
}

#: ruff's configuration files, in the order ruff looks for them in a folder (``pyproject.toml``
#: only where it has a ``[tool.ruff]`` table)
RUFF_FILES = (".ruff.toml", "ruff.toml")


@dataclass(frozen=True)
class ImportSections:
    """Which imports the project's import sorter (ruff's isort rules, or isort) counts as the
    project's own, from its configuration: a fix that adds an import places it in the group
    that sorter wants (``edits.first_party``). Names are module names or glob patterns
    (``mypkg``, ``mypkg_*``); ``src`` the folders, relative to the project root, whose modules
    are first-party (None: ruff's default, the root and ``src``)."""

    first_party: Tuple[str, ...] = ()
    third_party: Tuple[str, ...] = ()
    src: Optional[Tuple[str, ...]] = None


#: LibCST needs about 500 bytes of memory per byte of source: a 12 MB generated file took
#: 6.5 GB and three minutes. The largest file in torch 2.13's own source is 1.4 MB.
DEFAULT_MAX_FILE_SIZE = TEXT_LIMIT
#: what folders are searched for (ruff's default, without stubs): Python files and notebooks
DEFAULT_INCLUDE = ("*.py", "*.ipynb")


@dataclass
class Settings:
    """The effective configuration of one run (config file merged with the command line)."""

    select: Optional[List[str]] = None
    ignore: List[str] = field(default_factory=list)
    extend_select: List[str] = field(default_factory=list)
    per_file_ignores: Dict[str, List[str]] = field(default_factory=dict)
    #: the files a folder's search finds (a file named on the command line is always linted)
    include: List[str] = field(default_factory=lambda: list(DEFAULT_INCLUDE))
    extend_include: List[str] = field(default_factory=list)
    exclude: List[str] = field(default_factory=list)
    extend_exclude: List[str] = field(default_factory=list)
    respect_gitignore: bool = True
    entry_points: List[str] = field(default_factory=list)
    seed_functions: Dict[str, List[str]] = field(default_factory=dict)
    torch_version_text: Optional[str] = None
    seed: int = 0
    fix_style: str = "runtime"
    max_file_size: int = DEFAULT_MAX_FILE_SIZE
    #: the width fixes keep lines within: ``line-length`` of the project's pyproject.toml
    #: (see :func:`project_line_length`); None: each file's own (``edits.file_width``)
    line_length: Optional[int] = None
    #: the project's own modules, as its ruff or isort configuration states them (see
    #: :func:`project_import_sections`); where a fix's import goes depends on them
    import_sections: ImportSections = field(default_factory=ImportSections)
    #: where the configuration came from (None: defaults), and the folder paths are relative to
    config_path: Optional[Path] = None
    root: Path = field(default_factory=Path.cwd)

    @property
    def torch_version(self) -> Tuple[int, int]:
        """Target torch version: the config's, else the installed torch's, else the newest known."""
        if self.torch_version_text:
            parsed = parse_version(self.torch_version_text)
            if parsed:
                return parsed
        cached = getattr(self, "_installed_torch", None)
        if cached is None:
            cached = installed_torch_version() or NEWEST_KNOWN_TORCH
            object.__setattr__(self, "_installed_torch", cached)
        return cached

    def with_overrides(self, **changes: Any) -> "Settings":
        return replace(self, **{k: v for k, v in changes.items() if v is not None})

    def fingerprint(self) -> str:
        """A stable text of everything that can change a finding (for the cache key)."""
        keys = sorted(SCHEMA)
        values = {k: getattr(self, k.replace("-", "_"), None) for k in keys if k != "torch-version"}
        values["torch-version"] = self.torch_version
        values["import-sections"] = self.import_sections  # (a fix's edits are cached with its finding)
        return repr(sorted(values.items()))


def _read_toml(path: Path) -> Dict[str, Any]:
    try:
        return tomllib.loads(read_bytes(path, TEXT_LIMIT).decode("utf-8"))
    except SourceError as exc:
        raise ConfigError(f"{path}: {exc.message}") from None
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{path}: invalid TOML: not UTF-8 ({exc.reason} at byte {exc.start})") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: invalid TOML: {exc}") from None
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read configuration: {exc.strerror or exc}") from None


def _section(path: Path, data: Dict[str, Any]) -> Optional[Dict[str, Any]]:
    """The settings table: ``[tool.repro-lint]`` of a ``pyproject.toml``, or of any file that
    has a ``[tool]`` table (``--config other.toml`` written as a pyproject), else the whole file."""
    if path.name == "pyproject.toml" or isinstance(data.get("tool"), dict):
        tool = data.get("tool", {})
        section = tool.get(SECTION) if isinstance(tool, dict) else None
        if section is not None and not isinstance(section, dict):
            raise ConfigError(f"{path}: [tool.{SECTION}] must be a table")
        return section
    return data


def ruff_settings(root: Path, data: Dict[str, Any]) -> Dict[str, Any]:
    """ruff's settings for the project at ``root``, from the file ruff picks there: the first of
    ``.ruff.toml`` and ``ruff.toml``, else the ``[tool.ruff]`` table of its ``pyproject.toml``
    (``data``, parsed; empty when it has none). Empty when there are none, or the file ruff
    picks cannot be read (ruff reports that; it does not fall back to another file)."""
    for name in RUFF_FILES:
        if (root / name).is_file():
            try:
                found: Any = _read_toml(root / name)
            except ConfigError:
                return {}
            return found if isinstance(found, dict) else {}
    tool = data.get("tool")
    found = tool.get("ruff") if isinstance(tool, dict) else None
    return found if isinstance(found, dict) else {}


def project_line_length(data: Dict[str, Any], ruff: Dict[str, Any]) -> Optional[int]:
    """The project's line length: ``line-length`` of ``[tool.repro-lint]`` in its
    ``pyproject.toml`` (``data``, parsed; empty when it has none or it is unreadable), else of
    ruff's settings (``ruff``: :func:`ruff_settings`, ``ruff.toml`` included), else of
    ``[tool.black]``. None when none is set: the other tools' tables are theirs to validate, so
    a value we cannot use is passed over."""
    tool = data.get("tool")
    tool = tool if isinstance(tool, dict) else {}
    for table in (tool.get(SECTION), ruff, tool.get("black")):
        value = table.get("line-length") if isinstance(table, dict) else None
        if _line_length(value):
            return value
    return None


def _others_settings(pyproject: Path) -> Dict[str, Any]:
    """A ``pyproject.toml`` without our table, parsed for the other tools' settings we follow
    (line length, import sections); empty when it is missing or unreadable: not ours to report."""
    if not pyproject.is_file():
        return {}
    try:
        return _read_toml(pyproject)
    except ConfigError:
        return {}


def _names(value: Any, comma: bool = False) -> Optional[Tuple[str, ...]]:
    """A list of module names or patterns from another tool's table (``comma``: isort's one
    string of them, comma-separated, too); None for anything else: that table is not ours to
    validate, so a value we cannot use is passed over."""
    if comma and isinstance(value, str):
        value = value.split(",")
    if not isinstance(value, list):
        return None
    return tuple(name.strip() for name in value if isinstance(name, str) and name.strip())


def project_import_sections(data: Dict[str, Any], ruff: Dict[str, Any]) -> ImportSections:
    """The project's own modules for its import sorter, read from ruff's settings (``ruff``:
    :func:`ruff_settings`): ``src``, and ``known-first-party``, ``known-local-folder`` and
    ``known-third-party`` of ``[lint.isort]`` (or the older ``[isort]``); isort's, in its
    ``pyproject.toml`` (``data``, parsed; empty when it has none: ``[tool.isort]``'s
    ``known_first_party``, ``known_local_folder``, ``known_third_party``, ``src_paths``), add to
    them. A value of another type gives nothing: the defaults of ruff stand."""
    tool = data.get("tool")
    tool = tool if isinstance(tool, dict) else {}
    lint = ruff.get("lint")
    tables = [lint.get("isort") if isinstance(lint, dict) else None, ruff.get("isort")]
    ruff_isort = next((t for t in tables if isinstance(t, dict)), {})
    isort = tool.get("isort")
    isort = isort if isinstance(isort, dict) else {}
    first = (
        *(_names(ruff_isort.get("known-first-party")) or ()), *(_names(ruff_isort.get("known-local-folder")) or ()),
        *(_names(isort.get("known_first_party"), comma=True) or ()), *(_names(isort.get("known_local_folder"), comma=True) or ()),
    )
    third = (*(_names(ruff_isort.get("known-third-party")) or ()), *(_names(isort.get("known_third_party"), comma=True) or ()))
    src = _names(ruff.get("src"))
    if src is None:
        src = _names(isort.get("src_paths"), comma=True)
    return ImportSections(tuple(dict.fromkeys(first)), tuple(dict.fromkeys(third)), src)


def find_config(start: Path) -> Optional[Path]:
    """The nearest configuration file at or above ``start``: ``.repro-lint.toml``,
    ``repro-lint.toml``, or a ``pyproject.toml`` that has a ``[tool.repro-lint]`` table."""
    start = real(start)
    folder = start if start.is_dir() else start.parent
    for candidate_dir in (folder, *folder.parents):
        for name in CONFIG_FILES:
            candidate = candidate_dir / name
            if not candidate.is_file():
                if os.path.lexists(candidate) and not candidate.is_dir():
                    return candidate  # a pipe, a device, a broken link: report it, never read it
                continue
            if name != "pyproject.toml":
                return candidate
            try:
                data = _read_toml(candidate)
            except ConfigError:
                return candidate  # report the broken file rather than skip past it
            if _section(candidate, data) is not None:
                return candidate
    return None


def find_root(start: Path) -> Path:
    """The project root when no configuration names it: the nearest folder with ``.git``
    or ``pyproject.toml`` at or above ``start``, else ``start``'s folder."""
    start = real(start)
    folder = start if start.is_dir() else start.parent
    for candidate in (folder, *folder.parents):
        if (candidate / ".git").exists() or (candidate / "pyproject.toml").is_file():
            return candidate
    return folder


def load_settings(config_path: Optional[Path] = None, start: Optional[Path] = None) -> Settings:
    """Load the explicit ``config_path``, or the nearest configuration above ``start``."""
    explicit = config_path is not None
    if config_path is None:
        config_path = find_config(start or Path.cwd())
    if config_path is None:
        root = find_root(start or Path.cwd())
        others = _others_settings(root / "pyproject.toml")
        ruff = ruff_settings(root, others)
        return Settings(root=root, line_length=project_line_length(others, ruff), import_sections=project_import_sections(others, ruff))
    config_path = Path(config_path)
    if explicit and not os.path.lexists(config_path):
        raise ConfigError(f"{config_path}: configuration file not found")
    data = _read_toml(config_path)
    section = _section(config_path, data)
    settings = Settings(config_path=real(config_path), root=real(config_path).parent)
    # a pyproject.toml states the line length (in our table, ruff's or black's) and the import
    # sections of the other tools; beside a repro-lint.toml, the pyproject.toml of the same folder does
    pyproject = config_path.name == "pyproject.toml" or isinstance(data.get("tool"), dict)
    others = data if pyproject else _others_settings(settings.root / "pyproject.toml")
    ruff = ruff_settings(settings.root, others)
    settings.line_length = project_line_length(others, ruff)
    settings.import_sections = project_import_sections(others, ruff)
    if section is None:
        if config_path.name != "pyproject.toml":
            raise ConfigError(f"{config_path}: has a [tool] table but no [tool.{SECTION}] table")
        return settings
    for key, value in section.items():
        if key not in SCHEMA:
            known = ", ".join(sorted(SCHEMA))
            raise ConfigError(f"{config_path}: unknown key '{key}' in [tool.{SECTION}] (known keys: {known})")
        check, expected = SCHEMA[key]
        if not check(value):
            raise ConfigError(f"{config_path}: '{key}' must be {expected}, got {value!r}")
        if key == "seed-functions" and isinstance(value, list):
            value = {name: list(GENERATORS) for name in value}
        attr = "torch_version_text" if key == "torch-version" else key.replace("-", "_")
        setattr(settings, attr, value)
    return settings
