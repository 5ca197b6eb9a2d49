"""The path's points between read-backs: the CPU's block and the device's copies give the same rows."""

import numpy as np
import pytest
import torch

from gpudemo.core.settings.config import TrainingConfig
from gpudemo.core.training import train
from gpudemo.core.training.landscape import PathHistory
from gpudemo.core.training.options import LoopOptions
from gpudemo.core.training.positions import DevicePositions, HostPositions, positions_for


def _plane(w: float, b: float) -> tuple[torch.nn.Parameter, torch.nn.Parameter, tuple[torch.Tensor, ...]]:
    weight, bias = torch.nn.Parameter(torch.tensor([[w]])), torch.nn.Parameter(torch.tensor([b]))
    return weight, bias, (weight.detach().view(1), bias.detach().view(1))


@pytest.mark.parametrize("kind", [HostPositions, DevicePositions])
def test_each_epoch_records_the_parameters_as_they_stand_after_it(kind):
    weight, bias, views = _plane(1.0, -1.0)
    positions = kind(views)
    expected = []
    with torch.no_grad():
        for epoch in range(10_000):  # past the first block: it grows
            weight.add_(0.5)  # an optimizer's in-place update
            bias.sub_(0.25)
            positions.record(None)
            expected.append((1.0 + 0.5 * (epoch + 1), -1.0 - 0.25 * (epoch + 1)))
    np.testing.assert_array_equal(positions.take(), np.array(expected, dtype=np.float32))
    assert positions.take().shape == (0, 2)  # taken once


@pytest.mark.parametrize("kind", [HostPositions, DevicePositions])
def test_a_graph_steps_captured_rows_are_kept_as_they_came(kind):
    _, _, views = _plane(0.0, 0.0)
    positions = kind(views)
    positions.record(torch.tensor([[1.0, 2.0], [3.0, 4.0]]))
    positions.record(torch.tensor([[5.0, 6.0]]))
    np.testing.assert_array_equal(positions.take(), [[1, 2], [3, 4], [5, 6]])


def test_a_cpu_run_reads_its_path_from_host_memory_and_any_other_device_keeps_it_there():
    _, _, views = _plane(0.0, 0.0)
    assert isinstance(positions_for(torch.device("cpu"), views), HostPositions)
    assert isinstance(positions_for(torch.device("meta"), views), DevicePositions)  # as a GPU's: not host memory
    half = tuple(view.half() for view in views)
    assert isinstance(positions_for(torch.device("cpu"), half), DevicePositions)  # numpy has no bfloat16 either


@pytest.mark.parametrize("config", [TrainingConfig(epochs=300), TrainingConfig(epochs=300, optimizer="adam", lr=0.05)])
def test_the_cpus_path_is_the_one_the_devices_copies_give(monkeypatch, config):
    host = PathHistory(config.epochs)
    train(config, LoopOptions(path=host, flush_seconds=0))
    monkeypatch.setattr("gpudemo.core.training.run.positions_for", lambda device, views: DevicePositions(views))
    device = PathHistory(config.epochs)
    train(config, LoopOptions(path=device, flush_seconds=0))
    assert host.count == device.count == config.epochs + 1
    np.testing.assert_array_equal(host.points, device.points)
