"""The machine a benchmark runs on, as `conquian-ref bench` reports it: platform, CPU, cores, the
load when the run starts, and a calibration figure.

The calibration times a fixed pure-Python loop that runs none of this package's code: the same
virtual machine has run the same engine code three times faster on one day than on another
(docs/performance.md), so two bench runs are compared through it.
"""

from __future__ import annotations

import datetime as _dt
import gc
import os
import platform
import time


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.lower().startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine() or "unknown"


def machine(quick: bool = False) -> dict:
    try:
        usable = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        usable = os.cpu_count()
    return {
        "platform": platform.platform(),
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "cpu": cpu_model(),
        "cores": os.cpu_count(),
        "usable_cores": usable,
        "date": _dt.date.today().isoformat(),
        "load_average": _load_average(),
        "calibration_ms": calibration_ms(1 if quick else CALIBRATION_REPEATS),
        # the collector's thresholds the figures were taken under (conformance/collector.py)
        "gc_thresholds": list(gc.get_threshold()),
    }


CALIBRATION_REPEATS = 7
CALIBRATION_STEPS = 200_000


def calibration_ms(repeats: int) -> float:
    """Milliseconds for a fixed pure-Python loop that runs none of this package's code (integer
    bit operations, dict stores, calls: the kind of work the engine does), best of `repeats`.

    The same virtual machine has run the same engine code three times faster on one day than
    on another (docs/performance.md); no change of this package moves this figure, so two
    bench runs are compared through it: where it moved, the machine did."""
    clock = time.perf_counter
    best = float("inf")
    for _ in range(repeats):
        start = clock()
        _calibration_loop(CALIBRATION_STEPS)
        best = min(best, clock() - start)
    return round(best * 1e3, 2)


def _calibration_loop(steps: int) -> int:
    memo: dict[int, int] = {}
    total = 0
    for i in range(steps):
        key = (i * 2654435761) & 0xFFFFF
        total += _low_bits(key)
        memo[key & 0xFFF] = total
    return total + len(memo)


def _low_bits(mask: int) -> int:
    return (mask & -mask).bit_length() + mask.bit_count()


def _load_average() -> float | None:
    """The 1-minute load average when the run starts: other work on the machine slows it."""
    try:
        return round(os.getloadavg()[0], 2)
    except (AttributeError, OSError):
        return None
