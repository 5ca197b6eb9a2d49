"""`python -m benchmarks [--json PATH] [--only NAME ...]`: every benchmark, one table.

Run it with the project's environment: `.venv/bin/python -m benchmarks`.
"""

import argparse
import json
import os
import platform
import sys
import time

# The window's figures are taken offscreen, here and in every child (a desktop's compositor would add its own
# time); without this, the classes' and the timeline's plots asked for a display (xcb) and ended the run.
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import torch  # noqa: E402

from benchmarks import (  # noqa: E402
    classes,
    compile_cache,
    first_loss,
    gpu,
    headless,
    large,
    parallel,
    scale,
    startup,
    steps,
    timeline,
    window,
)

SUITES = {
    "headless": headless.run,
    "window": window.run,
    "first_loss": first_loss.run,
    "large": large.run,
    "scale": scale.run,
    "startup": startup.run,
    "classes": classes.run,
    "parallel": parallel.run,
    "timeline": timeline.run,
    "gpu": gpu.run,
    "steps": steps.run,
    "compile_cache": compile_cache.run,
}
# --quick: small sizes, to check that the suite runs (the figures mean little)
QUICK = {
    "headless": {"epochs": 500, "repeats": 1},
    "window": {"epochs": 500, "repeats": 1},
    "first_loss": {"processes": 1, "later_runs": 1},
    "large": {"samples": 10_000, "epochs": 5, "repeats": 1},
    "scale": {"epochs": 200_000},
    "startup": {"repeats": 1},
    "classes": {"epochs": 100, "repeats": 1, "frames": 8},
    "parallel": {"repeats": 1, "scale": 0.05},
    "timeline": {"events": 1000, "repeats": 1},
    "gpu": {"epochs": 200, "repeats": 1},
    "steps": {"epochs": 200, "repeats": 1, "quick": True},
    "compile_cache": {"repeats": 1, "epochs": 2},
}


def _cell(value) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:,.0f}" if abs(value) >= 1000 else f"{value:.3g}"
    return f"{value:,}" if isinstance(value, int) else str(value)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__.splitlines()[0])
    parser.add_argument("--json", metavar="PATH", help="also write the rows as JSON")
    parser.add_argument("--only", nargs="+", choices=SUITES, help="run only these suites")
    parser.add_argument("--quick", action="store_true", help="tiny sizes: check that it runs, not how fast")
    args = parser.parse_args(argv)
    rows = []
    started = time.perf_counter()
    for name in args.only or SUITES:
        print(f"running {name}...", file=sys.stderr, flush=True)
        rows += SUITES[name](**(QUICK[name] if args.quick else {}))
    widths = (52, 12, 12, 18)
    print(f"{'figure':<{widths[0]}} {'value':>{widths[1]}} {'unit':<{widths[2]}} {'target':<{widths[3]}}")
    for row in rows:
        verdict = "" if "ok" not in row else ("  ok" if row["ok"] else "  MISSED")
        print(
            f"{row['figure']:<{widths[0]}} {_cell(row['value']):>{widths[1]}} {row['unit']:<{widths[2]}} "
            f"{row.get('target', ''):<{widths[3]}}{verdict}"
        )
    seconds = time.perf_counter() - started
    print(
        f"\n{len(rows)} figures in {seconds:.0f} s on {platform.processor() or platform.machine()}, "
        f"torch {torch.__version__}",
        file=sys.stderr,
    )
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump({"seconds": seconds, "torch": torch.__version__, "rows": rows}, out, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
