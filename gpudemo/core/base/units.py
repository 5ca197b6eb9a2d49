"""Numbers as a person reads them: bytes, durations and rates, in the window, the command line and
the core's messages alike (one rounding everywhere)."""

from __future__ import annotations

import math

_BINARY = ("B", "KiB", "MiB", "GiB", "TiB")


def bytes_text(count: float | None, unknown: str = "?") -> str:
    """Bytes in the unit that reads best: 512 B, 3.4 MiB, 12.0 GiB; `unknown` where there is no figure."""
    if count is None:
        return unknown
    value = float(count)
    for unit in _BINARY:
        if value < 1024 or unit == _BINARY[-1]:
            return f"{value:.0f} {unit}" if unit == "B" else f"{value:,.1f} {unit}"
        value /= 1024
    raise AssertionError("unreachable")


def power_of_two_bytes(count: int) -> str:
    """A size that is a power of two, exactly: 1 KiB, 64 MiB, 1 GiB (a transfer's sizes)."""
    for unit in _BINARY:
        if count < 1024 or unit == _BINARY[-1]:
            return f"{count:g} {unit}"
        count //= 1024
    raise AssertionError("unreachable")


def gib(count: int | None, digits: int = 1, unknown: str = "?") -> str:
    """Bytes in GiB (a device's memory), or `unknown` where the device does not say."""
    return unknown if count is None else f"{count / 2**30:.{digits}f} GiB"


def clock(seconds: float) -> str:
    """A duration as a clock reads: 0:07, 12:30, 1:02:03."""
    seconds = max(0, int(round(seconds)))
    hours, rest = divmod(seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{seconds:02d}" if hours else f"{minutes}:{seconds:02d}"


def duration(seconds: float) -> str:
    """Under 10 s with its hundredths (3.25 s), longer as a clock; "?" when not finite."""
    if not math.isfinite(seconds):
        return "?"
    return f"{seconds:.2f} s" if seconds < 10 else clock(seconds)


def short_time(seconds: float) -> str:
    """A time that is often under a second (a copy, a warm-up): in ms there, else as `duration`."""
    return f"{seconds * 1e3:.3g} ms" if 0 <= seconds < 1 else duration(seconds)


def epochs(count: int) -> str:
    """ "1 epoch", "1,234 epochs": a count of epochs in English, as the command line says it (the window says
    it in its language: ui/base/i18n.epochs_text)."""
    return "1 epoch" if count == 1 else f"{count:,} epochs"


def rate(per_second: float) -> str:
    """Epochs (or samples) per second: grouped from 100 on, three digits below."""
    return f"{per_second:,.0f}" if per_second >= 100 else f"{per_second:.3g}"


def loss(value: float | None) -> str:
    """A loss with six significant digits; "-" where there is none, nan and inf as such."""
    if value is None:
        return "-"
    return f"{value:.6g}" if math.isfinite(value) else str(value)
