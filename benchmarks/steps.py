"""The step modes side by side: eager, compiled and graph, on the tutorial and the line, on every device here.

For each device, problem size and mode the device can take: epochs/s of a run timed after an untimed one
(kernels loaded, the allocator's cache filled), the first compile or capture apart, and the largest relative
difference of its losses from eager's. On a GPU also the profile of each mode (busy share, kernels and
launches per step), and at the line's largest size the memory floor: the bytes the step moves (counted op
by op, core/measure/roofline.py) over the device's measured copy bandwidth.

Targets (issue 35): on the CPU, the compiled step >= 1.5x eager at the tutorial's size; on a GPU, the graph
step >= 4x eager (stretch 10x), busy share >= 33 % at 10 samples, the line at 10,000,000 within 2x of its
memory floor.

    .venv/bin/python -m benchmarks --only steps
"""

from __future__ import annotations

import dataclasses
import time

import numpy as np
import torch

from gpudemo.core.config import TrainingConfig
from gpudemo.core.errors import RunRefused
from gpudemo.core.measure.profile import profile_steps
from gpudemo.core.modes import check
from gpudemo.core.rules import STEP_KEYS
from gpudemo.core.training import train, warm_up

CPU_SIZES = (3, 10, 10_000, 1_000_000)  # 3: the tutorial
GPU_SIZES = (3, 10, 10_000, 1_000_000, 10_000_000)
QUICK_SIZES = {"cpu": (3,), "cuda": (3, 10, 10_000_000)}  # --quick: each target's size, no more


def _config(device: str, size: int, epochs: int) -> TrainingConfig:
    if size == 3:
        return TrainingConfig(device=device, epochs=epochs)
    return TrainingConfig(device=device, problem="line", samples=size, lr=0.01, epochs=epochs)


def _name(size: int) -> str:
    return "tutorial" if size == 3 else f"line {size:,}"


def _epochs(size: int, device: str, epochs: int) -> int:
    """Fewer epochs where one step moves a lot: each run lasts about as long."""
    per_step = size * (8 if device == "cpu" else 1) / 1e9  # a rough guess of the seconds a step takes
    return max(20, min(epochs, int(2.0 / max(per_step, 1e-9))))


def _copy_bandwidth(device: str) -> float:
    """Bytes per second of a device-to-device copy of 256 MiB (read and written), the median of 5."""
    source = torch.empty(2**26, device=device)
    target = torch.empty_like(source)
    times = []
    for _ in range(5):
        torch.cuda.synchronize()
        began = time.perf_counter()
        target.copy_(source)
        torch.cuda.synchronize()
        times.append(time.perf_counter() - began)
    del source, target
    return 2 * 2**26 * 4 / float(np.median(times))


def _bytes_per_step(config: TrainingConfig) -> float:
    from gpudemo.core.measure.roofline import count_work
    from gpudemo.core.training import prepared

    with prepared(config) as run:
        return count_work(run.epoch).bytes


def run(epochs: int = 2000, repeats: int = 1, profile: bool | None = None, quick: bool = False) -> list[dict]:
    warm_up()
    devices = ["cpu"] + (["cuda:0"] if torch.cuda.is_available() else [])
    rows: list[dict] = []
    for device in devices:
        on_gpu = device != "cpu"
        sizes = QUICK_SIZES["cuda" if on_gpu else "cpu"] if quick else (GPU_SIZES if on_gpu else CPU_SIZES)
        for size in sizes:
            count = _epochs(size, device, epochs)
            rates, losses = {}, {}
            for mode in STEP_KEYS:
                config = dataclasses.replace(_config(device, size, count), step=mode)
                try:
                    check(config)
                except RunRefused:
                    continue
                train(dataclasses.replace(config, epochs=min(count, 50)))  # untimed: kernels, caches, compile
                best = None
                for _ in range(repeats):
                    result = train(config)
                    if best is None or result.epochs_per_second > best.epochs_per_second:
                        best = result
                rates[mode], losses[mode] = best.epochs_per_second, best.losses
                scale = np.maximum(np.abs(losses["eager"]), np.finfo(np.float32).tiny)  # a loss of 0: its difference
                difference = float(np.max(np.abs(best.losses - losses["eager"]) / scale))
                rows.append(
                    {
                        "figure": f"steps: {_name(size)} {mode} ({device})",
                        "value": best.epochs_per_second,
                        "unit": "epochs/s",
                        "losses_vs_eager": difference,
                        "prepare_seconds": best.compile_seconds,
                    }
                )
                if profile if profile is not None else on_gpu:
                    measured = profile_steps(config, steps=64)
                    rows.append(
                        {
                            "figure": f"steps: {_name(size)} {mode} busy share ({device})",
                            "value": measured.busy_share,
                            "unit": "share",
                            "kernels": measured.kernels,
                            "launches": measured.launches,
                            "wall_us": measured.wall_us,
                            "device_us": measured.device_us,
                            **(
                                {"target": ">= 0.33", "ok": measured.busy_share >= 0.33}
                                if on_gpu and size == 10 and mode == "graph"
                                else {}
                            ),
                        }
                    )
                if on_gpu and size == 10_000_000 and mode == "graph":
                    floor = _bytes_per_step(config) / _copy_bandwidth(device)
                    seconds = 1 / best.epochs_per_second
                    rows.append(
                        {
                            "figure": f"steps: {_name(size)} graph / memory floor ({device})",
                            "value": seconds / floor,
                            "unit": "x",
                            "target": "<= 2",
                            "ok": seconds / floor <= 2,
                        }
                    )
            for faster in ("compiled", "graph"):
                if faster not in rates or "eager" not in rates:
                    continue
                target = 4.0 if faster == "graph" else 1.5
                checked = size == 3 and (faster == "graph" or not on_gpu)
                speedup = rates[faster] / rates["eager"]
                rows.append(
                    {
                        "figure": f"steps: {_name(size)} {faster} / eager ({device})",
                        "value": speedup,
                        "unit": "x",
                        **({"target": f">= {target:g}", "ok": speedup >= target} if checked else {}),
                    }
                )
    return rows
