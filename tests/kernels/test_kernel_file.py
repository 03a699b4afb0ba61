"""The kernel-file convention: literals read, knobs found from the syntax tree, knob edits that touch one literal."""

from __future__ import annotations

import difflib
from pathlib import Path

import pytest

from workbench.kernels.kernel_file import (
    KernelFileError,
    candidates_for,
    follows_convention,
    knob_values,
    knobs,
    read_literal,
    read_literals,
    set_knobs,
)

ROOT = Path(__file__).resolve().parents[2]

# A user's first TileLang rms_norm: sizes as plain constants, the block as a builder's parameter (the
# tile-ai/tilelang examples' style), threads written into the launch.
TILELANG_USER = '''"""RMSNorm, a first draft."""
import tilelang
import tilelang.language as T

BLOCK = 128
THREADS = 128


def rms_norm_program(M, N, blk_m, dtype="bfloat16"):
    @T.prim_func
    def main(A: T.Tensor((M, N), dtype), B: T.Tensor((M, N), dtype)):
        with T.Kernel(T.ceildiv(M, blk_m), threads=128) as bx:
            T.copy(A[bx * blk_m, 0], B[bx * blk_m, 0])

    return main


def rms_norm(x, weight, eps, *, out=None):
    kernel = tilelang.compile(rms_norm_program(x.shape[0], x.shape[1], 1))
    return kernel(x, out)
'''

# A Triton / NineToothed-style file: a constexpr block with a default, the launch passing num_warps.
TRITON_USER = """import triton
import triton.language as tl


@triton.jit
def _silu_mul_kernel(x_ptr, out_ptr, n, BLOCK_SIZE: tl.constexpr = 1024):
    pid = tl.program_id(0)


def build(dtype, block_rows=1, threads=256):
    return dtype


def silu_mul(x, *, out=None):
    _silu_mul_kernel[(x.shape[0],)](x, out, x.shape[1], num_warps=4, num_stages=2)
    return out
"""


def _by_name(source: str) -> dict:
    return {knob.name: knob for knob in knobs(source)}


def test_a_tilelang_user_file_shows_its_constants_launch_and_builder_parameter():
    found = _by_name(TILELANG_USER)
    assert {"BLOCK", "THREADS"} <= set(found)
    assert found["BLOCK"].kind == "constant" and found["BLOCK"].value == 128 and found["BLOCK"].line == 5
    launch = [k for k in found.values() if k.kind == "launch"]
    # threads=128 in T.Kernel, and the literal 1 passed in the place of rms_norm_program's blk_m
    assert sorted((k.role, k.value) for k in launch) == [("block", 1), ("threads", 128)]
    assert found["THREADS"].candidates == (32, 64, 128, 256, 512, 1024)


def test_a_triton_user_file_shows_its_defaults_and_launch_parameters():
    found = _by_name(TRITON_USER)
    assert found["_silu_mul_kernel:BLOCK_SIZE"].value == 1024 and found["_silu_mul_kernel:BLOCK_SIZE"].role == "block"
    assert found["build:threads"].kind == "default" and found["build:block_rows"].value == 1
    roles = {k.role: k for k in found.values() if k.kind == "launch"}
    assert roles["warps"].candidates == (1, 2, 4, 8, 16, 32)
    assert roles["stages"].candidates == tuple(range(1, 9))


def test_knob_names_stay_unique_where_a_keyword_repeats():
    source = TRITON_USER.replace("x.shape[1], num_warps=4", "x.shape[1], BLOCK_SIZE=2048, num_warps=4")
    names = [k.name for k in knobs(source)]
    assert len(names) == len(set(names))


def test_candidates_stay_within_each_roles_bounds():
    assert candidates_for("threads", 96) == (32, 64, 96, 128, 256, 512, 1024)
    assert all(v % 32 == 0 and 32 <= v <= 1024 for v in candidates_for("threads", 256))
    assert candidates_for("warps", 4) == (1, 2, 4, 8, 16, 32)
    assert candidates_for("block", 128) == (16, 32, 64, 128, 256, 512, 1024)
    assert candidates_for("block", 1) == (1, 2, 4, 8)
    assert candidates_for("flag", True) == (False, True)


def test_a_declared_search_space_wins_over_what_the_tree_shows():
    source = (ROOT / "kernels" / "rms_norm" / "tilelang.py").read_text()
    found = knobs(source)
    assert {k.kind for k in found} == {"config"}
    assert knob_values(source) == read_literal(source, "CONFIG")
    space = read_literal(source, "SEARCH_SPACE")
    assert all(list(k.candidates) == space[k.name] for k in found)


def test_editing_a_knob_rewrites_that_literal_only():
    edited = set_knobs(TILELANG_USER, {"THREADS": 256})
    diff = [
        line
        for line in difflib.unified_diff(TILELANG_USER.splitlines(), edited.splitlines(), lineterm="", n=0)
        if line[:1] in "+-" and line[:3] not in ("+++", "---")
    ]
    assert diff == ["-THREADS = 128", "+THREADS = 256"]
    launch = next(k for k in knobs(TILELANG_USER) if k.kind == "launch" and k.role == "threads")
    edited = set_knobs(TILELANG_USER, {launch.name: 512})
    assert "T.Kernel(T.ceildiv(M, blk_m), threads=512)" in edited
    assert edited.replace("threads=512", "threads=128") == TILELANG_USER  # byte for byte elsewhere
    assert set_knobs(TILELANG_USER, {"THREADS": 128}) == TILELANG_USER


def test_an_unknown_knob_is_an_error_that_lists_the_knobs():
    with pytest.raises(KernelFileError, match=r"no knob named block_rows.*BLOCK"):
        set_knobs(TILELANG_USER, {"block_rows": 2})


def test_a_file_with_nothing_to_tune_has_no_knobs():
    source = "import torch\n\n\ndef rms_norm(x, weight, eps, *, out=None):\n    return x\n"
    assert knobs(source) == [] and knob_values(source) == {}


def test_literals_read_any_type_and_name_what_is_not_a_literal():
    source = 'SOURCE = r"""int main() {}"""\nCONFIG = {"threads": 128}\nOTHER = make()\n'
    assert read_literals(source, {"SOURCE", "CONFIG", "MISSING"}) == {
        "SOURCE": "int main() {}",
        "CONFIG": {"threads": 128},
    }
    with pytest.raises(KernelFileError, match=r"OTHER.*plain literal"):
        read_literals(source, {"OTHER"})
    with pytest.raises(KernelFileError, match="no module-level `SEARCH_SPACE"):
        read_literal(source, "SEARCH_SPACE")


def test_the_shipped_convention_is_a_config_and_a_search_space():
    assert follows_convention((ROOT / "kernels" / "silu_mul" / "ninetoothed.py").read_text())
    assert not follows_convention(TILELANG_USER)
    assert not follows_convention('CONFIG = {"block": 128}\n')
