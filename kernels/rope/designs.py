"""Known designs of rope's kernels, per backend: CONFIG presets with the reason each might win.

The search policy (agent/policies/search.py) tries them after the neighbours of the best configuration
run dry; each is a point of the kernel file's SEARCH_SPACE (tests/agent/test_catalogue.py).
"""

from workbench.kernels.design import Design

DESIGNS: dict[str, list[Design]] = {
    "tilelang": [
        Design(
            "many rows per block",
            "256 rows x half head_dim per block: more bytes in flight per block, fewer blocks to schedule",
            {"block_rows": 256, "threads": 256},
        ),
        Design(
            "small blocks, high occupancy",
            "16 rows per 128-thread block: many small blocks hide latency on small token counts",
            {"block_rows": 16, "threads": 128},
        ),
        Design(
            "one warp-wide row group",
            "32 rows per 64 threads: each thread handles more elements, more memory-level parallelism",
            {"block_rows": 32, "threads": 64},
        ),
        Design(
            "copied tiles, 16-byte loads",
            "x and out through register tiles with T.copy: in the direct loop the fp32 tables hold the vector "
            "width to 4 lanes, so bf16 moves 8 bytes per access; the copies move 16 (uint4 in the lowered CUDA); "
            "on an H200, 0.53 -> 0.78 of copy at the median shape (benchmarks/probes/tilelang.md)",
            {"copy_tiles": True, "small_copy_tiles": True},
        ),
        Design(
            "split the head for decode",
            "decode calls only: 8 rows x 16 pairs per 64-thread block, so 8B decode8 q runs 128 blocks, not 4",
            {"small_block_rows": 8, "small_threads": 64, "small_block_cols": 16},
        ),
    ],
    "ninetoothed": [
        Design(
            "split decode calls",
            "decode calls only: 1 token x 4 heads per program with 2 warps, so 8B decode8 q runs 64 programs, "
            "not 4, and prefill keeps its tiles",
            {"small_block_tokens": 1, "small_block_heads": 4, "small_num_warps": 2},
        ),
        Design(
            "more tokens per program",
            "32 tokens x 8 heads per program: longer contiguous runs per load",
            {"block_tokens": 32, "block_heads": 8},
        ),
        Design(
            "all kv heads in one program",
            "16 tokens x 8 heads: one table load serves every head of a token",
            {"block_tokens": 16, "block_heads": 8, "num_warps": 8},
        ),
    ],
    # CUDA C++ (kernels/rope/maca_cpp.py): none measured yet; the reasons are what a kernel developer
    # would try first, not results.
    "maca_cpp": [
        Design(
            "one thread per pack, more rows",
            "256 threads x 64 rows: at head_dim 128 bf16 a row is 8 packs, so 512 packs per block, 2 per thread; "
            "more bytes in flight per block on prefill",
            {"threads": 256, "rows_per_block": 64},
        ),
        Design(
            "small blocks for decode",
            "64 threads x 8 rows: 8B decode8 q (256 rows) runs 32 blocks instead of 8",
            {"threads": 64, "rows_per_block": 8},
        ),
    ],
}
