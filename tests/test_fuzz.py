"""Never crash on valid code: generated programs (hypothesmith) and mutated real training
scripts. The example count is modest by default; ``REPRO_LINT_FUZZ_EXAMPLES=2000`` runs more."""

from __future__ import annotations

import os
import re

import hypothesmith
import pytest
import libcst as cst
from hypothesis import HealthCheck, given, settings, strategies as st

from conftest import REPO
from repro_lint.config import Settings
from repro_lint.rules import selected_codes
from repro_lint.engine import Linter
from repro_lint.rulebook import book_dir, examples
from repro_lint.source import Source

EXAMPLES = int(os.environ.get("REPRO_LINT_FUZZ_EXAMPLES", "30"))
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
)
ALL = Settings(select=["ALL"], root=REPO)
LINTER = Linter(ALL, codes=selected_codes(ALL), prefilter=False)  # no prefilter: every rule sees every file


def lint_never_raises(code: str) -> list:
    result = LINTER.lint_source("fuzz.py", Source(code, "utf-8"))
    assert result.errors == [], result.errors
    for diag in result.diagnostics:
        assert diag.start <= diag.end or diag.start[0] < diag.end[0]
        if diag.code != "RPL001":
            assert diag.message and diag.start[0] >= 1
    return result.diagnostics


#: hypothesmith compiles what it generates, with the filename "<string>", to keep only valid
#: programs; CPython warns about some of them (``1()``: "'int' object is not callable"). Those
#: warnings are the generator's, not the linter's (which compiles a file under its own path)
GENERATOR_WARNINGS = pytest.mark.filterwarnings("ignore::SyntaxWarning")


@FUZZ
@GENERATOR_WARNINGS
@given(hypothesmith.from_grammar())
def test_generated_programs_never_crash_the_linter(code):
    lint_never_raises(code)


@FUZZ
@GENERATOR_WARNINGS
@given(hypothesmith.from_node())
def test_generated_syntax_trees_never_crash_the_linter(code):
    lint_never_raises(code)


# -- mutations of real training scripts ------------------------------------------------------


def seeds() -> list:
    scripts = [(REPO / "examples" / "train.py").read_text(encoding="utf-8")]
    for page in sorted(book_dir().glob("RPL*.md")):
        scripts += [e.code for e in examples(page.read_text(encoding="utf-8")) if e.kind == "bad"]
    return scripts


SEEDS = seeds()


def rename_alias(code: str, rng) -> str:
    """``import x as F`` -> ``import x as <new>`` and every ``F.`` use renamed."""
    match = re.search(r"\bas (\w+)$", code, re.MULTILINE)
    if not match:
        return code
    old, new = match.group(1), rng.choice(["Q", "fn_", "torch_f", "_x1", "ALIAS"])
    return re.sub(rf"\b{re.escape(old)}\b", new, code)


def add_aliases(code: str, rng) -> str:
    """An alias assignment after the imports: ``cb = torch.backends.cudnn`` etc."""
    lines = code.splitlines(keepends=True)
    cut = max((i + 1 for i, line in enumerate(lines) if line.startswith(("import ", "from "))), default=0)
    alias = rng.choice(["cb = torch.backends.cudnn\n", "DL = None\n", "np_rand = None\n", "Fx = torch\n"])
    return "".join(lines[:cut] + [alias] + lines[cut:])


def nest_calls(code: str, rng) -> str:
    """Wrap a call in an identity lambda, a parenthesised tuple, or a comprehension."""
    calls = list(re.finditer(r"\b[\w\.]+\([^()\n]*\)", code))
    if not calls:
        return code
    m = rng.choice(calls)
    wrapper = rng.choice(["(lambda v: v)({})", "({},)[0]", "[v for v in [{}]][0]", "({})"])
    return code[: m.start()] + wrapper.format(m.group(0)) + code[m.end() :]


def wrap_in_blocks(code: str, rng) -> str:
    """Indent everything under ``if True:`` / ``try:`` / a function that is called."""
    body = "".join("    " + line if line.strip() else line for line in code.splitlines(keepends=True))
    kind = rng.choice(["if", "try", "def"])
    if kind == "if":
        return "if True:\n" + body
    if kind == "try":
        return "try:\n" + body + "except Exception:\n    pass\n"
    return "def _wrapped():\n" + body + "\n_wrapped()\n"


def sprinkle(code: str, rng) -> str:
    """Comments, blank lines and CRLF line endings."""
    lines = code.splitlines(keepends=True)
    index = rng.randrange(len(lines) + 1) if lines else 0
    lines.insert(index, rng.choice(["\n", "# a comment\n", "    # indented comment\n" if index else "\n"]))
    text = "".join(lines)
    return text.replace("\n", "\r\n") if rng.random() < 0.2 else text


MUTATIONS = [rename_alias, add_aliases, nest_calls, wrap_in_blocks, sprinkle]


@FUZZ
@given(st.sampled_from(SEEDS), st.lists(st.sampled_from(MUTATIONS), min_size=1, max_size=4), st.randoms(use_true_random=False))
def test_mutated_training_scripts_never_crash_the_linter(code, mutations, rng):
    for mutate in mutations:
        code = mutate(code, rng)
    try:
        cst.parse_module(code)
    except cst.ParserSyntaxError:
        return  # a mutation produced invalid code (e.g. a tab/space mix); not the subject here
    found = lint_never_raises(code)
    assert "RPL001" not in [d.code for d in found]


def test_the_seeds_are_real():
    assert sum("import torch" in s for s in SEEDS) >= 4
