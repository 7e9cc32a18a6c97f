"""The partner-reading study (``benchmarks/partner_reading.py``): a card is a drop exactly when,
solved in the position it was played from, it threw away a contract another card kept; in the
true deals of rounds played by the solver's best cards, no card falls short."""

from __future__ import annotations

import sys

from twentynine.bots.partnerread import latest_plays

from .modules import benchmark
from .test_play_report import _played_records

sys.modules.setdefault("play_report", benchmark("play_report"))  # imported by the study
reading = benchmark("partner_reading")
report = sys.modules["play_report"]


def test_the_latest_card_is_the_seats_last_one_played() -> None:
    record, _ = _played_records(None)[0]
    seen: dict[int, tuple[int, int, int]] = {}
    for st, action in report.replay(record):
        for seat in range(4):
            latest = latest_plays(st.tricks, st.trick, seat, 1)
            assert (latest[0] if latest else None) == seen.get(seat)
        if action.act.name == "PLAY":
            trick = len(st.tricks)
            seen[action.seat] = (trick, len(st.trick), action.arg)


def test_a_dropping_card_reads_as_a_drop_and_a_best_card_never_does() -> None:
    drops = 0
    for record, dropper in _played_records(3):
        for st, action in report.replay(record):
            if action.act.name != "PLAY":
                continue
            after, _ = report.apply(st, action)
            (latest,) = latest_plays(after.tricks, after.trick, action.seat, 1)
            got = reading.features(after, action.seat, latest)
            if got is None:  # no choice, or a position the sampled deal cannot rebuild
                continue
            dropped, short = got
            holding = report.critical(st, action.seat)
            if action.seat == dropper and holding is not None and not holding[action]:
                assert dropped and short != "0"
                drops += 1
            else:  # every other card was the solver's best
                assert not dropped and short == "0"
    assert drops == 3


def test_the_study_finds_no_shortfall_in_true_deals_of_best_play() -> None:
    records = [r for r, _ in _played_records(None)]
    out = reading.study(records, "ours", 2, 0)
    assert out["decisions"] > 0
    for who in ("partner", "opponent"):
        row = out[who]
        assert row["cards_true"] > 0
        # a card counts in each deal where its player had a choice, so the counts differ
        assert row["cards_sampled"] > 0
        assert row["drops"]["true"] == 0
        assert row["short 0"]["true"] == 1.0
        assert row["short 6+"]["true"] == 0
