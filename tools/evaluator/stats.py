"""Statistics of batch timings: medians with distribution-free confidence intervals, paired ratios.

A batch is N calls timed as one by the judge's clock, so its per-call time is already an average;
what varies between batches is the machine (clocks, the memory system, the host). The median over
batches is reported with an interval from order statistics (no assumption about the shape of that
variation), and a ratio between two contestants from the per-round ratios of batches timed moments
apart, so drift over the evaluation falls on both alike.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence

from tools.evaluator.records import Ratio, Timing

CONFIDENCE = 0.95


def _binomial_cdf(k: int, n: int) -> float:
    """P(X <= k) for X ~ Binomial(n, 1/2)."""
    return sum(math.comb(n, i) for i in range(k + 1)) / 2**n


def median_interval(values: Sequence[float], confidence: float = CONFIDENCE) -> tuple[float, float, float]:
    """(median, low, high): [low, high] covers the true median with at least `confidence` (or is the full range).

    The interval is [x_(k), x_(n+1-k)] of the sorted values for the largest k with
    P(Binomial(n, 1/2) < k) <= (1 - confidence) / 2; with too few values it is [min, max].
    """
    ordered = sorted(values)
    if not ordered:
        raise ValueError("no values")
    n = len(ordered)
    alpha = (1 - confidence) / 2
    k = 0
    while k + 1 <= n // 2 and _binomial_cdf(k, n) <= alpha:
        k += 1
    # k values on each side lie outside the interval; at least the extremes are kept.
    low, high = ordered[max(k - 1, 0)], ordered[n - max(k, 1)]
    return statistics.median(ordered), low, high


def coverage(n: int, confidence: float = CONFIDENCE) -> float:
    """The coverage `median_interval` actually achieves for n values (the full range: 1 - 2 / 2**n)."""
    alpha = (1 - confidence) / 2
    k = 0
    while k + 1 <= n // 2 and _binomial_cdf(k, n) <= alpha:
        k += 1
    return 1 - 2 * _binomial_cdf(max(k - 1, 0), n) if k else 1 - 2 / 2**n


def timing(per_call_us: Sequence[float], calls_per_batch: int, method: str) -> Timing:
    median, low, high = median_interval(per_call_us)
    return Timing(
        median_us=median,
        ci_low_us=low,
        ci_high_us=high,
        batches=len(per_call_us),
        calls_per_batch=calls_per_batch,
        batch_us=[float(f"{v:.6g}") for v in per_call_us],
        method=method,
    )


def per_round_ratios(slower: Sequence[float], faster: Sequence[float]) -> list[float]:
    """slower[i] / faster[i] for the rounds where both timed something (the per-round speedups of `faster`)."""
    return [s / f for s, f in zip(slower, faster, strict=True) if f > 0 and s > 0]


def paired_ratio(slower: Sequence[float], faster: Sequence[float], confidence: float = CONFIDENCE) -> Ratio:
    """How many times faster `faster` is than `slower`: the median of per-round ratios, with its interval.

    The two sequences are per-call times of the same rounds, in order (round i of each was timed
    moments apart).
    """
    ratios = per_round_ratios(slower, faster)
    median, low, high = median_interval(ratios, confidence)
    return Ratio(median=median, low=low, high=high, rounds=len(ratios), confidence=confidence)
