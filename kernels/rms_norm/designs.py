"""Known designs of rms_norm's kernels, per backend: CONFIG presets with the reason each might win.

The search policy (agent/policies/search.py) tries them after the neighbours of the best configuration
run dry; each is a point of the kernel file's SEARCH_SPACE (tests/agent/test_catalogue.py).
"""

from workbench.kernels.design import Design

DESIGNS: dict[str, list[Design]] = {
    "tilelang": [
        Design(
            "one block per row, wide",
            "one row per 512-thread block: 8 elements per thread at hidden 4096, 16-byte loads",
            {"block_rows": 1, "threads": 512},
        ),
        Design(
            "several rows per block",
            "4 rows per 256-thread block: amortises the block-wide reduction over more bytes",
            {"block_rows": 4, "threads": 256},
        ),
        Design(
            "one row per small block",
            "one row per 128-thread block: more resident blocks per SM for decode batches",
            {"block_rows": 1, "threads": 128},
        ),
    ],
    "ninetoothed": [
        Design("more warps per row", "8 warps per row: more loads in flight for long rows", {"num_warps": 8}),
        Design("fewer warps per row", "2 warps per row: more programs resident per SM", {"num_warps": 2}),
    ],
    # CUDA C++ (kernels/rms_norm/maca_cpp.py): none measured yet; the reasons are what a kernel developer
    # would try first, not results.
    "maca_cpp": [
        Design(
            "one warp-group per row, more rows per block",
            "128 threads, 4 rows per block: at hidden 2048 bf16 each thread holds 2 packs of 8, and four rows per "
            "block amortise the block's start and its shared-memory reduction",
            {"threads": 128, "rows_per_block": 4},
        ),
        Design(
            "wide blocks for long rows",
            "512 threads, the whole row in registers: hidden 4096-5120 bf16 needs 1-2 packs per thread, so no pack "
            "is read twice, and the block moves 8-10 KB",
            {"threads": 512, "cache_packs": 2},
        ),
        Design(
            "8-byte accesses",
            "vec 4: half the registers per pack; where 16-byte loads leave too few warps resident, narrower "
            "ones with more threads in flight can reach the same bandwidth",
            {"vec": 4, "threads": 512},
        ),
    ],
}
