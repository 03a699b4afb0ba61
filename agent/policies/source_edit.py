"""Reading and rewriting a kernel file's `CONFIG` / `SEARCH_SPACE` literals as source edits.

A tuner's change is then a one-line, reviewable diff of the kernel file, not a
hidden parameter passed at run time.
"""

from __future__ import annotations

import ast


def _find(tree: ast.Module, name: str) -> ast.Assign | None:
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in node.targets):
            return node
    return None


def _assignment(tree: ast.Module, name: str) -> ast.Assign:
    node = _find(tree, name)
    if node is None:
        raise ValueError(f"the kernel file has no module-level `{name} = {{...}}` literal")
    return node


_REQUIRED = object()


def read_literal(source: str, name: str, default=_REQUIRED) -> dict:
    """The module-level dict literal `name`; `default` where the file has none (else that is an error)."""
    tree = ast.parse(source)
    if default is not _REQUIRED and _find(tree, name) is None:
        return default
    node = _assignment(tree, name)
    try:
        value = ast.literal_eval(node.value)
    except ValueError as err:
        raise ValueError(f"`{name}` must be a plain literal (numbers, strings, lists): {err}") from None
    if not isinstance(value, dict):
        raise ValueError(f"`{name}` must be a dict literal")
    return value


def _format_value(value) -> str:
    """A literal as the kernel files write it: Python's repr, strings in double quotes."""
    return repr(value).replace("'", '"')


def format_literal(value: dict, one_key_per_line: bool = False) -> str:
    items = [f"{_format_value(k)}: {_format_value(v)}" for k, v in value.items()]
    if one_key_per_line:
        return "{\n" + "".join(f"    {item},\n" for item in items) + "}"
    return "{" + ", ".join(items) + "}"


def _offset(lines: list[str], lineno: int, col_bytes: int) -> int:
    """The character offset in the joined `lines` of an AST position (1-based line, column in UTF-8 bytes)."""
    before = sum(len(line) for line in lines[: lineno - 1])
    return before + len(lines[lineno - 1].encode()[:col_bytes].decode())


def _span(lines: list[str], node: ast.AST) -> tuple[int, int]:
    return _offset(lines, node.lineno, node.col_offset), _offset(lines, node.end_lineno, node.end_col_offset)


def replace_config(source: str, config: dict) -> str:
    """`source` with its CONFIG literal holding `config`, nothing else changed.

    With the same keys, only the values that changed are rewritten, each where it stands: the file's layout,
    comments and quoting stay, so a change of one value is a one-line diff (a step that rewrote an 8-key
    CONFIG onto one line was a +1 -10 diff to compare by eye). Keys added or removed rewrite the literal,
    one key per line where it was written so.
    """
    node = _assignment(ast.parse(source), "CONFIG")
    lines = source.splitlines(keepends=True)
    literal = node.value
    current = read_literal(source, "CONFIG")
    keys = (
        [k.value if isinstance(k, ast.Constant) else None for k in literal.keys]
        if isinstance(literal, ast.Dict)
        else []
    )
    if list(current) != list(config) or keys != list(current):
        start, end = _span(lines, literal)
        multiline = literal.end_lineno > literal.lineno
        return source[:start] + format_literal(config, one_key_per_line=multiline) + source[end:]
    edits = [
        (_span(lines, value), _format_value(config[key]))
        for key, value in zip(keys, literal.values, strict=True)
        if config[key] != current[key] or type(config[key]) is not type(current[key])
    ]
    for (start, end), text in sorted(edits, reverse=True):  # from the end, so earlier offsets hold
        source = source[:start] + text + source[end:]
    return source
