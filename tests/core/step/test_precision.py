"""Precision: fp32, tf32, bf16 and fp16, refused where a device cannot, and what bf16 changes on the CPU."""

import json

import pytest
import torch

from gpudemo.core.measure.compare import REFUSED, DeviceTiming, compare_devices
from gpudemo.core.settings.config import TrainingConfig
from gpudemo.core.settings.rules import InvalidSetting
from gpudemo.core.step import precision
from gpudemo.core.step.precision import PrecisionRefused
from gpudemo.core.training import train
from tests.commands import gpudemo

BF16_TOLERANCE = 5e-3  # relative: bfloat16 keeps 8 bits of mantissa in the matmuls, float32 the rest


def test_bf16_on_the_cpu_reaches_the_same_loss_as_fp32_on_the_line():
    fp32 = train(TrainingConfig(problem="line", samples=2000, epochs=300))
    bf16 = train(TrainingConfig(problem="line", samples=2000, epochs=300, precision="bf16"))
    assert bf16.final_loss == pytest.approx(fp32.final_loss, rel=BF16_TOLERANCE)
    assert bf16.model.weight.dtype == torch.float32  # autocast: the weights stay float32
    assert bf16.final_loss != fp32.final_loss  # it did compute in bfloat16


def test_bf16_minibatches_and_classes_train():
    result = train(
        TrainingConfig(
            problem="circles",
            samples=400,
            epochs=100,
            batch_size=100,
            width=16,
            optimizer="adam",
            lr=0.02,
            precision="bf16",
        )
    )
    assert result.accuracy > 0.9


@pytest.mark.parametrize(
    "kind, says", [("fp16", "needs a CUDA GPU; on cpu use bf16"), ("tf32", "tf32 is a format of NVIDIA tensor cores")]
)
def test_the_cpu_refuses_what_it_cannot_do_before_the_run(kind, says):
    with pytest.raises(PrecisionRefused, match=says):
        train(TrainingConfig(precision=kind))
    out = gpudemo("train", "--device", "cpu", "--precision", kind)
    assert out.returncode == 2 and says in out.stderr and "Traceback" not in out.stderr


def test_an_older_gpu_is_refused_tf32_and_bf16(monkeypatch):
    monkeypatch.setattr(torch.cuda, "get_device_capability", lambda device=None: (7, 5))
    monkeypatch.setattr(torch.cuda, "is_bf16_supported", lambda *args, **kwargs: False)
    with pytest.raises(PrecisionRefused, match="needs compute capability 8.0 .* has 7.5"):
        precision.check("tf32", "cuda:0")
    with pytest.raises(PrecisionRefused, match="cannot compute in bfloat16"):
        precision.check("bf16", "cuda:0")
    precision.check("fp16", "cuda:0")  # fp16 runs on any CUDA GPU


def test_bf16_is_checked_on_the_chosen_gpu_and_emulation_does_not_count(monkeypatch):
    capability = {0: (9, 0), 1: (7, 0)}  # an H100 beside a V100, which torch "supports" bf16 on by emulation
    monkeypatch.setattr(torch.cuda, "get_device_capability", lambda device=None: capability[torch.device(device).index])
    monkeypatch.setattr(torch.cuda, "is_bf16_supported", lambda *args, **kwargs: True)
    precision.check("bf16", "cuda:0")
    with pytest.raises(PrecisionRefused, match="cuda:1 cannot compute in bfloat16"):
        precision.check("bf16", "cuda:1")


def test_an_fp16_row_says_its_scaler_syncs_every_step(monkeypatch):
    from gpudemo.core.measure import compare

    monkeypatch.setattr(compare.precision, "check", lambda kind, device: None)

    def timed(config, *rest):
        return DeviceTiming(config.device, "completed", 100.0, 1.0, precision=config.precision)

    monkeypatch.setattr(compare, "_time_one", timed)
    timings = compare_devices(TrainingConfig(), ["cpu"], precisions=["fp32", "fp16"])
    assert timings[0].message is None and "GradScaler reads one value back" in str(timings[1].message)


def test_tf32_is_set_for_the_run_and_restored():
    torch.backends.cuda.matmul.allow_tf32 = True
    try:
        with precision.matmul_precision("fp32"):
            assert not torch.backends.cuda.matmul.allow_tf32
        assert torch.backends.cuda.matmul.allow_tf32
        with precision.matmul_precision("tf32"):
            assert torch.backends.cuda.matmul.allow_tf32
    finally:
        torch.backends.cuda.matmul.allow_tf32 = False


def test_compare_runs_precisions_side_by_side():
    timings = compare_devices(
        TrainingConfig(problem="line", samples=500, epochs=30), ["cpu"], precisions=["fp32", "bf16", "fp16"]
    )
    assert [(t.device, t.precision) for t in timings] == [("cpu", "fp32"), ("cpu", "bf16"), ("cpu", "fp16")]
    assert timings[0].speedup_vs_cpu == 1.0 and timings[1].epochs_per_second > 0
    assert timings[2].status == REFUSED and "needs a CUDA GPU" in str(timings[2].message)
    assert [t.label for t in timings] == ["cpu", "cpu · bf16", "cpu · fp16"]
    out = gpudemo(
        "compare", "--device", "cpu", "--problem", "line", "--samples", "500", "--epochs", "5",
        "--precision", "fp32", "--precision", "bf16", "--json",
    )  # fmt: skip
    assert [(row["device"], row["precision"]) for row in json.loads(out.stdout)] == [("cpu", "fp32"), ("cpu", "bf16")]


def test_a_precision_a_device_refuses_is_a_row_with_its_reason_not_a_failed_command():
    args = ["compare", "--device", "cpu", "--problem", "line", "--samples", "200", "--epochs", "3"]
    args += [f"--precision={kind}" for kind in ("fp32", "tf32", "bf16", "fp16")]
    out = gpudemo(*args, "--json")
    assert out.returncode == 0, out.stderr
    rows = {row["precision"]: row for row in json.loads(out.stdout)}
    assert rows["fp32"]["status"] == rows["bf16"]["status"] == "completed"
    assert rows["tf32"]["status"] == rows["fp16"]["status"] == "refused" and "CUDA" in rows["fp16"]["message"]
    text = gpudemo(*args)
    assert text.returncode == 0 and "cpu · tf32: not run: tf32 is a format of NVIDIA tensor cores" in text.stdout
    none_ran = gpudemo("compare", "--device", "cpu", "--epochs", "3", "--precision", "fp16", "--json")
    assert none_ran.returncode == 2 and "argument --precision: fp16 training" in none_ran.stderr  # as train refuses it


def test_a_bad_precision_is_named():
    with pytest.raises(InvalidSetting, match="precision must be one of fp32, tf32, bf16, fp16, not 'fp8'"):
        TrainingConfig(precision="fp8")


def test_train_json_and_profile_carry_the_precision():
    report = json.loads(gpudemo("train", "--device", "cpu", "--precision", "bf16", "--epochs", "3", "--json").stdout)
    assert report["precision"] == "bf16"
    out = gpudemo("profile", "--device", "cpu", "--precision", "bf16", "--steps", "2", "--json")
    assert out.returncode == 0 and "aten::" in out.stdout


@pytest.mark.cuda
@pytest.mark.parametrize("kind", ["tf32", "bf16", "fp16"])
def test_every_precision_trains_on_a_gpu(kind):
    fp32 = train(TrainingConfig(device="cuda:0", problem="line", samples=10_000, epochs=200))
    other = train(TrainingConfig(device="cuda:0", problem="line", samples=10_000, epochs=200, precision=kind))
    assert other.final_loss == pytest.approx(fp32.final_loss, rel=2e-2)
