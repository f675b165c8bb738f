"""Python syntax facts that both syntax trees need, decided once.

The linter reads code through two trees: Python's ``ast`` (the cheap facts pass behind the
project context) and LibCST (the rules and their fixes). A question such as "is this the
``__main__`` guard?" or "which argument binds parameter ``mode``?" must get the same answer
from both, so each is decided here, once, and each tree only supplies a small adapter:

- **literal values**: :func:`ast_literal` / :func:`cst_literal` give a Python value, or
  :data:`UNKNOWN` when only the running program knows it;
- **argument binding**: :func:`bind` finds the argument bound to a parameter by keyword or
  position, through ``*args`` and ``**kwargs`` (:data:`MISSING` when nothing binds it,
  :data:`UNKNOWN` when a star argument may); :class:`AstArgs` and :class:`CstArgs` adapt a call;
- **dicts built in a function**: :class:`DictScopes` follows what a dict holds (displays,
  ``dict(...)``, item assignments, ``update``/``setdefault``/``pop``), so that a ``**name``
  argument binds its known keys (:meth:`DictScopes.expand` is :func:`bind`'s ``expand``);
  each tree supplies the items of a dict expression and the name an expression is;
- **the main guard**: :func:`is_main_guard` (LibCST) and :func:`is_main_guard_ast`, both
  through :func:`_guards_main`.

It is one module because it is the one place where the two trees meet: splitting it by
topic would split each adapter pair (``ast`` and LibCST) across modules, which is the drift
between the two trees' answers that this module exists to prevent.
"""

from __future__ import annotations

import ast
import functools
import re
import warnings
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, FrozenSet, Iterable, List, Mapping, Optional, Sequence, Set, Tuple

from ._lazy import cst


class _Sentinel:
    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return self.name

    def __reduce__(self) -> str:
        return self.name  # pickles as the module-level constant


#: an argument that was not passed
MISSING: Any = _Sentinel("MISSING")
#: a value only known at run time (not a literal, or hidden by ``*args``/``**kwargs``)
UNKNOWN: Any = _Sentinel("UNKNOWN")

# -- argument binding ---------------------------------------------------------------------------

#: one argument of a call as :func:`bind` sees it: (keyword or None, ``""``/``"*"``/``"**"``, payload)
Slot = Tuple[Optional[str], str, Any]
#: what a ``**mapping`` argument is known to hold: (entries by key, complete?), or None if
#: unknown; called as ``expand(mapping)``, or as ``expand(mapping, False)`` where a function's own
#: ``**kwargs`` is to be read without asking its callers (:meth:`KnownDict.seen`)
Expand = Callable[..., Optional[Tuple[Mapping[str, Any], bool]]]


def bind(slots: Sequence[Slot], name: str, position: Optional[int], expand: Optional[Expand] = None, callers: bool = True) -> Any:
    """The payload of the argument bound to parameter ``name`` (by keyword, or by
    ``position`` if given), or :data:`MISSING` when no argument binds it, or :data:`UNKNOWN`
    when a ``*args`` before that position or a ``**kwargs`` may bind it. ``expand`` tells what
    a ``**`` argument holds when the caller can follow it (its entries are returned as they
    are).

    ``callers=False`` is for a question that takes :data:`MISSING` and :data:`UNKNOWN` alike
    (is ``name`` bound to an expression?): a function's own ``**kwargs`` passed on is then read
    without asking the project which keywords the function's callers pass, which only decides
    between the two, unless a later argument may bind ``name`` too (``f(**kwargs, device=d)``:
    a key the callers pass comes first). Asking costs a search of the project's calls (on
    torch's source, where many functions pass their ``**kwargs`` on, about 4 % of a serial run)."""
    unknown = False
    index = 0
    for number, (keyword, star, payload) in enumerate(slots):
        if keyword is not None:
            if keyword == name:
                return payload
        elif star == "*":
            if position is not None and index <= position:
                unknown = True  # positions from here on are not known
        elif star == "**":
            if expand is None:
                known = None
            elif callers or any(later == name or kind == "**" for later, kind, _ in slots[number + 1 :]):
                known = expand(payload)
            else:
                known = expand(payload, False)
            if known is None:
                unknown = True
            else:
                entries, complete = known
                if name in entries:
                    return entries[name]
                unknown = unknown or not complete
        else:
            if not unknown and index == position:
                return payload
            index += 1
    return UNKNOWN if unknown else MISSING


def names_feeding(passed: Set[str], built: Sequence[Tuple[Set[str], Set[str]]]) -> Set[str]:
    """``passed`` and every name an assignment among ``built`` ((targets, names in the value)
    pairs) uses to make one of them, again (``loaders = CombinedLoader({"src": src})`` handed
    to ``fit``: ``src`` too)."""
    passed = set(passed)
    grown = True
    while grown:
        grown = False
        for targets, used in built:
            if targets & passed and not used <= passed:
                passed |= used
                grown = True
    return passed


def literal_argument(positional: Sequence[Any], keywords: Mapping[str, Any], name: str, position: Optional[int]) -> Any:
    """What a call's literal arguments, as the facts record them, give parameter ``name`` (at
    ``position``; None: keyword-only), or :data:`MISSING`."""
    if name in keywords:
        return keywords[name]
    # (a method's ``self`` has no place among its calls' arguments: a negative position)
    return positional[position] if position is not None and 0 <= position < len(positional) else MISSING


# -- dicts built in a function -----------------------------------------------------------------

#: the key of an item that merges a whole mapping in (``{**other}``, ``dict(other)``, ``d.update(other)``)
#: comparison operators by their spelling, as the analyses apply them to known values (the
#: evaluator's ``a < b`` on the CST, a helper's ``if seed > 0:`` recorded by the ``ast`` facts)
COMPARISONS: Dict[str, Callable[[Any, Any], Any]] = {
    "==": lambda a, b: a == b,
    "!=": lambda a, b: a != b,
    "is": lambda a, b: a is b,
    "is not": lambda a, b: a is not b,
    "<": lambda a, b: a < b,
    "<=": lambda a, b: a <= b,
    ">": lambda a, b: a > b,
    ">=": lambda a, b: a >= b,
    "in": lambda a, b: a in b,
    "not in": lambda a, b: a not in b,
    # (a parameter's falsity: the ``else`` of ``if flag:``, or ``if not flag:``)
    "not": lambda a, b: not a,
}
#: each comparison's negation (None: the truth of the name itself; ``"not"``: its falsity)
NEGATED: Dict[Optional[str], Optional[str]] = {
    "==": "!=", "!=": "==", "is": "is not", "is not": "is", "<": ">=", ">=": "<", ">": "<=", "<=": ">",
    "in": "not in", "not in": "in", None: "not", "not": None,
}

MERGE = "**"
#: one item of a dict expression: (key, payload); the key is a string (an entry), :data:`MERGE`,
#: or None (an item that cannot be followed: a computed key, ``*args``)
Item = Tuple[Optional[str], Any]


@dataclass
class KnownDict:
    """What a dict built in the current function holds, as far as we can see."""

    entries: Dict[str, Any] = field(default_factory=dict)
    #: False once something we cannot follow was merged in (``d.update(other)``)
    complete: bool = True
    #: a function's own ``**kwargs``: tells, when asked, which keywords beyond the named
    #: parameters its callers pass, when every caller is known (None: unknown); None: not such a dict
    caller_keys: Optional[Callable[[], Optional[FrozenSet[str]]]] = None

    def seen(self, callers: bool = True) -> "KnownDict":
        """A copy, with the callers' keys (their values unknown) under the function's own;
        without asking the callers (``callers=False``), the function's own keys of an
        incomplete dict (:func:`bind`)."""
        if self.caller_keys is None:
            return KnownDict(dict(self.entries), self.complete)
        if not callers:
            return KnownDict(dict(self.entries), False)
        keys = self.caller_keys()
        if keys is None:
            return KnownDict(dict(self.entries), False)
        entries: Dict[str, Any] = dict.fromkeys(keys, UNKNOWN)
        entries.update(self.entries)
        return KnownDict(entries, self.complete)


def _unknown_callers() -> Optional[FrozenSet[str]]:
    return None


class DictScopes:
    """The dicts built in each function, as far as they can be followed (dict displays,
    ``dict(...)``, ``d["key"] = value``, ``d.update(...)``, ``d.setdefault(...)``,
    ``d.pop(...)``), and a function's own ``**kwargs`` parameter (the caller's keys unknown, the
    keys the function writes known): what a ``**name`` argument holds. The one place this is decided; each
    syntax tree supplies ``items`` (the items of a dict display or a ``dict(...)`` call, or None
    for any other expression) and ``name`` (the variable an expression is, or None), and feeds
    its assignments and method calls in source order."""

    def __init__(
        self,
        items: Callable[[Any], Optional[List[Item]]],
        name: Callable[[Any], Optional[str]],
        choice: Optional[Callable[[Any], Optional[Tuple[Any, Any, Any]]]] = None,
        join: Optional[Callable[[Any, Any, Any], Any]] = None,
    ) -> None:
        self._items = items
        self._name = name
        #: a conditional expression's (test, body, orelse), or None for any other expression;
        #: ``join`` builds the conditional expression of two payloads under a test
        self._choice = choice
        self._join = join
        self.scopes: List[Dict[str, KnownDict]] = [{}]
        #: the names each scope has bound so far (to a dict or not)
        self._bound: List[Set[str]] = [set()]
        #: the module's text, where the tree is a whole module: a dict its top level binds once
        #: and nothing changes (:func:`stable_module_dict`) is what a function that does not bind
        #: the name itself sees (``LOADER_KW = {"num_workers": 4}`` above ``def main():
        #: DataLoader(data, **LOADER_KW)``). None: functions see their own dicts only
        self.source: Optional[str] = None
        self._stable: Dict[str, bool] = {}

    def enter(self, rest: Optional[str] = None, caller_keys: Optional[Callable[[], Optional[FrozenSet[str]]]] = None) -> None:
        """A function's body begins; ``rest`` is its ``**kwargs`` parameter, if any: a dict
        from the caller, whose keys are unknown until the function writes one, unless
        ``caller_keys`` (asked only when the dict's contents are) knows the keywords every caller
        passes beyond the named parameters (their values stay unknown)."""
        if rest is None:
            self.scopes.append({})
        else:
            self.scopes.append({rest: KnownDict(caller_keys=caller_keys or _unknown_callers)})
        self._bound.append(set())

    def leave(self) -> None:
        self.scopes.pop()
        self._bound.pop()

    def dict_of(self, node: Any, callers: bool = True) -> Optional[KnownDict]:
        """The contents of a dict expression, or None if it is not one we can follow
        (``callers``: see :meth:`KnownDict.seen`; a dict built from the function's ``**kwargs``
        asks them in any case)."""
        items = self._items(node)
        if items is not None:
            known = KnownDict()
            self._add(known, items)
            return known
        split = self._choice(node) if self._choice is not None else None
        if split is not None:
            return self._either(*split)
        name = self._name(node)
        tracked = self.scopes[-1].get(name) if name is not None else None
        if tracked is None and name is not None and len(self.scopes) > 1 and name not in self._bound[-1] and name in self.scopes[0]:
            if self.source is not None and name not in self._stable:
                self._stable[name] = stable_module_dict(self.source, name)
            if self._stable.get(name):
                tracked = self.scopes[0][name]  # the module's own dict, which nothing changes
        if tracked is not None:
            return tracked.seen(callers)
        return None

    def _either(self, test: Any, body: Any, orelse: Any) -> Optional[KnownDict]:
        """``body if test else orelse`` of two dicts we can follow (``{"num_workers": 1} if
        cuda else {}``): a key of both holds either value (a conditional expression of the
        two); a key of one holds that one's value (it may be passed: the branch is possible)."""
        one, other = self.dict_of(body), self.dict_of(orelse)
        if one is None or other is None or self._join is None:
            return None
        known = KnownDict(complete=one.complete and other.complete)
        for key in {**one.entries, **other.entries}:
            if key in one.entries and key in other.entries:
                first, second = one.entries[key], other.entries[key]
                joined = first if first is second else UNKNOWN if UNKNOWN in (first, second) else self._join(test, first, second)
                known.entries[key] = joined
            else:
                known.entries[key] = one.entries.get(key, other.entries.get(key))
        return known

    def expand(self, node: Any, callers: bool = True) -> Optional[Tuple[Mapping[str, Any], bool]]:
        """:func:`bind`'s ``expand``: (entries, complete) of a ``**node`` we can follow."""
        known = self.dict_of(node, callers)
        return (known.entries, known.complete) if known is not None else None

    def _add(self, known: KnownDict, items: Iterable[Item]) -> None:
        for key, payload in items:
            if key is None:
                known.complete = False
            elif key == MERGE:
                other = self.dict_of(payload)
                if other is None:
                    known.complete = False
                else:
                    known.entries.update(other.entries)
                    known.complete = known.complete and other.complete
            else:
                known.entries[key] = payload

    def assign(self, name: str, value: Any) -> None:
        """``name = value``: tracked from now on if ``value`` is a dict we can follow."""
        known = self.dict_of(value)
        self._bound[-1].add(name)
        if known is not None:
            self.scopes[-1][name] = known
        else:
            self.scopes[-1].pop(name, None)

    def assign_key(self, name: str, key: Optional[str], value: Any) -> None:
        """``name[key] = value`` (``key`` None when it is not a string literal)."""
        tracked = self.scopes[-1].get(name)
        if tracked is not None:
            self._add(tracked, [(key, value)])

    def tracks(self, name: str) -> bool:
        return name in self.scopes[-1]

    def method(self, name: str, method: str, items: List[Item], key: Any, default: Any) -> None:
        """``name.method(...)``: ``items`` are the call's arguments as dict items (for
        ``update``), ``key`` the first positional argument's string value (None when it is
        not one, :data:`MISSING` when there is none), ``default`` the second's payload or
        :data:`MISSING`."""
        tracked = self.scopes[-1].get(name)
        if tracked is None:
            return
        if method == "update":
            self._add(tracked, items)
        elif method == "setdefault" and key is not MISSING:
            if key is None:
                tracked.complete = False
            elif key not in tracked.entries and default is not MISSING:
                tracked.entries[key] = default  # the value when the key is not there already
        elif method == "pop" and isinstance(key, str):
            tracked.entries.pop(key, None)


#: the methods of a dict that :meth:`DictScopes.method` follows
DICT_METHODS = frozenset({"update", "setdefault", "pop"})


def stable_module_dict(source: str, name: str) -> bool:
    """Does the module's text bind ``name`` once, at its top level (``NAME = {...}``), and
    never change it: no ``NAME[key] = ...``, ``del NAME[...]``, mutating method
    (``update``, ``pop``, ``setdefault``, ``clear``, ``popitem``), augmented assignment, nor
    ``global NAME``? (A text check, comments and strings included: a mention there only makes
    the answer no.)"""
    word = re.escape(name)
    if len(re.findall(rf"^{word}\s*(?::[^=\n]*)?=(?!=)", source, re.MULTILINE)) != 1:
        return False
    changed = (
        rf"\b{word}\s*\[[^\]\n]*\]\s*(?:[-+*/|&^%@]|//|<<|>>|\*\*)?=(?!=)|\b{word}\s*\.\s*(?:update|pop|setdefault|clear|popitem|__setitem__)\s*\("
        rf"|\bdel\s+{word}\b|\bglobal\b[^\n]*\b{word}\b|\b{word}\s*(?:[-+*/|&^%@]|//|<<|>>|\*\*)=|^[ \t]+{word}\s*=(?!=)|\b{word}\s*:="
    )
    return re.search(changed, source, re.MULTILINE) is None


def cst_slots(args: Sequence[cst.Arg]) -> List[Slot]:
    return [(arg.keyword.value if arg.keyword is not None else None, arg.star or "", arg) for arg in args]


def ast_slots(call: ast.Call) -> List[Slot]:
    slots: List[Slot] = [(None, "*" if isinstance(arg, ast.Starred) else "", arg) for arg in call.args]
    slots.extend((k.arg, "**" if k.arg is None else "", k.value) for k in call.keywords)
    return slots


# -- command-line options ----------------------------------------------------------------------


def option_default(flags: Sequence[str], keywords: Dict[str, Any]) -> Optional[Tuple[str, Any]]:
    """``parser.add_argument(*flags, **keywords)``: (its destination, its default on the
    default path, the run with no options), or None when every run gives it (a positional, or
    ``required=True``, without a default) or its destination is not known. ``keywords``: the
    ``dest``, ``action`` and ``nargs`` given, as strings (None where not a string), ``required``
    as a literal, and ``default`` as the caller's own node; a missing default is False for
    ``action="store_true"``, True for ``"store_false"``, else None (Python values)."""
    if not flags:
        return None
    required = not any(f.startswith("-") for f in flags)  # a positional is given on every run
    if "required" in keywords:
        required = keywords["required"] is not False
    if "nargs" in keywords and keywords["nargs"] in ("?", "*"):
        required = False
    default = keywords.get("default", MISSING)
    if required and default is MISSING:
        return None
    dest = keywords.get("dest", MISSING)
    if dest is MISSING:
        longs = [f for f in flags if f.startswith("--")]
        dest = (longs[0] if longs else flags[0]).lstrip("-").replace("-", "_")
    elif not isinstance(dest, str):
        return None
    if default is MISSING:
        action = keywords.get("action")
        default = False if action == "store_true" else True if action == "store_false" else None
    return dest, default


# -- literal values -----------------------------------------------------------------------------


def ast_literal(node: ast.AST) -> Any:
    """The value of a constant (or a negated number), else :data:`UNKNOWN`."""
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) and isinstance(node.operand, ast.Constant):
        value = node.operand.value
        return -value if isinstance(value, (int, float)) and not isinstance(value, bool) else UNKNOWN
    return UNKNOWN


def string_value(node: cst.CSTNode) -> Optional[str]:
    """The value of a plain (non-f) string literal, or None."""
    if isinstance(node, cst.SimpleString):
        value = _string_literal(node.value)
    elif isinstance(node, cst.ConcatenatedString):
        value = node.evaluated_value
    else:
        return None
    return value if isinstance(value, str) else None


@functools.lru_cache(maxsize=4096)
def _string_literal(text: str) -> Any:
    """What a string literal written ``text`` evaluates to: LibCST's
    ``SimpleString.evaluated_value`` (:func:`ast.literal_eval` of the text), remembered for
    the texts read last. The same few strings are read again and again (``"cuda"``,
    ``"__main__"``, ``"num_workers"``), and each ``literal_eval`` parses its text and leaves
    four closures in a reference cycle to the cyclic garbage collector (10,700 calls in a cold
    run of the project corpus)."""
    return ast.literal_eval(text)


def int_value(node: cst.CSTNode) -> Optional[int]:
    if isinstance(node, cst.Integer):
        try:
            return int(node.value.replace("_", ""), 0)
        except ValueError:
            return None
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Minus):
        inner = int_value(node.expression)
        return -inner if inner is not None else None
    return None


_NAMED_CONSTANTS = {"True": True, "False": False, "None": None}


def cst_literal(node: cst.CSTNode) -> Any:
    """The value of ``True``/``False``/``None``, a number or a plain string, else :data:`UNKNOWN`."""
    if isinstance(node, cst.Name) and node.value in _NAMED_CONSTANTS:
        return _NAMED_CONSTANTS[node.value]
    if isinstance(node, (cst.Integer, cst.UnaryOperation)):
        value = int_value(node)
        return UNKNOWN if value is None else value
    if isinstance(node, cst.Float):
        try:
            return float(node.value.replace("_", ""))
        except ValueError:
            return UNKNOWN
    if isinstance(node, (cst.SimpleString, cst.ConcatenatedString)):
        value = string_value(node)
        return UNKNOWN if value is None else value
    return UNKNOWN


def cst_strings(node: cst.CSTNode) -> List[str]:
    """Every string literal inside ``node`` (``"cuda" if ok else "cpu"`` gives both)."""
    from .children import syntax_children  # LibCST: not imported by a warm run

    found: List[str] = []
    stack = [node]
    while stack:
        current = stack.pop()
        kind = type(current)  # LibCST's node classes are final: ``is`` is ``isinstance``, cheaper
        if kind is cst.SimpleString:
            value = string_value(current)  # type: ignore[arg-type]
            if value is not None:
                found.append(value)
        elif kind is cst.FormattedStringText:
            found.append(current.value)  # type: ignore[attr-defined]
        elif kind is cst.Name or kind is cst.Integer or kind is cst.Float:
            continue
        else:
            stack.extend(syntax_children(current))
    return found


#: what :func:`cst_names_read` gives for code that binds names of its own (a lambda, a comprehension)
OWN_SCOPE = "<scope>"


def cst_names_read(expr: cst.CSTNode, dotted: bool = False) -> Set[str]:
    """The names an expression reads: their root names (``args`` and ``int`` for
    ``int(args.seed)``, not the attribute ``seed``), or with ``dotted`` the names and attributes
    as written (``args.seed``). A lambda or comprehension inside, which binds names of its own,
    gives :data:`OWN_SCOPE`."""
    from .children import syntax_children  # LibCST: not imported by a warm run
    from .names import dotted_name

    names: Set[str] = set()
    stack = [expr]
    while stack:
        current = stack.pop()
        kind = type(current)
        written = dotted_name(current) if dotted and (kind is cst.Name or kind is cst.Attribute) else None
        if written is not None:
            names.add(written)
        elif kind is cst.Name:
            names.add(current.value)  # type: ignore[attr-defined]
        elif kind is cst.Attribute:
            stack.append(current.value)  # type: ignore[attr-defined]
        elif kind in (cst.Lambda, cst.ListComp, cst.SetComp, cst.DictComp, cst.GeneratorExp):
            names.add(OWN_SCOPE)
        else:
            stack.extend(syntax_children(current))
    return names


# -- the arguments of one call, for the classifier ------------------------------------------------


class CallArgs:
    """The arguments of one call, as the classifier sees them: one adapter per syntax tree
    supplies the slots, the literal reader and the string finder; ``expand`` follows a
    ``**name`` argument (:meth:`DictScopes.expand`)."""

    expand: Optional[Expand] = None
    #: :meth:`_slots`, computed at the first question (the classifier asks a call several)
    _slot_list: Optional[Sequence[Slot]] = None

    def _slots(self) -> Sequence[Slot]:
        raise NotImplementedError

    def _literal(self, node: Any) -> Any:
        raise NotImplementedError

    def _strings(self, node: Any) -> List[str]:
        raise NotImplementedError

    def node(self, name: str, position: Optional[int], callers: bool = True) -> Any:
        """The expression bound to parameter ``name``, or :data:`MISSING` / :data:`UNKNOWN`
        (``callers=False``: either, where the two are taken alike; see :func:`bind`)."""
        return bind(self._known_slots(), name, position, self.expand, callers)

    def _known_slots(self) -> Sequence[Slot]:
        """:meth:`_slots`, computed at the first question."""
        slots = self._slot_list
        if slots is None:
            slots = self._slot_list = self._slots()
        return slots

    def may_name(self, names: FrozenSet[str]) -> bool:
        """Can a keyword argument bind one of the parameters ``names``: one of them written,
        or a ``**`` argument? False: :meth:`node` of each of them, given no position, is
        :data:`MISSING` (most calls name none of a classifier's keywords)."""
        return any(keyword in names if keyword is not None else star == "**" for keyword, star, _ in self._known_slots())

    def value(self, name: str, position: Optional[int]) -> Any:
        """The literal value bound to parameter ``name``, or :data:`MISSING`, or
        :data:`UNKNOWN` (not a literal, or hidden by ``*args``/``**kwargs``)."""
        node = self.node(name, position)
        if node is MISSING or node is UNKNOWN:
            return node
        return self._literal(node)

    def strings(self, name: str, position: Optional[int]) -> List[str]:
        """Every string literal inside that argument (``"cuda" if ok else "cpu"`` gives both)."""
        node = self.node(name, position)
        if node is MISSING or node is UNKNOWN:
            return []
        return self._strings(node)

    def spread(self, name: str, position: Optional[int]) -> "CallArgs":
        """The arguments of a call given ``**`` the dict bound to parameter ``name``
        (``LightningCLI(trainer_defaults={...})`` builds ``Trainer(**trainer_defaults)``): its
        keys as far as :attr:`expand` follows the dict, none when no dict is passed."""
        return _Spread(self, self.node(name, position))


class AstArgs(CallArgs):
    def __init__(
        self, call: ast.Call, expand: Optional[Expand] = None, attributes: Optional[Callable[[ast.Attribute], Any]] = None
    ) -> None:
        self.call = call
        self.expand = expand
        #: the literal an attribute or name argument holds (``args.dist_backend`` after
        #: ``args.dist_backend = "nccl"`` in the same function, a module constant ``NUM_GPUS``),
        #: else UNKNOWN
        self.attributes = attributes

    def _slots(self) -> Sequence[Slot]:
        return ast_slots(self.call)

    def may_name(self, names: FrozenSet[str]) -> bool:
        # the keywords as :func:`ast_slots` gives them (positional slots name nothing), without
        # building the slots of a call that is asked nothing else (most calls of a module)
        return any(k.arg is None or k.arg in names for k in self.call.keywords)

    def _literal(self, node: Any) -> Any:
        if self.attributes is not None and isinstance(node, (ast.Attribute, ast.Name)):
            return self.attributes(node)
        return ast_literal(node)

    def _strings(self, node: Any) -> List[str]:
        return [n.value for n in ast.walk(node) if isinstance(n, ast.Constant) and isinstance(n.value, str)]


#: a module-level assignment to an upper-case name (``NUM_GPUS = 2``), at column 0: the text
#: check before the module's constants are looked for
CONSTANT_LINE = re.compile(r"^[A-Z][A-Z0-9_]*\s*=[^=]", re.MULTILINE)


def ast_module(text: str) -> Optional[ast.Module]:
    """CPython's ``ast`` of ``text``; None when it does not parse there (newer syntax than
    this Python's, or an error). Warnings about the user's code are not ours to print."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None


def cst_generic_origin(base: cst.BaseExpression) -> cst.BaseExpression:
    """A base class as written without its type arguments (``Dataset[Sample]``: ``Dataset``);
    the ``ast`` facts read bases the same way."""
    while isinstance(base, cst.Subscript):
        base = base.value
    return base


def assigned_targets(small: cst.CSTNode) -> List[cst.BaseExpression]:
    """The targets a small statement assigns (``a = b = 1``: both; ``x: int = 0``; ``x += 1``)."""
    if isinstance(small, cst.Assign):
        return [t.target for t in small.targets]
    if isinstance(small, (cst.AnnAssign, cst.AugAssign)):
        return [small.target]
    return []


def assigned_pairs(node: cst.Assign) -> List[Tuple[cst.BaseExpression, Optional[cst.BaseExpression]]]:
    """Each target an assignment binds with the value it gets: ``a = b = 1`` gives both with
    ``1``; ``cudnn.benchmark, cudnn.deterministic = False, True`` gives each element with its
    own (a tuple target whose value is not a tuple display of the same length, as ``a, b =
    f()``, gives the tuple itself)."""
    pairs: List[Tuple[cst.BaseExpression, Optional[cst.BaseExpression]]] = []
    value = node.value
    for target in (t.target for t in node.targets):
        if (
            isinstance(target, (cst.Tuple, cst.List))
            and isinstance(value, (cst.Tuple, cst.List))
            and len(target.elements) == len(value.elements)
            and not any(isinstance(e, cst.StarredElement) for e in (*target.elements, *value.elements))
        ):
            pairs.extend((t.value, v.value) for t, v in zip(target.elements, value.elements))
        else:
            pairs.append((target, value))
    return pairs


def cst_module_constants(module: cst.Module) -> Dict[str, Any]:
    """The module's constants, as the facts read them: upper-case names its top level binds
    once (``if``/``try`` blocks included), to a literal (``NUM_GPUS = 2``)."""
    counts: Dict[str, int] = {}
    values: Dict[str, Any] = {}
    stack: List[cst.CSTNode] = list(module.body)
    while stack:
        stmt = stack.pop()
        if isinstance(stmt, (cst.FunctionDef, cst.ClassDef)):
            counts[stmt.name.value] = counts.get(stmt.name.value, 0) + 1
            continue
        if isinstance(stmt, cst.SimpleStatementLine):
            for small in stmt.body:
                for target in assigned_targets(small):
                    for name in (n.value for n in cst_names(target)):
                        counts[name] = counts.get(name, 0) + 1
                if isinstance(small, cst.Assign) and len(small.targets) == 1 and isinstance(small.targets[0].target, cst.Name):
                    values[small.targets[0].target.value] = cst_literal(small.value)
            continue
        if isinstance(stmt, cst.BaseCompoundStatement):
            if isinstance(stmt, cst.For):
                for name in (n.value for n in cst_names(stmt.target)):
                    counts[name] = counts.get(name, 0) + 1
            for child in stmt.children:
                if isinstance(child, cst.BaseSuite) and isinstance(child.body, (list, tuple)):
                    stack.extend(child.body)
                elif isinstance(child, (cst.Else, cst.ExceptHandler, cst.Finally)) and isinstance(child.body.body, (list, tuple)):
                    stack.extend(child.body.body)
                elif isinstance(child, cst.BaseCompoundStatement):
                    stack.append(child)  # an ``elif``
    return {name: value for name, value in values.items() if name.isupper() and counts.get(name) == 1 and value is not UNKNOWN}


def cst_names(node: cst.CSTNode) -> List[cst.Name]:
    if isinstance(node, cst.Name):
        return [node]
    if isinstance(node, (cst.Tuple, cst.List)):
        return [n for e in node.elements for n in cst_names(e.value)]
    return []


class CstArgs(CallArgs):
    def __init__(self, call: cst.Call, expand: Optional[Expand] = None, constants: Optional[Mapping[str, Any]] = None) -> None:
        self.call = call
        self.expand = expand
        #: the module's constants (:func:`cst_module_constants`), for a name argument
        self.constants = constants

    def _slots(self) -> Sequence[Slot]:
        return [(k, s, arg.value) for k, s, arg in cst_slots(self.call.args)]

    def _literal(self, node: Any) -> Any:
        if self.constants and isinstance(node, cst.Name) and node.value not in ("True", "False", "None"):
            return self.constants.get(node.value, UNKNOWN)  # (``False`` is a name to LibCST)
        return cst_literal(node)

    def _strings(self, node: Any) -> List[str]:
        return cst_strings(node)


class _Spread(CallArgs):
    def __init__(self, outer: CallArgs, mapping: Any) -> None:
        self.outer = outer
        self.mapping = mapping
        self.expand = outer.expand

    def _slots(self) -> Sequence[Slot]:
        if self.mapping is MISSING or (self.mapping is not UNKNOWN and self._literal(self.mapping) is None):
            return ()  # no dict, or ``None``: the callee's defaults
        return ((None, "**", None if self.mapping is UNKNOWN else self.mapping),)

    def _literal(self, node: Any) -> Any:
        return self.outer._literal(node)

    def _strings(self, node: Any) -> List[str]:
        return self.outer._strings(node)


class LiteralArgs(CallArgs):
    """A call's arguments known only as literal values by keyword (a call's recorded literals
    bound to its callee's parameters): a value is itself, :data:`UNKNOWN` where not a literal."""

    def __init__(self, keywords: Dict[str, Any]) -> None:
        self.keywords = keywords

    def _slots(self) -> Sequence[Slot]:
        return [(name, "", value) for name, value in self.keywords.items()]

    def _literal(self, node: Any) -> Any:
        return node

    def _strings(self, node: Any) -> List[str]:
        return [node] if isinstance(node, str) else []


class NoArgs(CallArgs):
    """A call with no arguments (what a name means when called with its defaults)."""

    def _slots(self) -> Sequence[Slot]:
        return ()


class UnknownArgs(CallArgs):
    """A call whose arguments are not known: any parameter may be given anything
    (:data:`UNKNOWN`), as behind ``**kwargs``."""

    def _slots(self) -> Sequence[Slot]:
        return ((None, "**", None),)


# -- the main guard -----------------------------------------------------------------------------


def _guards_main(operands: Sequence[Tuple[Optional[str], Optional[str]]], equal: bool) -> bool:
    """The decision: a single ``==`` between the name ``__name__`` and the string
    ``"__main__"``, either way round. ``operands`` are (name or None, string or None) pairs."""
    if not equal or len(operands) != 2:
        return False
    names = {name for name, _ in operands}
    strings = {text for _, text in operands}
    return "__name__" in names and "__main__" in strings


def is_main_guard(node: cst.CSTNode) -> bool:
    """``if __name__ == "__main__":`` in LibCST (either operand order, any quotes)."""
    if not isinstance(node, cst.If) or not isinstance(node.test, cst.Comparison):
        return False
    test = node.test
    if len(test.comparisons) != 1:
        return False
    operands = [
        (o.value if isinstance(o, cst.Name) else None, string_value(o))
        for o in (test.left, test.comparisons[0].comparator)
    ]
    return _guards_main(operands, isinstance(test.comparisons[0].operator, cst.Equal))


def is_main_guard_ast(node: ast.AST) -> bool:
    """``if __name__ == "__main__":`` in Python's ``ast``."""
    if not isinstance(node, ast.If) or not isinstance(node.test, ast.Compare):
        return False
    test = node.test
    if len(test.ops) != 1:
        return False
    operands = [
        (o.id if isinstance(o, ast.Name) else None, o.value if isinstance(o, ast.Constant) and isinstance(o.value, str) else None)
        for o in (test.left, test.comparators[0])
    ]
    return _guards_main(operands, isinstance(test.ops[0], ast.Eq))


def unreachable(chain: Sequence[cst.CSTNode]) -> bool:
    """Does the node that ``chain`` (its enclosing nodes, from the module down) leads to come
    after a ``return``, ``raise``, ``continue`` or ``break`` of a block around it (code left
    below an early ``return``, which never runs)?"""
    jumps = (cst.Return, cst.Raise, cst.Continue, cst.Break)
    for index in range(len(chain) - 1):
        block, statement = chain[index], chain[index + 1]
        if type(block) not in (cst.IndentedBlock, cst.Module):
            continue
        for earlier in block.body:  # type: ignore[attr-defined]
            if earlier is statement:
                break
            if type(earlier) is cst.SimpleStatementLine and any(type(small) in jumps for small in earlier.body):
                return True
    return False
