"""The machine a run played on: processor, cores, system, versions and load.

Saved runs record it, and every script in ``scripts/`` prints it beside its figures, since
games per second mean little without the processor and the load they were measured under.
"""

from __future__ import annotations

import os
import platform
from typing import Any


def processor() -> str:
    """The processor's model name (``/proc/cpuinfo``), or what ``platform`` knows of it."""
    model = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as info:
            for line in info:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return model


def cores() -> int:
    """The cores this process may run on (its affinity), else the machine's count."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def load() -> float | None:
    """Runnable processes, averaged over the last minute; above the cores, every figure
    measured now is shared with other work. None where the system does not say."""
    return round(os.getloadavg()[0], 2) if hasattr(os, "getloadavg") else None


def describe() -> dict[str, Any]:
    """Processor, cores, system, the versions that decide the engines' speed, and the load."""
    import numba
    import numpy as np

    return {
        "cpu": processor(),
        "cores": cores(),
        "system": f"{platform.system()} {platform.machine()}",
        "python": platform.python_version(),
        "numba": numba.__version__,
        "numpy": np.__version__,
        "load": load(),
    }


def one_line(with_load: bool = True) -> str:
    """:func:`describe` as one line: a script's output starts with it (``machine: ...``);
    a saved run keeps it without the load (``with_load=False``)."""
    about = describe()
    text = (
        f"{about['cpu']}, {about['cores']} cores, {about['system']}; "
        f"Python {about['python']}, numba {about['numba']}, numpy {about['numpy']}"
    )
    return f"machine: {text}; load {about['load']}" if with_load else text
