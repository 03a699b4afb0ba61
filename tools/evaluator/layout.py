"""Where N input sets and their outputs live in a contestant's two arenas, and how to reach them.

Every argument position gets one region per arena: N copies of that argument, each aligned (a
kernel may load 16 bytes at a time), so set i's tensors are contiguous and distinct from every
other set's. Inputs go in an arena the runner maps read-only, outputs in one it may write. The
judge fills a region in one copy (`input_region`), poisons an output region in one fill, and
reads one set back by index (`set_args`, `set_outputs`).
"""

from __future__ import annotations

from dataclasses import dataclass

import torch

from tools.evaluator.buffers import ALIGN, TensorSpec, aligned, dtype_label

INPUT_ARENA, OUTPUT_ARENA = 0, 1


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

    @property
    def is_tensor(self) -> bool:
        return self.dtype is not None

    @property
    def nbytes(self) -> int:
        count = 1
        for dim in self.shape:
            count *= dim
        return count * torch.empty((), dtype=self.dtype).element_size()


def _slots(values: list, sets: int) -> tuple[list[Slot], int]:
    slots, offset = [], 0
    for position, value in enumerate(values):
        if isinstance(value, torch.Tensor):
            slot = Slot(position, tuple(value.shape), value.dtype, offset, aligned(max(value.nbytes, 1)))
            slots.append(slot)
            offset += aligned(slot.stride * sets, ALIGN)
        else:
            slots.append(Slot(position, value=value))
    return slots, max(offset, 1)


class Layout:
    """The arenas' layout for `sets` calls shaped like (`args`, `outs`): one example of each."""

    def __init__(self, args: tuple, outs: tuple[torch.Tensor, ...], sets: int, multi_output: bool):
        self.sets = sets
        self.multi_output = multi_output
        self.inputs, self.input_bytes = _slots(list(args), sets)
        self.outputs, self.output_bytes = _slots(list(outs), sets)

    @property
    def set_output_bytes(self) -> int:
        return sum(s.nbytes for s in self.outputs)

    @property
    def set_bytes(self) -> int:
        return sum(s.stride for s in (*self.inputs, *self.outputs) if s.is_tensor)

    # -- the judge's views ---------------------------------------------------------------------------

    @staticmethod
    def region(arena: torch.Tensor, slot: Slot, count: int) -> torch.Tensor:
        """Sets 0..count-1 of `slot` as one [count, *shape] tensor (strided: each set aligned)."""
        rows = arena[slot.offset : slot.offset + slot.stride * count].view(count, slot.stride)
        return rows[:, : slot.nbytes].view(slot.dtype).view(count, *slot.shape)

    def input_region(self, arena: torch.Tensor, slot: Slot, count: int) -> torch.Tensor:
        return self.region(arena, slot, count)

    def fill(self, arena: torch.Tensor, sets: list[tuple]) -> None:
        """Write each set's inputs into an input arena (set i <- the tensors of sets[i])."""
        for slot in self.inputs:
            if slot.is_tensor:
                region = self.region(arena, slot, len(sets))
                for i, args in enumerate(sets):
                    region[i].copy_(args[slot.position])

    def fill_alike(self, arena: torch.Tensor, args: tuple) -> None:
        """Write the same inputs into every set, one copy per argument (placeholders until a batch refills)."""
        for slot in self.inputs:
            if slot.is_tensor:
                region = self.region(arena, slot, self.sets)
                region.copy_(args[slot.position].expand(self.sets, *slot.shape))

    def set_args(self, arena: torch.Tensor, index: int) -> tuple:
        return tuple(self.region(arena, s, index + 1)[index] if s.is_tensor else s.value for s in self.inputs)

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
        runner cuts the sets' views out of it (`buffers.set_views`).
        """

        def region(slot: Slot, arena: int) -> dict:
            spec = TensorSpec(arena, slot.offset, slot.shape, dtype_label(slot.dtype))
            return {**spec.to_json(), "stride": slot.stride}

        def describe(slots: list[Slot], arena: int) -> list[dict]:
            return [{"t": region(slot, arena)} if slot.is_tensor else {"v": slot.value} for slot in slots]

        return {
            "op": "plan",
            "id": plan_id,
            "fn": fn,
            "count": self.sets,
            "args": describe(self.inputs, input_arena),
            "outs": describe(self.outputs, output_arena),
            "multi": self.multi_output,
        }
