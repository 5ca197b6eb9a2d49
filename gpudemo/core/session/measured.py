"""The measurements the window shows, kept beside the runs: each view's latest, as a request, its readings
and its result.

A measurement view (compare, sweep, profile, data parallel, moving data) shows one measurement at a time:
how it began (`begin`: what was asked), each reading as it came (`add`), and how it ended (`end`: the
result). The window's jobs write here as they draw, so a window rebuilt in another language, or anything
that reads the session later, shows the same measurements again from the record, not from its widgets.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol


class ShowsMeasurement(Protocol):
    """A view that shows one measurement: what `Measured.show` drives."""

    def begin(self, *asked: object) -> object: ...
    def add(self, reading: object) -> object: ...
    def end(self, *result: object) -> object: ...


@dataclass
class Measurement:
    asked: tuple  # begin's arguments: what the measurement was asked
    readings: list = field(default_factory=list)  # each reading, as it came
    result: tuple | None = None  # end's arguments; None while it goes (or where it was stopped before its end)


class Measured:
    """Each view's latest measurement, by the view's name."""

    def __init__(self) -> None:
        self._latest: dict[str, Measurement] = {}

    def begin(self, view: str, *asked: object) -> None:
        self._latest[view] = Measurement(asked)

    def add(self, view: str, reading: object) -> None:
        self._latest[view].readings.append(reading)

    def end(self, view: str, *result: object) -> None:
        self._latest[view].result = result

    def latest(self, view: str) -> Measurement | None:
        return self._latest.get(view)

    def views(self) -> list[str]:
        """The views that have shown a measurement, in the order they first did."""
        return list(self._latest)

    def show(self, view: str, into: ShowsMeasurement) -> None:
        """Show `view`'s latest measurement in `into`, as it was shown: begun, each reading, ended."""
        measurement = self._latest[view]
        into.begin(*measurement.asked)
        for reading in measurement.readings:
            into.add(reading)
        if measurement.result is not None:
            into.end(*measurement.result)


class Feed:
    """A job's view and the record beside it: each call recorded, then drawn; what the view's end says (a
    headline, a note) is returned."""

    def __init__(self, measured: Measured, name: str, view: ShowsMeasurement) -> None:
        self.measured, self.name, self.view = measured, name, view

    def begin(self, *asked: object) -> object:
        self.measured.begin(self.name, *asked)
        return self.view.begin(*asked)

    def add(self, reading: object) -> object:
        self.measured.add(self.name, reading)
        return self.view.add(reading)

    def end(self, *result: object) -> object:
        self.measured.end(self.name, *result)
        return self.view.end(*result)
