"""Known designs of silu_mul's kernels, per backend: CONFIG presets with the reason each might win.

The search policy (agent/policies/search.py) tries them after the neighbours of the best configuration
run dry; each is a point of the kernel file's SEARCH_SPACE (tests/agent/test_catalogue.py).
"""

from workbench.kernels.design import Design

DESIGNS: dict[str, list[Design]] = {
    "tilelang": [
        Design(
            "long rows per block",
            "1 row x 2048 columns per 256-thread block: 8 elements per thread, one 16-byte load of gate and "
            "one of up each in bf16, and 7 column blocks per 8B token instead of 28 small ones",
            {"block_rows": 1, "block_cols": 2048, "threads": 256},
        ),
        Design(
            "small tiles for decode",
            "1 row x 256 columns per 64-thread block: a decode batch of 1 still spreads over 32-56 blocks, "
            "so more SMs pull on DRAM for a 50-90 KB problem",
            {"block_rows": 1, "block_cols": 256, "threads": 64},
        ),
        Design(
            "many rows per block",
            "8 rows x 512 columns per 256-thread block: 16 elements per thread for more loads in flight "
            "on prefill, and 8x fewer blocks to schedule",
            {"block_rows": 8, "block_cols": 512, "threads": 256},
        ),
    ],
    "ninetoothed": [
        Design(
            "one row, wide tile",
            "1 x 4096 per program with 8 warps: long contiguous runs of gate and up, 16 elements per thread",
            {"block_rows": 1, "block_cols": 4096, "num_warps": 8},
        ),
        Design(
            "small tiles for decode",
            "1 x 512 per program with 2 warps: a single decode token still gives 16-28 programs to spread over SMs",
            {"block_rows": 1, "block_cols": 512, "num_warps": 2},
        ),
        Design(
            "square-ish tiles, pipelined",
            "8 x 512 per program with 2 stages: more bytes in flight per program on prefill-sized inputs",
            {"block_rows": 8, "block_cols": 512, "num_warps": 4, "num_stages": 2},
        ),
    ],
    # CUDA C++ (kernels/silu_mul/maca_cpp.py): none measured yet; the reasons are what a kernel developer
    # would try first, not results.
    "maca_cpp": [
        Design(
            "more rows per block",
            "8 rows per 256-thread block: one column block's gate/up packs for 8 tokens, fewer blocks to schedule "
            "on prefill (8192 x 14336 is 57 M outputs)",
            {"rows_per_block": 8},
        ),
        Design(
            "narrow blocks for decode",
            "64 threads, 1 row per block: a decode1 call of intermediate 8192 runs 16 blocks instead of 4",
            {"threads": 64, "rows_per_block": 1},
        ),
    ],
}
