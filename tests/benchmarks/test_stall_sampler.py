"""The load benchmark's stall sampler (``--profile timing``) names what the event loop's
thread runs while the loop is held up."""

from __future__ import annotations

import asyncio
import time

from .modules import benchmark

load = benchmark("load")


def hold_the_loop(seconds: float) -> None:
    """Keeps the event loop's thread busy for ``seconds`` of its CPU."""
    end = time.thread_time() + seconds
    while time.thread_time() < end:
        pass


async def test_a_held_loop_is_sampled_in_the_function_that_holds_it() -> None:
    sampler = load.StallSampler()
    sampler.start()
    try:
        await asyncio.sleep(0.1)
        hold_the_loop(0.3)
        await asyncio.sleep(0.05)
    finally:
        sampler.stop()
    held = sum(n for stack, n in sampler.stacks.items() if stack[-1].endswith(":hold_the_loop"))
    assert held >= 20, sampler.stacks  # one sample every 2 ms of CPU
    report = sampler.describe()
    assert "test_stall_sampler.py:hold_the_loop" in report, report
