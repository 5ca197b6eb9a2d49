"""1. The core loop against the bare tutorial loop: same problem, device and epochs, interleaved."""

from benchmarks.bare import bare_loop
from benchmarks.stats import median
from gpudemo.core.settings.config import TrainingConfig
from gpudemo.core.training import train, warm_up


def run(epochs: int = 10_000, repeats: int = 7, device: str = "cpu") -> list[dict]:
    warm_up()
    bare_loop(500, device)
    ratios, bares, cores = [], [], []
    for _ in range(repeats):
        bare = bare_loop(epochs, device)
        core = train(TrainingConfig(device=device, epochs=epochs)).epochs_per_second
        bares.append(bare)
        cores.append(core)
        ratios.append(core / bare)
    return [
        {"figure": f"headless: bare tutorial loop ({device})", "value": median(bares), "unit": "epochs/s"},
        {"figure": f"headless: gpudemo core loop ({device})", "value": median(cores), "unit": "epochs/s"},
        {
            "figure": "headless: core / bare",
            "value": median(ratios),
            "unit": "x",
            "target": ">= 1.0",
            "ok": median(ratios) >= 1.0,
        },
    ]
