"""The problems gpudemo can train on, each looked up by its key.

A problem owns everything about itself: its data (drawn on the CPU from the seed, then
moved to the run's device), its model (built on the CPU right after the seed is set, as the tutorial
does), its loss, how to describe what was learned, the x range its fit is drawn
over, and its part of the generated script. The window, the command line and the
script read all of it from here. A new problem joins by adding a module and an
entry to PROBLEMS (and its key to rules.PROBLEM_KEYS).

A person's own data ("data") is a problem made from the file the config names: look a
config's problem up with `problem_for(config)`, which reads that file (kept while unchanged).
"""

from __future__ import annotations

from gpudemo.core.config import TrainingConfig
from gpudemo.core.datafile import read_data
from gpudemo.core.problems.base import Problem
from gpudemo.core.problems.classes import Circles, Spiral, Xor
from gpudemo.core.problems.digits import Digits
from gpudemo.core.problems.line import Line
from gpudemo.core.problems.own import OwnData
from gpudemo.core.problems.sine import Sine
from gpudemo.core.problems.tutorial import Tutorial


def problem_for(config: TrainingConfig) -> Problem:
    """The problem `config` trains on; for "data", made from its file (raises DataFileError if unusable)."""
    if config.problem == OwnData.key:
        return OwnData(read_data(config.data))
    return PROBLEMS[config.problem]


def uses(key: str) -> frozenset[str]:
    """The settings a problem of this key uses (no file is read for "data")."""
    return OwnData.uses if key == OwnData.key else PROBLEMS[key].uses


PROBLEMS: dict[str, Problem] = {
    problem.key: problem for problem in (Tutorial(), Line(), Sine(), Circles(), Xor(), Spiral(), Digits())
}

__all__ = ["PROBLEMS", "Problem", "problem_for", "uses"]
