import types
import warnings

import pytest
import torch

from gpudemo.core.hardware import devices
from gpudemo.core.hardware.devices import DeviceInfo, DeviceList, list_devices
from gpudemo.core.settings.rules import InvalidSetting


def test_the_cpu_is_always_listed_last_with_details():
    found = list_devices()
    cpu = found[-1]
    assert cpu.id == "cpu" and cpu.kind == "cpu"
    assert cpu.name and cpu.threads and cpu.threads >= 1
    assert cpu.total_memory is None or cpu.total_memory > 0
    assert found.default() is found[0]


def test_a_cpu_only_build_lists_the_cpu_and_says_why(monkeypatch):
    monkeypatch.setattr(torch.version, "cuda", None)
    monkeypatch.setattr(torch.version, "hip", None, raising=False)
    found = list_devices()
    assert [d.id for d in found if d.kind == "cuda"] == []
    assert found.ids[-1] == "cpu"
    assert "CPU-only" in str(found.note)


def test_a_broken_cuda_never_raises(monkeypatch):
    monkeypatch.setattr(torch.version, "cuda", "12.4")

    def broken():
        raise RuntimeError("CUDA driver initialization failed, you might not have a CUDA gpu.")

    monkeypatch.setattr(torch.cuda, "is_available", broken)
    found = list_devices()
    assert found.ids == ("cpu",)
    assert "CUDA failed to start" in str(found.note) and "driver initialization failed" in str(found.note)


def test_an_old_driver_warning_becomes_the_note(monkeypatch):
    monkeypatch.setattr(torch.version, "cuda", "12.4")

    def too_old():
        warnings.warn("The NVIDIA driver on your system is too old (found version 10010).", UserWarning, stacklevel=1)
        return False

    monkeypatch.setattr(torch.cuda, "is_available", too_old)
    found = list_devices()
    assert found.ids == ("cpu",)
    assert "driver on your system is too old" in str(found.note)


def test_no_gpu_on_a_cuda_build(monkeypatch):
    monkeypatch.setattr(torch.version, "cuda", "12.4")
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    found = list_devices()
    assert found.ids == ("cpu",)
    assert "no CUDA GPU" in str(found.note)


def _two_h200s(monkeypatch, contexts):
    monkeypatch.setattr(torch.version, "cuda", "12.4")
    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    monkeypatch.setattr(torch.cuda, "device_count", lambda: 2)

    def props(index):
        return types.SimpleNamespace(
            name="NVIDIA H200",
            total_memory=141 * 2**30,
            major=9,
            minor=0,
            multi_processor_count=132,
            pci_domain_id=0,
            pci_bus_id=0x1B + index,
            pci_device_id=0,
        )

    def mem_get_info(device):
        index = torch.device(device).index
        contexts.append(index)  # reading free memory makes a CUDA context on that GPU
        return (100 * 2**30 + index, 141 * 2**30)

    monkeypatch.setattr(torch.cuda, "get_device_properties", props)
    monkeypatch.setattr(torch.cuda, "mem_get_info", mem_get_info)


def test_cuda_devices_are_described_without_a_context_on_every_gpu(monkeypatch):
    contexts = []
    _two_h200s(monkeypatch, contexts)
    found = list_devices()
    assert found.ids == ("cuda:0", "cuda:1", "cpu")
    assert found.note is None and contexts == []  # listing started no GPU
    gpu = found[0]
    assert (gpu.name, gpu.capability, gpu.multiprocessors) == ("NVIDIA H200", (9, 0), 132)
    assert gpu.total_memory == 141 * 2**30 and gpu.free_memory is None
    assert gpu.to_json()["capability"] == "9.0" and gpu.to_json()["pci_bus_id"] == "0000:1b:00.0"
    assert found.default().id == "cuda:0"
    assert devices.with_free_memory(found[1]).free_memory == 100 * 2**30 + 1 and contexts == [1]  # the chosen one


def test_two_gpus_of_one_name_are_told_apart_by_their_bus(monkeypatch):
    _two_h200s(monkeypatch, [])
    found = list_devices()
    assert [found.label(device) for device in found][:2] == ["NVIDIA H200 (0000:1b:00.0)", "NVIDIA H200 (0000:1c:00.0)"]
    assert found.label(found[-1]) == found[-1].name  # a name of its own needs no bus


def test_resolve_names_the_missing_device():
    found = DeviceList((DeviceInfo("cuda:0", "cuda", "GPU"), DeviceInfo("cpu", "cpu", "CPU")))
    assert found.resolve("cuda").id == "cuda:0"
    assert found.resolve(" CPU ").id == "cpu"
    for bad in ["cuda:9", "tpu", ""]:
        with pytest.raises(InvalidSetting) as error:
            found.resolve(bad)
        assert "cuda:0, cpu" in str(error.value)
        assert (repr(bad) if bad else "the device is empty") in str(error.value)


def test_cpu_name_comes_from_the_os():
    assert devices.cpu_device().name not in ("", None)
