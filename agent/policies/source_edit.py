"""Source edits the search makes beyond a knob's value: a dispatch by shape class.

Reading a file's literals and knobs and rewriting them is the kernel-file convention's own
(kernels/kernel_file.py); `read_literal` and `replace_config` are named here too for the loop and
`agent eval --set`, which import them from this module.
"""

from __future__ import annotations

import ast

from workbench.kernels.kernel_file import CLASS_CONFIG, KernelFileError, format_literal, read_literal, replace_config

__all__ = ["SMALL_TOKENS", "dispatch_by_class", "read_literal", "replace_config"]

# A call on at most this many tokens is decode-sized: the kernel files' own split (kernels/rope/tilelang.py's
# SMALL_TOKENS), and the judge's (DECODE_TOKENS), which compiles the two classes apart.
SMALL_TOKENS = 256

_BLOCK = """\
# Shape classes, as kernels/rope/tilelang.py keeps a second configuration for small shapes: a call on at
# most SMALL_TOKENS tokens (decode) runs CONFIG_BY_CLASS["decode"], a larger one (prefill) ["prefill"];
# `{op}` below puts its call's class in CONFIG before each call. (The judge compiles TileLang's first calls
# on threads, one class per thread: one racing another class's may run the other configuration once.)
SMALL_TOKENS = {small}
CONFIG_BY_CLASS = {{
    "decode": {decode},
    "prefill": {prefill},
}}
CONFIG = CONFIG_BY_CLASS["prefill"]"""

_WRAPPER = '''

def {op}({params}){returns}:
    """`{inner}` under the configuration of the call's shape class (CONFIG_BY_CLASS)."""
    global CONFIG
    tokens = {first}.shape[:-1].numel() if {first}.dim() <= 2 else {first}.shape[0] * {first}.shape[1]
    CONFIG = CONFIG_BY_CLASS["decode" if tokens <= SMALL_TOKENS else "prefill"]
    return {inner}({forward})
'''


def _entry(tree: ast.Module, op: str) -> ast.FunctionDef:
    entry = next((n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == op), None)
    if entry is None or not [*entry.args.posonlyargs, *entry.args.args]:
        raise KernelFileError(f"the kernel file has no module-level `def {op}(x, ...)` entry point to dispatch from")
    return entry


def _forwarded(args: ast.arguments) -> str:
    parts = [a.arg for a in (*args.posonlyargs, *args.args)]
    parts += [f"*{args.vararg.arg}"] if args.vararg else []
    parts += [f"{a.arg}={a.arg}" for a in args.kwonlyargs]
    parts += [f"**{args.kwarg.arg}"] if args.kwarg else []
    return ", ".join(parts)


def dispatch_by_class(source: str, op: str, decode: dict, prefill: dict, small_tokens: int = SMALL_TOKENS) -> str:
    """`source` holding two configurations, picked per call by its shape class.

    The `CONFIG = {...}` statement becomes CONFIG_BY_CLASS (decode and prefill, in CONFIG's own keys), and the
    entry point `op` is renamed `_op_one_config`, behind a new `op` that sets CONFIG to its call's class first.
    Everything else stays as it was; the judge times the result as one file.
    """
    tree = ast.parse(source)
    config = read_literal(source, "CONFIG")
    if any(
        isinstance(n, ast.Assign) and any(getattr(t, "id", "") == CLASS_CONFIG for t in n.targets) for n in tree.body
    ):
        raise KernelFileError(f"the kernel file already dispatches by shape class ({CLASS_CONFIG})")
    for name, chosen in (("decode", decode), ("prefill", prefill)):
        if set(chosen) != set(config):
            raise KernelFileError(f"the {name} configuration must have CONFIG's keys, {sorted(config)}")
    entry = _entry(tree, op)
    statement = next(
        n for n in tree.body if isinstance(n, ast.Assign) and any(getattr(t, "id", "") == "CONFIG" for t in n.targets)
    )
    inner = f"_{op}_one_config"
    lines = source.splitlines(keepends=True)
    block = _BLOCK.format(
        op=op,
        small=small_tokens,
        decode=format_literal({k: decode[k] for k in config}),
        prefill=format_literal({k: prefill[k] for k in config}),
    )
    wrapper = _WRAPPER.format(
        op=op,
        inner=inner,
        params=ast.unparse(entry.args),
        returns=f" -> {ast.unparse(entry.returns)}" if entry.returns else "",
        first=[*entry.args.posonlyargs, *entry.args.args][0].arg,
        forward=_forwarded(entry.args),
    )
    # From the end of the file up, so the earlier lines' numbers hold.
    end = entry.end_lineno
    lines[end - 1] = lines[end - 1].rstrip("\n") + "\n" + wrapper
    def_line = entry.lineno - 1
    lines[def_line] = lines[def_line].replace(f"def {op}(", f"def {inner}(", 1)
    first, last = statement.lineno - 1, statement.end_lineno - 1
    lines[first : last + 1] = [block + lines[last][len(lines[last].rstrip("\n")) :]]
    return "".join(lines)
