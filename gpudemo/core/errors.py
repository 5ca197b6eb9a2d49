"""The errors a run can end with, for whoever drives it (the command line, the window's worker)."""


class TrainingError(RuntimeError):
    """The run could not go on: the device failed, ran out of memory, or the run cannot fit.

    The message is a sentence for a person; the run's memory is already freed.
    """
