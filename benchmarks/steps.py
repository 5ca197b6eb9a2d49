"""The step modes side by side: eager, compiled and graph, on the tutorial and the line, on every device here.

For each device, problem size and mode the device can take: epochs/s of a run timed after an untimed one
(kernels loaded, the allocator's cache filled), the first compile or capture apart, and the largest relative
difference of its losses from eager's. On a GPU also the profile of each mode (busy share, kernels and
launches per step), and at the line's largest size the memory floor: the bytes the step moves (counted op
by op, core/measure/roofline.py) over the device's measured copy bandwidth.

Targets: on the CPU, the compiled step (one graph, core/step/fullgraph.py) >= 1.5x eager at the tutorial's size
with SGD and >= 1.3x with momentum and Adam, >= 1.3x on the line at 10 and 10,000 samples, >= 1.5x at
1,000,000; each optimizer's compiled losses within 1e-4 of eager's (the line, 1,000 samples, 200 epochs);
the compile's seconds and the epochs it takes to pay them back shown apart. On a GPU, the graph step >= 4x
eager (stretch 10x), busy share >= 33 % at 10 samples, the compiled step one replay a step (<= 2 launches),
the line at 10,000,000 within 2x of its memory floor. Each mode's best of two runs, interleaved.

    .venv/bin/python -m benchmarks --only steps
"""

from __future__ import annotations

import dataclasses
import time

import numpy as np
import torch

from gpudemo.core.base.errors import RunRefused
from gpudemo.core.measure.profile import profile_steps
from gpudemo.core.settings.config import TrainingConfig
from gpudemo.core.settings.rules import STEP_KEYS
from gpudemo.core.step.modes import check
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


def _timed(config: TrainingConfig, modes: list[str], repeats: int) -> tuple[dict, dict]:
    """Each mode's best run of `repeats`, the modes interleaved (eager, compiled, eager, compiled...) so that
    a busy moment falls on both; and each mode's untimed first run (kernels, caches, the compile)."""
    best: dict = {}
    first = {mode: train(dataclasses.replace(config, step=mode, epochs=min(config.epochs, 50))) for mode in modes}
    for _ in range(repeats):
        for mode in modes:
            result = train(dataclasses.replace(config, step=mode))
            if mode not in best or result.epochs_per_second > best[mode].epochs_per_second:
                best[mode] = result
    return best, first


def _modes(config: TrainingConfig) -> list[str]:
    modes = []
    for mode in STEP_KEYS:
        try:
            check(dataclasses.replace(config, step=mode))
        except RunRefused:
            continue
        modes.append(mode)
    return modes


def _speedup_row(name: str, faster: str, device: str, best: dict, target: float | None) -> dict:
    speedup = best[faster].epochs_per_second / best["eager"].epochs_per_second
    row = {"figure": f"steps: {name} {faster} / eager ({device})", "value": speedup, "unit": "x"}
    if target is not None:
        row.update(target=f">= {target:g}", ok=speedup >= target)
    return row


def _payback_row(name: str, device: str, best: dict, first: dict) -> dict:
    """Seconds of the size's first compile in this process, and after how many epochs the faster step has
    paid them back (a later run of the same shapes finds inductor's caches warm, and compiles faster)."""
    compiled, eager = best["compiled"], best["eager"]
    seconds = first["compiled"].compile_seconds
    saved = 1 / eager.epochs_per_second - 1 / compiled.epochs_per_second  # seconds an epoch
    return {
        "figure": f"steps: {name} compile {seconds:.2g} s, paid back after ({device})",
        "value": seconds / saved if saved > 0 else float("inf"),
        "unit": "epochs",
        "compile_seconds": seconds,
        "warm_compile_seconds": compiled.compile_seconds,
    }


def run(epochs: int = 20_000, repeats: int = 2, profile: bool | None = None, quick: bool = False) -> list[dict]:
    warm_up()
    devices = ["cpu"] + (["cuda:0"] if torch.cuda.is_available() else [])
    rows: list[dict] = []
    for device in devices:
        on_gpu = device != "cpu"
        sizes = QUICK_SIZES["cuda" if on_gpu else "cpu"] if quick else (GPU_SIZES if on_gpu else CPU_SIZES)
        for size in sizes:
            config = _config(device, size, _epochs(size, device, epochs))
            best, first = _timed(config, _modes(config), repeats)
            for mode, result in best.items():
                scale = np.maximum(np.abs(best["eager"].losses), np.finfo(np.float32).tiny)  # a loss of 0
                rows.append(
                    {
                        "figure": f"steps: {_name(size)} {mode} ({device})",
                        "value": result.epochs_per_second,
                        "unit": "epochs/s",
                        "losses_vs_eager": float(np.max(np.abs(result.losses - best["eager"].losses) / scale)),
                        "prepare_seconds": result.compile_seconds,
                        "recompiles": result.recompiles,
                    }
                )
                if profile if profile is not None else on_gpu:
                    rows.append(_profile_row(dataclasses.replace(config, step=mode), size, mode, device))
                if on_gpu and size == 10_000_000 and mode == "graph":
                    floor = _bytes_per_step(result.config) / _copy_bandwidth(device)
                    seconds = 1 / result.epochs_per_second
                    rows.append(
                        {
                            "figure": f"steps: {_name(size)} graph / memory floor ({device})",
                            "value": seconds / floor,
                            "unit": "x",
                            "target": "<= 2",
                            "ok": seconds / floor <= 2,
                        }
                    )
            if "compiled" in best:
                target = None if on_gpu else (1.5 if size in (3, 1_000_000) else 1.3)
                rows.append(_speedup_row(_name(size), "compiled", device, best, target))
                rows.append(_payback_row(_name(size), device, best, first))
            if "graph" in best:
                rows.append(_speedup_row(_name(size), "graph", device, best, 4.0 if size == 3 else None))
        rows += _optimizers(device, epochs, repeats, quick)
    return rows


def _optimizers(device: str, epochs: int, repeats: int, quick: bool) -> list[dict]:
    """The tutorial with momentum and Adam (SGD is the tutorial's own, above), compiled against eager; and the
    line of 1,000 samples over 200 epochs, each optimizer's compiled losses against eager's (within 1e-4)."""
    rows = []
    for optimizer in ("momentum", "adam"):
        config = dataclasses.replace(
            _config(device, 3, epochs), optimizer=optimizer, lr=0.01 if optimizer == "adam" else 0.1
        )
        best, _first = _timed(config, ["eager", "compiled"], repeats)
        rows.append(_speedup_row(f"tutorial {optimizer}", "compiled", device, best, None if device != "cpu" else 1.3))
    if quick:
        return rows
    for optimizer in ("sgd", "momentum", "adam"):
        line = TrainingConfig(device=device, problem="line", samples=1000, epochs=200, optimizer=optimizer, lr=0.01)
        eager, compiled = train(line), train(dataclasses.replace(line, step="compiled"))
        worst = float(np.max(np.abs(compiled.losses - eager.losses)))
        rows.append(
            {
                "figure": f"steps: line 1,000 x 200 {optimizer} compiled losses vs eager ({device})",
                "value": worst,
                "unit": "abs",
                "target": "<= 1e-4",
                "ok": worst <= 1e-4,
            }
        )
    return rows


def _profile_row(config: TrainingConfig, size: int, mode: str, device: str) -> dict:
    measured = profile_steps(config, steps=64)
    row = {
        "figure": f"steps: {_name(size)} {mode} busy share ({device})",
        "value": measured.busy_share,
        "unit": "share",
        "kernels": measured.kernels,
        "launches": measured.launches,
        "wall_us": measured.wall_us,
        "device_us": measured.device_us,
    }
    if device != "cpu" and size == 10 and mode == "graph":
        row.update(target=">= 0.33", ok=measured.busy_share >= 0.33)
    if device != "cpu" and mode == "compiled":  # one CUDA graph replayed a step
        row.update(target="launches <= 2", ok=measured.launches <= 2)
    return row
