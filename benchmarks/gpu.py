"""5. On a CUDA GPU: the tutorial's step time, gpudemo's loop against the plain eager loop (both
eager: the same kernels, so gpudemo must be at least as fast; a 1/3 target belongs to a captured
CUDA-graph step), host syncs per read-back, and where the GPU overtakes the CPU as the problem
grows. Skipped where torch sees no GPU."""

import time
import warnings

import torch

from benchmarks.bare import bare_loop
from benchmarks.stats import median
from gpudemo.core.settings.config import TrainingConfig
from gpudemo.core.training import train


def _scaled_loop(samples: int, device: str, epochs: int = 200) -> float:
    """The tutorial's loop on `samples` points of y = 2x: epochs per second, after an untimed warm-up."""
    torch.manual_seed(0)
    net = torch.nn.Linear(1, 1).to(device)
    x = torch.linspace(-1, 1, samples).unsqueeze(1).to(device)
    y = 2 * x
    criterion = torch.nn.MSELoss()
    optimizer = torch.optim.SGD(net.parameters(), lr=0.1)
    for warm in (True, False):
        start = time.perf_counter()
        for _ in range(20 if warm else epochs):
            optimizer.zero_grad()
            loss = criterion(net(x), y)
            loss.backward()
            optimizer.step()
        loss.item()
    return epochs / (time.perf_counter() - start)


def syncs_per_read_back(device: str, epochs: int = 2_000) -> tuple[int, int]:
    """(host syncs, read-backs) over a line run of `epochs` on `device`, counted by CUDA's sync debug mode."""
    batches = []
    torch.cuda.set_sync_debug_mode("warn")
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            train(TrainingConfig(device=device, problem="line", samples=10_000, epochs=epochs), on_batch=batches.append)
    finally:
        torch.cuda.set_sync_debug_mode("default")
    syncs = sum("synchroniz" in str(warning.message) for warning in caught)
    return syncs, len(batches)


def run(epochs: int = 5_000, repeats: int = 5) -> list[dict]:
    if not torch.cuda.is_available():
        return [{"figure": "gpu: skipped, torch sees no CUDA GPU here", "value": None, "unit": ""}]
    device = "cuda:0"
    bare_loop(500, device)
    train(TrainingConfig(device=device, epochs=500))
    bares, cores = [], []
    for _ in range(repeats):  # interleaved, so that a clock change hits both
        bares.append(bare_loop(epochs, device))
        cores.append(train(TrainingConfig(device=device, epochs=epochs)).epochs_per_second)
    ratio = median(cores) / median(bares)
    rows = [
        {"figure": "gpu: eager tutorial step", "value": 1e6 / median(bares), "unit": "us/step"},
        {"figure": "gpu: gpudemo step", "value": 1e6 / median(cores), "unit": "us/step"},
        {"figure": "gpu: gpudemo / eager speed", "value": ratio, "unit": "x", "target": ">= 1.0", "ok": ratio >= 1.0},
    ]
    syncs, read_backs = syncs_per_read_back(device)
    rows.append(
        {
            "figure": "gpu: host syncs per read-back (2,000-epoch line run)",
            "value": syncs / read_backs,
            "unit": "syncs",
            "target": "<= 2",
            "ok": syncs <= 2 * read_backs,
        }
    )
    crossover = None
    for samples in (10, 1_000, 100_000, 1_000_000, 10_000_000):
        cpu, gpu = _scaled_loop(samples, "cpu", 50), _scaled_loop(samples, device, 50)
        rows.append({"figure": f"gpu: {samples:,} samples, GPU / CPU speed", "value": gpu / cpu, "unit": "x"})
        if crossover is None and gpu > cpu:
            crossover = samples
    rows.append({"figure": "gpu: the GPU first wins at", "value": crossover, "unit": "samples"})
    return rows
