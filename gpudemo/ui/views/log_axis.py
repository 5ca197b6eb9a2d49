"""An axis whose labels on a log scale never touch one another.

pyqtgraph labels every tick of a log axis, 2 to 9 times each power of ten too, and decides whether to
draw a level of labels by how much of the axis its text fills in total, not by whether two labels meet:
over a decade and a half of loss the labels 0.01, 0.009 and 0.008 were drawn over one another. Here a
label is kept where it has room, the powers of ten first, then 5, then 2, then the others.
"""

from __future__ import annotations

import math

import pyqtgraph as pg
from PySide6.QtGui import QFontMetricsF

# Which labels win a place first: a power of ten, then its 5 and 2 multiples, then the rest.
PRIORITY = {1: 0, 5: 1, 2: 2}
GAP_PX = 2.0  # between two labels, beside the text's own size


class LogAxis(pg.AxisItem):
    _decades_level = False  # whether the ticks drawn now have a level of powers of ten of their own

    def logTickValues(self, minVal, maxVal, size, stdTicks):
        ticks = super().logTickValues(minVal, maxVal, size, stdTicks)
        self._decades_level = any(spacing is not None for spacing, _ in ticks)
        return ticks

    def logTickStrings(self, values: list[float], scale: float, spacing: float | None) -> list[str | None]:
        """The minor level's labels (spacing None: 1 to 9 times each power of ten) where they have room."""
        strings: list[str | None] = list(super().logTickStrings(values, scale, spacing))
        low, high = sorted(self.range)
        vertical = self.orientation in ("left", "right")
        length = self.geometry().height() if vertical else self.geometry().width()
        if spacing is not None or not values or high <= low or length <= 0:
            return strings  # a level of whole powers of ten: pyqtgraph spaces those itself
        per_unit = length / (high - low)
        metrics = QFontMetricsF(self.style.get("tickFont") or self.font())

        def size(text: str) -> float:  # along the axis, as pyqtgraph measures it (a line's height x 0.8)
            return metrics.height() * 0.8 if vertical else metrics.horizontalAdvance(text)

        taken: list[tuple[float, float]] = []  # (place, size) of the labels drawn
        if self._decades_level:  # the powers of ten are labelled there: their places are taken, their text not here
            widest = max((size(text) for text in strings if text is not None), default=0.0)
            taken = [(decade * per_unit, widest) for decade in range(math.ceil(low), math.floor(high) + 1)]
        for i in sorted(range(len(values)), key=lambda i: (_priority(values[i]), values[i])):
            text = strings[i]
            if text is None:
                continue
            place = values[i] * per_unit
            if self._decades_level and _priority(values[i]) == 0:
                strings[i] = None
            elif any(abs(place - other) < (size(text) + other_size) / 2 + GAP_PX for other, other_size in taken):
                strings[i] = None
            else:
                taken.append((place, size(text)))
        return strings


def _priority(value: float) -> int:
    """0 for a power of ten, 1 for 5 times one, 2 for 2 times one, 3 for any other multiple."""
    mantissa = round(10 ** (value - math.floor(value + 1e-9)))
    return PRIORITY.get(mantissa, 3)
