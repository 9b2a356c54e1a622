"""Confidence intervals: Wilson's score interval for a success rate, a percentile bootstrap for a mean score."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from statistics import NormalDist

import numpy as np

#: Bootstrap resamples: percentile endpoints need many more than a standard error (Efron & Tibshirani ask ≥ 1,000).
RESAMPLES = 10_000
#: Resampled values drawn per batch, so that memory stays small for long lists of episodes.
_BATCH = 1 << 20


@dataclass(frozen=True)
class Estimate:
    """A mean over ``n`` values and its confidence interval ``(low, high)``."""

    mean: float
    n: int
    interval: tuple[float, float]


def _check(confidence: float) -> float:
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must lie in (0, 1), got {confidence}")
    return confidence


def wilson_interval(successes: int, trials: int, confidence: float = 0.95) -> tuple[float, float]:
    """The Wilson score interval of a binomial proportion p̂ = k / n:

        (p̂ + z²/2n ± z·√(p̂(1 − p̂)/n + z²/4n²)) / (1 + z²/n),   z = Φ⁻¹((1 + confidence) / 2)

    (Wilson, "Probable inference, the law of succession, and statistical inference", JASA 22, 1927; recommended
    over the normal "Wald" interval for small n and p̂ near 0 or 1 by Brown, Cai & DasGupta, "Interval Estimation
    for a Binomial Proportion", Statistical Science 16(2), 2001). It stays inside [0, 1] and is not empty at
    0/n or n/n. ``ValueError`` when ``trials`` < 1 or ``successes`` is not in [0, trials].
    """
    if trials < 1 or not 0 <= successes <= trials:
        raise ValueError(f"need 0 <= successes <= trials and trials >= 1, got {successes}/{trials}")
    z, p = NormalDist().inv_cdf((1.0 + _check(confidence)) / 2.0), successes / trials
    scale = 1.0 + z * z / trials
    centre = (p + z * z / (2 * trials)) / scale
    half = z * math.sqrt(p * (1.0 - p) / trials + z * z / (4 * trials * trials)) / scale
    return max(0.0, centre - half), min(1.0, centre + half)


def bootstrap_interval(
    values: Sequence[float], confidence: float = 0.95, resamples: int = RESAMPLES, seed: int = 0
) -> tuple[float, float]:
    """The percentile bootstrap interval of the mean of ``values`` (Efron & Tibshirani, "An Introduction to the
    Bootstrap", 1993, ch. 13): the (1 ∓ confidence)/2 quantiles of the means of ``resamples`` resamples drawn
    with replacement by ``np.random.default_rng(seed)`` — the same values and seed give the same interval.

    For partial-credit scores and per-episode ratios, bounded and often piled up at 0 or 1: unlike the normal
    approximation (mean ± z·s/√n) it never leaves the range of the values and follows their skew, and needs no
    t quantiles (no scipy). Like every interval from the sample alone it is too narrow for a handful of values,
    and a point when all values are equal (use ``wilson_interval`` for 0/1 outcomes).
    ``ValueError`` for no values.
    """
    data = np.asarray(values, dtype=np.float64)
    if data.size == 0:
        raise ValueError("no values to bootstrap")
    tail = (1.0 - _check(confidence)) / 2.0
    rng, means, done = np.random.default_rng(seed), [], 0
    batch = max(1, _BATCH // data.size)
    while done < resamples:
        size = min(batch, resamples - done)
        means.append(data[rng.integers(0, data.size, size=(size, data.size))].mean(axis=1))
        done += size
    low, high = np.quantile(np.concatenate(means), [tail, 1.0 - tail])
    return float(low), float(high)
