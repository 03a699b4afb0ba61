"""Run a maca_cpp kernel file's CUDA C++ on the CPU: each block's threads as host threads (tests only).

The source is rewritten, not reinterpreted: after the prelude's #includes a shim turns `__global__`
and `__device__` functions (the prelude's helpers included) into host functions, `__shared__`
arrays into statics (blocks run one after another), `__syncthreads` into a barrier over the
block's threads and `__shfl_xor_sync` into an exchange through memory between two barriers;
each `kernel<<<grid, block, 0, stream>>>(...)` becomes a loop over the grid that starts `block`
host threads. nvcc compiles the result as host code. What this checks: the kernels' index
math, masking, vector paths and reductions, on the CPU. What it does not: warp-synchronous
timing, the memory model, occupancy, speed.
"""

from __future__ import annotations

import re
from pathlib import Path

from workbench.kernels import cpp_support

SHIM = r"""
#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

#undef __global__
#define __global__
#undef __device__
#define __device__
#undef __forceinline__
#define __forceinline__ inline
#undef __launch_bounds__
#define __launch_bounds__(...)
#undef __shared__
#define __shared__ static

struct KwBarrier {
    std::mutex m;
    std::condition_variable cv;
    int count = 0, waiting = 0;
    long generation = 0;
    void wait() {
        std::unique_lock<std::mutex> lock(m);
        const long seen = generation;
        if (++waiting == count) { waiting = 0; ++generation; cv.notify_all(); }
        else cv.wait(lock, [&] { return generation != seen; });
    }
};
static KwBarrier kw_barrier;
static thread_local uint3 kw_thread_idx, kw_block_idx;
#define threadIdx kw_thread_idx
#define blockIdx kw_block_idx
static float kw_slots[1024];

inline void kw_syncthreads() { kw_barrier.wait(); }
#define __syncthreads() kw_syncthreads()
inline float kw_shfl_xor(unsigned, float v, int offset, int width) {
    const unsigned t = threadIdx.x;
    kw_slots[t] = v;
    kw_barrier.wait();
    const float other = kw_slots[(t & ~(unsigned)(width - 1)) | ((t ^ offset) & (width - 1))];
    kw_barrier.wait();
    return other;
}
#define __shfl_xor_sync kw_shfl_xor

template <typename F> static void kw_launch(dim3 grid, unsigned threads, F body) {
    kw_barrier.count = (int)threads;
    for (unsigned by = 0; by < grid.y; ++by)
        for (unsigned bx = 0; bx < grid.x; ++bx) {
            std::vector<std::thread> block;
            for (unsigned t = 0; t < threads; ++t)
                block.emplace_back([=] {
                    kw_block_idx = make_uint3(bx, by, 0);
                    kw_thread_idx = make_uint3(t, 0, 0);
                    body();
                });
            for (auto& thread : block) thread.join();
        }
}
#define cudaGetLastError() cudaSuccess
"""

LAUNCH = re.compile(r"(\w+<[^;<>]*>)<<<([^,]+),\s*([^,]+),\s*0,\s*stream>>>\((.*?)\);", re.DOTALL)


def emulated(text: str) -> str:
    """The translation unit `text` (cpp_support.render's) rewritten to run on host threads."""
    prelude_at = text.index(cpp_support.PRELUDE)
    includes = re.finditer(r"^#include <[^>]+>\n", cpp_support.PRELUDE, re.MULTILINE)
    last_include = prelude_at + max(m.end() for m in includes)  # the shim must precede the prelude's helpers
    body = LAUNCH.sub(lambda m: f"kw_launch({m[2]}, {m[3]}, [&] {{ {m[1]}({m[4]}); }});", text[last_include:])
    if "<<<" in body:
        raise ValueError(
            "a kernel launch the emulation does not recognise: write it as kernel<...><<<g, b, 0, stream>>>"
        )
    return text[:last_include] + SHIM + body


class EmulatedLibrary(cpp_support.Library):
    """A kernel file's library built for the CPU: `launch` passes no stream and needs no GPU."""

    def launch(self, entry: str, *args, device) -> None:
        code = self._entries[entry](*args, None)
        if code != 0:
            raise cpp_support.LaunchError(f"{entry} returned {code}")


def build_emulated(module, name: str) -> EmulatedLibrary:
    """The kernel file `module`'s SOURCE with its current CONFIG, compiled by nvcc as host code."""
    text = emulated(cpp_support.render(module.SOURCE, module.CONFIG, Path(module.__file__)))
    nvcc = cpp_support.nvcc_toolchain("sm_90")
    chain = cpp_support.Toolchain(
        "nvcc (host emulation)", nvcc.compiler, ("-O1", "-std=c++17", "-shared", "-Xcompiler", "-fPIC", "-lpthread")
    )
    return EmulatedLibrary(cpp_support.build(text, f"{name}-emulated", chain), module.SIGNATURES, text)
