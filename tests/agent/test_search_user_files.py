"""The search policy on files a user writes: knobs found and edited in place, no catalogue key added, no repeats."""

from __future__ import annotations

import ast
import difflib
from pathlib import Path

from agent.policies.base import Attempt, ProposalContext
from agent.policies.search import SearchPolicy, refusal
from workbench.kernels.kernel_file import knob_values, knobs, read_literal

ROOT = Path(__file__).resolve().parents[2]

# A user's TileLang rms_norm: sizes as module-level constants, no CONFIG.
TILELANG = '''"""RMSNorm, a first draft: one block per row."""
import tilelang
import tilelang.language as T

BLOCK = 128
THREADS = 128


def build(hidden, dtype):
    @T.prim_func
    def main(X: T.Tensor((T.dynamic("rows"), hidden), dtype)):
        with T.Kernel(T.dynamic("rows"), threads=THREADS) as bx:
            xs = T.alloc_fragment((BLOCK,), "float32")

    return main
'''

# The tile-ai/tilelang examples' style: the block size a parameter of the builder, given at the call.
TILE_AI = '''"""RMSNorm after tile-ai's examples/norm/rms_norm.py."""
import tilelang
import tilelang.language as T


def rms_norm_program(M, N, blk_m):
    @T.prim_func
    def main(A: T.Tensor((M, N), "float"), B: T.Tensor((M, N), "float")):
        with T.Kernel(T.ceildiv(M, blk_m), threads=128) as bx:
            A_shared = T.alloc_shared((blk_m, N), "float")

    return main


def rms_norm(x, weight, eps, *, out=None):
    return tilelang.compile(rms_norm_program(x.shape[0], x.shape[1], 1))(x, out)
'''

# NineToothed / Triton: a constexpr block size with a keyword default, num_warps in the launch.
TRITON = """import triton
import triton.language as tl


@triton.jit
def _kernel(x_ptr, out_ptr, n, BLOCK_SIZE: tl.constexpr = 1024):
    pid = tl.program_id(0)


def silu_mul(x, *, out=None):
    _kernel[(x.shape[0],)](x, out, x.shape[1], num_warps=4)
    return out
"""

NOTHING = '"""RMSNorm in torch ops only."""\n\n\ndef rms_norm(x, weight, eps, *, out=None):\n    return x\n'


def _context(source: str, attempts: list[Attempt] | None = None, k: int = 1, op: str = "rms_norm", backend="tilelang"):
    return ProposalContext(
        op=op, backend=backend, iteration=len(attempts or []) + 1, spec_text="", best_source=source,
        best_summary="", profile_summary="", hardware="", attempts=attempts or [], k=k,
    )  # fmt: skip


def _changed(before: str, after: str) -> list[str]:
    diff = difflib.unified_diff(before.splitlines(), after.splitlines(), lineterm="", n=0)
    return [line for line in diff if line[:1] in "+-" and line[:3] not in ("+++", "---")]


def _literal_lines(source: str) -> set[int]:
    return {knob.line for knob in knobs(source)}


def _names(source: str) -> set[str]:
    return {node.id for node in ast.walk(ast.parse(source)) if isinstance(node, ast.Name)}


def _check_edits_only_knob_literals(source: str, op: str, backend: str) -> list:
    proposals = SearchPolicy(op, backend).propose(_context(source, k=50, op=op, backend=backend))
    assert proposals, "the policy found nothing to propose"
    lines = _literal_lines(source)
    original = source.splitlines()
    for proposal in proposals:
        assert "CONFIG" not in proposal.source and "catalogue" not in proposal.rationale
        assert _names(proposal.source) == _names(source)  # no key, constant or name added
        edited = proposal.source.splitlines()
        assert len(edited) == len(original)
        changed = {i + 1 for i, (a, b) in enumerate(zip(original, edited, strict=True)) if a != b}
        assert changed and changed <= lines, proposal.rationale
    return proposals


def test_a_tilelang_user_file_is_tuned_through_its_constants():
    proposals = _check_edits_only_knob_literals(TILELANG, "rms_norm", "tilelang")
    assert _changed(TILELANG, proposals[0].source) == ["-BLOCK = 128", "+BLOCK = 256"]
    assert proposals[0].rationale.startswith("BLOCK 128 -> 256: neighbour of the best")


def test_a_tile_ai_style_file_is_tuned_through_the_block_given_to_its_builder():
    proposals = _check_edits_only_knob_literals(TILE_AI, "rms_norm", "tilelang")
    edited = {line for p in proposals for line in _changed(TILE_AI, p.source) if line.startswith("+")}
    assert "+    return tilelang.compile(rms_norm_program(x.shape[0], x.shape[1], 2))(x, out)" in edited
    assert "+        with T.Kernel(T.ceildiv(M, blk_m), threads=256) as bx:" in edited


def test_a_triton_style_file_is_tuned_through_its_constexpr_default_and_launch():
    proposals = _check_edits_only_knob_literals(TRITON, "silu_mul", "ninetoothed")
    edited = {line for p in proposals for line in _changed(TRITON, p.source) if line.startswith("+")}
    assert "+def _kernel(x_ptr, out_ptr, n, BLOCK_SIZE: tl.constexpr = 2048):" in edited
    assert "+    _kernel[(x.shape[0],)](x, out, x.shape[1], num_warps=8)" in edited


def test_a_file_with_nothing_to_tune_is_refused_in_one_line_that_says_what_to_add():
    reason = refusal(NOTHING, "kernels/x.py")
    assert reason == (
        "kernels/x.py has no knob the search policy can tune: no module-level integer constant, keyword default "
        "of a builder, launch parameter or CONFIG; add CONFIG = {...} and SEARCH_SPACE = {...}, or use --policy llm"
    )
    assert "\n" not in reason
    assert refusal(TILELANG, "kernels/x.py") is None
    assert SearchPolicy("rms_norm", "tilelang").propose(_context(NOTHING)) == []


def test_optimize_refuses_before_the_baseline(tmp_path, monkeypatch):
    """The check runs before the GPU check, the run folder and the judge: nothing is started."""
    from agent.cli import main

    kernel = tmp_path / "mine.py"
    kernel.write_text(NOTHING)
    runs = tmp_path / "runs"
    code = main(["optimize", "rms_norm", "--backend", "tilelang", "--policy", "search", "--candidate", str(kernel),
                 "--runs-dir", str(runs)])  # fmt: skip
    assert code != 0 and not runs.exists()


def test_a_user_config_gets_no_catalogue_key_even_when_its_space_is_spent():
    # Issue: rope TileLang, CONFIG {"block": 128}, both neighbours tried; the catalogue raised KeyError 'block_rows'.
    source = 'CONFIG = {"block": 128}\nSEARCH_SPACE = {"block": [64, 128, 256]}\n'
    attempts = [
        Attempt(1, "block 128 -> 256: neighbour", "rejected", "within the noise", {"block": 256}, 1.0, 0.5),
        Attempt(2, "block 128 -> 64: neighbour", "rejected", "within the noise", {"block": 64}, 0.9, 0.4),
    ]
    assert SearchPolicy("rope", "tilelang").propose(_context(source, attempts, op="rope")) == []


def test_catalogue_designs_apply_to_shipped_convention_files_only():
    shipped = (ROOT / "kernels" / "silu_mul" / "ninetoothed.py").read_text()
    policy = SearchPolicy("silu_mul", "ninetoothed")
    walk = policy.propose(_context(shipped, k=200, op="silu_mul", backend="ninetoothed"))
    assert any("catalogue design" in p.rationale for p in walk)
    assert all(set(read_literal(p.source, "CONFIG")) == set(read_literal(shipped, "CONFIG")) for p in walk)
    # The same keys in a user's CONFIG without a SEARCH_SPACE: its knobs are tuned, the catalogue is not applied.
    user = 'CONFIG = {"block_rows": 2, "block_cols": 1024, "num_warps": 4}\n'
    mine = SearchPolicy("silu_mul", "ninetoothed").propose(_context(user, k=500, op="silu_mul", backend="ninetoothed"))
    assert mine and not any("catalogue" in p.rationale for p in mine)


def _accept(policy: SearchPolicy, source: str, attempts: list[Attempt], k: int = 1) -> tuple[str, list[Attempt]]:
    proposal = policy.propose(_context(source, attempts, k=k, op="silu_mul", backend="ninetoothed"))[0]
    config = knob_values(proposal.source)
    attempt = Attempt(len(attempts) + 1, proposal.rationale, "accepted", "faster", config, 1.1, 0.7)
    return proposal.source, [*attempts, attempt]


def test_no_configuration_is_proposed_twice_the_start_included():
    """Item 8: from (1, 256, 1, 1), a step won; the walk's next neighbours must not include the start again."""
    start = (ROOT / "kernels" / "silu_mul" / "ninetoothed.py").read_text()
    start = start.replace(
        'CONFIG = {"block_rows": 2, "block_cols": 1024, "num_warps": 4, "num_stages": 1}',
        'CONFIG = {"block_rows": 1, "block_cols": 256, "num_warps": 1, "num_stages": 1}',
    )
    timed = [knob_values(start)]
    source, attempts = start, []
    for _ in range(3):  # a fresh policy each time: what it must not repeat comes from the attempts alone
        source, attempts = _accept(SearchPolicy("silu_mul", "ninetoothed"), source, attempts)
        timed.append(knob_values(source))
    proposals = SearchPolicy("silu_mul", "ninetoothed").propose(
        _context(source, attempts, k=400, op="silu_mul", backend="ninetoothed")
    )
    configs = [knob_values(p.source) for p in proposals]
    assert len(timed) == 4 and not [c for c in configs if c in timed]
    assert len({tuple(sorted(c.items())) for c in configs}) == len(configs)
