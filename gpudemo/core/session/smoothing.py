"""TensorBoard's smoothing: an exponential moving average with its start debiased.

    last = weight * last + (1 - weight) * loss;  shown = last / (1 - weight ** n)

where n counts the losses so far: without the division the curve would start at
(1 - weight) * loss and creep up from zero. Computing it epoch by epoch in Python takes
seconds at ten million epochs; `ema` computes the same recurrence with numpy in
blocks (float64), about 0.1 s for ten million here, and `SmoothedHistory` extends it
batch by batch as a run goes, so a refresh only smooths the new epochs.
"""

from __future__ import annotations

import math

import numpy as np

from gpudemo.core.training.history import LossHistory

WEIGHT_MAX = 0.99

# Within a block of L epochs the recurrence unrolls to  s_k = w^k (s_0 + (1-w) * sum_j w^-j x_j):
# L is chosen so that w^-L stays below 1e100, far inside float64's range, and so that
# w^L (<= 1e-100) makes every block after the next one forget a block's start.
_RANGE_DIGITS = 100


def ema(values: np.ndarray, weight: float, state: float = 0.0) -> np.ndarray:
    """The un-debiased moving average of `values` (float64), continuing from `state`."""
    n = len(values)
    if weight == 0.0 or n == 0:
        return values.astype(np.float64)
    length = max(1, min(n, int(_RANGE_DIGITS / -math.log10(weight))))
    rows = -(-n // length)
    y = np.zeros(rows * length)
    y[:n] = values
    y = y.reshape(rows, length)
    j = np.arange(1, length + 1, dtype=np.float64)
    y *= (1 - weight) * weight**-j
    decay = weight**length
    ends = y.sum(axis=1) * decay  # each block's own contribution to the state at its end
    carry = np.empty(rows)  # the state entering each block
    carry[0] = state
    if rows > 1:  # c_b = ends_{b-1} + decay * c_{b-1}; decay**2 < 1e-200 ends the sum after two terms
        carry[1:] = ends[:-1]
        carry[2:] += decay * ends[:-2]
        carry[1] += decay * state
    y[:, 0] += carry
    np.cumsum(y, axis=1, out=y)
    y *= weight**j
    return y.reshape(-1)[:n]


def debias(averages: np.ndarray, weight: float, first: int) -> np.ndarray:
    """Divide by 1 - weight**n, n = first, first + 1, ...; past a few thousand epochs the divisor is 1."""
    if weight == 0.0:
        return averages
    needed = min(len(averages), max(0, int(_RANGE_DIGITS / -math.log10(weight)) - first + 2))
    if needed > 0:
        n = np.arange(first, first + needed, dtype=np.float64)
        averages[:needed] /= -np.expm1(n * math.log(weight))
    return averages


def check_weight(weight: float) -> float:
    if not 0.0 <= weight <= WEIGHT_MAX:
        raise ValueError(f"smoothing must be from 0 to {WEIGHT_MAX}, not {weight}")
    return float(weight)


class SmoothedHistory:
    """The smoothed curve of a LossHistory, kept as a LossHistory of its own (so it has an envelope).

    `update(count)` smooths epochs up to `count` that are not smoothed yet. A loss that
    is not finite (the last of a diverged run) stays as it is, as TensorBoard leaves it.
    """

    def __init__(self, source: LossHistory, weight: float):
        self.source = source
        self.history = LossHistory(0)
        self.reset(weight)

    def reset(self, weight: float) -> None:
        """Smooth again from the first epoch with another weight (the room already made is kept)."""
        self.weight = check_weight(weight)
        self.history.clear()
        self._state = 0.0  # the un-debiased average after the last finite loss
        self._finite = 0  # finite losses averaged so far

    @property
    def nbytes(self) -> int:
        return self.history.nbytes

    def update(self, count: int) -> LossHistory:
        done = self.history.count
        count = min(count, self.source.count)
        if count <= done:
            return self.history
        if self.history.capacity < count:
            self.history.reserve(self.source.capacity)
        values = self.source.head(count)[done:]
        finite = np.isfinite(values)
        if finite.all():  # the usual case: no masks, no copies beyond the average itself
            averages = ema(values, self.weight, self._state)
            self._state = float(averages[-1])
            self.history.extend(debias(averages, self.weight, self._finite + 1))
            self._finite += len(values)
            return self.history
        smoothed = values.astype(np.float64)
        good = values[finite]
        if len(good):
            averages = ema(good, self.weight, self._state)
            self._state = float(averages[-1])
            smoothed[finite] = debias(averages, self.weight, self._finite + 1)
            self._finite += len(good)
        self.history.extend(smoothed)
        return self.history
