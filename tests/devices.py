"""Device lists for tests: two GPUs that torch here does not have, and a CPU alone (no Qt)."""

from gpudemo.core.base.messages import Message
from gpudemo.core.hardware.machine import DeviceInfo, DeviceList

GIB = 2**30

TWO_GPUS = DeviceList(
    (
        DeviceInfo("cuda:0", "cuda", "NVIDIA H200", 141 * GIB, 139 * GIB, (9, 0), 132),
        DeviceInfo("cuda:1", "cuda", "NVIDIA GeForce RTX 4090", 24 * GIB, 23 * GIB, (8, 9), 128),
        DeviceInfo("cpu", "cpu", "AMD EPYC 9654", 503 * GIB, 400 * GIB, threads=192),
    )
)

CPU_ONLY = DeviceList(
    (DeviceInfo("cpu", "cpu", "Test CPU", 16 * GIB, 8 * GIB, threads=8),),
    note=Message("No GPU listed: this PyTorch ({version}) is a CPU-only build.", {"version": "2.13.0+cpu"}),
)
