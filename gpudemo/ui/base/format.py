"""Numbers as a person reads them in the window."""

from __future__ import annotations

import math


def gib(value: int | None, digits: int = 1) -> str:
    return "?" if value is None else f"{value / 2**30:.{digits}f} GiB"


def size(count: int) -> str:
    """Bytes in KiB, MiB or GiB, whichever reads best."""
    if count < 2**20:
        return f"{count / 2**10:,.0f} KiB"
    return f"{count / 2**20:,.1f} MiB" if count < 2**30 else f"{count / 2**30:,.2f} GiB"


def loss(value: float | None) -> str:
    if value is None:
        return "-"
    return f"{value:.6g}" if math.isfinite(value) else str(value)


def short_time(seconds: float) -> str:
    """A time that is often under a second (a copy, a warm-up): in ms there, else as `duration`."""
    return f"{seconds * 1e3:.3g} ms" if 0 <= seconds < 1 else duration(seconds)


def duration(seconds: float) -> str:
    if not math.isfinite(seconds):
        return "?"
    if seconds < 10:
        return f"{seconds:.2f} s"
    seconds = int(round(seconds))
    hours, rest = divmod(seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{seconds:02d}" if hours else f"{minutes}:{seconds:02d}"


def rate(per_second: float) -> str:
    return f"{per_second:,.0f}" if per_second >= 100 else f"{per_second:.3g}"
