"""The roofline: each sweep size's work counted, the device's peaks, and how far the one is from the other."""

import json

import pytest
import torch

from gpudemo.core.measure.roofline import (
    MEASURED,
    PUBLISHED,
    Peak,
    count_work,
    matmul_work,
    measure,
    published,
)
from gpudemo.core.measure.sweep import SweepRequest, sweep
from tests.commands import gpudemo


def test_the_lines_step_is_counted_operator_by_operator():
    model = torch.nn.Linear(1, 1)
    x, y = torch.randn(1000, 1), torch.randn(1000, 1)
    optimizer = torch.optim.SGD(model.parameters(), 0.1)

    def step():
        optimizer.zero_grad()
        torch.nn.functional.mse_loss(model(x), y).backward()
        optimizer.step()

    work = count_work(step)
    # addmm and mm: 2 x 1,000 each (torch's formula); mse_loss, its gradient, the bias's sum: 1,000 each;
    # the two parameter updates: 1 each.
    assert work.flops == 2 * 2000 + 3 * 1000 + 2
    # addmm reads 1,000 and writes 1,000 floats, mse_loss reads 2,000, its gradient reads 2,000 and writes
    # 1,000, mm reads 1,000, sum reads 1,000: about 10 floats a sample, 40 bytes.
    assert 39_000 < work.bytes < 41_000
    assert work.intensity == pytest.approx(0.175, abs=0.005)


def test_a_matmuls_work_is_2n3_on_3n2_numbers():
    work = matmul_work(1024, torch.float32)
    assert work.flops == 2 * 1024**3 and work.bytes == 3 * 1024 * 1024 * 4
    assert work.intensity == pytest.approx(1024 / 6)


def test_a_peak_has_a_slanted_roof_and_a_flat_one():
    peak = Peak(100e9, 10e9, MEASURED)
    assert peak.ridge == 10
    assert peak.roof(1) == 10e9 and peak.roof(10) == 100e9 and peak.roof(1000) == 100e9


def test_known_gpus_have_published_peaks_for_their_precisions():
    h200 = published("NVIDIA H200", "bfloat16")
    assert h200.source == PUBLISHED and h200.flops_per_second == 989.5e12 and h200.bytes_per_second == 4.8e12
    assert published("NVIDIA H100 PCIe", "float32").bytes_per_second == 2.0e12  # not the SXM's
    assert published("Tesla T4", "bfloat16") is None  # no bfloat16 units: measured instead
    assert published("Some Future GPU", "float32") is None


@pytest.mark.parametrize(
    "name, row",
    [
        ("NVIDIA H200", "H200"),
        ("NVIDIA H200 NVL", "H200 NVL"),
        ("NVIDIA H100 80GB HBM3", "H100"),
        ("NVIDIA H100 NVL", "H100 NVL"),
        ("NVIDIA H100 PCIe", "H100 PCIe"),
        ("NVIDIA A100-SXM4-80GB", "A100-SXM4-80GB"),
        ("NVIDIA A100-SXM4-40GB", "A100"),
        ("NVIDIA A100 80GB PCIe", "A100 80GB PCIe"),
        ("NVIDIA L40S", "L40S"),
        ("NVIDIA L40", "L40"),
        ("NVIDIA L4", "L4"),
        ("Tesla V100-SXM2-16GB", "V100"),
        ("NVIDIA GH200 480GB", None),  # a Grace Hopper is no H200: measured
        ("NVIDIA GeForce RTX 4090", None),
    ],
)
def test_a_device_name_matches_its_own_row_by_whole_words(name, row):
    found = published(name, "float32")
    assert (found.detail if found else None) == (f"NVIDIA {row} data sheet, dense" if row else None)


def test_the_cpus_peaks_are_measured():
    peak = measure("cpu", "float32")
    assert peak.source == MEASURED and peak.flops_per_second > 1e8 and peak.bytes_per_second > 1e8


def test_a_roofline_sweep_counts_each_row_and_finds_each_devices_peaks():
    result = sweep(SweepRequest(roofline=True, max_size=1000))
    assert [row.size for row in result.rows] == [10, 100, 1000]
    assert all(row.work is not None and row.work.flops > 0 for row in result.rows)
    large = result.rows[-1]
    assert large.flops_per_second == pytest.approx(large.work.flops / large.seconds)
    assert set(result.peaks) == {"cpu"}
    assert large.flops_per_second < result.peaks["cpu"].roof(large.work.intensity) * 1.5
    plain = sweep(SweepRequest(max_size=10))
    assert plain.rows[0].work is None and plain.peaks == {}
    assert "flops" not in plain.to_json()["rows"][0] and "peaks" not in plain.to_json()


def test_the_command_prints_the_roofline_as_json_and_in_words():
    out = gpudemo("sweep", "--device", "cpu", "--kind", "matmul", "--max-size", "64", "--roofline", "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert set(data["rows"][0]) >= {"flops", "bytes", "flops_per_second", "bytes_per_second"}
    assert set(data["peaks"]["cpu"]) == {"flops_per_second", "bytes_per_second", "source", "detail"}
    out = gpudemo("sweep", "--device", "cpu", "--max-size", "100", "--roofline")
    assert out.returncode == 0, out.stderr
    assert "FLOP/BYTE" in out.stdout and "OF ROOF" in out.stdout
    assert (
        "Roofline of cpu (measured here)" in out.stdout and "cannot reach the peak" in out.stdout
    )  # the window's words
