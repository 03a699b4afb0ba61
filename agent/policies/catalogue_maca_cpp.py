"""Known designs for the maca_cpp (CUDA C++) kernel files, as CONFIG presets with the reason each might win.

Kept apart from agent/policies/catalogue.py so the CUDA C++ designs travel as one piece;
`catalogue.designs(op, "maca_cpp")` returns them. None has been measured yet: the reasons
are what a kernel developer would try first, not results.
"""

from __future__ import annotations

from agent.policies.catalogue import Design

DESIGNS: dict[str, list[Design]] = {
    "rms_norm": [
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
    "add_rms_norm": [
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
    "silu_mul": [
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
    "rope": [
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
    "rope_qk": [
        Design(
            "a block per head group for decode",
            "8 head groups, 1 token per 64-thread block: an 8B decode1 call runs 8 blocks, not 2",
            {"head_groups": 8, "tokens_per_block": 1, "threads": 64},
        ),
        Design(
            "all heads of a token per block",
            "one head group, 4 tokens per 256-thread block: each table row is fetched once for all 40 q and k "
            "heads of a token",
            {"head_groups": 1, "tokens_per_block": 4, "threads": 256},
        ),
    ],
}
