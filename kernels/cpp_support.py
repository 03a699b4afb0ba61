"""What the maca_cpp kernel files share: rendering their CUDA C++, building it, launching it.

A maca_cpp kernel file holds its CUDA C++ as a string (`SOURCE`) and its tunables as `CONFIG`.
`load(...)` prepends CONFIG as `constexpr` constants and `PRELUDE` (the CUDA headers and the
helpers the kernel files use: dtype conversions, `Pack`, `warp_sum`/`block_sum`, `with_dtype`, RoPE's
`rotate_pairs`), points compiler messages at each part's own lines (`#line`), compiles the whole into a shared
library and opens it with ctypes; the wrapper then calls the library's `extern "C"` entry points
with data pointers, sizes and the caller's CUDA stream.

Why not `torch.utils.cpp_extension.load_inline`: a translation unit that includes
`<torch/extension.h>` took 5 min 25 s of wall time (2 min 11 s CPU) to compile with nvcc on the
development machine, against 3.6 s for the same kernel without torch's headers; a candidate
compiles in a fresh cache per runner, so that cost would be paid by every proposal. The CPU
build of torch also lacks the generated `c10/cuda` headers (`getCurrentCUDAStream`), so an
extension could not even be compiled in CI. A plain nvcc shared library needs neither torch's
headers nor ninja, builds in seconds, links in CI as on the GPU host, and is called for the
same host cost as a pybind11 function.

Builds are cached by a hash of the whole translation unit (CONFIG, PRELUDE, SOURCE) and the
compiler command, so a prelude change rebuilds every kernel, under `$TORCH_EXTENSIONS_DIR` (else
`$XDG_CACHE_HOME/torch_extensions`, else `~/.cache/...`): the judge gives each runner a cache
folder of its own through those variables. A failed build
raises `CompileError` carrying the compiler's first diagnostics verbatim.

Targets: NVIDIA builds with nvcc (`CUDA_HOME/bin/nvcc` or `nvcc` on PATH) for the live GPU's
architecture (`sm_90` without a GPU). MetaX (`--target maca`, or MetaX torch detected) builds
the same source with MXMACA's cu-bridge compiler `cucc` (`$MACA_PATH/tools/cu-bridge/bin/cucc`,
MACA_PATH default /opt/maca), which accepts CUDA source and nvcc-style options. That adapter is
written from MXMACA's published setup (cu-bridge's `cucc`, `MACA_PATH`, `$MACA_PATH/lib`) and
has NOT run on a C500: expect to adjust its flags there.
"""

from __future__ import annotations

import ctypes
import fcntl
import hashlib
import os
import re
import shutil
import subprocess
import tempfile
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import torch

from workbench.kernels import target
from workbench.kernels.kernel_file import read_literals

# The dtype codes the kernel sources switch on (`int dtype` arguments).
DTYPE_CODES: dict[torch.dtype, int] = {torch.float32: 0, torch.float16: 1, torch.bfloat16: 2}

# Argument type letters of an entry point's signature: p pointer, l int64, i int32, f float.
_CTYPES = {"p": ctypes.c_void_p, "l": ctypes.c_int64, "i": ctypes.c_int32, "f": ctypes.c_float}

# Seconds a build may take before it is abandoned (the judge's compile timeout is usually shorter).
BUILD_TIMEOUT_S = 600
# Compiler diagnostics kept in a CompileError: the runner reports the last 12 lines of a traceback.
MAX_DIAGNOSTIC_LINES = 9

# What every kernel file's SOURCE is compiled after (render). Inlined, not #included: the translation unit
# stays one self-contained text, so the build's hash covers it and the CPU emulation can rewrite it.
PRELUDE = r"""
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <stdint.h>

// An element's value in fp32, where every kernel does its math.
__device__ __forceinline__ float to_float(float v) { return v; }
__device__ __forceinline__ float to_float(__half v) { return __half2float(v); }
__device__ __forceinline__ float to_float(__nv_bfloat16 v) { return __bfloat162float(v); }

// fp32 to the element type, rounded to nearest even: the one rounding of a result, on its store.
template <typename T> __device__ __forceinline__ T from_float(float v);
template <> __device__ __forceinline__ float from_float<float>(float v) { return v; }
template <> __device__ __forceinline__ __half from_float<__half>(float v) { return __float2half_rn(v); }
template <> __device__ __forceinline__ __nv_bfloat16 from_float<__nv_bfloat16>(float v) {
    return __float2bfloat16_rn(v);
}

// N elements as one aligned load or store (16 bytes at 8 bf16): pointers must be N-aligned (cpp_support.aligned).
template <typename T, int N> struct alignas(sizeof(T) * N) Pack { T v[N]; };

// RoPE's rotate-half on pack `p` of a row of 2 * half elements: `V` pairs (j, j + half), with the sin and cos
// tables' pack at the row's position: dst[j] = x1*c - x2*s, dst[j + half] = x2*c + x1*s, in fp32.
template <typename T, typename TT, int V>
__device__ __forceinline__ void rotate_pairs(const T* __restrict__ src, T* __restrict__ dst,
                                             const TT* __restrict__ sin, const TT* __restrict__ cos, int64_t half,
                                             int64_t p) {
    using P = Pack<T, V>;
    using PT = Pack<TT, V>;
    const P a = reinterpret_cast<const P*>(src)[p];
    const P b = reinterpret_cast<const P*>(src + half)[p];
    const PT s = reinterpret_cast<const PT*>(sin)[p];
    const PT c = reinterpret_cast<const PT*>(cos)[p];
    P o1, o2;
    #pragma unroll
    for (int k = 0; k < V; ++k) {
        const float x1 = to_float(a.v[k]), x2 = to_float(b.v[k]);
        const float sf = to_float(s.v[k]), cf = to_float(c.v[k]);
        o1.v[k] = from_float<T>(x1 * cf - x2 * sf);
        o2.v[k] = from_float<T>(x2 * cf + x1 * sf);
    }
    reinterpret_cast<P*>(dst)[p] = o1;
    reinterpret_cast<P*>(dst + half)[p] = o2;
}

// Sum over each 32-lane group, every lane gets it: right on 32-wide NVIDIA warps and 64-wide MetaX waves.
__device__ __forceinline__ float warp_sum(float v) {
    #pragma unroll
    for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_xor_sync(0xffffffffu, v, offset, 32);
    return v;
}

// Sum over a block of BLOCK threads, every thread gets it; `shared` holds (BLOCK + 31) / 32 floats.
template <int BLOCK> __device__ __forceinline__ float block_sum(float v, float* shared) {
    v = warp_sum(v);
    constexpr int GROUPS = (BLOCK + 31) / 32;
    const int group = threadIdx.x / 32, lane = threadIdx.x % 32;
    if (lane == 0) shared[group] = v;
    __syncthreads();
    float total = 0.f;
    #pragma unroll
    for (int g = 0; g < GROUPS; ++g) total += shared[g];
    __syncthreads();  // the caller may reuse `shared` (the next row) at once
    return total;
}

// Calls f(TypeTag<T>{}) with the element type of a dtype code (workbench.kernels.cpp_support.DTYPE_CODES).
template <typename T> struct TypeTag { using type = T; };
template <typename F> static int with_dtype(int dtype, F&& f) {
    switch (dtype) {
        case 0: return f(TypeTag<float>{});
        case 1: return f(TypeTag<__half>{});
        case 2: return f(TypeTag<__nv_bfloat16>{});
        default: return (int)cudaErrorInvalidValue;
    }
}
"""

# Appended, not prepended, so the kernel file's line numbers in compiler messages stay right.
EPILOGUE = """
extern "C" const char* kw_error_string(int code) { return cudaGetErrorString((cudaError_t)code); }
"""


class CompileError(RuntimeError):
    """The compiler refused the source; the message holds its first diagnostics verbatim."""


class LaunchError(RuntimeError):
    """An entry point returned a CUDA error (bad launch configuration, a fault reported early)."""


@dataclass(frozen=True)
class Toolchain:
    """A compiler that turns one CUDA source file into a shared library."""

    name: str
    compiler: str
    flags: tuple[str, ...]

    def command(self, source: Path, library: Path) -> list[str]:
        return [self.compiler, *self.flags, "-o", str(library), str(source)]


def _nvcc() -> str:
    home = os.environ.get("CUDA_HOME") or os.environ.get("CUDA_PATH")
    for candidate in (Path(home) / "bin" / "nvcc" if home else None, shutil.which("nvcc"), "/usr/local/cuda/bin/nvcc"):
        if candidate and Path(candidate).is_file():
            return str(candidate)
    raise CompileError("nvcc not found: set CUDA_HOME or put nvcc on PATH (the maca_cpp backend compiles with it)")


def cuda_arch() -> str:
    """`sm_XY` of the current GPU, or workbench.kernels.target's default architecture without one."""
    if torch.cuda.is_available():
        major, minor = torch.cuda.get_device_capability()
        return f"sm_{major}{minor}"
    return target.DEFAULT_CUDA_ARCH


def _cuda_root(nvcc: str) -> Path:
    """The CUDA install nvcc belongs to (nvcc may be a wrapper script outside it, as on the CI machine)."""
    home = os.environ.get("CUDA_HOME") or os.environ.get("CUDA_PATH")
    for root in (Path(home) if home else None, Path(nvcc).resolve().parent.parent, Path("/usr/local/cuda")):
        if root and (root / "include" / "cuda_runtime.h").is_file():
            return root
    return Path(nvcc).resolve().parent.parent


def nvcc_toolchain(arch: str | None = None) -> Toolchain:
    nvcc = _nvcc()
    cuda_root = _cuda_root(nvcc)
    flags = (
        "-O3",
        "-std=c++17",
        f"-arch={arch or cuda_arch()}",
        "-shared",
        "-Xcompiler",
        "-fPIC",
        # The process's own libcudart (torch's, loaded first, by soname), so both share one runtime state;
        # the rpath finds the toolkit's copy where none is loaded yet.
        "-cudart",
        "shared",
        f"-Xlinker=-rpath,{cuda_root / 'lib64'}:{cuda_root / 'lib'}",
        "-DKW_TARGET_CUDA=1",
    )
    return Toolchain("nvcc", nvcc, flags)


def maca_toolchain() -> Toolchain:
    """MXMACA's cu-bridge: CUDA source in, a MetaX shared library out. Untested on a C500 (module doc)."""
    maca = Path(os.environ.get("MACA_PATH", "/opt/maca"))
    cucc = maca / "tools" / "cu-bridge" / "bin" / "cucc"
    if not cucc.is_file():
        raise CompileError(f"MXMACA's cu-bridge compiler {cucc} not found: set MACA_PATH to the MXMACA install")
    flags = (
        "-O3",
        "-std=c++17",
        "-shared",
        "-Xcompiler",
        "-fPIC",
        f"-Xlinker=-rpath,{maca / 'lib'}",
        "-DKW_TARGET_MACA=1",
    )
    return Toolchain("cucc", str(cucc), flags)


def toolchain() -> Toolchain:
    """The compiler for the selected target (workbench.kernels.target: `--target`, else detected)."""
    return maca_toolchain() if target.current().name == "maca" else nvcc_toolchain()


def build_root() -> Path:
    """Where libraries are built: TORCH_EXTENSIONS_DIR, else torch's own default (under XDG_CACHE_HOME)."""
    explicit = os.environ.get("TORCH_EXTENSIONS_DIR")
    if explicit:
        return Path(explicit) / "kw_maca_cpp"
    cache = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(cache) / "torch_extensions" / "kw_maca_cpp"


def config_preamble(config: dict) -> str:
    """CONFIG as C++ constants: `"threads": 256` -> `constexpr int THREADS = 256;`."""
    lines = []
    for key, value in config.items():
        name = key.upper()
        if not re.fullmatch(r"[A-Z_][A-Z0-9_]*", name):
            raise ValueError(f"CONFIG key {key!r} is not usable as a C++ name")
        if isinstance(value, bool):
            lines.append(f"constexpr bool {name} = {'true' if value else 'false'};")
        elif isinstance(value, int):
            lines.append(f"constexpr int {name} = {value};")
        elif isinstance(value, float):
            lines.append(f"constexpr float {name} = {value!r}f;")
        else:
            raise ValueError(f"CONFIG[{key!r}] = {value!r}: only ints, floats and bools reach the C++ source")
    return "\n".join(lines) + "\n"


def display_name(origin: str | Path) -> str:
    """How compiler messages name the kernel file: relative to the working directory when inside it."""
    path = Path(origin).resolve()
    try:
        return str(path.relative_to(Path.cwd()))
    except (ValueError, OSError):  # outside the working directory, or a working directory not readable
        return str(path)


def line_directive(literal: str, origin: str | Path) -> str:
    """`#line N "file"` naming where the raw string `literal` starts in `origin`; empty if it is not there."""
    text = Path(origin).read_text()
    literal_at = text.find(literal)
    if literal_at < 0:  # not a raw string literal of that file (a test's or a tool's own text)
        return ""
    line = text[:literal_at].count("\n") + 1
    return f'#line {line} "{display_name(origin)}"\n'


def render(source: str, config: dict, origin: str | Path | None = None) -> str:
    """The translation unit: CONFIG constants, the prelude, the source, the epilogue; `#line`s to their files."""
    text = config_preamble(config) + line_directive(PRELUDE, __file__) + PRELUDE
    if origin is not None:
        text += line_directive(source, origin)
    return text + source + EPILOGUE


def diagnostics(output: str) -> list[str]:
    """The compiler's error lines (else its last lines), verbatim, at most MAX_DIAGNOSTIC_LINES."""
    lines = [line.rstrip() for line in output.splitlines() if line.strip()]
    errors = [line for line in lines if re.search(r"\berror\b", line, re.IGNORECASE)]
    return (errors or lines[-MAX_DIAGNOSTIC_LINES:])[:MAX_DIAGNOSTIC_LINES]


_build_lock = threading.Lock()


def build_folder(text: str, name: str, chain: Toolchain) -> Path:
    """Where `text` is built: keyed by the whole translation unit (prelude included) and the compiler command."""
    digest = hashlib.sha256("\0".join([text, chain.compiler, *chain.flags]).encode()).hexdigest()[:20]
    return build_root() / f"{name}-{digest}"


def build(text: str, name: str, chain: Toolchain | None = None) -> Path:
    """Compile the translation unit `text` to a shared library (cached by content); its path."""
    chain = chain or toolchain()
    folder = build_folder(text, name, chain)
    library = folder / f"{name}.so"
    if library.is_file():
        return library
    with _build_lock:
        folder.mkdir(parents=True, exist_ok=True)
        with open(folder / "lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)  # another process building the same source waits, then reuses
            if library.is_file():
                return library
            source = folder / f"{name}.cu"
            source.write_text(text)
            partial = Path(tempfile.mkdtemp(dir=folder)) / library.name
            command = chain.command(source, partial)
            try:
                done = subprocess.run(command, capture_output=True, text=True, timeout=BUILD_TIMEOUT_S, cwd=folder)
            except subprocess.TimeoutExpired:
                raise CompileError(f"{chain.name} took over {BUILD_TIMEOUT_S} s on {name}; abandoned") from None
            output = done.stdout + done.stderr
            (folder / "build.log").write_text(" ".join(command) + "\n" + output)
            if done.returncode != 0:
                shown = "\n".join(diagnostics(output))
                raise CompileError(
                    f"{chain.name} could not compile {name} (exit {done.returncode}); first diagnostics:\n{shown}"
                )
            os.replace(partial, library)  # whole libraries only: a reader never opens a half-written file
            shutil.rmtree(partial.parent, ignore_errors=True)
    return library


def _current_stream(device: torch.device) -> int:
    """The caller's CUDA stream as a raw handle (a graph capture records what is launched on it)."""
    index = device.index if device.index is not None else torch.cuda.current_device()
    raw = getattr(torch._C, "_cuda_getCurrentRawStream", None)  # no Stream object per call: ~1 us less
    return raw(index) if raw else torch.cuda.current_stream(index).cuda_stream


def check_signatures(text: str, signatures: dict[str, str]) -> None:
    """Each SIGNATURES entry has one letter per parameter of its `extern "C"` declaration, less the stream.

    ctypes cannot see a C prototype: a miscounted signature would fail every call with a bare TypeError.
    """
    for entry, letters in signatures.items():
        unknown = set(letters) - set(_CTYPES)
        if unknown:
            raise ValueError(f"SIGNATURES[{entry!r}]: unknown letters {sorted(unknown)}; use p, l, i or f")
        declared = re.search(r'extern\s+"C"\s+int\s+' + re.escape(entry) + r"\s*\(([^)]*)\)", text)
        if declared is None:
            raise ValueError(f'SIGNATURES names {entry!r}, but the source declares no extern "C" int {entry}(...)')
        parameters = len([p for p in declared[1].split(",") if p.strip()])
        if parameters != len(letters) + 1:
            raise ValueError(
                f"SIGNATURES[{entry!r}] lists {len(letters)} arguments but {entry} declares {parameters - 1} "
                "before the stream (its last parameter); one letter per parameter: p pointer, l int64_t, "
                "i int, f float"
            )


class Library:
    """A built kernel library: `launch(entry, *args, device=...)` calls an entry point on the caller's stream."""

    def __init__(self, path: Path, signatures: dict[str, str], text: str):
        check_signatures(text, signatures)
        self.path = path
        self.text = text
        self._dll = ctypes.CDLL(str(path))
        self._dll.kw_error_string.restype = ctypes.c_char_p
        self._dll.kw_error_string.argtypes = [ctypes.c_int]
        self._entries: dict[str, Callable[..., int]] = {}
        for entry, letters in signatures.items():
            fn = getattr(self._dll, entry)  # AttributeError names a missing entry point
            fn.argtypes = [_CTYPES[letter] for letter in letters] + [ctypes.c_void_p]  # the stream last
            fn.restype = ctypes.c_int
            self._entries[entry] = fn

    def launch(self, entry: str, *args, device: torch.device) -> None:
        code = self._entries[entry](*args, _current_stream(device))
        if code != 0:
            message = self._dll.kw_error_string(code).decode(errors="replace")
            raise LaunchError(f"{entry} failed: CUDA error {code} ({message})")


# Opened libraries by (name, source, CONFIG items, origin): called on every op call, so no file read or
# hashing of the source there (a str caches its hash, and the source compares by identity first).
_libraries: dict[tuple, Library] = {}


def load(name: str, source: str, config: dict, signatures: dict[str, str], origin: str | Path | None = None) -> Library:
    """The library for (source, CONFIG): built once per content, opened once per process."""
    key = (name, source, tuple(config.items()), str(origin))
    library = _libraries.get(key)
    if library is None:
        text = render(source, config, origin)
        library = _libraries[key] = Library(build(text, name), signatures, text)
    return library


def aligned(vec: int, *tensors: torch.Tensor) -> bool:
    """Whether every tensor's data starts on a `vec`-element boundary (for vector loads and stores)."""
    return all(t.data_ptr() % (vec * t.element_size()) == 0 for t in tensors)


def build_file(path: str | Path, name: str) -> Path:
    """Compile a kernel file's SOURCE with its CONFIG, read as literals: none of the file's Python runs.

    What `agent eval` does without a GPU (the kernel file is untrusted, so it is parsed, not imported).
    """
    literals = read_literals(Path(path).read_text(), {"SOURCE", "CONFIG"})
    missing = {"SOURCE", "CONFIG"} - set(literals)
    if missing:
        raise ValueError(f"{path}: no literal {' or '.join(sorted(missing))} = ... at module level")
    return build(render(literals["SOURCE"], literals["CONFIG"], path), name)
