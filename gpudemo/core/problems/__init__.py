"""The problems gpudemo can train on, each looked up by its key.

A problem owns everything about itself: its data (drawn on the CPU from the seed, then
moved to the run's device), its model (built on the CPU right after the seed is set, as the tutorial
does), its loss, how to describe what was learned, the x range its fit is drawn
over, and its part of the generated script. The window, the command line and the
script read all of it from here. A new problem joins by adding a module and an
entry to `_registry` (and its key, title, explanation and settings to core/settings/choices.py).

A person's own data ("data") is a problem made from the file the config names: look a
config's problem up with `problem_for(config)`, which reads that file (kept while unchanged).

The problems are made with torch, so this package imports them at the first look-up, not at load:
the window imports it before PyTorch has loaded (what a problem's form uses is in the rules).
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

from gpudemo.core.settings.choices import OWN_DATA, PROBLEM_CHOICES
from gpudemo.core.settings.config import TrainingConfig

if TYPE_CHECKING:
    from gpudemo.core.problems.base import Problem


_REMEMBERED: dict[str, Problem] = {}  # data files that cannot be read now, by path: what a loaded model kept


def problem_for(config: TrainingConfig) -> Problem:
    """The problem `config` trains on; for "data", made from its file (raises DataFileError if unusable),
    or, while that file cannot be read, what a loaded checkpoint kept of it (`remember`)."""
    if config.problem == OWN_DATA:
        from gpudemo.core.base.errors import DataFileError
        from gpudemo.core.problems.datafile import read_data
        from gpudemo.core.problems.own import OwnData

        try:
            return OwnData(read_data(config.data))
        except DataFileError:
            if config.data in _REMEMBERED:
                return _REMEMBERED[config.data]
            raise
    return _registry()[config.problem]


def remember(path: str, problem: Problem) -> None:
    """What a loaded model kept of its data file (core/outputs/checkpoint.py), used while the file cannot be read: the
    model predicts; a training on it is refused with the file's reason."""
    _REMEMBERED[path] = problem


def uses(key: str) -> frozenset[str]:
    """The settings a problem of this key uses (no file is read for "data", and no torch imported)."""
    return PROBLEM_CHOICES[key].uses


@functools.cache
def _registry() -> dict[str, Problem]:
    from gpudemo.core.problems.classes import Circles, Spiral, Xor
    from gpudemo.core.problems.digits import Digits
    from gpudemo.core.problems.line import Line
    from gpudemo.core.problems.sine import Sine
    from gpudemo.core.problems.tutorial import Tutorial

    return {problem.key: problem for problem in (Tutorial(), Line(), Sine(), Circles(), Xor(), Spiral(), Digits())}


def __getattr__(name: str):
    """`PROBLEMS` (every problem but a person's data, by key) and `Problem`, made on first use (PEP 562)."""
    if name == "PROBLEMS":
        return _registry()
    if name == "Problem":
        from gpudemo.core.problems.base import Problem

        return Problem
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["OWN_DATA", "PROBLEMS", "Problem", "problem_for", "uses"]
