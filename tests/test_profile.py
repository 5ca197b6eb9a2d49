"""Where a step's time goes: the profile in the core, on the command line and in the window."""

import json

import pytest

from gpudemo.core.profile import DEVICE_BOUND, HOST_BOUND, StepProfile, profile_steps
from gpudemo.core.settings import TrainingConfig
from tests.test_cli import gpudemo


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
    assert out.returncode == 0 and "per step:" in out.stdout and "OPERATION" in out.stdout
    bad = gpudemo("profile", "--device", "cpu", "--steps", "0")
    assert bad.returncode == 2 and "steps must be from 1 to 10,000, not 0" in bad.stderr
    assert "Traceback" not in bad.stderr


@pytest.mark.cuda
def test_a_gpu_profile_counts_kernels_and_their_time():
    profile = profile_steps(TrainingConfig(device="cuda:0", problem="line", samples=1_000_000), steps=5)
    assert profile.on_gpu and profile.kernels > 0 and profile.device_us > 0
    assert any(op.device_us > 0 for op in profile.ops)
