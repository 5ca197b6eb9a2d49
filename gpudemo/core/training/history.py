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

    def clear(self) -> None:
        """Forget every loss, keeping the room."""
        self.count = 0
        self.min_positive, self.max_finite, self.min_finite = np.inf, -np.inf, np.inf

    def reserve(self, capacity: int) -> None:
        """Make room for `capacity` epochs in all (a copy of what is kept)."""
        if capacity > self.capacity:
            self._resize(capacity)

    def trim(self) -> None:
        """Let go of the room no epoch uses (a finished run keeps only what it ran)."""
        if self.capacity > self.count:
            self._resize(self.count)

    def _resize(self, capacity: int) -> None:
        blocks = -(-capacity // BLOCK)
        kept = min(len(self._block_min), blocks)
        values = np.empty(capacity, dtype=np.float32)
        values[: self.count] = self._values[: self.count]
        block_min = np.full(blocks, np.nan, dtype=np.float32)
        block_max = np.full(blocks, np.nan, dtype=np.float32)
        block_min[:kept], block_max[:kept] = self._block_min[:kept], self._block_max[:kept]
        self._values, self._block_min, self._block_max = values, block_min, block_max

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
        self._note_extremes(added)
        # Block extremes: whole blocks straight from the values (no copy), the last partial one padded.
        first, whole = start // BLOCK, end // BLOCK
        if whole > first:
            blocks = self._values[first * BLOCK : whole * BLOCK].reshape(-1, BLOCK)
            np.fmin.reduce(blocks, axis=1, out=self._block_min[first:whole])
            np.fmax.reduce(blocks, axis=1, out=self._block_max[first:whole])
        if end > whole * BLOCK:
            tail = self._values[max(whole * BLOCK, 0) : end]
            self._block_min[whole] = np.fmin.reduce(tail)
            self._block_max[whole] = np.fmax.reduce(tail)
        self.count = end
        return added

    def _note_extremes(self, added: np.ndarray) -> None:
        if not len(added):
            return
        finite = added if np.isfinite(added).all() else added[np.isfinite(added)]
        if not len(finite):
            return
        low, high = float(finite.min()), float(finite.max())
        self.min_finite = min(self.min_finite, low)
        self.max_finite = max(self.max_finite, high)
        if low <= 0:
            finite = finite[finite > 0]
            if not len(finite):
                return
            low = float(finite.min())
        self.min_positive = min(self.min_positive, low)

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
