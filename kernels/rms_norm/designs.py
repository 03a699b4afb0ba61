"""Known designs of rms_norm's kernels, per backend: CONFIG presets with the reason each might win.

The search policy (agent/policies/search.py) tries them after the neighbours of the best configuration
run dry; each is a point of the kernel file's SEARCH_SPACE (tests/agent/test_catalogue.py).
"""

from kernels.design import Design

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
}
