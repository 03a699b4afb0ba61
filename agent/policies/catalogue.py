"""Known designs per operator and backend, as CONFIG presets with the reason each might win.

The search policy tries these after the neighbours of the best configuration
run dry. Each is a point in the kernel's SEARCH_SPACE chosen for a reason a
kernel developer would give, not a grid cell.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Design:
    name: str
    rationale: str
    config: dict


CATALOGUE: dict[tuple[str, str], list[Design]] = {
    ("rope", "tilelang"): [
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
            "measured in docs/log.md, 2026-11-29 fourth session",
            {"copy_tiles": True, "small_copy_tiles": True},
        ),
        Design(
            "split the head for decode",
            "decode calls only: 8 rows x 16 pairs per 64-thread block, so 8B decode8 q runs 128 blocks, not 4",
            {"small_block_rows": 8, "small_threads": 64, "small_block_cols": 16},
        ),
    ],
    ("rope_qk", "tilelang"): [
        Design(
            "all heads of a token per block",
            "one head group, 2 tokens per 256-thread block: each table row is fetched once for all 40 q and k "
            "heads of a token, and the block still reads 20 KB of q and k (8B, bf16)",
            {"head_groups": 1, "block_tokens": 2, "threads": 256},
        ),
        Design(
            "a block per head group for decode",
            "8 head groups, 1 token per 64-thread block: an 8B decode1 call runs 8 blocks, not 1, so more SMs "
            "read its 10 KB of q and k",
            {"head_groups": 8, "block_tokens": 1, "threads": 64},
        ),
        Design(
            "copied tiles, 16-byte loads",
            "q, k and their outputs through register tiles with T.copy, 16 bytes per bf16 access instead of the "
            "direct loop's 8 (held there to 4 lanes by the fp32 tables). A copy moves each thread's share at "
            "once, so the tiles must hold 8 elements per thread: 8 tokens per 64-thread block gives q 32 and k 8 "
            "(8B), all uint4; with 1-4 tokens per block the k copies fall to 4 bytes",
            {"copy_tiles": True, "block_tokens": 8, "threads": 64},
        ),
        Design(
            "many tokens per block on prefill",
            "16 tokens per 256-thread block in 8 groups: 16 elements per thread at 8B, twice the default tile's "
            "loads in flight (the loads stay 4 lanes wide: TileLang vectorises a loop to one width for all its "
            "accesses, and 4 lanes of the fp32 tables are already 16 bytes)",
            {"head_groups": 8, "block_tokens": 16, "threads": 256},
        ),
    ],
    ("rms_norm", "tilelang"): [
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
    ("rope", "ninetoothed"): [
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
    ("rope_qk", "ninetoothed"): [
        Design(
            "all heads in one program",
            "one head group, 4 tokens per program with 8 warps: one table load per token serves all 40 q and k heads",
            {"head_groups": 1, "block_tokens": 4, "num_warps": 8},
        ),
        Design(
            "split heads for decode",
            "8 head groups, 1 token per program with 2 warps: an 8B decode1 call runs 8 programs instead of 1",
            {"head_groups": 8, "block_tokens": 1, "num_warps": 2},
        ),
        Design(
            "long token tiles",
            "32 tokens per program in 8 groups: longer contiguous runs of each head's rows per load",
            {"head_groups": 8, "block_tokens": 32, "num_warps": 4},
        ),
    ],
    ("rms_norm", "ninetoothed"): [
        Design("more warps per row", "8 warps per row: more loads in flight for long rows", {"num_warps": 8}),
        Design("fewer warps per row", "2 warps per row: more programs resident per SM", {"num_warps": 2}),
    ],
    ("silu_mul", "tilelang"): [
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
    ("silu_mul", "ninetoothed"): [
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
    ("add_rms_norm", "tilelang"): [
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
    ("add_rms_norm", "ninetoothed"): [
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
}


def designs(op: str, backend: str) -> list[Design]:
    return CATALOGUE.get((op, backend), [])
