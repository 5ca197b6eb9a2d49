"""The errors a run can end with, for whoever drives it (the command line, the window's worker)."""

from gpudemo.core.base.messages import PersonError


class TrainingError(PersonError, RuntimeError):
    """The run could not go on: the device failed, ran out of memory, or the run cannot fit.

    `str(error)` is a sentence for a person, `error.message` the same to translate; the run's memory is
    already freed.
    """


class DataFileError(PersonError, ValueError):
    """A person's data file cannot be used; the message says why (and on which line)."""


class RunRefused(PersonError, ValueError):
    """A run this device cannot take as asked, refused before it starts; `setting` names the setting at fault
    ("precision", "step"), so the command line can name its option and the window its field."""

    setting = ""
