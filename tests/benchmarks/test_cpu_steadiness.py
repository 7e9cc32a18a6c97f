"""The CPU steadiness probe finds the windows whose work cost more than usual, and counts a run
of such windows as one episode."""

from __future__ import annotations

from .modules import benchmark

steadiness = benchmark("cpu_steadiness")


def test_windows_whose_pieces_cost_more_are_found_and_grouped() -> None:
    rows = [(i / 1000, 20e-6) for i in range(3000)]  # 3 s of pieces at 20 us
    for i in range(500, 700):  # 0.5-0.7 s: four times the cost
        rows[i] = (rows[i][0], 80e-6)
    for i in range(2100, 2150):  # half of the window from 2.1 s: twice over it, 1.5x
        rows[i] = (rows[i][0], 40e-6)
    slow = steadiness.slow_windows(rows)
    assert slow == [(0.5, 4.0), (0.6, 4.0), (2.1, 1.5)]
    assert steadiness.episodes(slow) == [0.5, 2.1]
    assert steadiness.slow_windows(rows, factor=2.0) == [(0.5, 4.0), (0.6, 4.0)]
    assert steadiness.slow_windows([]) == []


def test_a_short_sample_times_every_piece() -> None:
    rows = steadiness.sample(0.2)
    assert len(rows) > 50
    assert sum(cpu > 0 for _, cpu in rows) > len(rows) // 2


def test_the_load_benchmark_takes_the_measure_without_its_windows() -> None:
    measure = benchmark("load").cpu_steadiness(0.3)
    assert measure["pieces"] > 50 and measure["seconds"] == 0.3
    assert 0.0 <= measure["slow_window_share"] <= 1.0
    assert measure["slow_windows"] >= measure["episodes"] >= 0
    assert "windows" not in measure


def test_the_line_says_a_steady_run_is_steady_and_names_a_slow_runs_worst() -> None:
    base = {"pieces": 100, "cpus": [0], "piece_cpu_us_median": 20.0, "slow_window_share": 0.0}
    steady = {**base, "slow_windows": 0, "worst_ratio": None, "episodes": 0}
    steady["episode_gap_s_median"] = None
    line = steadiness.describe(steady, 15, 1.5)
    assert line.endswith("(0.0% of the time): steady throughout")
    assert "None" not in line
    slow = {**base, "slow_windows": 3, "slow_window_share": 0.02, "worst_ratio": 4.0}
    slow.update(episodes=2, episode_gap_s_median=1.6)
    assert steadiness.describe(slow, 15, 1.5).endswith(
        "(2.0% of the time, worst 4.0x), in 2 episodes, a median 1.6 s apart"
    )
    once = {**slow, "episodes": 1, "episode_gap_s_median": None}
    assert steadiness.describe(once, 15, 1.5).endswith("worst 4.0x), in 1 episodes")
