"""``benchmarks/load.py --server-cpu N``: every server process it starts, and each thread that
process starts, runs on CPU N only."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from .modules import benchmark

load = benchmark("load")

# a child that starts a thread and prints the CPUs it and the thread may run on
_CHILD = """
import os, threading
seen = []
t = threading.Thread(target=lambda: seen.append(sorted(os.sched_getaffinity(0))))
t.start(); t.join()
print(sorted(os.sched_getaffinity(0)), seen[0])
"""


@pytest.mark.skipif(len(os.sched_getaffinity(0)) < 2, reason="needs two CPUs to hold one")
def test_a_server_process_and_its_threads_are_held_to_the_cpu_asked(tmp_path: Path) -> None:
    cpu = max(os.sched_getaffinity(0))
    child = load.Process([sys.executable, "-c", _CHILD], 0, dict(os.environ), tmp_path / "log", cpu)
    assert child.proc.wait(30) == 0
    assert (tmp_path / "log").read_text().split() == [f"[{cpu}]", f"[{cpu}]"]


def test_without_the_option_a_server_process_may_run_anywhere(tmp_path: Path) -> None:
    child = load.Process([sys.executable, "-c", _CHILD], 0, dict(os.environ), tmp_path / "log")
    assert child.proc.wait(30) == 0
    every = str(sorted(os.sched_getaffinity(0)))
    assert (tmp_path / "log").read_text().strip() == f"{every} {every}"


def test_the_report_names_the_cpus_held_to_and_any_for_the_other() -> None:
    assert load.held_line(None, None) == ""
    assert load.held_line(1, 0) == "held to CPUs: the servers 1, this client 0"
    assert load.held_line(None, 0) == "held to CPUs: the servers any, this client 0"
