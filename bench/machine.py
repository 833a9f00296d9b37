"""One line describing the machine a benchmark ran on."""

from __future__ import annotations

import os
import platform


def describe_machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    try:
        load = f"load {os.getloadavg()[0]:.2f}"
    except OSError:
        load = ""
    return f"{platform.node()} | {cpu} | {os.cpu_count()} cpu | Python {platform.python_version()} | {load}"
