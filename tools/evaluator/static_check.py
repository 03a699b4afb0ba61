"""Static check of a candidate kernel file: a lint that reads its syntax tree before any of it runs.

Refused, each as "line N: why": the op computed by torch (torch math functions, and in the op function's
host code operators, slice stores and math methods on its tensors; kernel bodies are exempt), torch.ops,
torch._C and torch's compilers, the reference, catch-all `except`, streams, threads and processes,
`__builtins__` and dunders that reach code or namespaces, payload decoders and exec/eval, frames and
sys.modules/argv, environment reads beyond TRITON_INTERPRET and KW_TILELANG_TARGET, file access, and
patching torch, sys, os or the harness. Names go through the file's imports (`import torch as T`).

Not protected against: code built at run time by means the file does not spell out, native extensions,
and data flow the check does not follow. The boundary is the judge, which runs every candidate in a
separate, confined process and verifies what comes out; this only explains the obvious early.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

# -- names ----------------------------------------------------------------------------------------

# Tensor math methods: on the op's tensors in host code they compute the op with torch.
TENSOR_MATH = frozenset(
    """
    abs add addcmul addcdiv addmm amax amin baddbmm bmm cat chunk clamp clip clone concat concatenate
    copy_ cos cumprod cumsum div divide dot einsum erf exp exp2 expm1 flip floor_divide fmod gather gelu
    group_norm index_add index_select kron layer_norm lerp log log1p log2 log_softmax logsumexp masked_fill
    matmul max maximum mean min minimum mm mul multiply mv neg negative norm outer pow prod reciprocal relu
    remainder rms_norm roll rot90 rsqrt rsub scaled_dot_product_attention scatter scatter_add sigmoid sign
    silu sin softmax split sqrt square stack sub subtract sum tanh tensordot true_divide var vdot where
    float half bfloat16 double to type_as numpy tolist
    """.split()
)
# torch.float, torch.half, ... are dtypes, not math: only the rest count as torch.<name> functions.
TORCH_FUNCS = TENSOR_MATH - {"float", "half", "bfloat16", "double", "to", "type_as", "copy_", "numpy", "tolist"}
# In-place methods that are not math (zeroing an output for an atomic kernel is honest).
HARMLESS_INPLACE = frozenset({"zero_", "fill_", "requires_grad_"})
# Whole torch namespaces that are math (or implement it in Python).
TORCH_MATH_NAMESPACES = ("torch.nn", "torch.special", "torch.linalg", "torch.fft", "torch._refs", "torch._prims")
# Below the torch API: the operator registry and its C bindings; they reach and patch dispatch itself.
TORCH_INTERNALS = ("torch.ops", "torch._C", "torch._ops", "torch.library", "torch.utils.cpp_extension")
# Torch's own compilers: code generated from torch math instead of the kernel.
TORCH_COMPILERS = ("torch.compile", "torch.jit", "torch._dynamo", "torch._inductor", "torch.fx", "torch.export")

FORBIDDEN_MODULES = frozenset(
    """
    threading _thread multiprocessing concurrent asyncio subprocess socket ctypes cffi signal pty atexit
    gc inspect traceback builtins importlib pkgutil runpy zipimport types __main__
    base64 binascii codecs marshal pickle cloudpickle dill shelve copyreg zlib lzma bz2 gzip zipfile tarfile
    shutil posix nt transformers torch.multiprocessing workbench.kernels.registry tools agent tests
    """.split()
)
# The old name too: alias_old_kernel_imports serves it to kernel files written before the rename.
FORBIDDEN_MODULES |= {".".join(("kernels", "registry"))}
REFERENCE_NAMES = frozenset({"reference", "expected", "torch_implementation"})
# Builtins that run code, reach namespaces, or look names up at run time.
BUILTIN_CALLS = {
    "exec": "code built at run time hides what the kernel does",
    "eval": "code built at run time hides what the kernel does",
    "compile": "code built at run time hides what the kernel does",
    "open": "a kernel file may not read or write files",
    "globals": "namespace access reaches the harness",
    "locals": "namespace access reaches the harness",
    "vars": "namespace access reaches the harness",
    "breakpoint": "a kernel file may not stop in a debugger",
    "input": "a kernel file may not read stdin",
    "exit": "a kernel file may not end the process",
    "quit": "a kernel file may not end the process",
}
DYNAMIC_LOOKUPS = frozenset({"getattr", "setattr", "delattr", "__import__"})
# Attributes refused on any object: their names say what they reach (harness, streams, processes, frames).
FORBIDDEN_ATTRS = {
    **dict.fromkeys(("reference", "expected", "torch_implementation", "compare", "compare_to"), "reference"),
    **dict.fromkeys(("Stream", "ExternalStream", "stream", "set_stream"), "stream"),
    **dict.fromkeys(
        ("system", "fork", "forkpty", "popen", "spawn", "_exit", "kill", "killpg", "setsid", "putenv"), "process"
    ),
    "setattr": "dynamic",
    **dict.fromkeys(
        (
            "_getframe",
            "_current_frames",
            "f_locals",
            "f_globals",
            "f_back",
            "f_code",
            "f_builtins",
            "tb_frame",
            "tb_next",
            "gi_frame",
            "cr_frame",
            "ag_frame",
            "settrace",
            "setprofile",
            "exc_info",
        ),
        "frame",
    ),
    **dict.fromkeys(("modules", "argv"), "harness"),
}
ATTR_REASONS = {
    "reference": "the kernel may not use the reference",
    "stream": "the kernel runs on the caller's stream, which the timing measures",
    "process": "a kernel file may not start, signal or end processes",
    "frame": "frames and tracebacks reach the harness's locals",
    "harness": "a kernel file may not read or change the harness's state",
    "dynamic": "dynamic lookups hide what the kernel calls",
}
SYS_FORBIDDEN = frozenset(
    """
    argv modules _getframe _current_frames settrace setprofile gettrace getprofile exc_info exception
    path meta_path path_hooks path_importer_cache addaudithook excepthook displayhook breakpointhook
    last_traceback last_value last_type last_exc monitoring
    """.split()
)
OS_FORBIDDEN = frozenset(
    """
    system popen fork forkpty setsid setpgid setpgrp kill killpg abort _exit putenv unsetenv environb getenvb
    register_at_fork posix_spawn posix_spawnp open fdopen remove unlink rename renames replace rmdir removedirs
    chdir chmod truncate dup2
    """.split()
)
MUTATORS = frozenset({"update", "setdefault", "pop", "popitem", "clear", "__setitem__", "__delitem__"})
# Modules whose attributes a kernel file must never assign (monkeypatching the ruler).
PATCHABLE = frozenset(
    {"torch", "sys", "os", "builtins", "kernels", "workbench", "tools", "triton", "tilelang", "ninetoothed"}
)
# Environment variables kernel files legitimately read (NineToothed's interpreter, TileLang's CPU target).
ENV_ALLOWED = ("TRITON_INTERPRET", "KW_TILELANG_TARGET")
# Dunders a kernel file may name; every other dunder attribute reaches code, namespaces or operators.
ALLOWED_DUNDERS = frozenset({"__name__", "__file__", "__doc__", "__init__", "__all__", "__version__", "__qualname__"})
ALLOWED_DUNDER_NAMES = ALLOWED_DUNDERS | {"__annotations__", "__package__"}  # as bare names: module facts
REACHING_DUNDERS = frozenset(
    """
    __builtins__ __dict__ __globals__ __code__ __class__ __subclasses__ __mro__ __bases__ __base__
    __getattribute__ __getattr__ __setattr__ __delattr__ __import__ __loader__ __spec__ __closure__
    __self__ __func__ __wrapped__ __defaults__ __kwdefaults__ __module__ __reduce__ __reduce_ex__
    __traceback__ __context__ __cause__ __annotations__ __init_subclass__ __new__ __call__
    """.split()
)
# The module roots of the kernel DSLs: decorators from them mark kernel code.
DSL_ROOTS = frozenset({"tilelang", "triton", "ninetoothed", "tvm"})
# NineToothed's kernel functions (ntops layout); a top-level function named so is kernel code.
KERNEL_FUNCTION = re.compile(r"^(\w+_)?(application|arrangement|premake)$")
# Python-level math that works on tensors as well as numbers.
BUILTIN_MATH = frozenset({"sum", "abs", "pow", "divmod", "round", "max", "min"})
MATH_MODULES = ("operator", "math", "cmath", "numpy", "statistics", "functools.reduce", "itertools.accumulate")
# Tensor metadata: reading it is not math on the data.
META_ATTRS = frozenset(
    {"shape", "dtype", "device", "ndim", "is_cuda", "is_cpu", "layout", "itemsize", "requires_grad", "is_meta"}
)
META_METHODS = frozenset(
    {
        "numel",
        "dim",
        "size",
        "stride",
        "is_contiguous",
        "data_ptr",
        "element_size",
        "storage_offset",
        "get_device",
        "nelement",
        "ndimension",
        "is_floating_point",
        "is_complex",
    }
)
UNTAINTING_CALLS = frozenset({"len", "isinstance", "issubclass", "type", "id", "hash", "callable", "str", "repr"})
UNTAINTING_CALLS |= {"format", "print", "bool", "int", "float", "hasattr"}
# Parameters that are scalars by convention when a signature has no annotations.
SCALAR_PARAMS = frozenset({"eps"})
PATH_CTORS = frozenset(
    f"pathlib.{name}" for name in ("Path", "PurePath", "PosixPath", "PurePosixPath", "WindowsPath", "PureWindowsPath")
)
PATH_IO = frozenset(
    """
    write_text write_bytes read_text read_bytes open unlink touch mkdir rename replace rmdir symlink_to
    hardlink_to iterdir glob rglob chmod
    """.split()
)
PATH_READS = frozenset({"read_text", "read_bytes"})
# A reporting helper of the shipped files: it reads the generated source files back (reads only).
REPORTING_HELPER = "generated_source"
FILE_FUNCS = frozenset({"io.open", "io.open_code", "io.FileIO", "tempfile.NamedTemporaryFile", "tempfile.mkstemp"})
SPEC_FIELDS = frozenset({"dataclasses.asdict", "dataclasses.astuple", "dataclasses.fields"})
ATTRIBUTE_LOOKUPS = frozenset({"operator.attrgetter", "operator.methodcaller"})
MATH_REASON = "the op's math must run in the kernel, not torch"

FunctionNode = ast.FunctionDef | ast.AsyncFunctionDef
SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)


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


def _under(name: str, prefixes) -> bool:
    prefixes = (prefixes,) if isinstance(prefixes, str) else prefixes
    return any(name == p or name.startswith(p + ".") for p in prefixes)


def _snippet(node: ast.AST, limit: int = 60) -> str:
    text = ast.unparse(node)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _is_dunder(name: str) -> bool:
    return len(name) > 4 and name.startswith("__") and name.endswith("__")


def _scope_walk(nodes) -> Iterator[ast.AST]:
    """Nodes of one scope: nested functions, lambdas and classes are not entered."""
    stack = list(nodes)
    while stack:
        node = stack.pop()
        yield node
        if not isinstance(node, (*SCOPES, ast.ClassDef)):
            stack.extend(ast.iter_child_nodes(node))


def _params(args: ast.arguments) -> list[ast.arg]:
    extra = [a for a in (args.vararg, args.kwarg) if a is not None]
    return [*args.posonlyargs, *args.args, *args.kwonlyargs, *extra]


class _Context:
    """The parsed file: parents, import aliases per scope, and which functions are kernel code."""

    def __init__(self, tree: ast.Module, op: str):
        self.tree = tree
        self.parents: dict[int, ast.AST] = {}
        for node in ast.walk(tree):
            for child in ast.iter_child_nodes(node):
                self.parents[id(child)] = node
        self.top = {n.name: n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}
        self.op_fn = self.top.get(op)
        # alias name -> dotted module path; None marks a local name that shadows an import.
        # Per scope (module, function, lambda), filled on first use: a scope's aliases extend its parent's.
        self.aliases: dict[int, dict[str, str | None]] = {id(tree): self._bind(tree.body, {}, [])}
        self.path_names = self._path_names()

    # -- scopes and names ---------------------------------------------------------------------------
    def parent(self, node: ast.AST) -> ast.AST | None:
        return self.parents.get(id(node))

    def scope_of(self, node: ast.AST) -> ast.AST:
        """The innermost function or lambda holding `node` (the module when none)."""
        current = self.parent(node)
        while current is not None and not isinstance(current, SCOPES):
            current = self.parent(current)
        return current if current is not None else self.tree

    def aliases_of(self, scope: ast.AST) -> dict[str, str | None]:
        if id(scope) not in self.aliases:
            inherited = self.aliases_of(self.scope_of(scope))
            body = scope.body if isinstance(scope.body, list) else [scope.body]
            self.aliases[id(scope)] = self._bind(body, inherited, [a.arg for a in _params(scope.args)])
        return self.aliases[id(scope)]

    @staticmethod
    def _bind(body, inherited: dict[str, str | None], params: list[str]) -> dict[str, str | None]:
        aliases = dict(inherited)
        aliases.update(dict.fromkeys(params))
        nodes = list(_scope_walk(body))
        for node in nodes:
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.asname:
                        aliases[alias.asname] = alias.name
                    else:
                        head = alias.name.split(".")[0]
                        aliases[head] = head
            elif isinstance(node, ast.ImportFrom):
                module = "." * node.level + (node.module or "")
                for alias in node.names:
                    if alias.name != "*":
                        aliases[alias.asname or alias.name] = f"{module}.{alias.name}"
        imported = {name for name, target in aliases.items() if target is not None}
        for _ in range(2):  # twice: an alias of an alias (`T = torch; U = T`)
            for node in nodes:
                if isinstance(node, (ast.Assign, ast.AnnAssign)):
                    targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                    for target in targets:
                        if not isinstance(target, ast.Name):
                            continue
                        value = getattr(node, "value", None)
                        head = _dotted(value).split(".")[0] if value is not None else ""
                        if isinstance(value, ast.Name) and value.id in BUILTIN_CALLS and value.id not in aliases:
                            aliases[target.id] = f"builtins.{value.id}"  # `run = exec` is still exec
                            imported.add(target.id)
                        elif head in imported and aliases.get(head) is not None:
                            # `T = torch`: the name is another spelling of the module.
                            aliases[target.id] = _resolve_with(value, aliases)
                            imported.add(target.id)
                        elif target.id not in imported:
                            aliases[target.id] = None
        return aliases

    def resolve(self, node: ast.AST) -> str:
        """The dotted name of `node` with its first part resolved through the imports in scope."""
        return _resolve_with(node, self.aliases_of(self.scope_of(node)))

    # -- kernel code --------------------------------------------------------------------------------
    def is_kernel(self, fn: ast.AST) -> bool:
        """Whether `fn` is kernel code (its arithmetic is the kernel's), not host code."""
        if fn is self.op_fn or not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            return False
        for decorator in fn.decorator_list:
            target = decorator.func if isinstance(decorator, ast.Call) else decorator
            if self.resolve(target).split(".")[0] in DSL_ROOTS:
                return True
        outer = self.scope_of(fn)
        if outer is self.tree:
            return bool(KERNEL_FUNCTION.match(fn.name))
        top = outer
        while self.scope_of(top) is not self.tree:
            top = self.scope_of(top)
        return getattr(top, "name", "") == "build" or self.is_kernel(outer)

    def top_function(self, node: ast.AST) -> str:
        current, name = node, ""
        while current is not None:
            if isinstance(current, (ast.FunctionDef, ast.AsyncFunctionDef)):
                name = current.name
            current = self.parent(current)
        return name

    # -- files --------------------------------------------------------------------------------------
    def path_like(self, node: ast.AST, names: set[str] | None = None) -> bool:
        names = self.path_names if names is None else names
        if isinstance(node, ast.Call):
            callee = self.resolve(node.func)
            if callee in PATH_CTORS or callee.rpartition(".")[0] in PATH_CTORS:
                return True
            return isinstance(node.func, ast.Attribute) and self.path_like(node.func.value, names)
        if isinstance(node, ast.Name):
            return node.id in names
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div):
            return self.path_like(node.left, names)
        if isinstance(node, (ast.Attribute, ast.Subscript)):
            return self.path_like(node.value, names)
        return False

    def _path_names(self) -> set[str]:
        names: set[str] = set()
        for _ in range(3):  # a name bound to a name bound to a Path
            for node in ast.walk(self.tree):
                if isinstance(node, (ast.Assign, ast.AnnAssign, ast.NamedExpr)) and node.value is not None:
                    targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                    if self.path_like(node.value, names):
                        names.update(t.id for t in targets if isinstance(t, ast.Name))
                elif isinstance(node, ast.withitem) and isinstance(node.optional_vars, ast.Name):
                    if self.path_like(node.context_expr, names):
                        names.add(node.optional_vars.id)
        return names


def _resolve_with(node: ast.AST, aliases: dict[str, str | None]) -> str:
    dotted = _dotted(node)
    head, dot, rest = dotted.partition(".")
    target = aliases.get(head)
    return target + dot + rest if target else dotted


def _env_literal(node: ast.AST | None) -> bool:
    return isinstance(node, ast.Constant) and node.value in ENV_ALLOWED


class _Checker(ast.NodeVisitor):
    """File-wide rules: imports, names, attributes and calls that a kernel file may not use."""

    def __init__(self, ctx: _Context, allow_torch_math: bool):
        self.ctx = ctx
        self.allow_torch_math = allow_torch_math
        self.findings: list[Finding] = []

    def flag(self, node: ast.AST, message: str) -> None:
        self.findings.append(Finding(getattr(node, "lineno", 0), message))

    # -- imports ------------------------------------------------------------------------------------
    def _check_module(self, node: ast.AST, name: str) -> None:
        if any(_under(name, banned) for banned in FORBIDDEN_MODULES):
            self.flag(node, f"imports {name}, which a kernel file may not use")
            return
        head, _, last = name.rpartition(".")
        if last in REFERENCE_NAMES:
            self.flag(node, f"imports {last} from {head}: the kernel may not use the reference")
        elif (head == "sys" and last in SYS_FORBIDDEN) or (head == "os" and last in OS_FORBIDDEN) or name in FILE_FUNCS:
            self.flag(node, f"imports {name}: a kernel file may not reach the harness, processes or files")
        elif _under(name, TORCH_INTERNALS):
            self.flag(node, f"imports {name}: torch's operator registry and C bindings are off limits")
        elif not self.allow_torch_math and _under(name, TORCH_COMPILERS):
            self.flag(node, f"imports {name}: torch's compilers generate the math; {MATH_REASON}")
        elif not self.allow_torch_math and self._torch_math(name):
            self.flag(node, f"imports {name}: {MATH_REASON}")

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            self._check_module(node, alias.name)
        self.generic_visit(node)

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        module = node.module or ""
        before = len(self.findings)
        self._check_module(node, module)
        if len(self.findings) == before:  # the module is fine: check each name taken from it
            for alias in node.names:
                if alias.name == "*":
                    if module.split(".")[0] not in DSL_ROOTS:
                        self.flag(node, f"star import from {module} hides which of its names the file uses")
                else:
                    self._check_module(node, f"{module}.{alias.name}")
        self.generic_visit(node)

    # -- names --------------------------------------------------------------------------------------
    def visit_ExceptHandler(self, node: ast.ExceptHandler) -> None:
        caught = [node.type] if not isinstance(node.type, ast.Tuple) else node.type.elts
        broad = [self.ctx.resolve(t).removeprefix("builtins.") for t in caught if t is not None]
        broad = [name for name in broad if name in {"Exception", "BaseException"}]
        if node.type is None or broad:
            shown = " " + broad[0] if broad else ""
            self.flag(node, f"catch-all `except{shown}:` hides failures; catch specific errors")
        self.generic_visit(node)

    def visit_Name(self, node: ast.Name) -> None:
        name = node.id
        loading = isinstance(node.ctx, ast.Load)
        aliases = self.ctx.aliases_of(self.ctx.scope_of(node))
        bound = aliases.get(name)
        # A builtin unless a parameter, assignment or import (`from tilelang import compile`) binds the name.
        builtin = name not in aliases or (bound or "").startswith("builtins.")
        called = self._called(node)
        if name in REFERENCE_NAMES and loading:
            self.flag(node, f"uses {name}: the kernel may not use the reference")
        elif name in DYNAMIC_LOOKUPS and loading:
            self.flag(node, f"{'calls' if called else 'uses'} {name}(): dynamic lookups hide what the kernel calls")
        elif name in BUILTIN_CALLS and loading and builtin:
            self.flag(node, f"uses {name}(): {BUILTIN_CALLS[name]}")
        elif _is_dunder(name) and name not in ALLOWED_DUNDER_NAMES:
            self.flag(node, f"uses {name}: it reaches code or namespaces a kernel file has no business with")
        elif loading and bound:
            self._dotted_use(node, self.ctx.resolve(node))
        self.generic_visit(node)

    def visit_Constant(self, node: ast.Constant) -> None:
        parent = self.ctx.parent(node)
        if isinstance(node.value, str) and node.value in REFERENCE_NAMES and not isinstance(parent, ast.Expr):
            self.flag(node, f"names {node.value!r} in a string: the kernel may not use the reference")

    # -- attributes ---------------------------------------------------------------------------------
    def visit_Attribute(self, node: ast.Attribute) -> None:
        attr = node.attr
        resolved = self.ctx.resolve(node)
        shown = _snippet(node)
        if attr in FORBIDDEN_ATTRS:
            self.flag(node, f"uses .{attr} ({shown}): {ATTR_REASONS[FORBIDDEN_ATTRS[attr]]}")
        elif _is_dunder(attr) and attr not in ALLOWED_DUNDERS:
            if attr in REACHING_DUNDERS:
                self.flag(node, f"uses .{attr} ({shown}): it reaches code or namespaces")
            else:
                self.flag(node, f"uses .{attr} ({shown}): explicit dunder operator calls hide the math")
        elif resolved.startswith("os.") and (attr in OS_FORBIDDEN or attr.startswith(("exec", "spawn"))):
            if resolved.count(".") == 1:
                self.flag(node, f"uses {resolved}: a kernel file may not start processes or touch files")
        elif resolved.startswith("sys.") and resolved.count(".") == 1 and attr in SYS_FORBIDDEN:
            self.flag(node, f"uses {resolved}: a kernel file may not read or change the interpreter's state")
        if isinstance(node.ctx, (ast.Store, ast.Del)) and _resolve_root(self.ctx, node.value) in PATCHABLE:
            self.flag(node, f"assigns {shown}: a kernel file may not patch torch, sys, os or the harness")
        elif isinstance(node.ctx, ast.Load):
            self._dotted_use(node, resolved)
        self.generic_visit(node)

    def visit_Subscript(self, node: ast.Subscript) -> None:
        if isinstance(node.ctx, (ast.Store, ast.Del)) and _resolve_root(self.ctx, node.value) in PATCHABLE:
            self.flag(node, f"assigns into {_snippet(node.value)}: a kernel file may not patch torch, sys, os")
        self.generic_visit(node)

    def _called(self, node: ast.AST) -> bool:
        parent = self.ctx.parent(node)
        return isinstance(parent, ast.Call) and parent.func is node

    def _top_of_chain(self, node: ast.AST) -> bool:
        parent = self.ctx.parent(node)
        return not (isinstance(parent, ast.Attribute) and parent.value is node)

    def _torch_math(self, resolved: str) -> bool:
        if not resolved.startswith("torch."):
            return False
        parts = resolved.split(".")
        # torch.cat, torch.Tensor.mul, torch.nn.functional.silu; not torch.float32 or torch.empty_like.
        return (
            (len(parts) == 2 and parts[1] in TORCH_FUNCS)
            or (len(parts) > 2 and parts[-1] in TENSOR_MATH)
            or _under(resolved, TORCH_MATH_NAMESPACES)
        )

    def _dotted_use(self, node: ast.AST, resolved: str) -> None:
        """Rules on a whole dotted name (`torch.ops.aten.mul`), checked once at the end of its chain."""
        if resolved in ("os.environ", "os.environb"):
            self._environ(node, resolved)
        if not resolved or not self._top_of_chain(node):
            return
        spelled = _dotted(node)
        shown = spelled if spelled == resolved else f"{spelled} ({resolved})"
        verb = f"calls {shown.replace(spelled, spelled + '()', 1)}" if self._called(node) else f"uses {shown}"
        if _under(resolved, TORCH_INTERNALS):
            self.flag(node, f"{verb}: torch's operator registry and C bindings are off limits")
        elif resolved in ("os.getenv", "os.getenvb"):
            call = self.ctx.parent(node)
            if not (self._called(node) and call.args and _env_literal(call.args[0]) and resolved == "os.getenv"):
                self.flag(node, f"{verb}: a kernel file may read only {', '.join(ENV_ALLOWED)} from the environment")
        elif resolved in FILE_FUNCS:
            self.flag(node, f"{verb}: a kernel file may not read or write files")
        elif resolved in SPEC_FIELDS:
            self.flag(node, f"{verb}: it reaches every field of an object, the spec's reference too")
        elif resolved in ATTRIBUTE_LOOKUPS:
            self.flag(node, f"{verb}: dynamic lookups hide what the kernel calls")
        elif self.allow_torch_math:
            return
        elif _under(resolved, TORCH_COMPILERS):
            self.flag(node, f"{verb}: torch's compilers generate the math; {MATH_REASON}")
        elif self._torch_math(resolved):
            self.flag(node, f"{verb}: {MATH_REASON}")

    def _environ(self, node: ast.AST, resolved: str) -> None:
        """os.environ may be read only at allowed names, given as literals."""
        parent, grand = self.ctx.parent(node), self.ctx.parent(self.ctx.parent(node))
        if resolved == "os.environ":
            if isinstance(parent, ast.Attribute) and parent.value is node:
                if parent.attr in MUTATORS:
                    return  # visit_Call names the change
                if parent.attr == "get" and isinstance(grand, ast.Call) and grand.func is parent:
                    if grand.args and _env_literal(grand.args[0]):
                        return
            elif isinstance(parent, ast.Subscript) and parent.value is node:
                if isinstance(parent.ctx, (ast.Store, ast.Del)) or _env_literal(parent.slice):
                    return  # a store is reported as patching os
            elif isinstance(parent, ast.Compare) and node in parent.comparators:
                if all(isinstance(op, (ast.In, ast.NotIn)) for op in parent.ops) and _env_literal(parent.left):
                    return
        shown = parent if isinstance(parent, (ast.Attribute, ast.Subscript)) else node
        if isinstance(parent, ast.Attribute) and isinstance(grand, ast.Call) and grand.func is parent:
            shown = grand  # the whole call: os.environ.get('HOME')
        shown = _snippet(shown)
        self.flag(node, f"reads {shown}: a kernel file may read only {', '.join(ENV_ALLOWED)} from the environment")

    # -- calls --------------------------------------------------------------------------------------
    def visit_Call(self, node: ast.Call) -> None:
        func = node.func
        if isinstance(func, ast.Attribute):
            owner = self.ctx.resolve(func.value)
            if func.attr in MUTATORS and owner == "os.environ":
                self.flag(node, f"calls {_snippet(func)}(): a kernel file may read the environment, not change it")
            if func.attr in PATH_IO and self.ctx.path_like(func.value):
                reporting = self.ctx.top_function(node) == REPORTING_HELPER and func.attr in PATH_READS
                if not reporting:
                    self.flag(node, f"calls {_snippet(func)}(): a kernel file may not read or write files")
        self.generic_visit(node)


def _resolve_root(ctx: _Context, node: ast.AST) -> str:
    return ctx.resolve(node).split(".")[0]


class _HostMath:
    """Tensor math in host code: the op function's tensors (and what is computed from them) followed by
    name, through local assignments and calls of the file's own helpers; arithmetic, slice stores and
    math methods on them are torch doing the op's work. Kernel code is never entered."""

    def __init__(self, ctx: _Context):
        self.ctx = ctx
        self.findings: list[Finding] = []

    def run(self) -> list[Finding]:
        op_fn = self.ctx.op_fn
        pending: dict[str, set[str]] = {op_fn.name: self._tensor_params(op_fn)}
        done: dict[str, set[str]] = {}
        while pending:
            name, seed = pending.popitem()
            fn = self.ctx.top[name]
            seed = seed | done.get(name, set())
            if name in done and seed == done[name]:
                continue
            done[name] = seed
            _, calls = self._taint(fn, seed)
            for helper, params in calls.items():
                if not params <= done.get(helper, set()):
                    pending[helper] = pending.get(helper, set()) | params
        for name, seed in done.items():
            tainted, _ = self._taint(self.ctx.top[name], seed)
            self._report(self.ctx.top[name], tainted)
        return self.findings

    @staticmethod
    def _tensor_params(fn: FunctionNode) -> set[str]:
        """Parameters annotated as tensors, or unannotated ones not conventionally scalar."""
        names = set()
        for arg in _params(fn.args):
            if arg.annotation is not None:
                if "Tensor" in ast.unparse(arg.annotation):
                    names.add(arg.arg)
            elif arg.arg not in SCALAR_PARAMS:
                names.add(arg.arg)
        return names

    def _nodes(self, fn: FunctionNode) -> list[ast.AST]:
        """The host code of `fn`, nested host functions and lambdas included, kernel code left out."""
        out, stack = [], list(fn.body)
        while stack:
            node = stack.pop()
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and self.ctx.is_kernel(node):
                continue
            out.append(node)
            stack.extend(ast.iter_child_nodes(node))
        return out

    def _helper(self, node: ast.Call) -> str | None:
        """The top-level host function a call names, if any: it is followed with its tainted arguments."""
        if not isinstance(node.func, ast.Name) or node.func.id not in self.ctx.top:
            return None
        target = self.ctx.top[node.func.id]
        return None if self.ctx.is_kernel(target) else target.name

    def _taint(self, fn: FunctionNode, seed: set[str]) -> tuple[set[str], dict[str, set[str]]]:
        nodes = self._nodes(fn)
        tainted = set(seed)
        local_defs: dict[str, ast.AST] = {}
        for node in nodes:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                local_defs[node.name] = node
            elif isinstance(node, ast.Assign) and isinstance(node.value, ast.Lambda):
                local_defs.update({t.id: node.value for t in node.targets if isinstance(t, ast.Name)})
        calls: dict[str, set[str]] = {}

        def bind(target: ast.AST, value: ast.AST) -> None:
            if isinstance(target, ast.Name):
                if self.tainted(value, tainted):
                    tainted.add(target.id)
            elif isinstance(target, ast.Starred):
                bind(target.value, value)
            elif isinstance(target, (ast.Tuple, ast.List)):
                if isinstance(value, (ast.Tuple, ast.List)) and len(value.elts) == len(target.elts):
                    for t, v in zip(target.elts, value.elts, strict=True):
                        bind(t, v)
                else:
                    for t in target.elts:
                        bind(t, value)

        def bind_call(callee: ast.AST, call: ast.Call, into: set[str]) -> None:
            params = [a.arg for a in (*callee.args.posonlyargs, *callee.args.args)]
            for i, arg in enumerate(call.args):
                if self.tainted(arg, tainted):
                    if isinstance(arg, ast.Starred) or i >= len(params):
                        into.update(a.arg for a in _params(callee.args))
                    else:
                        into.add(params[i])
            for keyword in call.keywords:
                if self.tainted(keyword.value, tainted):
                    into.update(a.arg for a in _params(callee.args) if keyword.arg in (None, a.arg))

        while True:
            size = len(tainted)
            for node in nodes:
                if isinstance(node, ast.Assign):
                    for target in node.targets:
                        bind(target, node.value)
                elif isinstance(node, (ast.AnnAssign, ast.NamedExpr)) and node.value is not None:
                    bind(node.target, node.value)
                elif isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name):
                    if self.tainted(node.value, tainted):
                        tainted.add(node.target.id)
                elif isinstance(node, (ast.For, ast.AsyncFor, ast.comprehension)):
                    bind(node.target, node.iter)
                elif isinstance(node, ast.withitem) and node.optional_vars is not None:
                    bind(node.optional_vars, node.context_expr)
                elif isinstance(node, ast.Call):
                    name = node.func.id if isinstance(node.func, ast.Name) else None
                    if name in local_defs:
                        bind_call(local_defs[name], node, tainted)
                    elif (helper := self._helper(node)) is not None and helper != fn.name:
                        bind_call(self.ctx.top[helper], node, calls.setdefault(helper, set()))
            if len(tainted) == size:
                break
        return tainted, {k: v for k, v in calls.items() if v}

    def tainted(self, node: ast.AST | None, names: set[str]) -> bool:
        """Whether `node` may hold one of the op's tensors (or data computed from one)."""
        if node is None:
            return False
        if isinstance(node, ast.Name):
            return node.id in names
        if isinstance(node, ast.Attribute):
            return node.attr not in META_ATTRS and self.tainted(node.value, names)
        if isinstance(node, (ast.Subscript, ast.Starred, ast.NamedExpr)):
            return self.tainted(node.value, names)
        if isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Attribute) and func.attr in META_METHODS:
                return False
            if isinstance(func, ast.Name) and func.id in UNTAINTING_CALLS:
                return False
            arguments = [*node.args, *(k.value for k in node.keywords)]
            return self.tainted(func, names) or any(self.tainted(a, names) for a in arguments)
        if isinstance(node, (ast.Compare, ast.Constant, ast.JoinedStr, ast.Lambda)):
            return False  # a comparison in host code is a condition; the others hold no tensor
        if isinstance(node, ast.IfExp):
            return self.tainted(node.body, names) or self.tainted(node.orelse, names)
        if isinstance(node, (ast.ListComp, ast.SetComp, ast.GeneratorExp)):
            return self.tainted(node.elt, names)
        if isinstance(node, ast.DictComp):
            return self.tainted(node.value, names)
        return any(self.tainted(child, names) for child in ast.iter_child_nodes(node))

    def _arith(self, node: ast.AST, names: set[str]) -> bool:
        if isinstance(node, ast.BinOp):
            if isinstance(node.op, ast.Mod) and isinstance(node.left, ast.Constant):
                return False  # "%s" % value formats a string
            return self.tainted(node.left, names) or self.tainted(node.right, names)
        if isinstance(node, ast.UnaryOp) and not isinstance(node.op, ast.Not):
            return self.tainted(node.operand, names)
        return False

    def flag(self, node: ast.AST, message: str) -> None:
        self.findings.append(Finding(getattr(node, "lineno", 0), message))

    @staticmethod
    def _containers(nodes: list[ast.AST]) -> set[str]:
        """Names only ever bound to a list, dict or set built here: storing into them is not tensor math."""
        kinds: dict[str, bool] = {}
        built = (ast.List, ast.Dict, ast.Set, ast.ListComp, ast.DictComp, ast.SetComp)
        for node in nodes:
            if isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None:
                value = node.value
                is_container = isinstance(value, built) or (
                    isinstance(value, ast.Call)
                    and isinstance(value.func, ast.Name)
                    and value.func.id in {"list", "dict", "set"}
                )
                for target in node.targets if isinstance(node, ast.Assign) else [node.target]:
                    if isinstance(target, ast.Name):
                        kinds[target.id] = kinds.get(target.id, True) and is_container
            elif isinstance(node, (ast.For, ast.AsyncFor, ast.comprehension, ast.withitem, ast.NamedExpr)):
                target = getattr(node, "target", None) or getattr(node, "optional_vars", None)
                for name in ast.walk(target) if target is not None else ():
                    if isinstance(name, ast.Name):
                        kinds[name.id] = False
        return {name for name, only in kinds.items() if only}

    def _report(self, fn: FunctionNode, names: set[str]) -> None:
        where = "host code" if fn is self.ctx.op_fn else f"host code ({fn.name}(), called with the op's tensors)"
        nodes = self._nodes(fn)
        containers = self._containers(nodes)
        for node in nodes:
            if self._arith(node, names):
                if not self._arith(self.ctx.parent(node), names):  # the outermost expression only
                    self.flag(node, f"tensor arithmetic `{_snippet(node)}` in {where}: {MATH_REASON}")
            elif isinstance(node, ast.AugAssign):
                tensor_target = self.tainted(node.target, names) and not _into(node.target, containers)
                extends = isinstance(node.value, (ast.List, ast.Tuple))  # `parts += [x]` builds a list
                if (tensor_target or self.tainted(node.value, names)) and not extends:
                    self.flag(node, f"augmented assignment `{_snippet(node)}` in {where}: {MATH_REASON}")
            elif isinstance(node, (ast.Assign, ast.AnnAssign)):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for target in targets:
                    for store in ast.walk(target):
                        stored = isinstance(store, ast.Subscript) and isinstance(store.ctx, ast.Store)
                        if stored and self.tainted(store.value, names) and not _into(store, containers):
                            self.flag(store, f"slice store into `{_snippet(store)}` in {where}: {MATH_REASON}")
            elif isinstance(node, ast.Call):
                self._report_call(node, names, where)

    def _report_call(self, node: ast.Call, names: set[str], where: str) -> None:
        func = node.func
        tensor_args = any(self.tainted(a, names) for a in [*node.args, *(k.value for k in node.keywords)])
        if isinstance(func, ast.Attribute):
            attr = func.attr
            inplace = attr.endswith("_") and not attr.startswith("_") and attr not in HARMLESS_INPLACE
            if (attr in TENSOR_MATH or inplace) and self.tainted(func.value, names):
                self.flag(node, f"calls {_snippet(func)}() on the op's tensors in {where}: {MATH_REASON}")
                return
        if not tensor_args:
            return
        resolved = self.ctx.resolve(func)
        if isinstance(func, ast.Name) and func.id in BUILTIN_MATH:
            self.flag(node, f"calls {func.id}() on the op's tensors in {where}: {MATH_REASON}")
        elif resolved and _under(resolved, MATH_MODULES):
            self.flag(node, f"calls {resolved}() on the op's tensors in {where}: {MATH_REASON}")
        elif isinstance(func, ast.Name) and func.id in self.ctx.top and self.ctx.is_kernel(self.ctx.top[func.id]):
            if not self.ctx.top[func.id].decorator_list:
                self.flag(node, f"calls {func.id}() with the op's tensors: kernel functions run through the DSL")


def _into(target: ast.AST, containers: set[str]) -> bool:
    """Whether `target` is `name` or `name[i]` for a list/dict/set `name` (not `name[0][...]`, a tensor in it)."""
    if isinstance(target, ast.Subscript):
        target = target.value
    return isinstance(target, ast.Name) and target.id in containers


def check_source(
    source: str, op: str, *, allow_torch_math: bool = False, filename: str = "<candidate>"
) -> StaticReport:
    """Check a candidate's source for `op`. `allow_torch_math` is for the torch backend only."""
    try:
        tree = ast.parse(source, filename=filename)
    except SyntaxError as err:
        return StaticReport(False, [Finding(err.lineno or 0, f"syntax error: {err.msg}")])
    ctx = _Context(tree, op)
    findings: list[Finding] = []
    fn = ctx.op_fn
    if fn is None:
        findings.append(Finding(1, f"defines no top-level function {op}()"))
    else:
        kwonly = {a.arg for a in fn.args.kwonlyargs}
        if "out" not in kwonly and "out" not in {a.arg for a in fn.args.args}:
            findings.append(Finding(fn.lineno, f"{op}() has no `out` parameter; the signature is fixed by the spec"))
    checker = _Checker(ctx, allow_torch_math)
    checker.visit(tree)
    findings.extend(checker.findings)
    if fn is not None and not allow_torch_math:
        findings.extend(_HostMath(ctx).run())
    unique = sorted(dict.fromkeys(findings), key=lambda f: f.line)  # one finding per line and reason
    return StaticReport(not unique, unique)


def check_file(path: Path, op: str, *, allow_torch_math: bool = False) -> StaticReport:
    try:
        source = Path(path).read_text()
    except OSError as err:
        return StaticReport(False, [Finding(0, f"cannot read {path}: {err}")])
    return check_source(source, op, allow_torch_math=allow_torch_math, filename=str(path))
