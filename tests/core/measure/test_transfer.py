"""Moving data: the measurement logic, run between CPU tensors; the command says why there is nothing to move."""

import json

import pytest
import torch

from gpudemo.core.measure import transfer
from gpudemo.core.measure.transfer import (
    DEVICE_TO_HOST,
    HOST_TO_DEVICE,
    Copier,
    Overlap,
    TransferRow,
    measure_transfers,
)
from tests.commands import gpudemo


class CpuCopier(Copier):
    """Host and 'device' both the CPU: the copies are real, the pinning is not."""

    def __init__(self):
        super().__init__("cpu")
        self.copies = []

    def host(self, nbytes, pinned):
        return torch.ones(nbytes, dtype=torch.uint8)

    def on_device(self, nbytes):
        return torch.zeros(nbytes, dtype=torch.uint8)

    def copy(self, destination, source, non_blocking):
        self.copies.append((destination.numel(), non_blocking))
        destination.copy_(source)

    def sync(self):
        pass

    def free_bytes(self):
        return 1 << 40

    def compute(self, seconds):
        a = torch.ones(64, 64)
        return lambda: a @ a

    def side_copy(self, destination, source):
        return lambda: destination.copy_(source)


def test_every_size_both_ways_pageable_and_pinned(monkeypatch):
    monkeypatch.setattr(transfer, "TIMING_S", 0.0005)
    copier = CpuCopier()
    seen = []
    result = measure_transfers("cpu", max_bytes=64 * 1024, copier=copier, on_row=seen.append)
    sizes = [1024, 4096, 16384, 65536]
    assert [row.bytes for row in result.rows] == [size for size in sizes for _ in range(4)]
    assert seen == result.rows and result.complete and result.note == ""
    for direction in (HOST_TO_DEVICE, DEVICE_TO_HOST):
        for pinned in (False, True):
            series = result.series(direction, pinned)
            assert [row.bytes for row in series] == sizes and all(row.seconds > 0 for row in series)
    # pinned copies are the asynchronous ones
    assert {(size, blocking) for size, blocking in copier.copies} >= {(1024, False), (1024, True)}
    assert result.fixed_cost() == result.series(HOST_TO_DEVICE, True)[0].seconds
    assert result.peak() == max(row.gb_per_second for row in result.series(HOST_TO_DEVICE, True))
    assert result.overlap is not None and 0 <= result.overlap.hidden <= 1


def test_the_bandwidth_is_bytes_over_seconds():
    row = TransferRow(HOST_TO_DEVICE, True, 2_000_000_000, 0.1)
    assert row.gb_per_second == pytest.approx(20.0)
    assert row.to_json() == {
        "direction": "host_to_device",
        "pinned": True,
        "bytes": 2_000_000_000,
        "seconds": 0.1,
        "gb_per_second": pytest.approx(20.0),
    }


def test_a_stop_ends_it_between_copies(monkeypatch):
    monkeypatch.setattr(transfer, "TIMING_S", 0.0005)
    calls = []
    result = measure_transfers("cpu", copier=CpuCopier(), should_stop=lambda: calls.append(1) or len(calls) > 5)
    assert not result.complete and len(result.rows) == 5


def test_sizes_stop_at_a_quarter_of_free_memory(monkeypatch):
    monkeypatch.setattr(transfer, "TIMING_S", 0.0005)
    copier = CpuCopier()
    copier.free_bytes = lambda: 4 * 16384
    result = measure_transfers("cpu", copier=copier, overlap=False)
    assert max(row.bytes for row in result.rows) == 16384 and result.overlap is None


def test_without_a_gpu_there_is_nothing_to_move_to():
    out = gpudemo("transfer", "--device", "cpu", "--json")
    report = json.loads(out.stdout)
    assert out.returncode == 0 and report["rows"] == [] and "nothing to move to" in report["note"]
    text = gpudemo("transfer", "--device", "cpu")
    assert text.returncode == 0 and "pin_memory() needs CUDA" in text.stdout


@pytest.mark.cuda
def test_on_a_gpu_pinned_copies_are_faster_and_large_copies_level_off():
    result = measure_transfers("cuda:0", max_bytes=64 * 2**20)
    large = [row for row in result.series(HOST_TO_DEVICE, True) if row.bytes == 64 * 2**20][0]
    small = result.series(HOST_TO_DEVICE, True)[0]
    assert large.gb_per_second > 20 * small.gb_per_second  # the fixed cost dominates a 1 KiB copy
    pageable = [row for row in result.series(HOST_TO_DEVICE, False) if row.bytes == 64 * 2**20][0]
    assert large.gb_per_second >= pageable.gb_per_second * 0.9


def test_the_overlap_says_which_part_hid_behind_the_other():
    # A 64 MiB copy of 2 ms beside 0.35 ms of compute: the compute hid, not the copy.
    short_compute = Overlap(64 << 20, copy_seconds=2e-3, compute_seconds=0.35e-3, serial_seconds=2.35e-3,
                            overlapped_seconds=2.0e-3)  # fmt: skip
    assert short_compute.hidden_part == "compute" and short_compute.hidden == pytest.approx(1.0)
    assert short_compute.to_json()["hidden_part"] == "compute"
    even = Overlap(64 << 20, 2e-3, 2.2e-3, 4.2e-3, 3.0e-3)
    assert even.hidden_part == "copy" and even.hidden == pytest.approx(0.6)
