"""7. A problem large enough for the arithmetic to matter: the line at 1,000,000 samples, full
batch, gpudemo's core loop against the bare PyTorch loop of the same model, interleaved."""

from benchmarks.bare import bare_line_loop
from benchmarks.stats import median
from gpudemo.core.settings.config import TrainingConfig
from gpudemo.core.training import train, warm_up


def run(samples: int = 1_000_000, epochs: int = 100, repeats: int = 7, device: str = "cpu") -> list[dict]:
    warm_up()
    bare_line_loop(samples, 3, device)
    bares, cores, ratios = [], [], []
    for _ in range(repeats):
        bare = bare_line_loop(samples, epochs, device)
        core = train(TrainingConfig(device=device, problem="line", samples=samples, epochs=epochs)).epochs_per_second
        bares.append(bare)
        cores.append(core)
        ratios.append(core / bare)
    ratio = median(ratios)
    return [
        {
            "figure": f"large: bare loop, line at {samples:,} samples ({device})",
            "value": median(bares),
            "unit": "epochs/s",
        },
        {"figure": f"large: gpudemo core, line at {samples:,} samples", "value": median(cores), "unit": "epochs/s"},
        {"figure": "large: core / bare", "value": ratio, "unit": "x", "target": ">= 1.0", "ok": ratio >= 1.0},
    ]
