"""How TileLang kernels are entered: the compiled entry function itself, still checking its arguments."""

from __future__ import annotations

import pytest
import torch

pytest.importorskip("tilelang")

import workbench.kernels.rms_norm.tilelang as rms_norm_tl
from workbench.kernels.rms_norm.spec import SPEC as RMS_SPEC


def _compiled(hidden: int = 2048):
    x, w, eps = RMS_SPEC.make_inputs((4, hidden), torch.bfloat16, 0, "cuda")
    rms_norm_tl.rms_norm(x, w, eps)
    return rms_norm_tl._kernel(hidden, torch.bfloat16), (x, w, eps)


@pytest.mark.gpu
def test_the_kernel_is_entered_past_tilelangs_python_wrapper():
    kernel, _ = _compiled()
    assert kernel.torch_function is not kernel.adapter.func
    assert "ffi" in type(kernel.torch_function).__module__.lower()


@pytest.mark.gpu
def test_the_entry_still_refuses_an_output_of_the_wrong_shape():
    kernel, (x, w, eps) = _compiled()
    short = torch.empty(4, 1024, dtype=x.dtype, device=x.device)
    with pytest.raises(Exception, match="shape"):
        kernel(x, w, short, eps)
    with pytest.raises(Exception, match=r"(?i)dtype|float16"):
        kernel(x, w, torch.empty_like(x, dtype=torch.float16), eps)


@pytest.mark.gpu
def test_the_entry_launches_on_the_stream_torch_has_current():
    # A CUDA graph records only work on its capture stream: a launch elsewhere would fail the capture
    # or leave the replayed output unwritten.
    _, (x, w, eps) = _compiled()
    out = torch.full_like(x, float("nan"))
    graph = torch.cuda.CUDAGraph()
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        rms_norm_tl.rms_norm(x, w, eps, out=out)  # warm-up off the capture
    torch.cuda.current_stream().wait_stream(side)
    out.fill_(float("nan"))
    with torch.cuda.graph(graph):
        rms_norm_tl.rms_norm(x, w, eps, out=out)
    graph.replay()
    torch.cuda.synchronize()
    assert RMS_SPEC.compare(out, (x, w, eps), torch.bfloat16).ok
