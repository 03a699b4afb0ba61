"""Input checks shared by every backend's op function.

They raise TypeError / ValueError with a message that says what to change, so a
caller never meets an `assert` or a kernel fault for a wrong argument.
"""

from __future__ import annotations

import torch

SUPPORTED_DTYPES = (torch.bfloat16, torch.float16, torch.float32)


def require_tensor(name: str, value: object) -> torch.Tensor:
    if not isinstance(value, torch.Tensor):
        raise TypeError(f"{name} must be a torch.Tensor, got {type(value).__name__}")
    return value


def require_dtype(name: str, tensor: torch.Tensor, allowed: tuple[torch.dtype, ...]) -> None:
    if tensor.dtype not in allowed:
        names = ", ".join(str(d).removeprefix("torch.") for d in allowed)
        raise ValueError(f"{name} has dtype {tensor.dtype}; supported: {names}")


def require_contiguous(name: str, tensor: torch.Tensor) -> None:
    if not tensor.is_contiguous():
        raise ValueError(f"{name} is not contiguous (strides {tuple(tensor.stride())}); pass {name}.contiguous()")


def require_cuda(name: str, tensor: torch.Tensor) -> None:
    # MetaX MACA also reports device type "cuda" through PyTorch. `is_cuda`, not `device.type`: every op
    # call runs this, and building the device object costs 5x as much.
    if not tensor.is_cuda:
        raise ValueError(
            f"{name} is on {tensor.device}; this kernel runs on a GPU: move inputs with .cuda() "
            "or use the torch backend"
        )


def require_same_device(names_and_tensors: dict[str, torch.Tensor]) -> None:
    first = None
    for tensor in names_and_tensors.values():  # a plain loop: no set of devices built on every call
        if first is None:
            first = tensor.device
        elif tensor.device != first:
            break
    else:
        return
    listing = ", ".join(f"{n} on {t.device}" for n, t in names_and_tensors.items())
    raise ValueError(f"inputs must be on one device; got {listing}")


def check_out(out: torch.Tensor | None, like: torch.Tensor, *, shape: tuple[int, ...] | None = None) -> None:
    """`out`, when given, must be a contiguous buffer of the result's shape, dtype and device.

    The result has `like`'s dtype and device, and its shape unless `shape` is given.
    """
    if out is None:
        return
    require_tensor("out", out)
    shape = like.shape if shape is None else tuple(shape)
    if out.shape != shape or out.dtype != like.dtype or out.device != like.device:  # torch.Size == tuple
        shape = tuple(shape)
        raise ValueError(
            f"out must match the result: shape {shape}, {like.dtype}, {like.device}; "
            f"got shape {tuple(out.shape)}, {out.dtype}, {out.device}"
        )
    require_contiguous("out", out)
