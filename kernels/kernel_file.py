"""The kernel-file convention: reading a file's literals, listing its knobs and editing them in place.

A kernel file is read as source, never imported (it is untrusted). Its knobs are the literals a tuner
may change:

- a declared `CONFIG = {...}` with `SEARCH_SPACE = {...}`: each key of the space (this wins over the rest);
- a dispatch by shape class, `CONFIG_BY_CLASS = {"decode": {...}, "prefill": {...}}` with `SEARCH_SPACE`:
  each class's keys, named `decode.KEY` / `prefill.KEY`;
- otherwise, found in the syntax tree: module-level names bound to integer literals (`BLOCK = 128`),
  integer keyword defaults of functions (`def build(hidden, block_rows=1, threads=256)`), and integer
  launch parameters of calls (`threads=128`, `num_warps=4`, `BLOCK_SIZE=1024`, or a literal passed in
  the place of a local function's `blk_m` / `tl.constexpr` parameter), plus a `CONFIG` without a space.

Editing a knob rewrites that literal only: the rest of the file stays byte for byte, so a tuner's change
is a one-line, reviewable diff, not a hidden parameter passed at run time.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from typing import Literal

Value = int | bool | str | float
KnobKind = Literal["config", "class", "constant", "default", "launch"]
Role = Literal["declared", "threads", "warps", "stages", "block", "size", "flag"]

CLASS_CONFIG = "CONFIG_BY_CLASS"

# A knob's role, from its name: what its sane values are.
_ROLES: list[tuple[Role, re.Pattern]] = [
    ("threads", re.compile(r"thread")),
    ("warps", re.compile(r"warp")),
    ("stages", re.compile(r"stage")),
    ("block", re.compile(r"block|blk|tile|chunk|rows|cols|vec|group|split|^b[mnk]$|_b[mnk]$|^bs$|size")),
]
# Launch keywords worth tuning where the call passes an integer literal (other keywords, `dim=1`, are not).
_LAUNCH = re.compile(r"thread|warp|stage|block|blk|tile|chunk|^b[mnk]$|^[A-Z][A-Z0-9_]*$")


@dataclass(frozen=True)
class Knob:
    """One literal of a kernel file that a tuner may change, and the values worth trying."""

    name: str  # a CONFIG key; `decode.KEY`; a module constant; `build:threads`; `T.Kernel:threads@41`
    kind: KnobKind
    line: int
    value: Value
    candidates: tuple[Value, ...]  # ascending where ordered, the current value included
    role: Role
    span: tuple[int, int, int, int]  # (lineno, col, end_lineno, end_col) of the literal, as ast gives them


class KernelFileError(ValueError):
    """A kernel file that does not follow the convention where it must (say which literal, and how to fix it)."""


# -- literals -----------------------------------------------------------------------------------------


def _assignment(tree: ast.Module, name: str) -> ast.Assign | ast.AnnAssign | None:
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in node.targets):
            return node
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.target.id == name:
            return node if node.value is not None else None
    return None


def read_literals(source: str, names: set[str]) -> dict[str, object]:
    """The module-level literals of `names` that the file binds (any literal type); absent names are left out."""
    tree = ast.parse(source)
    found = {}
    for name in names:
        node = _assignment(tree, name)
        if node is None:
            continue
        try:
            found[name] = ast.literal_eval(node.value)
        except ValueError as err:
            raise KernelFileError(f"`{name}` must be a plain literal (numbers, strings, lists): {err}") from None
    return found


_REQUIRED = object()


def read_literal(source: str, name: str, default=_REQUIRED) -> dict:
    """The module-level dict literal `name`; `default` where the file has none (else that is an error)."""
    found = read_literals(source, {name})
    if name not in found:
        if default is not _REQUIRED:
            return default
        raise KernelFileError(f"the kernel file has no module-level `{name} = {{...}}` literal")
    if not isinstance(found[name], dict):
        raise KernelFileError(f"`{name}` must be a dict literal")
    return found[name]


def format_value(value) -> str:
    """A literal as the kernel files write it: Python's repr, strings in double quotes."""
    return repr(value).replace("'", '"')


def format_literal(value: dict, one_key_per_line: bool = False) -> str:
    items = [f"{format_value(k)}: {format_value(v)}" for k, v in value.items()]
    if one_key_per_line:
        return "{\n" + "".join(f"    {item},\n" for item in items) + "}"
    return "{" + ", ".join(items) + "}"


def _offset(lines: list[str], lineno: int, col_bytes: int) -> int:
    """The character offset in the joined `lines` of an AST position (1-based line, column in UTF-8 bytes)."""
    before = sum(len(line) for line in lines[: lineno - 1])
    return before + len(lines[lineno - 1].encode()[:col_bytes].decode())


def _span(node: ast.AST) -> tuple[int, int, int, int]:
    return node.lineno, node.col_offset, node.end_lineno, node.end_col_offset


def _replace_spans(source: str, edits: list[tuple[tuple[int, int, int, int], str]]) -> str:
    """`source` with each span's text replaced, nothing else touched."""
    lines = source.splitlines(keepends=True)
    offsets = [(_offset(lines, span[0], span[1]), _offset(lines, span[2], span[3]), text) for span, text in edits]
    for start, end, text in sorted(offsets, reverse=True):  # from the end, so earlier offsets hold
        source = source[:start] + text + source[end:]
    return source


def replace_config(source: str, config: dict) -> str:
    """`source` with its CONFIG literal holding `config`, nothing else changed.

    With the same keys, only the values that changed are rewritten, each where it stands: the file's layout,
    comments and quoting stay, so a change of one value is a one-line diff (a step that rewrote an 8-key
    CONFIG onto one line was a +1 -10 diff to compare by eye). Keys added or removed rewrite the literal,
    one key per line where it was written so.
    """
    node = _assignment(ast.parse(source), "CONFIG")
    if node is None:
        raise KernelFileError("the kernel file has no module-level `CONFIG = {...}` literal")
    literal = node.value
    current = read_literal(source, "CONFIG")
    keys = (
        [k.value if isinstance(k, ast.Constant) else None for k in literal.keys]
        if isinstance(literal, ast.Dict)
        else []
    )
    if list(current) != list(config) or keys != list(current):
        multiline = literal.end_lineno > literal.lineno
        return _replace_spans(source, [(_span(literal), format_literal(config, one_key_per_line=multiline))])
    return _replace_spans(
        source,
        [
            (_span(value), format_value(config[key]))
            for key, value in zip(keys, literal.values, strict=True)
            if config[key] != current[key] or type(config[key]) is not type(current[key])
        ],
    )


# -- knobs --------------------------------------------------------------------------------------------


def role_of(name: str) -> Role:
    lowered = name.lower()
    return next((role for role, pattern in _ROLES if pattern.search(lowered)), "size")


def _powers(low: int, high: int) -> list[int]:
    out, p = [], 1
    while p <= high:
        if p >= low:
            out.append(p)
        p *= 2
    return out


def candidates_for(role: Role, value: Value) -> tuple[Value, ...]:
    """Values worth trying for a knob of `role` now at `value`: powers of two and neighbours, within sane bounds.

    threads 32..1024 in multiples of 32; num_warps 1..32 powers of two; num_stages 1..8; block sizes
    powers of two within 8x of the value; other sizes their halves and doubles. Booleans flip.
    """
    if isinstance(value, bool):
        return (False, True)
    if not isinstance(value, int) or value <= 0:
        return (value,)
    if role == "threads":
        values = _powers(32, 1024) + ([value] if value % 32 == 0 and 32 <= value <= 1024 else [])
    elif role == "warps":
        values = _powers(1, 32)
    elif role == "stages":
        values = list(range(1, 9))
    elif role == "block":
        values = _powers(max(1, value // 8), min(value * 8, 1 << 16))
    else:
        values = [v for v in (value // 4, value // 2, value * 2, value * 4) if v >= 1]
    return tuple(sorted({*values, value}))


def _int_literal(node: ast.AST | None) -> bool:
    return isinstance(node, ast.Constant) and type(node.value) is int and node.value > 0


def _callee(node: ast.Call) -> str:
    func = node.func.value if isinstance(node.func, ast.Subscript) else node.func  # kernel[grid](...)
    try:
        return ast.unparse(func)
    except Exception:  # an odd expression: the name only shows where the knob is
        return "call"


def _params(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> list[ast.arg]:
    return [*fn.args.posonlyargs, *fn.args.args]


def _constexpr(arg: ast.arg) -> bool:
    return arg.annotation is not None and "constexpr" in ast.unparse(arg.annotation)


def _declared(tree: ast.Module) -> list[Knob]:
    """CONFIG / CONFIG_BY_CLASS keys with the declared SEARCH_SPACE's values; [] where there is no space."""
    space_node = _assignment(tree, "SEARCH_SPACE")
    if space_node is None:
        return []
    space = ast.literal_eval(space_node.value)
    classes = _assignment(tree, CLASS_CONFIG)
    if classes is not None and isinstance(classes.value, ast.Dict):
        knobs = []
        for cls_key, cls_value in zip(classes.value.keys, classes.value.values, strict=True):
            if isinstance(cls_key, ast.Constant) and isinstance(cls_value, ast.Dict):
                knobs += _dict_knobs(cls_value, space, f"{cls_key.value}.", "class")
        return knobs
    config = _assignment(tree, "CONFIG")
    if config is None or not isinstance(config.value, ast.Dict):
        return []
    return _dict_knobs(config.value, space, "", "config")


def _dict_knobs(literal: ast.Dict, space: dict | None, prefix: str, kind: KnobKind) -> list[Knob]:
    knobs = []
    for key, value in zip(literal.keys, literal.values, strict=True):
        if not isinstance(key, ast.Constant) or not isinstance(value, ast.Constant):
            continue
        if space is not None:
            if key.value not in space:
                continue
            candidates, role = tuple(space[key.value]), "declared"
        elif isinstance(value.value, bool) or _int_literal(value):
            role = "flag" if isinstance(value.value, bool) else role_of(str(key.value))
            candidates = candidates_for(role, value.value)
        else:
            continue
        knobs.append(Knob(f"{prefix}{key.value}", kind, value.lineno, value.value, candidates, role, _span(value)))
    return knobs


def _found(tree: ast.Module) -> list[Knob]:
    """Knobs of a file without a declared space, in the order they stand in the file."""
    knobs: list[Knob] = []

    def add(name: str, kind: KnobKind, node: ast.Constant, role: Role | None = None) -> None:
        role = role or role_of(name.split(":")[-1].split("@")[0])
        knobs.append(Knob(name, kind, node.lineno, node.value, candidates_for(role, node.value), role, _span(node)))

    functions = {
        node.name: node for node in ast.walk(tree) if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
    }
    for node in tree.body:
        if not isinstance(node, (ast.Assign, ast.AnnAssign)):
            continue
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        if len(targets) != 1 or not isinstance(targets[0], ast.Name):
            continue
        name = targets[0].id
        if name == "CONFIG" and isinstance(node.value, ast.Dict):
            knobs.extend(_dict_knobs(node.value, None, "", "config"))
        elif _int_literal(node.value) and not name.startswith("__"):
            add(name, "constant", node.value)
    for fn in functions.values():
        params = _params(fn)
        defaults = list(zip(params[len(params) - len(fn.args.defaults) :], fn.args.defaults, strict=True))
        defaults += [(a, d) for a, d in zip(fn.args.kwonlyargs, fn.args.kw_defaults, strict=True) if d is not None]
        for arg, default in defaults:
            if _int_literal(default):
                add(f"{fn.name}:{arg.arg}", "default", default)
    for call in (node for node in ast.walk(tree) if isinstance(node, ast.Call)):
        callee = _callee(call)
        for keyword in call.keywords:
            if keyword.arg and _int_literal(keyword.value) and _LAUNCH.search(keyword.arg):
                add(f"{callee}:{keyword.arg}@{keyword.value.lineno}", "launch", keyword.value)
        local = functions.get(callee.split(".")[-1])
        if local is None:
            continue
        params = _params(local)
        for arg, value in zip(params, call.args, strict=False):  # a call may pass fewer
            if _int_literal(value) and (_constexpr(arg) or role_of(arg.arg) != "size"):
                add(f"{callee}:{arg.arg}@{value.lineno}", "launch", value)
    return _unique(knobs)


def _unique(knobs: list[Knob]) -> list[Knob]:
    """One knob per literal; names made unique by their line where two would share one."""
    seen_spans, names, out = set(), {}, []
    for knob in knobs:
        if knob.span in seen_spans:
            continue
        seen_spans.add(knob.span)
        name = knob.name if knob.name not in names else f"{knob.name}@{knob.line}"
        names[name] = knob
        out.append(Knob(name, knob.kind, knob.line, knob.value, knob.candidates, knob.role, knob.span))
    return out


def knobs(source: str) -> list[Knob]:
    """The file's knobs: a declared SEARCH_SPACE's keys where it has one, else those its syntax tree shows."""
    tree = ast.parse(source)
    return [k for k in (_declared(tree) or _found(tree)) if len(k.candidates) > 1 or k.role == "declared"]


def knob_values(source: str) -> dict[str, Value]:
    """The file's configuration as its knobs' current values ({} where it has none)."""
    return {knob.name: knob.value for knob in knobs(source)}


def set_knobs(source: str, values: dict[str, Value]) -> str:
    """`source` with each named knob's literal holding its new value; every other byte as it was."""
    by_name = {knob.name: knob for knob in knobs(source)}
    unknown = sorted(set(values) - set(by_name))
    if unknown:
        raise KernelFileError(f"no knob named {', '.join(unknown)} in the kernel file; its knobs: {', '.join(by_name)}")
    return _replace_spans(
        source,
        [
            (by_name[name].span, format_value(value))
            for name, value in values.items()
            if value != by_name[name].value or type(value) is not type(by_name[name].value)
        ],
    )


def follows_convention(source: str) -> bool:
    """Whether the file declares `CONFIG = {...}` and `SEARCH_SPACE = {...}` as the shipped kernel files do."""
    tree = ast.parse(source)
    nodes = [_assignment(tree, name) for name in ("CONFIG", "SEARCH_SPACE")]
    return all(node is not None and isinstance(node.value, ast.Dict) for node in nodes)
