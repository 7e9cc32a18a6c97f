"""``benchmarks/load.py``'s printed report (what the README's command shows without ``--json``)
reads every part of a run's result: both servers, the machine's steadiness, the held CPUs."""

from __future__ import annotations

from typing import Any

import pytest

from .modules import benchmark

load = benchmark("load")


def _server(p99: float, live: int) -> dict[str, Any]:
    return {
        "setup_seconds": 140.7,
        "actions_per_s": 999.9,
        "sent_per_s": 999.9,
        "actions": 19999,
        "latency_ms": {"p50": 0.69, "p95": 1.42, "p99": p99, "max": 7.66},
        "p99_ms_by_10s": [p99, p99 - 0.2],
        "p99_ms_by_1s": [p99] * 20,
        "errors": {"messages": {}, "disconnects": 0, "timeouts": 0},
        "missed_ticks": 0,
        "state_message_bytes": 2025,
        "connections": 4000 + live,
        "live_sockets": live,
        "live_messages": {"hello": live} if live else {},
        "live_disconnects": 0,
        "connect_seconds": 49.1,
        "rss_kib": {"before_sockets": 302768, "sockets_idle": 440844, "after_run": 531908},
        "kib_per_idle_connection": 17.26,
        "server_cpu_percent": 47.7,
        "server_cpu_ms_per_action": 0.48,
        "client_cpu_percent": 32.3,
        "client_loop_late_ms": {"p50": 0.0, "p99": 1.0, "max": 4.0},
    }


def _result(steadiness: dict[str, Any] | None) -> dict[str, Any]:
    machine: dict[str, Any] = {"cpus": 2, "python": "3.11.7"}
    if steadiness is not None:
        machine["cpu_steadiness"] = steadiness
    return {
        "tables": 1000,
        "connections": 4000,
        "target_rate": 1000.0,
        "seconds": 20.0,
        "order": "fifo",
        "compression": True,
        "server_deflate": False,
        "machine": machine,
        "server_cpu": 1,
        "client_cpu": None,
        "load_average_before": 1.07,
        "load_average_after": 1.14,
        "ours": _server(2.81, 4000),
        "floor": {k: v for k, v in _server(1.72, 0).items() if k != "setup_seconds"},
        "p99_vs_floor": 1.63,
        "goal": {"p99_within_2x_floor": True, "rate_reached": True},
    }


STEADY = {
    "seconds": 5.0,
    "factor": 1.5,
    "pieces": 4427,
    "piece_cpu_us_median": 18.5,
    "slow_windows": 0,
    "slow_window_share": 0.0,
    "worst_ratio": None,
    "episodes": 0,
    "episode_gap_s_median": None,
    "cpus": [0, 1],
}


@pytest.mark.parametrize("steadiness", [STEADY, None])
def test_the_report_prints_every_part_of_a_run(
    steadiness: dict[str, Any] | None, capsys: pytest.CaptureFixture[str]
) -> None:
    load.report(_result(steadiness))
    out = capsys.readouterr().out
    assert "held to CPUs: the servers 1, this client any" in out
    assert ("steady throughout" in out) == (steadiness is not None)
    assert "setup (sign-in, tables): 140.7 s" in out
    assert out.count("latency to all 4 seats") == 2  # ours and the floor's
    assert "p99 2.81 ms" in out and "p99 1.72 ms" in out
    assert "live channels (/ws/me, among the sockets above): 4000" in out
    assert "p99 ours / floor: 1.63" in out
    assert "goal: {'p99_within_2x_floor': True" in out
