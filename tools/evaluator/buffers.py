"""Judge-owned buffers that a runner maps: one allocation per arena, shared as a file descriptor.

Device arenas are CUDA VMM allocations (cuMemCreate) exported as POSIX file descriptors and
mapped by the runner (cuMemImportFromShareableHandle): each arena is its own allocation, so a
runner's mapping reaches nothing of the judge's but that arena, and a descriptor passes between
users (legacy CUDA IPC, torch.multiprocessing's, failed between a root judge and a runner of
another uid on the H200: benchmarks/probes/judge_probe.py and judge_design.md). Host arenas are sealed memfds.

The runner maps an input arena read-only where the platform can enforce it: a host memfd is
sealed against new writable mappings before it is shared; a VMM descriptor cannot be exported
read-only, so a hostile runner could map its inputs writable, and the judge therefore never trusts
an arena's inputs: it computes references from its own copies and compares inputs after calls.
"""

from __future__ import annotations

import fcntl
import mmap
import os
import types
import warnings
from dataclasses import dataclass

import torch

ALIGN = 512  # bytes between tensors in an arena: every vector width a kernel may use
F_SEAL_FUTURE_WRITE = 0x0010  # linux/fcntl.h; Python 3.11's fcntl lacks the name


def aligned(nbytes: int, align: int = ALIGN) -> int:
    return -(-nbytes // align) * align


def driver():
    """CUDA's driver API through NVIDIA's cuda-bindings (cuda-python)."""
    try:
        from cuda.bindings import driver as cu
    except ImportError:
        try:
            from cuda import cuda as cu  # cuda-python before 12.6
        except ImportError as err:
            raise RuntimeError(
                "sharing GPU buffers with the runner needs NVIDIA's cuda-bindings: pip install cuda-bindings"
            ) from err
    return cu


OUT_OF_MEMORY = 2  # CUDA_ERROR_OUT_OF_MEMORY


class ArenaOutOfMemory(RuntimeError):
    """The GPU has no room for an arena: a shape too large for what is free, not a broken runner."""


def _check(result, what: str):
    err, *rest = result
    if int(err) != 0:
        raise RuntimeError(f"{what} failed: CUDA driver error {int(err)} ({err})")
    return rest[0] if len(rest) == 1 else rest


def _prop(cu, device: int):
    prop = cu.CUmemAllocationProp()
    prop.type = cu.CUmemAllocationType.CU_MEM_ALLOCATION_TYPE_PINNED
    prop.location.type = cu.CUmemLocationType.CU_MEM_LOCATION_TYPE_DEVICE
    prop.location.id = device
    prop.requestedHandleTypes = cu.CUmemAllocationHandleType.CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR
    return prop


def _map(cu, handle, size: int, device: int, writable: bool) -> int:
    ptr = _check(cu.cuMemAddressReserve(size, 0, 0, 0), "cuMemAddressReserve")
    _check(cu.cuMemMap(ptr, size, 0, handle, 0), "cuMemMap")
    access = cu.CUmemAccessDesc()
    access.location.type = cu.CUmemLocationType.CU_MEM_LOCATION_TYPE_DEVICE
    access.location.id = device
    flags = cu.CUmemAccess_flags
    access.flags = flags.CU_MEM_ACCESS_FLAGS_PROT_READWRITE if writable else flags.CU_MEM_ACCESS_FLAGS_PROT_READ
    _check(cu.cuMemSetAccess(ptr, size, [access], 1), "cuMemSetAccess")
    return int(ptr)


def _unmap(cu, ptr: int, size: int) -> None:
    cu.cuMemUnmap(ptr, size)
    cu.cuMemAddressFree(ptr, size)


def _device_tensor(ptr: int, nbytes: int, device: int) -> torch.Tensor:
    """A uint8 tensor over device memory torch did not allocate (it keeps no ownership)."""
    raw = types.SimpleNamespace(
        __cuda_array_interface__={"shape": (nbytes,), "typestr": "|u1", "data": (ptr, False), "version": 3}
    )
    return torch.as_tensor(raw, device=f"cuda:{device}")


def _host_tensor(region: mmap.mmap, nbytes: int) -> torch.Tensor:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # a read-only mapping: torch warns that it is not writable
        return torch.frombuffer(region, dtype=torch.uint8, count=nbytes)


class Arena:
    """One shared allocation of the judge's; `tensor` is the judge's own (read-write) view of it."""

    def __init__(self, nbytes: int, device: torch.device, *, runner_writable: bool):
        self.nbytes = max(int(nbytes), 1)
        self.device = device
        self.runner_writable = runner_writable
        self.kind = "device" if device.type == "cuda" else "host"
        if self.kind == "device":
            self._allocate_device()
        else:
            self._allocate_host()

    def _allocate_device(self) -> None:
        cu = driver()
        index = self.device.index if self.device.index is not None else torch.cuda.current_device()
        self.index = index
        prop = _prop(cu, index)
        flag = cu.CUmemAllocationGranularity_flags.CU_MEM_ALLOC_GRANULARITY_MINIMUM
        granularity = _check(cu.cuMemGetAllocationGranularity(prop, flag), "cuMemGetAllocationGranularity")
        self.size = aligned(self.nbytes, int(granularity))
        self._handle = self._create(cu, prop)
        self._ptr = _map(cu, self._handle, self.size, index, True)
        self.tensor = _device_tensor(self._ptr, self.nbytes, index)

    def _create(self, cu, prop):
        """cuMemCreate; out of memory, once more after torch's cache (the judge's own) went back to the driver."""
        err, handle = cu.cuMemCreate(self.size, prop, 0)
        if int(err) == OUT_OF_MEMORY:
            torch.cuda.empty_cache()
            err, handle = cu.cuMemCreate(self.size, prop, 0)
        if int(err) == OUT_OF_MEMORY:
            free, total = torch.cuda.mem_get_info(self.index)
            raise ArenaOutOfMemory(
                f"no GPU memory for a {self.size / 2**30:.2f} GiB buffer of the judge's: "
                f"{free / 2**30:.2f} GiB free of {total / 2**30:.1f} GiB "
                "(held by other processes on the GPU, or by the runners' caches)"
            )
        return _check((err, handle), "cuMemCreate")

    def _allocate_host(self) -> None:
        self.size = aligned(self.nbytes, mmap.PAGESIZE)
        self._fd = os.memfd_create("kw-arena", os.MFD_CLOEXEC | os.MFD_ALLOW_SEALING)
        os.ftruncate(self._fd, self.size)
        self._region = mmap.mmap(self._fd, self.size, prot=mmap.PROT_READ | mmap.PROT_WRITE)
        seals = fcntl.F_SEAL_SHRINK | fcntl.F_SEAL_GROW
        if not self.runner_writable:
            seals |= F_SEAL_FUTURE_WRITE  # the judge's mapping stays writable; no new one can be
        fcntl.fcntl(self._fd, fcntl.F_ADD_SEALS, seals)
        self.tensor = _host_tensor(self._region, self.nbytes)

    def export_fd(self) -> int:
        """A new descriptor for the runner (the caller closes it once sent)."""
        if self.kind == "host":
            return os.dup(self._fd)
        cu = driver()
        kind = cu.CUmemAllocationHandleType.CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR
        return int(_check(cu.cuMemExportToShareableHandle(self._handle, kind, 0), "cuMemExportToShareableHandle"))

    def describe(self) -> dict:
        """What the runner needs to map it (sent with the descriptor)."""
        return {"kind": self.kind, "size": self.size, "nbytes": self.nbytes, "writable": self.runner_writable}

    def close(self) -> None:
        self.tensor = None
        if self.kind == "host":
            self._region.close()
            os.close(self._fd)
            return
        if torch.cuda.is_initialized():
            torch.cuda.synchronize(self.index)
        cu = driver()
        _unmap(cu, self._ptr, self.size)
        cu.cuMemRelease(self._handle)


def map_shared(fd: int, description: dict, device: torch.device) -> tuple[torch.Tensor, object]:
    """The runner's side: a uint8 tensor over the arena, and a handle that keeps the mapping alive.

    Closes `fd`. Inputs are mapped read-only (a write faults) unless the arena is runner-writable.
    """
    writable = bool(description["writable"])
    size, nbytes = int(description["size"]), int(description["nbytes"])
    if description["kind"] == "host":
        prot = mmap.PROT_READ | (mmap.PROT_WRITE if writable else 0)
        region = mmap.mmap(fd, size, prot=prot)
        os.close(fd)
        return _host_tensor(region, nbytes), region
    cu = driver()
    kind = cu.CUmemAllocationHandleType.CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR
    handle = _check(cu.cuMemImportFromShareableHandle(fd, kind), "cuMemImportFromShareableHandle")
    os.close(fd)
    index = device.index if device.index is not None else torch.cuda.current_device()
    ptr = _map(cu, handle, size, index, writable)
    return _device_tensor(ptr, nbytes, index), (ptr, size, handle)


def unmap_shared(keep: object) -> None:
    if isinstance(keep, mmap.mmap):
        keep.close()
        return
    ptr, size, handle = keep
    cu = driver()
    torch.cuda.synchronize()
    _unmap(cu, ptr, size)
    cu.cuMemRelease(handle)


@dataclass(frozen=True)
class TensorSpec:
    """Where one tensor of a call lives: an arena, a byte offset, a shape and a dtype name."""

    arena: int
    offset: int
    shape: tuple[int, ...]
    dtype: str

    @property
    def nbytes(self) -> int:
        count = 1
        for dim in self.shape:
            count *= dim
        return count * torch.empty((), dtype=DTYPES_ALL[self.dtype]).element_size()

    def to_json(self) -> dict:
        return {"arena": self.arena, "offset": self.offset, "shape": list(self.shape), "dtype": self.dtype}

    @classmethod
    def from_json(cls, data: dict) -> TensorSpec:
        return cls(int(data["arena"]), int(data["offset"]), tuple(int(d) for d in data["shape"]), str(data["dtype"]))


# The spec's dtype names (kernels/spec.py), and bytes for the copy roofline; kept here so that a runner
# imports nothing of the specs.
DTYPES_ALL: dict[str, torch.dtype] = {
    "bf16": torch.bfloat16,
    "fp16": torch.float16,
    "fp32": torch.float32,
    "u8": torch.uint8,
}


def dtype_label(dtype: torch.dtype) -> str:
    for name, value in DTYPES_ALL.items():
        if value == dtype:
            return name
    raise ValueError(f"no shared-buffer dtype for {dtype}")


def view(arena: torch.Tensor, spec: TensorSpec) -> torch.Tensor:
    """`spec`'s tensor inside an arena's uint8 tensor (no copy)."""
    return arena[spec.offset : spec.offset + spec.nbytes].view(DTYPES_ALL[spec.dtype]).view(spec.shape)


def set_views(arena: torch.Tensor, spec: TensorSpec, stride: int, count: int) -> tuple[torch.Tensor, ...]:
    """The `count` tensors of a region (set i at `spec.offset + i * stride`), as views (no copy)."""
    nbytes = spec.nbytes
    if stride < nbytes or spec.offset + stride * count > arena.numel():
        raise ValueError(f"region of {count} x {stride} bytes at {spec.offset} does not fit its arena")
    rows = arena[spec.offset : spec.offset + stride * count].view(count, stride)[:, :nbytes]
    return rows.view(DTYPES_ALL[spec.dtype]).view(count, *spec.shape).unbind(0)
