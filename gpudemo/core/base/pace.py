"""How fast a run goes and when it ends: one arithmetic for the command line, the window and Compare.

Every figure comes from epochs done and the seconds the run has trained (paused time
left out, as the training loop counts it), never from a second clock of the caller's.
"""

from __future__ import annotations

import math


def rate(epochs: int, seconds: float) -> float:
    """Epochs a second; 0 before any time has passed."""
    return epochs / seconds if seconds > 0 and epochs > 0 else 0.0


def eta(epochs: int, total: int, seconds: float) -> float:
    """Seconds until `total` epochs at the pace so far; inf while there is no pace yet, 0 when done."""
    if epochs >= total:
        return 0.0
    per_second = rate(epochs, seconds)
    return (total - epochs) / per_second if per_second > 0 else math.inf
