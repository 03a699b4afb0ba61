"""Lower rope_qk[tilelang] with copy_tiles=True over a grid of head layouts and tilings (CPU, no GPU).

Usage: python benchmarks/probes/rope_qk_copy_layouts.py

Every combination must lower: where `_tile_fits` refuses a copied tile, build() falls back to the
direct loop. Prints each failure, then "N cases, F failed, C copied". About 7 minutes on 2 cores.
"""

from __future__ import annotations

import itertools
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import workbench.kernels.rope_qk.tilelang as rope_qk_tl
from workbench.kernels.tilelang_support import lower_to_source

# (q_heads, kv_heads, head_dim): the spec's layouts, its hidden ones and a few more with odd groups.
LAYOUTS = [(3, 1, 64), (7, 7, 96), (9, 3, 80), (32, 8, 128), (8, 2, 128), (32, 8, 64), (12, 4, 80), (6, 2, 96)]
BLOCK_TOKENS = [1, 2, 4, 8, 16, 32]
THREADS = [64, 128, 256, 512]


def main() -> int:
    started = time.monotonic()
    cases = failed = copied = 0
    for (q_heads, kv_heads, head_dim), block_tokens, threads in itertools.product(LAYOUTS, BLOCK_TOKENS, THREADS):
        for groups in sorted({1, kv_heads}):
            cases += 1
            tiles = [block_tokens * (n // groups) * (head_dim // 2) for n in (q_heads, kv_heads)]
            try:
                program = rope_qk_tl.build(
                    q_heads, kv_heads, head_dim, "bfloat16", block_tokens, groups, threads, copy_tiles=True
                )
                lower_to_source(program)
                copied += all(rope_qk_tl._tile_fits(elements, threads) for elements in tiles)
            except Exception as err:  # report every failing combination, not just the first
                failed += 1
                print("FAIL", q_heads, kv_heads, head_dim, block_tokens, groups, threads, str(err).splitlines()[-1])
    print(f"{cases} cases, {failed} failed, {copied} copied ({time.monotonic() - started:.0f} s)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
