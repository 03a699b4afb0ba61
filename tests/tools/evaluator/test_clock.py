"""`tools/evaluator/clock.py`: the device's copy ceiling is no slower than any copy the judge can time (GPU)."""

from __future__ import annotations

import pytest
import torch

from tools.evaluator.clock import DeviceClock


@pytest.mark.gpu
def test_the_copy_ceiling_is_at_least_a_copy_kernels_bandwidth():
    if not torch.cuda.is_available():
        pytest.skip("needs a GPU")
    clock = DeviceClock(torch.device("cuda"))
    ceiling = clock.ceiling_gbps()
    half = 2**29
    src = torch.empty(half // 2, dtype=torch.bfloat16, device="cuda").normal_()
    dst = torch.empty_like(src)
    seconds = clock._median_s(lambda: torch.neg(src, out=dst))  # an elementwise kernel over the same bytes
    kernel_gbps = 2 * half / seconds / 1e9
    # Within the slack a result may pass the ceiling by (figures.ROOFLINE_SLACK): a copy kernel must not exceed it.
    assert kernel_gbps <= ceiling * 1.05, (kernel_gbps, ceiling)


def test_the_copy_ceiling_takes_the_faster_of_its_two_copies(monkeypatch):
    """Whichever of the memcpy and the copy kernel is faster sets the ceiling (timings stand in, no clock)."""
    clock = DeviceClock(torch.device("cpu"))
    for times in ([2e-3, 1e-3], [1e-3, 2e-3]):
        given = iter(times)
        monkeypatch.setattr(clock, "_median_s", lambda work, given=given: next(given))
        assert clock.ceiling_gbps() == pytest.approx(2 * 2**29 / 1e-3 / 1e9)
