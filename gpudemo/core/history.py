"""Every epoch's loss, kept compactly, and a cheap envelope of it for drawing.

The values live in one float32 array sized for the run (4 bytes an epoch). Beside
it sit the minimum and maximum of every block of BLOCK epochs (1/8 byte an epoch),
updated as batches arrive, so that the envelope of ten million epochs across a
screen costs a reduction over ~150,000 blocks, not over ten million values.

One thread appends while another may draw: a reader passes the count it was told
about, and reads nothing past it.
"""

from __future__ import annotations

import numpy as np

BLOCK = 64


class LossHistory:
    def __init__(self, capacity: int):
        self._values = np.empty(capacity, dtype=np.float32)
        blocks = -(-capacity // BLOCK)
        self._block_min = np.full(blocks, np.nan, dtype=np.float32)
        self._block_max = np.full(blocks, np.nan, dtype=np.float32)
        self.count = 0
        self.min_positive = np.inf  # the smallest loss > 0 so far: where a log axis draws 0
        self.max_finite = -np.inf
        self.min_finite = np.inf

    @property
    def capacity(self) -> int:
        return len(self._values)

    @property
    def values(self) -> np.ndarray:
        """The losses so far, a view (no copy)."""
        return self._values[: self.count]

    def head(self, count: int) -> np.ndarray:
        """The first `count` losses, a view: what a reader told of `count` may read."""
        return self._values[: min(count, self.count)]

    @property
    def nbytes(self) -> int:
        return self._values.nbytes + self._block_min.nbytes + self._block_max.nbytes

    def extend(self, losses: np.ndarray) -> np.ndarray:
        """Append losses; returns the view of them inside the history."""
        start, end = self.count, self.count + len(losses)
        self._values[start:end] = losses
        added = self._values[start:end]
        finite = added[np.isfinite(added)]
        if len(finite):
            self.min_finite = min(self.min_finite, float(finite.min()))
            self.max_finite = max(self.max_finite, float(finite.max()))
            positive = finite[finite > 0]
            if len(positive):
                self.min_positive = min(self.min_positive, float(positive.min()))
        first, last = start // BLOCK, -(-end // BLOCK)
        span = np.full((last - first) * BLOCK, np.nan, dtype=np.float32)
        span[: end - first * BLOCK] = self._values[first * BLOCK : end]
        span = span.reshape(-1, BLOCK)
        self._block_min[first:last] = np.fmin.reduce(span, axis=1)
        self._block_max[first:last] = np.fmax.reduce(span, axis=1)
        self.count = end
        return added

    def envelope(self, count: int, first: int, last: int, bins: int) -> tuple[np.ndarray, np.ndarray]:
        """Points that draw epochs first..last (1-based, inclusive) of the first `count`.

        Up to 2 * bins points: every epoch when few enough, else the minimum and the
        maximum of each bin, so that no spike disappears. x is the epoch, float64.
        """
        first = max(1, int(first))
        last = min(count, int(last))
        if last < first:
            return np.empty(0), np.empty(0, dtype=np.float32)
        lo, hi = first - 1, last  # index range [lo, hi)
        span = hi - lo
        if span <= 2 * bins:
            return np.arange(first, last + 1, dtype=np.float64), self._values[lo:hi]
        per_bin = -(-span // bins)
        if per_bin >= BLOCK:  # reduce whole blocks: bins are aligned to blocks
            blocks_per_bin = -(-per_bin // BLOCK)
            b_lo, b_hi = lo // BLOCK, -(-hi // BLOCK)
            mins, maxs = self._block_min[b_lo:b_hi], self._block_max[b_lo:b_hi]
            groups, step, start = blocks_per_bin, blocks_per_bin * BLOCK, b_lo * BLOCK
        else:
            mins = maxs = self._values[lo:hi]
            groups, step, start = per_bin, per_bin, lo
        n = -(-len(mins) // groups)
        pad = n * groups - len(mins)
        if pad:
            fill = np.full(pad, np.nan, dtype=np.float32)
            mins, maxs = np.concatenate([mins, fill]), np.concatenate([maxs, fill])
        low = np.fmin.reduce(mins.reshape(n, groups), axis=1)
        high = np.fmax.reduce(maxs.reshape(n, groups), axis=1)
        x = start + 1 + step * np.arange(n, dtype=np.float64)
        xs = np.repeat(x, 2)
        ys = np.empty(2 * n, dtype=np.float32)
        ys[0::2], ys[1::2] = low, high
        xs[1::2] += step - 1  # each bin draws from its first epoch to its last
        np.minimum(xs, count, out=xs)
        return xs, ys
