"""Where a step's time goes: the profile in the core, on the command line and in the window."""

import json
from types import SimpleNamespace

import pytest
import torch

from gpudemo import cli
from gpudemo.core import training
from gpudemo.core.base.errors import TrainingError
from gpudemo.core.measure.profile import (
    DEVICE_BOUND,
    HOST_BOUND,
    StepProfile,
    profile_steps,
    summarize,
)
from gpudemo.core.settings.config import TrainingConfig
from tests.commands import gpudemo


def test_a_profile_says_how_long_a_step_takes_and_what_ran_in_it():
    profile = profile_steps(TrainingConfig(), steps=10, top=100)  # every op: the order varies with load
    assert profile.device == "cpu" and profile.steps == 10 and not profile.on_gpu
    assert profile.wall_us > 0 and 0 < profile.device_us and profile.kernels >= 10
    names = [op.name for op in profile.ops]
    assert "aten::mse_loss" in names and "aten::addmm" in names
    costs = [op.cpu_us + op.device_us for op in profile.ops]
    assert costs == sorted(costs, reverse=True)
    assert next(op for op in profile.ops if op.name == "aten::mse_loss").calls == 1


def test_three_samples_cost_per_operator_what_a_million_cost_in_arithmetic():
    tiny = profile_steps(TrainingConfig(), steps=5)
    large = profile_steps(TrainingConfig(problem="line", samples=1_000_000), steps=5)
    assert large.per_kernel_us > 5 * tiny.per_kernel_us
    assert large.bound == DEVICE_BOUND


def test_the_bound_follows_the_readings():
    on_cpu = StepProfile("cpu", 1, 100.0, 100.0, 40.0, 20, ())
    assert on_cpu.per_kernel_us == 2.0 and on_cpu.bound == HOST_BOUND
    on_gpu = StepProfile("cuda:0", 1, 90.0, 100.0, 6.0, 12, (), on_gpu=True)
    assert on_gpu.busy_share == pytest.approx(0.06) and on_gpu.bound == HOST_BOUND
    busy = StepProfile("cuda:0", 1, 90.0, 1000.0, 900.0, 12, (), on_gpu=True)
    assert busy.bound == DEVICE_BOUND


def test_the_command_prints_the_promised_json():
    out = gpudemo("profile", "--device", "cpu", "--steps", "3", "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert set(data) >= {"device", "steps", "per_step", "ops"} and data["steps"] == 3
    assert set(data["per_step"]) >= {"cpu_us", "device_us", "kernels"}
    assert set(data["ops"][0]) == {"name", "calls", "cpu_us", "device_us"}
    assert "profiler_start" not in out.stderr


def test_the_command_explains_in_words_and_refuses_bad_steps():
    out = gpudemo("profile", "--device", "cpu", "--steps", "3")
    assert out.returncode == 0 and "Per step:" in out.stdout and "OPERATION" in out.stdout
    bad = gpudemo("profile", "--device", "cpu", "--steps", "0")
    assert bad.returncode == 2 and "steps must be from 1 to 10,000, not 0" in bad.stderr
    assert "Traceback" not in bad.stderr


@pytest.mark.cuda
def test_a_gpu_profile_counts_kernels_and_their_time():
    profile = profile_steps(TrainingConfig(device="cuda:0", problem="line", samples=1_000_000), steps=5)
    assert profile.on_gpu and profile.kernels > 0 and profile.device_us > 0
    assert any(op.device_us > 0 for op in profile.ops) and all(op.name.startswith("aten::") for op in profile.ops)


def _event(name, device_type, device_time=0.0, self_cpu=0.0, annotation=False):
    return SimpleNamespace(
        name=name,
        device_type=device_type,
        device_time=device_time,
        self_cpu_time_total=self_cpu,
        is_user_annotation=annotation,
    )


def _average(key, count, self_cpu, self_device=0.0):
    return SimpleNamespace(key=key, count=count, self_cpu_time_total=self_cpu, self_device_time_total=self_device)


def test_a_gpu_profile_counts_each_kernel_once_and_waiting_apart_from_work():
    from torch.autograd import DeviceType

    steps = 2
    events = [
        _event("aten::addmm", DeviceType.CPU, self_cpu=40.0),
        _event("void gemv2T_kernel", DeviceType.CUDA, device_time=6.0),
        _event("void mse_kernel", DeviceType.CUDA, device_time=3.0),
        _event("Memcpy DtoD (Device -> Device)", DeviceType.CUDA, device_time=1.0),
        _event("Optimizer.step#SGD.step", DeviceType.CUDA, device_time=9.0, annotation=True),  # spans kernels above
        *(_event("cudaLaunchKernel", DeviceType.CPU, self_cpu=5.0) for _ in range(2)),
        _event("cudaMemcpyAsync", DeviceType.CPU, self_cpu=5.0),
        _event("cudaGraphLaunch", DeviceType.CPU, self_cpu=5.0),
    ]
    averages = [
        _average("aten::addmm", 2, 40.0, 6.0),
        _average("aten::mse_loss", 2, 30.0, 3.0),
        _average("void gemv2T_kernel", 2, 0.0, 6.0),  # the same time as aten::addmm's, as a kernel row
        _average("cudaLaunchKernel", 8, 20.0),
        _average("cudaDeviceSynchronize", 1, 500.0),
        _average("Optimizer.step#SGD.step", 2, 10.0, 9.0),
    ]
    device_us, kernels, ops, waiting_us, launches = summarize(events, averages, steps, on_gpu=True)
    assert device_us == 5.0 and kernels == 1.5  # (6 + 3 + 1) / 2 and 3 / 2: the annotation not again
    assert launches == 2.0  # the runtime's launch calls, a graph's one among them: 4 / 2
    assert [op.name for op in ops] == ["aten::addmm", "aten::mse_loss"]  # ATen's operators only
    assert ops[0].device_us == 3.0 and ops[0].calls == 1.0
    assert waiting_us == 250.0  # shown apart, not as any operation's work


def test_a_device_that_runs_out_of_memory_while_profiled_ends_as_a_training_error(monkeypatch, capsys):
    def out_of_memory(run):
        raise torch.cuda.OutOfMemoryError("CUDA out of memory. Tried to allocate 20.00 GiB")

    monkeypatch.setattr(training.PreparedRun, "epoch", out_of_memory)
    with pytest.raises(TrainingError, match="cpu ran out of memory before it began"):
        profile_steps(TrainingConfig(), steps=3)
    assert cli.main(["profile", "--device", "cpu", "--steps", "3"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("gpudemo: cpu ran out of memory") and len(err.strip().splitlines()) == 1


def test_a_clock_read_without_a_sync_overstates_a_gpu_step():
    queued = StepProfile("cuda:0", 20, cpu_us=40.0, wall_us=400.0, device_us=350.0, kernels=9, ops=(), on_gpu=True)
    assert queued.overstated == pytest.approx(10.0)
    assert queued.to_json()["timing"] == {"without_sync_us": 40.0, "with_sync_us": 400.0, "overstated": 10.0}
    assert StepProfile("cpu", 1, 100.0, 100.0, 40.0, 20, ()).overstated == 1.0


def test_a_graph_replays_kernels_are_listed_by_name_where_no_operator_is_above_them():
    # A CUDA graph's replay: its kernels carry cudaGraphLaunch's correlation, with no ATen operator above
    # them; key_averages gives ATen rows only for what ran outside the graph (a buffer's clone).
    from torch.autograd import DeviceType

    steps = 2
    events = [
        _event("cudaGraphLaunch", DeviceType.CPU, self_cpu=5.0),
        *(_event("void gemv2T_kernel", DeviceType.CUDA, device_time=6.0) for _ in range(2)),
        *(_event("triton_poi_fused_mse", DeviceType.CUDA, device_time=3.0) for _ in range(2)),
        _event("Memcpy DtoD (Device -> Device)", DeviceType.CUDA, device_time=1.0),
    ]
    averages = [_average("aten::clone", 2, 8.0, 1.0), _average("cudaGraphLaunch", 2, 10.0)]
    device_us, kernels, ops, waiting_us, launches = summarize(events, averages, steps, on_gpu=True)
    assert device_us == 9.5 and launches == 0.5
    names = [op.name for op in ops]
    assert names[0] == "void gemv2T_kernel" and {"triton_poi_fused_mse", "aten::clone"} <= set(names)
    assert ops[0].calls == 1.0 and ops[0].device_us == 6.0
