"""Static check of a candidate kernel file, before any of it runs.

It reads the file's syntax tree and refuses what a kernel file has no business
doing: calling the reference or a torch/library implementation of the op,
catch-all `except` blocks (a silent fallback), threads/streams/processes,
reaching into the harness (sys.modules, monkeypatching torch), or importing the
registry (whose fallback is the reference).

What it does NOT protect against: code built at run time (`exec`, `getattr`
with computed names is refused, but not every trick is), native extensions
loaded by a third-party import, or a kernel that is merely wrong — that is for
the correctness stage, which runs every candidate in a child process.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from pathlib import Path

# Tensor math that would let a wrapper compute the op with torch instead of the kernel.
TORCH_MATH = frozenset(
    """
    abs add addcmul addcdiv baddbmm bmm cat chunk clamp clone copy_ cos cumsum div einsum exp flip
    index_select layer_norm lerp log matmul mean mm mul neg norm outer pow reciprocal rms_norm rsqrt
    scaled_dot_product_attention sigmoid silu sin softmax split sqrt square stack sub sum tanh var where
    float half bfloat16 double to type_as
    """.split()
)
FORBIDDEN_MODULES = frozenset(
    {
        "threading",
        "multiprocessing",
        "concurrent",
        "subprocess",
        "ctypes",
        "signal",
        "socket",
        "gc",
        "inspect",
        "builtins",
        "importlib",
        "transformers",
        "kernels.registry",
        "tools",
    }
)
FORBIDDEN_NAMES = frozenset(
    {
        "reference",
        "expected",
        "torch_implementation",
        "exec",
        "eval",
        "compile",
        "open",
        "globals",
        "vars",
        "breakpoint",
    }
)
FORBIDDEN_ATTRS = frozenset(
    {
        "reference",
        "expected",
        "torch_implementation",
        "Stream",
        "ExternalStream",
        "stream",
        "set_stream",
        "modules",  # sys.modules
        "system",
        "fork",
        "popen",
        "spawn",
        "_exit",
        "kill",
        "_getframe",  # frame introspection reaches the harness's locals
        "f_locals",
        "f_globals",
        "f_back",
        "putenv",
        "setattr",
    }
)
MUTATORS = frozenset({"update", "setdefault", "pop", "popitem", "clear", "__setitem__"})
# Modules whose attributes a kernel file must never assign (monkeypatching the ruler).
PATCHABLE = frozenset({"torch", "sys", "os", "builtins", "kernels", "tools", "triton", "tilelang", "ninetoothed"})
TORCH_NAMESPACES = ("torch", "F", "torch.nn.functional", "torch.special", "torch.linalg")


@dataclass(frozen=True)
class Finding:
    line: int
    message: str


@dataclass
class StaticReport:
    ok: bool
    findings: list[Finding] = field(default_factory=list)

    @property
    def message(self) -> str:
        if self.ok:
            return "ok"
        return "; ".join(f"line {f.line}: {f.message}" for f in self.findings)


def _dotted(node: ast.AST) -> str:
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
        return ".".join(reversed(parts))
    return ""


class _Visitor(ast.NodeVisitor):
    def __init__(self, allow_torch_math: bool):
        self.allow_torch_math = allow_torch_math
        self.findings: list[Finding] = []

    def flag(self, node: ast.AST, message: str) -> None:
        self.findings.append(Finding(getattr(node, "lineno", 0), message))

    def _check_module(self, node: ast.AST, name: str) -> None:
        for banned in FORBIDDEN_MODULES:
            if name == banned or name.startswith(banned + "."):
                self.flag(node, f"imports {name}, which a kernel file may not use")

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            self._check_module(node, alias.name)
        self.generic_visit(node)

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        module = node.module or ""
        self._check_module(node, module)
        for alias in node.names:
            self._check_module(node, f"{module}.{alias.name}")
            if alias.name in FORBIDDEN_NAMES:
                self.flag(node, f"imports {alias.name} from {module}: the kernel may not use the reference")
        self.generic_visit(node)

    def visit_ExceptHandler(self, node: ast.ExceptHandler) -> None:
        caught = _dotted(node.type) if node.type is not None else ""
        if node.type is None or caught in {"Exception", "BaseException"}:
            self.flag(
                node,
                f"catch-all `except{' ' + caught if caught else ''}:` hides failures; catch specific errors",
            )
        self.generic_visit(node)

    def visit_Name(self, node: ast.Name) -> None:
        if node.id in FORBIDDEN_NAMES and isinstance(node.ctx, ast.Load):
            self.flag(node, f"uses {node.id}, which a kernel file may not call")
        self.generic_visit(node)

    def visit_Attribute(self, node: ast.Attribute) -> None:
        if node.attr in FORBIDDEN_ATTRS:
            self.flag(node, f"uses .{node.attr} ({_dotted(node) or 'attribute'}), which a kernel file may not use")
        if isinstance(node.ctx, ast.Store) and _dotted(node.value).split(".")[0] in PATCHABLE:
            self.flag(node, f"assigns {_dotted(node)}: a kernel file may not patch torch, sys, os or the harness")
        self.generic_visit(node)

    def visit_Subscript(self, node: ast.Subscript) -> None:
        if isinstance(node.ctx, ast.Store) and _dotted(node.value).split(".")[0] in PATCHABLE:
            self.flag(node, f"assigns into {_dotted(node.value)}: a kernel file may not patch torch, sys, os")
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        func = node.func
        name = _dotted(func)
        if isinstance(func, ast.Attribute) and func.attr in MUTATORS and _dotted(func.value) == "os.environ":
            self.flag(node, f"calls {name}(): a kernel file may read the environment, not change it")
        if isinstance(func, ast.Name) and func.id in {"getattr", "setattr", "__import__"}:
            self.flag(node, f"calls {func.id}(): dynamic lookups hide what the kernel calls")
        if not self.allow_torch_math and isinstance(func, ast.Attribute) and func.attr in TORCH_MATH:
            owner = _dotted(func.value)
            if owner in TORCH_NAMESPACES or not owner or owner.split(".")[0] not in _KERNEL_DSLS:
                self.flag(
                    node,
                    f"calls {name or '.' + func.attr}(): the op's math must run in the kernel, not torch",
                )
        self.generic_visit(node)


# Names under which kernel DSLs are usually imported; their math calls are the kernel.
_KERNEL_DSLS = frozenset({"T", "tl", "ntl", "tilelang", "triton", "ninetoothed", "language", "math"})


def check_source(
    source: str, op: str, *, allow_torch_math: bool = False, filename: str = "<candidate>"
) -> StaticReport:
    """Check a candidate's source for `op`. `allow_torch_math` is for the torch backend only."""
    try:
        tree = ast.parse(source, filename=filename)
    except SyntaxError as err:
        return StaticReport(False, [Finding(err.lineno or 0, f"syntax error: {err.msg}")])
    functions = {n.name: n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}
    findings: list[Finding] = []
    fn = functions.get(op)
    if fn is None:
        findings.append(Finding(1, f"defines no top-level function {op}()"))
    else:
        kwonly = {a.arg for a in fn.args.kwonlyargs}
        if "out" not in kwonly and "out" not in {a.arg for a in fn.args.args}:
            findings.append(Finding(fn.lineno, f"{op}() has no `out` parameter; the signature is fixed by the spec"))
    visitor = _Visitor(allow_torch_math)
    visitor.visit(tree)
    findings.extend(visitor.findings)
    return StaticReport(not findings, findings)


def check_file(path: Path, op: str, *, allow_torch_math: bool = False) -> StaticReport:
    try:
        source = Path(path).read_text()
    except OSError as err:
        return StaticReport(False, [Finding(0, f"cannot read {path}: {err}")])
    return check_source(source, op, allow_torch_math=allow_torch_math, filename=str(path))
