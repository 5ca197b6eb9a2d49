"""A view that can show what it shows again in another view of its kind (the window rebuilt in a new language)."""

from __future__ import annotations


class Replayable:
    """Records the calls that filled the view since it was last cleared; `replay_into` makes them on another."""

    def _record(self, method: str, *args) -> None:
        calls = self.__dict__.setdefault("_calls", [])
        if method == "clear":
            calls.clear()
        calls.append((method, args))

    def replay_into(self, other: Replayable) -> None:
        for method, args in list(self.__dict__.get("_calls", [])):
            getattr(other, method)(*args)
