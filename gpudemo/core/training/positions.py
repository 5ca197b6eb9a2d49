"""The path's points between two read-backs: (w, b) after each epoch of a model with two parameters.

On a GPU (any device but the CPU) each epoch's (w, b) is one small copy on the device, and a flush brings
them all back in one: reading them on the host would wait for the device at every epoch. On the CPU the
parameters already lie in host memory: (w, b) is read through numpy views of them into a block, with no
torch operation an epoch (the copy on the device, a `torch.cat` of the two, and the stack of thousands of
them at a flush cost ~6 % of the tutorial's epoch on the CPU). A graph step records (w, b) inside its
captured epochs; those rows are kept as they come, on either.
"""

from __future__ import annotations

import numpy as np
import torch

FIRST_BLOCK = 8192  # rows of the CPU's block at first; it doubles if a read-back comes later than that


class DevicePositions:
    """Each epoch's (w, b) as a copy on the device, brought back at a flush in one copy."""

    def __init__(self, views: tuple[torch.Tensor, ...]):
        self._views = views
        self._pending: list[torch.Tensor] = []

    def record(self, captured: torch.Tensor | None) -> None:
        """After an epoch: (w, b) as they stand, or the rows a graph step `captured` of its epochs."""
        self._pending.append(torch.cat(self._views) if captured is None else captured)

    def take(self) -> np.ndarray:
        """The recorded rows, (epochs, 2) float32 on the host; the record emptied."""
        if not self._pending:
            return np.empty((0, 2), np.float32)
        rows = torch.cat([row.reshape(-1, 2) for row in self._pending]).to("cpu", torch.float32).numpy()
        self._pending.clear()
        return rows


class HostPositions:
    """Each epoch's (w, b) read from the parameters' own memory into a block (a CPU run)."""

    def __init__(self, views: tuple[torch.Tensor, ...]):
        self._w, self._b = (view.numpy() for view in views)  # share the parameters' storage: no copy
        self._block = np.empty((FIRST_BLOCK, 2), np.float32)
        self._count = 0

    def record(self, captured: torch.Tensor | None) -> None:
        rows = 1 if captured is None else captured.numel() // 2
        if self._count + rows > len(self._block):
            grown = np.empty((max(2 * len(self._block), self._count + rows), 2), np.float32)
            grown[: self._count] = self._block[: self._count]
            self._block = grown
        if captured is None:
            self._block[self._count, 0] = self._w[0]
            self._block[self._count, 1] = self._b[0]
        else:
            self._block[self._count : self._count + rows] = captured.reshape(-1, 2).float().numpy()
        self._count += rows

    def take(self) -> np.ndarray:
        """The recorded rows (a view of the block, valid until the next record); the record emptied."""
        rows, self._count = self._block[: self._count], 0
        return rows


def positions_for(device: torch.device, views: tuple[torch.Tensor, ...]) -> DevicePositions | HostPositions:
    """Where a run's path waits for its read-back: in host memory for a CPU run whose parameters numpy can
    view, else on the device."""
    if device.type == "cpu" and all(view.dtype in (torch.float32, torch.float64) for view in views):
        return HostPositions(views)
    return DevicePositions(views)
