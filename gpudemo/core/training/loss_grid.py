"""The loss landscape computed on the run's device: the grid's losses (batched, or from the data's moments)
and the least-squares minimum drawn on it. What a landscape is lives in core/training/landscape.py."""

from __future__ import annotations

import torch

from gpudemo.core.training.landscape import BATCHED, BATCHED_MAX, CHUNK, GRID, MOMENTS, Bounds, Landscape


def wide(device: torch.device) -> torch.dtype:
    """The widest float `device` computes in: float64, but float32 on Apple's MPS, which has no float64 (the
    default first run on a Mac failed there: the landscape is computed on the run's device)."""
    return torch.float32 if device.type == "mps" else torch.float64


def least_squares(x: torch.Tensor, y: torch.Tensor) -> tuple[float, float] | None:
    """(w, b) of the least mean squared error on this data, or None when every x is the same."""
    dtype = wide(x.device)
    x64, y64 = x.reshape(-1).to(dtype), y.reshape(-1).to(dtype)
    mean_x, mean_y = x64.mean(), y64.mean()
    var = ((x64 - mean_x) ** 2).mean()
    if float(var) == 0.0:
        return None
    w = ((x64 - mean_x) * (y64 - mean_y)).mean() / var
    return float(w), float(mean_y - w * mean_x)


def evaluate(
    x: torch.Tensor,
    y: torch.Tensor,
    bounds: Bounds,
    minimum: tuple[float, float] | None = None,
    size: int = GRID,
    method: str | None = None,
) -> Landscape:
    """The mean squared error of y ≈ w·x + b over a size × size grid in `bounds`, on x's device."""
    device = x.device
    weights = torch.linspace(bounds.w_low, bounds.w_high, size, device=device, dtype=wide(device))
    biases = torch.linspace(bounds.b_low, bounds.b_high, size, device=device, dtype=wide(device))
    b_grid, w_grid = torch.meshgrid(biases, weights, indexing="ij")  # rows: bias, columns: weight
    xs, ys = x.reshape(-1), y.reshape(-1)
    if method is None:
        method = BATCHED if size * size * len(xs) <= BATCHED_MAX else MOMENTS
    with torch.no_grad():
        if method == BATCHED:
            loss = _batched(xs, ys, w_grid.reshape(-1, 1).to(x.dtype), b_grid.reshape(-1, 1).to(x.dtype))
        else:
            loss = _from_moments(xs, ys, w_grid.reshape(-1), b_grid.reshape(-1))
    return Landscape(
        bounds,
        weights.cpu().numpy().astype("float64"),
        biases.cpu().numpy().astype("float64"),
        loss.reshape(size, size).to("cpu", torch.float32).numpy(),
        method,
        minimum,
    )


def _batched(xs: torch.Tensor, ys: torch.Tensor, w: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    """Every grid point's model on every sample: (points, samples) predictions, a slice at a time."""
    total = torch.zeros(len(w), device=xs.device, dtype=wide(xs.device))
    per_slice = max(1, CHUNK // len(w))
    for start in range(0, len(xs), per_slice):
        x, y = xs[start : start + per_slice], ys[start : start + per_slice]
        errors = w * x + b - y  # (points, samples): one batched operation for the whole grid
        total += (errors * errors).sum(dim=1, dtype=total.dtype)
    return total / len(xs)


def _from_moments(xs: torch.Tensor, ys: torch.Tensor, w: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    """mean((w·x + b − y)²) = w²·E[x²] + b² + E[y²] + 2wb·E[x] − 2w·E[xy] − 2b·E[y]."""
    x, y = xs.to(wide(xs.device)), ys.to(wide(xs.device))
    ex, ey, exx, eyy, exy = x.mean(), y.mean(), (x * x).mean(), (y * y).mean(), (x * y).mean()
    return w * w * exx + b * b + eyy + 2 * w * b * ex - 2 * w * exy - 2 * b * ey
