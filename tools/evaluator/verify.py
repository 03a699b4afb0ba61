"""What the judge checks of a timed batch's outputs, and the fresh inputs each batch is timed on.

Every call's outputs are checked for NaN (a skipped call is caught); against the fp32 reference, the
calls of a sample the judge draws after the answer. A chained call's reference is computed from the
inputs it saw: its fresh values, and the previous call's output as the judge copied it out.
"""

from __future__ import annotations

import random

import torch

from tools.evaluator.layout import Layout
from tools.evaluator.seats import Seat
from workbench.kernels.registry import native_op
from workbench.kernels.spec import NamedShape, OpSpec

# Against the reference, all the calls of a batch up to VERIFY_CALLS, and no more outputs than VERIFY_BYTES
# (at least one call). Why a sample: benchmarks/probes/judge_time.md.
VERIFY_CALLS = 16
VERIFY_BYTES = 64 * 2**20


def sample_calls(rng: random.Random, count: int, set_output_bytes: int) -> list[int]:
    """The calls of a batch of `count` checked against the reference: every call, or a sample `rng` draws."""
    size = max(1, min(count, VERIFY_CALLS, VERIFY_BYTES // max(set_output_bytes, 1)))
    return list(range(count)) if size == count else sorted(rng.sample(range(count), size))


class Verifier:
    """Fresh inputs for `spec`'s batches on `device`, drawn with `rng`, and the checks of their outputs."""

    def __init__(self, spec: OpSpec, device: torch.device, rng: random.Random) -> None:
        self.spec = spec
        self.device = device
        self.rng = rng

    def fresh_inputs(self, shape: NamedShape, dtype: torch.dtype, count: int, layout: Layout) -> list:
        """`count` input sets with fresh values, made as one input of the op with `count` times the leading dim.

        Per argument: a [count, ...] view of it (arguments whose leading dim is the op's: x, residual,
        q, k), or one tensor shared by every set (tables, weights, which do not depend on it), or a scalar.
        The same one input is what `reference` computes on, in one call for every set.
        """
        seed = self.rng.randrange(2**31)
        dims = (shape.dims[0] * count, *shape.dims[1:])
        big = self.spec.make_inputs(dims, dtype, seed, self.device.type)
        regions = []
        for slot, value in zip(layout.inputs, big, strict=True):
            if not slot.is_tensor:
                regions.append(value)
            elif tuple(value.shape) == slot.shape:
                regions.append(value.expand(count, *value.shape))  # shared by every set (tables, weights)
            else:
                regions.append(value.view(count, *slot.shape))
        return regions

    def chained_reference(self, regions: list, layout: Layout, snapshot: torch.Tensor, sample: list[int]) -> tuple:
        """The fp32 reference of sampled calls of a chained batch, from the inputs each call saw.

        A chained argument of call j begins with call j-1's output as the judge copied it out; the judge
        holds every other value itself. A call that wrote its input, or an earlier output, makes the two
        disagree.
        """
        per_call = [layout.chained_args(regions, snapshot, j) for j in sample]
        args = []
        for position, (slot, region) in enumerate(zip(layout.inputs, regions, strict=True)):
            if not slot.is_tensor or region.stride(0) == 0:
                args.append(per_call[0][position])
            else:
                args.append(torch.cat([call[position] for call in per_call], 0))
        return tuple(t.float() for t in self.spec.as_outputs(self.spec.reference(*args)))

    def reference(self, regions: list, layout: Layout, sample: list[int], count: int, fn=None) -> tuple:
        """The fp32 reference of the sampled sets, in one call: their inputs stacked along the leading dim.

        `fn`: another function of the op's arguments to compute instead (the native baseline's own ops).
        """
        index = None if len(sample) == count else torch.tensor(sample, device=self.device)
        args = []
        for slot, region in zip(layout.inputs, regions, strict=True):
            if not slot.is_tensor:
                args.append(region)
            elif region.stride(0) == 0:  # shared: one tensor for every set
                args.append(region[0])
            else:
                picked = region[:count] if index is None else region.index_select(0, index)
                args.append(picked.reshape(len(sample) * slot.shape[0], *slot.shape[1:]))
        return tuple(t.float() for t in self.spec.as_outputs((fn or self.spec.reference)(*args)))

    def verify(self, seat: Seat, snapshot, count: int, regions, shared: dict, sample: list[int], dtype, full=True):
        """Why the batch's outputs are wrong, or None: every call checked for NaN, the sample against the reference.

        `shared`: the reference of separate (unchained) sets, computed once per round and reused by every
        seat timed on them; a chained seat's calls saw inputs of its own making, so its reference is its own.
        `full` False: the NaN check only.
        """
        if seat.name == "null":
            return None
        layout, spec = seat.layout, self.spec
        if seat.name == "copy":  # chained as the op: each call's copy is its source as the previous copy led it
            sources = [layout.input_region(seat.tensors(), layout.inputs[0], count)]
            copies = layout.region(snapshot, layout.outputs[0], count)
            right = all(torch.equal(copies[j], layout.chained_args(sources, snapshot, j)[0]) for j in sample)
            return None if right else "the copy is wrong"
        for position, slot in enumerate(layout.outputs):
            region = layout.region(snapshot, slot, count).reshape(count, -1)
            unwritten = torch.isnan(region).any(dim=1)
            if bool(unwritten.any()):
                calls = unwritten.nonzero().flatten().tolist()
                return (
                    f"{len(calls)} of {count} calls left output `{spec.outputs[position]}` unwritten "
                    f"(NaN-poisoned) in a timed batch, first call {calls[0]}: the work was not done in the timed calls"
                )
        if not full:
            return None
        if layout.chain:
            refs = self.chained_reference(regions, layout, snapshot, sample)
        elif seat.name == "native":
            # torch's own ops round in the model dtype, more than once: held to what those ops give here, not to
            # the spec's one rounding (the judge computes them itself, on the same sampled sets).
            refs = self.reference(regions, layout, sample, count, fn=native_op(spec.name))
        else:
            key = (count, tuple(sample))
            if key not in shared:
                shared[key] = self.reference(regions, layout, sample, count)
            refs = shared[key]
        index = None if len(sample) == count else torch.tensor(sample, device=self.device)
        outs = []
        for slot in layout.outputs:
            region = layout.region(snapshot, slot, count)
            picked = region if index is None else region.index_select(0, index)
            outs.append(picked.reshape(len(sample) * slot.shape[0], *slot.shape[1:]))
        comparison = spec.compare_to(tuple(outs) if spec.multi_output else outs[0], tuple(refs), dtype, detail=False)
        if comparison.ok:
            return None
        lead = layout.outputs[0].shape[0] or 1
        call = sample[comparison.first_bad_index[0] // lead] if comparison.first_bad_index else sample[0]
        return f"call {call} of a timed batch is wrong: {comparison.message}"
