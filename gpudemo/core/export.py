"""Every epoch's loss of some runs, as one CSV file: a row per run and epoch."""

from __future__ import annotations

import csv
import os
from collections.abc import Sequence

from gpudemo.core.files import write_atomically
from gpudemo.core.runs import Run

COLUMNS = ("run", "device", "problem", "optimizer", "lr", "batch_size", "samples", "seed", "status", "epoch", "loss")


def write_losses_csv(path: str | os.PathLike, runs: Sequence[Run]) -> int:
    """Write the losses of `runs` (all or nothing); the number of rows written."""
    rows = 0

    def write(out) -> None:
        nonlocal rows
        writer = csv.writer(out)
        writer.writerow(COLUMNS)
        for run in runs:
            config = run.config
            head = (run.number, config.device, config.problem, config.optimizer, repr(config.lr), config.batch_size,
                    config.samples, config.seed, run.status)
            for epoch, loss in enumerate(run.history.head(run.count).tolist(), 1):
                writer.writerow((*head, epoch, repr(loss)))
            rows += run.count

    write_atomically(path, write)
    return rows
