"""The package's shape: no import cycles among its modules, no module too large without a
stated reason, special rule codes declared on the rules, and one definition per concept."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path
from typing import Dict, List, Set

from conftest import REPO

PACKAGE = REPO / "repro_lint"
#: lines above which a module must say in its docstring why it is one module
LARGE = 500


def modules() -> Dict[str, Path]:
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(REPO).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def imports_of(name: str, path: Path, known: Set[str]) -> Set[str]:
    """The package modules ``name`` imports, at any depth of its code (lazy imports count:
    a cycle through a function-level import is still a cycle)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: Set[str] = set()
    type_only = {  # ``if TYPE_CHECKING:`` blocks never run: their imports are for annotations
        id(inner)
        for node in ast.walk(tree)
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING"
        for stmt in node.body
        for inner in ast.walk(stmt)
    }
    for node in ast.walk(tree):
        if id(node) in type_only:
            continue
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                prefix = ".".join(base + ([node.module] if node.module else []))
            else:
                prefix = node.module or ""
            targets = [prefix] + [f"{prefix}.{alias.name}" for alias in node.names]
        else:
            continue
        for target in targets:
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target and target != name:
                found.add(target)
    return found


def graph() -> Dict[str, Set[str]]:
    known = modules()
    edges = {name: imports_of(name, path, set(known)) for name, path in known.items()}
    # importing a module runs its packages' __init__ first: that is not an edge of its own
    for name, targets in edges.items():
        targets.difference_update(p for p in list(targets) if name.startswith(p + "."))
    return edges


def cycles(edges: Dict[str, Set[str]]) -> List[List[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    index: Dict[str, int] = {}
    low: Dict[str, int] = {}
    stack: List[str] = []
    on_stack: Set[str] = set()
    found: List[List[str]] = []
    counter = [0]

    def visit(node: str) -> None:
        index[node] = low[node] = counter[0]
        counter[0] += 1
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(edges.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return found


def test_the_cycle_finder_finds_a_cycle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_no_import_cycle_among_the_package_modules():
    edges = graph()
    assert edges["repro_lint.linter"] >= {"repro_lint.parse", "repro_lint.walk", "repro_lint.context"}
    assert cycles(edges) == []


def test_settings_and_data_modules_import_no_rules():
    edges = graph()
    for low in ("repro_lint.config", "repro_lint.catalog", "repro_lint.syntax", "repro_lint.source"):
        reached, todo = set(), [low]
        while todo:
            for nxt in edges[todo.pop()] - reached:
                reached.add(nxt)
                todo.append(nxt)
        assert not any(m.startswith("repro_lint.rules") or m == "repro_lint.context" for m in reached), (low, reached)


def test_every_module_imports_in_a_fresh_interpreter():
    names = sorted(name for name in modules() if not name.endswith("__main__"))  # that one runs the CLI
    code = (
        "import importlib, json, sys\n"
        f"names = {names!r}\n"
        "failed = {}\n"
        "for name in names:\n"
        "    try:\n"
        "        importlib.import_module(name)\n"
        "    except Exception as exc:\n"
        "        failed[name] = repr(exc)\n"
        "print(json.dumps(failed))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=str(REPO), capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    failed = json.loads(done.stdout.strip().splitlines()[-1])
    assert {k: v for k, v in failed.items() if "torch" not in v} == {}


def test_no_large_module_without_a_stated_reason():
    too_large = []
    for name, path in modules().items():
        lines = path.read_text(encoding="utf-8").count("\n")
        if lines > LARGE:
            doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
            if "one module because" not in doc:
                too_large.append((name, lines))
    assert too_large == []


def test_no_unused_import_or_undefined_name():
    """pyflakes' checks (ruff's ``F`` rules) hold over the package, its tests and the benchmark:
    an unused import or a name used without a definition (in an annotation too) is a mistake."""
    ruff = Path(sys.executable).parent / "ruff"
    if not ruff.exists():  # pragma: no cover - installed with the test extra
        import pytest

        pytest.skip("ruff is not installed")
    done = subprocess.run(
        [str(ruff), "check", "--isolated", "--select", "F", "--output-format", "concise", "repro_lint", "tests", "benchmarks"],
        cwd=REPO, capture_output=True, text=True,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_special_codes_are_declared_on_their_rules():
    from repro_lint.report.sarif import level
    from repro_lint.rules import all_rules

    rules = all_rules()
    engine_reported = sorted(code for code, rule in rules.items() if rule.found_by == "engine")
    assert engine_reported == ["RPL001", "RPL002"]
    assert level("RPL001") == "error" and level("RPL201") == "warning"
    assert {code for code, rule in rules.items() if rule.never_baselined} == {"RPL001", "RPL002"}
    sources = {path.name: path.read_text(encoding="utf-8") for path in (PACKAGE / "report").glob("*.py")}
    sources.update({p.name: p.read_text(encoding="utf-8") for p in (PACKAGE.glob("*.py"))})
    for name, text in sources.items():
        for code in ("RPL001", "RPL002"):
            for line in text.splitlines():
                stripped = line.strip()
                if code in stripped and not stripped.startswith(("#", '"', "'", "RPL", "``", ":")) and "=" in stripped:
                    raise AssertionError(f"{name}: {code} hard-coded in code: {stripped}")


def test_one_definition_per_concept():
    """Each name below is defined (assigned, or def/class) in exactly one module."""
    wanted = {
        "GENERATORS", "CUBLAS_CHECK_REMOVED", "UNKNOWN", "MISSING", "is_main_guard", "bind",
        "environ_writes", "import_edit", "write_atomic", "read_bytes", "DEVICES",
    }
    defined: Dict[str, List[str]] = {name: [] for name in wanted}
    for name, path in modules().items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in tree.body:
            names = []
            if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
                names = [node.name]
            elif isinstance(node, ast.Assign):
                names = [t.id for t in node.targets if isinstance(t, ast.Name)]
            elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value is not None:
                names = [node.target.id]
            for defined_name in names:
                if defined_name in defined and not (
                    isinstance(node, ast.Assign) and isinstance(node.value, (ast.Name, ast.Attribute))
                ):
                    defined[defined_name].append(name)
    assert {k: v for k, v in defined.items() if len(v) != 1} == {}
