"""The preflight: everything a run is checked against before anything is allocated, done once per run.

`preflight(config)` returns a Plan (the settings, the problem they name, its samples and batch, the
step mode, the memory the run will need) or raises what refuses it, naming the setting: a precision
the device cannot compute in (precision.PrecisionRefused), a step mode the run cannot take
(modes.StepRefused), a data file that is no longer readable (datafile.DataFileError), a run larger than
the device's free memory (budget.RunTooLarge). The command line, the window's form and the loop take
the same plan: the command line and the form make it and hand it to the loop, which makes one only
when it is given settings alone.
"""

from __future__ import annotations

from dataclasses import dataclass

from gpudemo.core.problems import Problem, problem_for
from gpudemo.core.settings.config import TrainingConfig
from gpudemo.core.step.modes import StepMode, check, mode_of
from gpudemo.core.training.budget import MemoryNeed, batch_size, check_fits


@dataclass(frozen=True)
class Plan:
    config: TrainingConfig
    problem: Problem
    samples: int  # in the training set
    batch: int  # samples a step (the samples, for a full batch)
    mode: StepMode
    need: MemoryNeed  # the estimate the device's free memory was checked against


def preflight(config: TrainingConfig) -> Plan:
    """The run `config` asks for, checked whole; raises what refuses it (see the module's words)."""
    check(config)  # precision and step mode: the cheap refusals first
    need = check_fits(config)
    problem = problem_for(config)
    return Plan(config, problem, problem.samples(config), batch_size(config), mode_of(config), need)


def plan_of(job: TrainingConfig | Plan) -> Plan:
    """`job` itself when it is planned already, else its preflight."""
    return job if isinstance(job, Plan) else preflight(job)
