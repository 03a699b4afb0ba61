"""rope_qk's spec: q and k rotated as rope rotates each, checked inputs, two outputs of different shapes."""

from __future__ import annotations

import pytest
import torch

from workbench.kernels import registry
from workbench.kernels.rope.spec import SPEC as ROPE_SPEC
from workbench.kernels.rope_qk.spec import SPEC, head_groups

DTYPES = (torch.bfloat16, torch.float16, torch.float32)


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_each_output_is_the_rope_of_its_input(dtype):
    q, k, sin, cos = SPEC.make_inputs((2, 9, 6, 2, 64), dtype, seed=3)
    q_ref, k_ref = SPEC.expected((q, k, sin, cos), dtype)
    assert torch.equal(q_ref, ROPE_SPEC.expected((q, sin, cos), dtype))
    assert torch.equal(k_ref, ROPE_SPEC.expected((k, sin, cos), dtype))


def test_outputs_are_shaped_like_q_and_k():
    args = SPEC.make_inputs((1, 5, 32, 8, 128), torch.bfloat16, seed=0)
    q_out, k_out = SPEC.empty_out(args, fill=float("nan"))
    assert q_out.shape == (1, 5, 32, 128) and k_out.shape == (1, 5, 8, 128)
    assert q_out.isnan().all() and k_out.isnan().all()


def test_torch_implementation_writes_both_outputs():
    args = SPEC.make_inputs((3, 7, 9, 3, 80), torch.bfloat16, seed=4)
    out = SPEC.empty_out(args, fill=float("nan"))
    result = registry.torch_implementation("rope_qk")(*args, out=out)
    assert result is out and SPEC.compare(result, args, torch.bfloat16).ok
    allocated = registry.torch_implementation("rope_qk")(*args)
    assert isinstance(allocated, tuple) and SPEC.compare(allocated, args, torch.bfloat16).ok


def test_swapped_or_unwritten_outputs_fail_with_their_name():
    args = SPEC.make_inputs((1, 4, 8, 8, 64), torch.float32, seed=1)
    q_ref, k_ref = SPEC.expected(args, torch.float32)
    assert not SPEC.compare((k_ref, q_ref), args, torch.float32).ok  # same shapes, wrong tensors
    result = SPEC.compare((q_ref, torch.full_like(k_ref, float("nan"))), args, torch.float32)
    assert not result.ok and result.message.startswith("output `k`")


def test_named_shapes_one_per_model_and_size():
    assert SPEC.shape("llama3-8b/prefill512").dims == (1, 512, 32, 8, 128)
    assert SPEC.shape("llama3.2-1b/decode8").dims == (8, 1, 32, 8, 64)
    assert len(SPEC.shapes) == 2 * (4 + 4)
    assert {s.dims[3] for s in SPEC.hidden_shapes} >= {1, 3}  # one kv head; kv heads not a power of two


def test_bytes_moved_counts_q_k_and_their_outputs_and_the_tables_once():
    # 8B prefill512: q and k read and written, bf16; two fp32 tables of [512, 64].
    assert SPEC.bytes_moved((1, 512, 32, 8, 128), torch.bfloat16) == 2 * 512 * 40 * 128 * 2 + 2 * 512 * 64 * 4
    # The point of the op: one table read less than two rope calls.
    two_ropes = ROPE_SPEC.bytes_moved((1, 512, 32, 128), torch.bfloat16) + ROPE_SPEC.bytes_moved(
        (1, 512, 8, 128), torch.bfloat16
    )
    assert two_ropes - SPEC.bytes_moved((1, 512, 32, 8, 128), torch.bfloat16) == 2 * 512 * 64 * 4


def test_inputs_are_seeded_and_fresh_per_seed():
    first = SPEC.make_inputs((1, 6, 4, 2, 64), torch.bfloat16, seed=5)
    again = SPEC.make_inputs((1, 6, 4, 2, 64), torch.bfloat16, seed=5)
    other = SPEC.make_inputs((1, 6, 4, 2, 64), torch.bfloat16, seed=6)
    assert all(torch.equal(a, b) for a, b in zip(first, again, strict=True))
    assert not torch.equal(first[0], other[0])


@pytest.mark.parametrize(
    ("q_heads", "kv_heads", "wanted", "groups"),
    [(32, 8, 8, 8), (32, 8, 16, 8), (32, 8, 3, 2), (9, 3, 8, 3), (3, 1, 8, 1), (7, 7, 4, 1), (8, 4, 4, 4)],
)
def test_head_groups_split_both_head_counts(q_heads, kv_heads, wanted, groups):
    assert head_groups(q_heads, kv_heads, wanted) == groups
    assert q_heads % groups == 0 and kv_heads % groups == 0


class TestValidation:
    def args(self, q_heads=4, kv_heads=2, seq=3, dtype=torch.float32):
        return SPEC.make_inputs((1, seq, q_heads, kv_heads, 64), dtype, seed=0)

    def check(self, *args, out=None):
        SPEC.check_inputs(*args, out, require_gpu=False)

    def test_valid_inputs_pass(self):
        self.check(*self.args())
        self.check(*self.args(), out=SPEC.empty_out(self.args()))

    def test_k_must_share_batch_seq_and_head_dim(self):
        q, k, sin, cos = self.args()
        with pytest.raises(ValueError, match="k must share q's batch, seq and head_dim"):
            self.check(q, torch.cat((k, k)), sin, cos)
        # The tables are checked against q; a k of another head_dim is told what it must share with q.
        with pytest.raises(ValueError, match="k must share q's batch, seq and head_dim"):
            self.check(q, torch.zeros(1, 3, 2, 128), sin, cos)
        with pytest.raises(ValueError, match="k must share q's batch, seq and head_dim"):
            self.check(q, torch.zeros(1, 2, 2, 64), sin, cos)  # tables longer than k's seq are fine; q's is not k's
        with pytest.raises(ValueError, match=r"sin must be \[seq, head_dim // 2\] = \[5, 32\] .* for q"):
            self.check(torch.zeros(1, 5, 4, 64), torch.zeros(1, 5, 2, 64), sin, cos)

    def test_messages_name_the_tensor_at_fault(self):
        q, k, sin, cos = self.args()
        with pytest.raises(ValueError, match="k must be \\[batch, seq, heads, head_dim\\]"):
            self.check(q, k[0], sin, cos)
        with pytest.raises(ValueError, match="q is not contiguous"):
            self.check(torch.zeros(1, 4, 3, 64).transpose(1, 2), k, sin, cos)

    def test_dtypes_must_agree(self):
        q, k, sin, cos = self.args()
        with pytest.raises(ValueError, match=r"k has dtype torch\.float16 but q has torch\.float32"):
            self.check(q, k.half(), sin, cos)

    def test_both_need_heads(self):
        q, k, sin, cos = self.args()
        with pytest.raises(ValueError, match="at least one head each"):
            self.check(q, k[:, :, :0], sin, cos)

    def test_out_must_be_a_pair_shaped_like_q_and_k(self):
        args = self.args()
        q_out, _ = SPEC.empty_out(args)
        with pytest.raises(TypeError, match="out must be a \\(q_out, k_out\\) pair"):
            self.check(*args, out=q_out)
        with pytest.raises(ValueError, match=r"out\[1\] \(k\) must match k"):
            self.check(*args, out=(q_out, q_out.clone()))
        shared = torch.empty(1, 3, 2, 64)
        with pytest.raises(ValueError, match="same memory"):
            self.check(*self.args(q_heads=2, kv_heads=2), out=(shared, shared))

    def test_gpu_backends_refuse_cpu_tensors(self):
        with pytest.raises(ValueError, match="q is on cpu"):
            SPEC.check_inputs(*self.args())
