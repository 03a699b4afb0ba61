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


def format_literal(value: dict, one_key_per_line: bool = False) -> str:
    items = [f"{k!r}: {v!r}".replace("'", '"') for k, v in value.items()]
    if one_key_per_line:
        return "{\n" + "".join(f"    {item},\n" for item in items) + "}"
    return "{" + ", ".join(items) + "}"


def replace_config(source: str, config: dict) -> str:
    """`source` with its CONFIG literal replaced by `config` (same keys), nothing else changed.

    A literal written one key per line stays so: the diff of a tuning step is then the changed
    keys' lines, not one long line that a reviewer must compare by eye (rope's 8-key CONFIG).
    """
    node = _assignment(ast.parse(source), "CONFIG")
    lines = source.splitlines(keepends=True)
    start = sum(len(line) for line in lines[: node.value.lineno - 1]) + node.value.col_offset
    end = sum(len(line) for line in lines[: node.value.end_lineno - 1]) + node.value.end_col_offset
    multiline = node.value.end_lineno > node.value.lineno
    return source[:start] + format_literal(config, one_key_per_line=multiline) + source[end:]
