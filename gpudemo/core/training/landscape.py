"""The loss landscape of a model with two parameters, and a run's path through it.

For y = w·x + b the loss is a surface over the (w, b) plane. `loss_grid.evaluate` computes it on
a GRID × GRID grid in one batched evaluation on the run's device: every grid point's
model against every sample at once, a (GRID², samples) array of predictions, which is
itself a small lesson in why a GPU is built the way it is. When that array would be too
large (GRID² × samples above BATCHED_MAX elements) it uses the data's moments instead:
for a line and the mean squared error, mean((w·x + b − y)²) expands into five means of
the data, exactly the same numbers at a fraction of the cost.

The path is the parameters after every epoch (8 bytes an epoch), kept in a PathHistory
the training loop fills at its read-backs, as it fills the LossHistory.

What a landscape is and where the path went need no torch (the window draws them before PyTorch has
loaded); computing one does, in core/training/loss_grid.py.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

GRID = 64  # points a side
BATCHED_MAX = 2**26  # grid points × samples evaluated directly; above it, the moments
CHUNK = 2**22  # elements of one batched slice of the evaluation (16 MiB of float32)
MARGIN = 0.3  # the grid reaches this share of the path's span beyond it on each side
MIN_SPAN = 1.0  # ...and spans at least this much in each parameter
FAR = 1e6  # a path that leaves |w|, |b| < FAR has diverged: the grid stops following it

BATCHED = "batched"
MOMENTS = "moments"


@dataclass(frozen=True)
class Bounds:
    w_low: float
    w_high: float
    b_low: float
    b_high: float

    def contains(self, w_low: float, w_high: float, b_low: float, b_high: float) -> bool:
        return self.w_low <= w_low and w_high <= self.w_high and self.b_low <= b_low and b_high <= self.b_high


@dataclass(frozen=True)
class Landscape:
    """The loss at weights[i], biases[j] is loss[j, i] (rows: bias, columns: weight)."""

    bounds: Bounds
    weights: np.ndarray  # GRID values, float64
    biases: np.ndarray
    loss: np.ndarray  # (GRID, GRID) float32
    method: str  # BATCHED or MOMENTS
    minimum: tuple[float, float] | None  # (w, b) where the loss is least, when the data has one


class PathHistory:
    """(w, b) before training and after every epoch: row 0 is the start, row e is after epoch e."""

    def __init__(self, epochs: int):
        self._points = np.empty((epochs + 1, 2), dtype=np.float32)
        self.count = 0  # rows written
        self.low = np.full(2, np.inf)  # the finite extremes so far, (w, b)
        self.high = np.full(2, -np.inf)

    @property
    def points(self) -> np.ndarray:
        return self._points[: self.count]

    def head(self, count: int) -> np.ndarray:
        return self._points[: min(count, self.count)]

    @property
    def nbytes(self) -> int:
        return self._points.nbytes

    def extend(self, points: np.ndarray) -> None:
        start, end = self.count, self.count + len(points)
        self._points[start:end] = points
        finite = points[np.isfinite(points).all(axis=1)]
        if len(finite):
            np.minimum(self.low, finite.min(axis=0), out=self.low)
            np.maximum(self.high, finite.max(axis=0), out=self.high)
        self.count = end

    def trim(self) -> None:
        if len(self._points) > self.count:
            self._points = self._points[: self.count].copy()

    def decimated(self, count: int, most: int = 4000) -> np.ndarray:
        """At most about `most` of the first `count` rows, for drawing: every row of the early epochs
        (where a path turns), then evenly spaced ones, and always the last."""
        points = self.head(count)
        if len(points) <= most:
            return points
        early = most // 2
        step = -(-(len(points) - early) // (most - early))
        return np.concatenate([points[:early], points[early::step], points[-1:]])


def bounds_around(low: np.ndarray, high: np.ndarray, minimum: tuple[float, float] | None) -> Bounds:
    """A box around the path's extremes and the minimum, with a margin."""
    points = [low, high] + ([np.array(minimum)] if minimum is not None else [])
    lo = np.min(points, axis=0).astype(np.float64)
    hi = np.max(points, axis=0).astype(np.float64)
    lo, hi = np.clip(lo, -FAR, FAR), np.clip(hi, -FAR, FAR)
    span = np.maximum(hi - lo, MIN_SPAN)
    middle = (lo + hi) / 2
    lo, hi = middle - span / 2 * (1 + 2 * MARGIN), middle + span / 2 * (1 + 2 * MARGIN)
    return Bounds(float(lo[0]), float(hi[0]), float(lo[1]), float(hi[1]))


def needs_new_grid(landscape: Landscape | None, path: PathHistory) -> bool:
    """Whether the path has left the grid (and has not run off to where no grid can follow)."""
    if path.count == 0 or not np.isfinite(path.low).all():
        return False
    if landscape is None:
        return True
    if np.abs(path.low).max() > FAR or np.abs(path.high).max() > FAR:
        return False
    return not landscape.bounds.contains(path.low[0], path.high[0], path.low[1], path.high[1])
