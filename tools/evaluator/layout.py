"""Where N input sets and their outputs live in a contestant's two arenas, and how to reach them.

Every argument position gets one region: N copies of that argument, each aligned (a kernel may load
16 bytes at a time), so set i's tensors are contiguous and distinct from every other set's. Inputs go
in an arena the runner maps read-only, outputs in one it may write. The judge fills a region in one
copy (`input_region`), poisons an output region in one fill, and reads one set back by index
(`set_args`, `set_outputs`).

A chained layout (the timed batches') ties the calls together as a model does: for each of the op's
`ChainLink`s, call i+1's argument begins with fresh values and ends with the first half of call i's
output. Such an argument lives in the output arena as N + 1 entries R_0..R_N; call i reads its argument
from the start of R_i and writes that output `chain_lead` bytes into R_(i+1), so the argument of call
i+1 runs into it. The judge fills R_0..R_(N-1) with fresh values and poisons the outputs, so before call
i has answered, call i+1's input does not exist; and what call i+1 reads before call i's output is the
judge's fresh draw, which no earlier output determines (docs/judge.md, "Chained calls"). The chained part
is the output's first half, the part written longest ago: at prefill sizes the L2 no longer holds it when
the next call reads it, as in a model where other layers' work sits between two uses.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch

from tools.evaluator.buffers import ALIGN, TensorSpec, aligned, dtype_label
from workbench.kernels.spec import ChainLink

INPUT_ARENA, OUTPUT_ARENA = 0, 1


CHAIN_ALIGN = 16  # bytes: the widest vector load, the alignment of a chained argument below ALIGN


def chain_lead(arg_nbytes: int, output_nbytes: int) -> int:
    """Bytes of fresh values a chained argument begins with, before the previous call's output: aligned as an
    arena's tensors, so that the argument ends with about the first half of that output.

    The first half, not the second: the second half is what the previous call wrote last, the part most
    likely still in the L2, which a model's next use of it would not find there. Under 32 bytes of output (no
    op's shape has so few) the whole output ends the argument.
    """
    half = output_nbytes // 2
    align = ALIGN if half >= ALIGN else CHAIN_ALIGN
    lead = -(-(arg_nbytes - half) // align) * align
    if lead >= arg_nbytes:
        return max(arg_nbytes - output_nbytes, 0)
    return lead


def chain_lead_elements(arg: torch.Tensor, output: torch.Tensor) -> int:
    """The fresh elements a chained argument begins with (`chain_lead`), before the previous output's first ones."""
    return chain_lead(_nbytes(arg), _nbytes(output)) // arg.element_size()


def chained_input(fresh: torch.Tensor, previous: torch.Tensor, lead: int) -> torch.Tensor:
    """An argument as a chained call sees it: `fresh` for its first `lead` elements, then the previous call's
    output from its start."""
    value = fresh.clone().reshape(-1)
    value[lead:] = previous.reshape(-1)[: value.numel() - lead]
    return value.view(fresh.shape)


def copy_source_bytes(bytes_moved: int) -> int:
    """What the copy yardstick reads (and writes) to move `bytes_moved` in all: whole words, as it runs on int32."""
    return max(4, 4 * round(bytes_moved / 8))


@dataclass(frozen=True)
class Slot:
    """One argument (or output) position: a tensor region of N sets, or a scalar passed by value."""

    position: int
    shape: tuple[int, ...] = ()
    dtype: torch.dtype | None = None
    offset: int = 0
    stride: int = 0  # bytes from one set's tensor to the next
    value: float | int | bool | None = None
    arena: int = INPUT_ARENA
    chained: bool = False  # an argument that begins with the previous call's output, or that output

    @property
    def is_tensor(self) -> bool:
        return self.dtype is not None

    @property
    def nbytes(self) -> int:
        count = 1
        for dim in self.shape:
            count *= dim
        return count * torch.empty((), dtype=self.dtype).element_size()


def _nbytes(value: torch.Tensor) -> int:
    return value.numel() * value.element_size()


def _slots(values: list, sets: int, arena: int, offset: int = 0, skip: frozenset = frozenset()):
    slots, placed = {}, offset
    for position, value in enumerate(values):
        if position in skip:
            continue
        if isinstance(value, torch.Tensor):
            stride = aligned(max(_nbytes(value), 1))
            slots[position] = Slot(position, tuple(value.shape), value.dtype, placed, stride, arena=arena)
            placed += aligned(stride * sets, ALIGN)
        else:
            slots[position] = Slot(position, value=value)
    return slots, placed


def _chained(args: list, outs: list, chain: tuple[ChainLink, ...], sets: int):
    """The chained regions, first in the output arena: (input slots, output slots, bytes used)."""
    inputs, outputs, placed = {}, {}, 0
    for link in chain:
        arg, out = args[link.arg], outs[link.output]
        if not isinstance(arg, torch.Tensor) or arg.dtype != out.dtype or out.numel() > arg.numel():
            raise ValueError(
                f"chain link {link}: output {link.output} must fit the start of argument {link.arg} "
                "(a tensor of the same dtype and at least as many elements)"
            )
        lead = chain_lead(_nbytes(arg), _nbytes(out))
        entry = aligned(max(_nbytes(arg), lead + _nbytes(out), 1))
        inputs[link.arg] = Slot(link.arg, tuple(arg.shape), arg.dtype, placed, entry, arena=OUTPUT_ARENA, chained=True)
        outputs[link.output] = Slot(
            link.output, tuple(out.shape), out.dtype, placed + entry + lead, entry, arena=OUTPUT_ARENA, chained=True
        )
        placed += aligned(entry * (sets + 1) + lead, ALIGN)  # the last output region ends `lead` past R_N
    return inputs, outputs, placed


class Layout:
    """The arenas' layout for `sets` calls shaped like (`args`, `outs`): one example of each.

    `chain`: the op's links, for timed batches (module docstring); empty, every set stands alone.
    """

    def __init__(
        self,
        args: tuple,
        outs: tuple[torch.Tensor, ...],
        sets: int,
        multi_output: bool,
        chain: tuple[ChainLink, ...] = (),
    ):
        self.sets = sets
        self.multi_output = multi_output
        self.chain = tuple(chain)
        args, outs = list(args), list(outs)
        chained_in, chained_out, used = _chained(args, outs, self.chain, sets)
        plain_in, self.input_bytes = _slots(args, sets, INPUT_ARENA, skip=frozenset(chained_in))
        plain_out, self.output_bytes = _slots(outs, sets, OUTPUT_ARENA, used, skip=frozenset(chained_out))
        self.input_bytes = max(self.input_bytes, 1)
        self.output_bytes = max(self.output_bytes, 1)
        self.inputs = [chained_in.get(i) or plain_in[i] for i in range(len(args))]
        self.outputs = [chained_out.get(i) or plain_out[i] for i in range(len(outs))]
        # Per chained argument: the fresh elements it begins with, before the previous call's output.
        self.leads = {link.arg: chain_lead_elements(args[link.arg], outs[link.output]) for link in self.chain}

    @property
    def set_output_bytes(self) -> int:
        return sum(s.nbytes for s in self.outputs)

    @property
    def set_bytes(self) -> int:
        """Bytes of one set in the arenas (a chained region counted once, for its argument and its output)."""
        slots = (*self.inputs, *(s for s in self.outputs if not s.chained))
        return sum(s.stride for s in slots if s.is_tensor)

    # -- the judge's views ---------------------------------------------------------------------------

    @staticmethod
    def region(arena: torch.Tensor, slot: Slot, count: int) -> torch.Tensor:
        """Sets 0..count-1 of `slot` as one [count, *shape] tensor (strided: each set aligned)."""
        rows = arena[slot.offset : slot.offset + slot.stride * count].view(count, slot.stride)
        return rows[:, : slot.nbytes].view(slot.dtype).view(count, *slot.shape)

    def input_region(self, arenas: tuple[torch.Tensor, torch.Tensor], slot: Slot, count: int) -> torch.Tensor:
        """Sets 0..count-1 of an input slot, in whichever arena it lives (a chained one: the output arena)."""
        return self.region(arenas[slot.arena], slot, count)

    def fill(self, arenas: tuple[torch.Tensor, torch.Tensor], sets: list[tuple]) -> None:
        """Write each set's inputs into the arenas (set i <- the tensors of sets[i])."""
        for slot in self.inputs:
            if slot.is_tensor:
                region = self.input_region(arenas, slot, len(sets))
                for i, args in enumerate(sets):
                    region[i].copy_(args[slot.position])

    def fill_alike(self, arenas: tuple[torch.Tensor, torch.Tensor], args: tuple) -> None:
        """Write the same inputs into every set, one copy per argument (placeholders until a batch refills)."""
        for slot in self.inputs:
            if slot.is_tensor:
                region = self.input_region(arenas, slot, self.sets)
                region.copy_(args[slot.position].expand(self.sets, *slot.shape))

    def set_args(self, arenas: tuple[torch.Tensor, torch.Tensor], index: int) -> tuple:
        return tuple(self.input_region(arenas, s, index + 1)[index] if s.is_tensor else s.value for s in self.inputs)

    def chained_args(self, fresh: list, snapshot: torch.Tensor, index: int) -> tuple:
        """Set `index`'s arguments as its call saw them: fresh values, a chained one ending with the last call's
        output (its first half: `chained_input`).

        `fresh`: per argument the values the judge wrote (a [count, ...] region, a shared tensor or a scalar);
        `snapshot`: the output arena as copied out after the batch.
        """
        args = []
        for slot in self.inputs:
            value = fresh[slot.position]
            if not slot.is_tensor:
                args.append(value)
                continue
            value = value[0] if value.stride(0) == 0 else value[index]
            link = next((c for c in self.chain if c.arg == slot.position), None)
            if link is not None and index > 0:
                previous = self.region(snapshot, self.outputs[link.output], index)[index - 1]
                value = chained_input(value, previous, self.leads[slot.position])
            args.append(value)
        return tuple(args)

    def set_outputs(self, arena: torch.Tensor, index: int):
        outs = tuple(self.region(arena, s, index + 1)[index] for s in self.outputs)
        return outs if self.multi_output else outs[0]

    def poison(self, arena: torch.Tensor, count: int) -> None:
        """NaN in every output element of sets 0..count-1 (every element must be written again)."""
        for slot in self.outputs:
            region = self.region(arena, slot, count)
            region.fill_(float("nan") if region.is_floating_point() else 0)

    # -- the runner's plan -----------------------------------------------------------------------------

    def plan(self, plan_id: int, input_arena: int, output_arena: int, fn: str = "main") -> dict:
        """The `plan` request: call i takes set i's inputs and writes set i's outputs.

        Per argument one region (arena, offset, stride between sets, shape, dtype) or a scalar; the
        runner cuts the sets' views out of it (`buffers.set_views`). A chained argument's region is in
        the output arena, and call i's output tied to it is region entry i + 1.
        """
        ids = (input_arena, output_arena)

        def region(slot: Slot) -> dict:
            spec = TensorSpec(ids[slot.arena], slot.offset, slot.shape, dtype_label(slot.dtype))
            return {**spec.to_json(), "stride": slot.stride}

        def describe(slots: list[Slot]) -> list[dict]:
            return [{"t": region(slot)} if slot.is_tensor else {"v": slot.value} for slot in slots]

        return {
            "op": "plan",
            "id": plan_id,
            "fn": fn,
            "count": self.sets,
            "args": describe(self.inputs),
            "outs": describe(self.outputs),
            "multi": self.multi_output,
        }
