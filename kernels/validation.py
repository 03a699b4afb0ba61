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


def check_out_pair(
    out, likes: tuple[torch.Tensor, torch.Tensor], names: tuple[str, str], like_names: tuple[str, str], pair: str
) -> None:
    """`out=` of an op with two results: a pair of contiguous buffers, each like its tensor in `likes`.

    `names` are the results' names (out[0] is `names[0]`), `like_names` what the messages call each of
    `likes`, `pair` how they name the pair (e.g. "(q_out, k_out)"). The two may not be the same memory.
    Labels are built only for a message: this runs on every call of the op.
    """
    if out is None:
        return
    if not isinstance(out, (tuple, list)) or len(out) != 2:
        raise TypeError(f"out must be a {pair} pair of tensors, got {type(out).__name__}")
    first, second = out
    _check_out_buffer(0, first, likes[0], names, like_names)
    _check_out_buffer(1, second, likes[1], names, like_names)
    if first.numel() and second.numel() and first.data_ptr() == second.data_ptr():
        raise ValueError(f"out's {names[0]} and {names[1]} buffers are the same memory; pass two separate tensors")


def _check_out_buffer(
    index: int, buffer, like: torch.Tensor, names: tuple[str, str], like_names: tuple[str, str]
) -> None:
    if not isinstance(buffer, torch.Tensor):
        require_tensor(f"out[{index}] ({names[index]})", buffer)
    if buffer.shape != like.shape or buffer.dtype != like.dtype or buffer.device != like.device:
        raise ValueError(
            f"out[{index}] ({names[index]}) must match {like_names[index]}: shape {tuple(like.shape)}, "
            f"{like.dtype}, {like.device}; got shape {tuple(buffer.shape)}, {buffer.dtype}, {buffer.device}"
        )
    if not buffer.is_contiguous():
        require_contiguous(f"out[{index}] ({names[index]})", buffer)
