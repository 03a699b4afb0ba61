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
    ("rms_norm", "ninetoothed"): [
        Design("more warps per row", "8 warps per row: more loads in flight for long rows", {"num_warps": 8}),
        Design("fewer warps per row", "2 warps per row: more programs resident per SM", {"num_warps": 2}),
    ],
}


def designs(op: str, backend: str) -> list[Design]:
    return CATALOGUE.get((op, backend), [])
