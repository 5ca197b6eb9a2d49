"""The loss landscape and a run's path through it: measured, and equal to the loss computed directly."""

import time

import numpy as np
import pytest
import torch

from gpudemo.core.problems import PROBLEMS
from gpudemo.core.settings.config import TrainingConfig
from gpudemo.core.training import LoopOptions, LossBatch, run_training, train
from gpudemo.core.training.landscape import (
    BATCHED,
    MOMENTS,
    Bounds,
    PathHistory,
    bounds_around,
    needs_new_grid,
)
from gpudemo.core.training.loss_grid import evaluate, least_squares
from tests.tutorial import drain, tutorial_run


def line_data(samples=500, device="cpu"):
    config = TrainingConfig(problem="line", samples=samples, device=device)
    x, y = PROBLEMS["line"].make_data(config, torch.Generator().manual_seed(0))
    return x.to(device), y.to(device)


def direct_loss(x, y, w, b):
    """nn.MSELoss of an nn.Linear(1, 1) set to (w, b): the loss as training computes it."""
    model = torch.nn.Linear(1, 1).double()
    with torch.no_grad():
        model.weight.fill_(w)
        model.bias.fill_(b)
        return float(torch.nn.MSELoss()(model(x.double()), y.double()))


@pytest.mark.parametrize("method", [BATCHED, MOMENTS])
def test_the_grid_equals_the_loss_computed_directly_at_sampled_points(method):
    x, y = line_data()
    landscape = evaluate(x, y, Bounds(-1.0, 4.0, -2.0, 2.0), method=method, size=32)
    assert landscape.method == method and landscape.loss.shape == (32, 32)
    rng = np.random.default_rng(0)
    for _ in range(12):
        i, j = rng.integers(0, 32, size=2)  # column i: weight, row j: bias
        expected = direct_loss(x, y, landscape.weights[i], landscape.biases[j])
        assert landscape.loss[j, i] == pytest.approx(expected, rel=1e-5)


def test_the_least_loss_is_at_the_least_squares_line():
    x, y = line_data()
    w, b = least_squares(x, y)
    landscape = evaluate(
        x, y, bounds_around(np.array([w - 1, b - 1]), np.array([w + 1, b + 1]), (w, b)), (w, b), size=65
    )
    j, i = np.unravel_index(np.argmin(landscape.loss), landscape.loss.shape)
    step = landscape.weights[1] - landscape.weights[0]
    assert abs(landscape.weights[i] - w) <= step and abs(landscape.biases[j] - b) <= step


def test_the_path_is_the_runs_parameters_after_every_epoch():
    path = PathHistory(100)
    result = train(TrainingConfig(epochs=100), LoopOptions(path=path))
    expected = np.array(tutorial_run(0)["path"], dtype=np.float32)
    np.testing.assert_array_equal(result.path, expected)
    assert path.count == 101 and path.nbytes / 100 <= 16


def test_a_landscape_comes_first_and_again_when_the_path_leaves_it():
    path = PathHistory(301)  # room for the step off the grid below
    batches, result = drain(run_training(TrainingConfig(epochs=300), LoopOptions(path=path, flush_seconds=0, fit=True)))
    landscapes = [(batch, batch.landscape) for batch in batches if batch.landscape is not None]
    assert batches[0].landscape is not None
    assert landscapes[0][1].minimum == pytest.approx((2.0, 0.0))
    for batch, landscape in landscapes:  # each one holds the path so far
        points = result.path[: batch.last_epoch + 1]
        assert landscape.bounds.contains(points[:, 0].min(), points[:, 0].max(), points[:, 1].min(), points[:, 1].max())
    assert isinstance(batches[0], LossBatch)
    last = landscapes[-1][1]
    assert not needs_new_grid(last, path)
    path.extend(np.array([[last.bounds.w_high + 1.0, 0.0]], dtype=np.float32))  # the path steps off the grid
    assert needs_new_grid(last, path)


def test_the_mlp_has_no_plane_and_no_path():
    result = train(TrainingConfig(problem="sine", epochs=3, samples=20), LoopOptions(path=PathHistory(3)))
    assert result.path is None and not PROBLEMS["sine"].has_plane(result.config)


def test_a_diverging_path_stops_moving_the_grid():
    path = PathHistory(100)
    batches, result = drain(
        run_training(TrainingConfig(epochs=100, lr=1.0), LoopOptions(path=path, flush_seconds=0, fit=True))
    )
    assert result.status == "diverged"
    assert all(
        np.abs([b.landscape.bounds.w_low, b.landscape.bounds.w_high]).max() < 1e7
        for b in batches
        if b.landscape is not None
    )


def test_a_long_path_is_drawn_from_a_few_thousand_points():
    path = PathHistory(1_000_000)
    path.extend(np.random.default_rng(0).random((1_000_001, 2)).astype(np.float32))
    shown = path.decimated(path.count, 4000)
    assert len(shown) <= 4001 and (shown[0] == path.points[0]).all() and (shown[-1] == path.points[-1]).all()
    np.testing.assert_array_equal(shown[:2000], path.points[:2000])


@pytest.mark.cuda
def test_the_grid_on_a_gpu_equals_the_grid_on_the_cpu():
    x, y = line_data(device="cuda")
    bounds = Bounds(-1.0, 4.0, -2.0, 2.0)
    on_gpu = evaluate(x, y, bounds, method=BATCHED)
    on_cpu = evaluate(x.cpu(), y.cpu(), bounds, method=BATCHED)
    np.testing.assert_allclose(on_gpu.loss, on_cpu.loss, rtol=1e-4)


def test_the_time_a_new_grid_takes_is_left_out_of_the_runs(monkeypatch):
    from gpudemo.core import training

    made = []

    def slow_evaluate(*args, **kwargs):
        made.append(True)
        if len(made) > 1:  # the first grid comes before the clock starts anyway
            time.sleep(1.0)
        return evaluate(*args, **kwargs)

    monkeypatch.setattr(training.run, "evaluate", slow_evaluate)
    result = train(TrainingConfig(epochs=100), LoopOptions(path=PathHistory(100)))
    assert len(made) >= 2 and result.seconds < 1.0


class _NoFloat64(torch.utils._python_dispatch.TorchDispatchMode):
    """A device without float64, as Apple's MPS is: any operation that makes or takes a float64 tensor fails."""

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        seen = [a for a in torch.utils._pytree.tree_leaves((args, kwargs)) if isinstance(a, torch.Tensor)]
        if kwargs.get("dtype") == torch.float64 or any(t.dtype == torch.float64 for t in seen):
            raise TypeError(f"{func}: MPS framework doesn't support float64")
        out = func(*args, **kwargs)
        if any(t.dtype == torch.float64 for t in torch.utils._pytree.tree_leaves(out) if isinstance(t, torch.Tensor)):
            raise TypeError(f"{func}: MPS framework doesn't support float64")
        return out


@pytest.mark.parametrize("method", [BATCHED, MOMENTS])
def test_emulated_mps_the_landscape_and_its_minimum_need_no_float64(monkeypatch, method):
    """The window's default first run draws the loss landscape on the run's device; on a Mac that is MPS,
    which has no float64: it failed there. Here the CPU stands in for MPS, refusing float64."""
    from gpudemo.core.training import loss_grid

    monkeypatch.setattr(loss_grid, "wide", lambda device: torch.float32)  # what wide(mps) gives
    x, y = torch.tensor([[1.0], [2.0], [3.0]]), torch.tensor([[2.0], [4.0], [6.0]])
    with _NoFloat64():
        with pytest.raises(TypeError, match="float64"):  # the emulation refuses what MPS refuses
            torch.zeros(2, dtype=torch.float64)
        minimum = least_squares(x, y)
        grid = evaluate(
            x, y, bounds_around(np.array([0.0, -1.0]), np.array([3.0, 1.0]), minimum), minimum, method=method
        )
    assert minimum == pytest.approx((2.0, 0.0), abs=1e-5)
    exact = evaluate(
        x, y, bounds_around(np.array([0.0, -1.0]), np.array([3.0, 1.0]), minimum), minimum, method=method
    )  # float64 here, on the CPU
    np.testing.assert_allclose(grid.loss, exact.loss, rtol=1e-4, atol=1e-4)
    assert loss_grid.wide(torch.device("cpu")) is torch.float32  # (patched) and MPS's is, unpatched:
    monkeypatch.undo()
    assert loss_grid.wide(torch.device("mps")) is torch.float32 and loss_grid.wide(torch.device("cpu")) is torch.float64
