"""5. On a CUDA GPU: the tutorial's step time, plain eager loop against gpudemo's path, and where
the GPU overtakes the CPU as the problem grows. Skipped where torch sees no GPU."""

import time

import torch

from benchmarks.bare import bare_loop
from benchmarks.stats import median
from gpudemo.core.settings import TrainingConfig
from gpudemo.core.training import train


def _scaled_loop(samples: int, device: str, epochs: int = 200) -> float:
    """The tutorial's loop on `samples` points of y = 2x: epochs per second."""
    torch.manual_seed(0)
    net = torch.nn.Linear(1, 1).to(device)
    x = torch.linspace(-1, 1, samples, device=device).unsqueeze(1)
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


def run(epochs: int = 5_000, repeats: int = 5) -> list[dict]:
    if not torch.cuda.is_available():
        return [{"figure": "gpu: skipped, torch sees no CUDA GPU here", "value": None, "unit": ""}]
    device = "cuda:0"
    bare_loop(500, device)
    bares = [bare_loop(epochs, device) for _ in range(repeats)]
    cores = [train(TrainingConfig(device=device, epochs=epochs)).epochs_per_second for _ in range(repeats)]
    rows = [
        {"figure": "gpu: eager tutorial step", "value": 1e6 / median(bares), "unit": "us/step"},
        {"figure": "gpu: gpudemo step", "value": 1e6 / median(cores), "unit": "us/step", "target": "<= 1/3 of eager",
         "ok": median(cores) >= 3 * median(bares)},
    ]
    crossover = None
    for samples in (10, 1_000, 100_000, 1_000_000, 10_000_000):
        cpu, gpu = _scaled_loop(samples, "cpu", 50), _scaled_loop(samples, device, 50)
        rows.append({"figure": f"gpu: {samples:,} samples, GPU / CPU speed", "value": gpu / cpu, "unit": "x"})
        if crossover is None and gpu > cpu:
            crossover = samples
    rows.append({"figure": "gpu: the GPU first wins at", "value": crossover, "unit": "samples"})
    return rows
