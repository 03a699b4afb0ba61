"""What the decode goal (2.5 µs a call under graphs) allows; the serial work rope's TileLang tiling gives a thread.

    python benchmarks/probes/decode_floor.py [--gbps 4100] [--set small_block_rows=16,small_block_cols=32]

1. Each op's bytes at its named decode shapes in bf16 over a copy bandwidth (the H200's large copy ran at
   4.1 TB/s, copy.md): the time no kernel can beat.
2. rope[tilelang] lowered to CUDA on the CPU for its decode tiling (CONFIG's `small_*`, or those of --set):
   the unrolled loop each thread runs, which its decode graph times follow (decode_floor.md).
"""

from __future__ import annotations

import argparse
import re

import torch

from workbench.kernels import registry
from workbench.kernels.rope import tilelang as rope_tilelang
from workbench.kernels.tilelang_support import lower_to_source


def _floors(gbps: float) -> None:
    for op in (o for o in registry.OPERATORS if registry.native_op(o)):
        spec = registry.spec(op)
        for shape in spec.shapes:
            if "/decode" in shape.name:
                moved = spec.bytes_moved(shape.dims, torch.bfloat16)
                floor_us = moved / (gbps * 1e3)
                print(f"{op:13s} {shape.name:28s} {moved / 1e6:6.2f} MB  {floor_us:5.2f} µs at {gbps:.0f} GB/s")


def _loops(overrides: dict[str, int]) -> None:
    config = {**rope_tilelang.CONFIG, **overrides}
    tiling = {key: config["small_" + key] for key in rope_tilelang.TILING_KEYS}
    print(f"rope[tilelang] decode tiling {tiling}")
    for heads, head_dim in ((32, 64), (8, 64), (32, 128), (8, 128)):
        source = lower_to_source(rope_tilelang.build(heads, head_dim, "bfloat16", **tiling))
        kernel = source[source.find('extern "C" __global__') :]
        loops = [int(n) for _, n in re.findall(r"for \(int (\w+) = 0; \1 < (\d+);", kernel)]
        print(f"  heads {heads:2d} head_dim {head_dim:3d}: loop iterations per thread {loops or [1]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--gbps", type=float, default=4100.0)
    parser.add_argument("--set", default="", help="NAME=VALUE,... over rope[tilelang]'s CONFIG")
    options = parser.parse_args()
    overrides = {k: int(v) for k, v in (item.split("=") for item in options.set.split(",") if item)}
    _floors(options.gbps)
    _loops(overrides)


if __name__ == "__main__":
    main()
