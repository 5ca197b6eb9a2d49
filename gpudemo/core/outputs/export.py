"""Every epoch's loss of some runs, as one CSV file: a row per run and epoch.

A classification's rows also carry that epoch's training accuracy, and the digits' last row
the final model's test accuracy; a regression's rows leave both empty.
"""

from __future__ import annotations

import csv
import os
from collections.abc import Sequence

from gpudemo.core.base.files import write_atomically
from gpudemo.core.base.messages import Message
from gpudemo.core.session.runs import Run

COLUMNS = (
    "run",
    "device",
    "problem",
    "optimizer",
    "lr",
    "batch_size",
    "samples",
    "seed",
    "status",
    "epoch",
    "loss",
    "accuracy",
    "test_accuracy",
)


def write_losses_csv(path: str | os.PathLike, runs: Sequence[Run]) -> tuple[int, Message | None]:
    """Write the losses of `runs` (all or nothing); the number of rows written, and what a person should know
    of the write (`files.write_atomically`)."""
    rows = 0

    def write(out) -> None:
        nonlocal rows
        writer = csv.writer(out)
        writer.writerow(COLUMNS)
        for run in runs:
            config = run.config
            head = (
                run.number,
                config.device,
                config.problem,
                config.optimizer,
                repr(config.lr),
                config.batch_size,
                config.samples,
                config.seed,
                run.status,
            )
            losses = run.history.head(run.count).tolist()
            accuracies = run.accuracy.head(run.count).tolist() if run.accuracy is not None else [""] * len(losses)
            tested = run.result.test_accuracy if run.result is not None else None
            for epoch, (loss, accuracy) in enumerate(zip(losses, accuracies, strict=True), 1):
                test = repr(tested) if tested is not None and epoch == len(losses) else ""
                writer.writerow((*head, epoch, repr(loss), repr(accuracy) if accuracy != "" else "", test))
            rows += run.count

    note = write_atomically(path, write)
    return rows, note
