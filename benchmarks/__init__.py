"""gpudemo's benchmarks: `python -m benchmarks` (see README). Each figure is measured side by
side with its baseline in the same run, because the machines here are noisy."""
