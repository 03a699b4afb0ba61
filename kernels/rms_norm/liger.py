"""rms_norm on Liger-Kernel: `liger_kernel.ops.LigerRMSNormFunction.apply(X, W, eps, offset, casting_mode)`.

Numerics. Liger's "llama" casting mode (the one a Llama model patched by Liger runs) rounds the
normalised row to the input dtype before the weight multiply: HF's two roundings, which the
spec's 1-2 ulp tolerance admits.
"""

from __future__ import annotations

from collections.abc import Callable

from workbench.kernels.liger_support import CASTING_MODE, LigerCall

LIGER_MODULE = "liger_kernel.ops"
LIGER_NAME = "LigerRMSNormFunction"


def bind(fn: Callable, args: tuple) -> LigerCall:
    x, weight, eps = args
    # No preparation: Liger takes x [..., hidden] and weight [hidden] as they are. offset 0.0 (Llama;
    # Gemma uses 1.0). It returns a fresh Y and also writes 4 bytes of 1/rms per row for its backward.
    return LigerCall(run=lambda: fn(x, weight, eps, 0.0, CASTING_MODE), outputs=lambda y: y)
