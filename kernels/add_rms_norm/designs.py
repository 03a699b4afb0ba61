"""Known designs of add_rms_norm's kernels, per backend: CONFIG presets with the reason each might win.

The search policy (agent/policies/search.py) tries them after the neighbours of the best configuration
run dry; each is a point of the kernel file's SEARCH_SPACE (tests/agent/test_catalogue.py).
"""

from workbench.kernels.design import Design

DESIGNS: dict[str, list[Design]] = {
    "tilelang": [
        Design(
            "one row per wide block",
            "one row per 512-thread block: two input rows and two output rows per block, 8 elements per "
            "thread at hidden 4096, so the loads of x and residual stay 16 bytes wide with more bytes in flight",
            {"block_rows": 1, "threads": 512},
        ),
        Design(
            "two rows per block",
            "2 rows per 256-thread block: each block-wide reduction and barrier serves twice the bytes, "
            "which matters more here than in rms_norm since a row moves 4 x hidden elements",
            {"block_rows": 2, "threads": 256},
        ),
        Design(
            "one row per small block",
            "one row per 128-thread block: more resident blocks per SM, so decode batches of 1-128 rows "
            "still keep several blocks' loads in flight",
            {"block_rows": 1, "threads": 128},
        ),
    ],
    "ninetoothed": [
        Design(
            "more warps per row",
            "8 warps per row: a program streams two input rows and writes two; at hidden 4096 each thread "
            "then holds 16 elements of x, residual and the sum instead of 32, less register pressure",
            {"num_warps": 8},
        ),
        Design(
            "fewer warps per row",
            "2 warps per row: fewer registers per program's row tile, more programs resident per SM",
            {"num_warps": 2},
        ),
    ],
    # CUDA C++ (kernels/add_rms_norm/maca_cpp.py): none measured yet; the reasons are what a kernel developer
    # would try first, not results.
    "maca_cpp": [
        Design(
            "one warp-group per row, more rows per block",
            "128 threads, 2 rows per block: x, residual and the sum of a 2048-wide bf16 row in 2 packs per thread, "
            "two rows per block to amortise the reduction",
            {"threads": 128, "rows_per_block": 2},
        ),
        Design(
            "wide blocks for long rows",
            "512 threads: at hidden 4096 each thread caches 1 pack of the sum, fewer registers than 256 threads x 2",
            {"threads": 512, "cache_packs": 2},
        ),
    ],
}
