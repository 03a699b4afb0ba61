"""Reading and rewriting a kernel file's `CONFIG` / `SEARCH_SPACE` literals as source edits.

A tuner's change is then a one-line, reviewable diff of the kernel file, not a
hidden parameter passed at run time.
"""

from __future__ import annotations

import ast


def _assignment(tree: ast.Module, name: str) -> ast.Assign:
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in node.targets):
            return node
    raise ValueError(f"the kernel file has no module-level `{name} = {{...}}` literal")


def read_literal(source: str, name: str) -> dict:
    node = _assignment(ast.parse(source), name)
    try:
        value = ast.literal_eval(node.value)
    except ValueError as err:
        raise ValueError(f"`{name}` must be a plain literal (numbers, strings, lists): {err}") from None
    if not isinstance(value, dict):
        raise ValueError(f"`{name}` must be a dict literal")
    return value


def format_literal(value: dict) -> str:
    return "{" + ", ".join(f"{k!r}: {v!r}".replace("'", '"') for k, v in value.items()) + "}"


def replace_config(source: str, config: dict) -> str:
    """`source` with its CONFIG literal replaced by `config` (same keys), nothing else changed."""
    node = _assignment(ast.parse(source), "CONFIG")
    lines = source.splitlines(keepends=True)
    start = sum(len(line) for line in lines[: node.value.lineno - 1]) + node.value.col_offset
    end = sum(len(line) for line in lines[: node.value.end_lineno - 1]) + node.value.end_col_offset
    return source[:start] + format_literal(config) + source[end:]
