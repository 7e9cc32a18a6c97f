"""Exact legal-action counts on fixed deals (like chess perft): the number of action sequences
of a given length from a position, counting every seat's legal actions at every step. A change
of any rule's legality shows up here as a changed number."""

from __future__ import annotations

import pytest

from twentynine.engine import RoundState, apply, legal_actions, preset, start_round

from .helpers import cards, run

# preset, deck (the order cards leave the pack; dealer 0), actions to the first lead,
# sequences of 3 actions from the deal, of 6 and of 8 actions from the first lead
CASES = [
    (
        "standard",
        "TS 8D KH QD AS AC JC 9H 7C 9D 7D JD JH 7S AH AD 8S KS 9C 7H QS QH KD KC 8H QC 8C JS TD TC 9S TH",
        "1: bid 16; 2: bid 20; 1: bid 20; 2: pass; 3: bid 23; 1: pass; 0: bid 27; 3: bid 27; 0: bid 28; 3: pass; 0: trump seventh; 1: pass; 3: pass; 1: pass; 2: pass; 3: pass; 0: pass",
        352,
        461,
        2100,
    ),
    (
        "pagat",
        "8D 7S 9D QD TS 8C AC KC 9H AH AD TD JH 7H KS 9C JC AS 7D 8S 7C QS QC 9S TH JS KH KD TC 8H QH JD",
        "1: bid 26; 2: bid 27; 1: bid 27; 2: bid 28; 1: pass; 3: pass; 0: pass; 2: trump TS; 1: pass; 3: pass; 1: pass; 2: pass; 3: pass; 0: pass",
        352,
        6264,
        92980,
    ),
    (
        "arkadium",
        "TC TD 7S QC TS QD QH KS AH 8D KH 7D 9C 8H AD JD AS KC AC 8C JC 9D 7C JS TH 9S QS 9H 8S KD JH 7H",
        "1: bid 17; 2: bid 19; 3: bid 22; 0: bid 27; 1: pass; 2: bid 28; 2: trump D; 1: pass; 3: pass",
        755,
        2356,
        17116,
    ),
    (
        "bhoos",
        "AS KH TH AD TC TD JH JC 9H 7C QD KD 7D 8C QC 8D 8S KC AH JD JS AC 9C QH 7H QS 9D 7S 9S 8H KS TS",
        "1: bid 24; 2: bid 25; 1: bid 25; 2: bid 26; 1: bid 26; 2: bid 27; 1: bid 27; 2: pass; 3: pass; 0: pass; 1: trump D",
        # the first hand bids 28-k (k = 0..12); the next seat passes (k+1 answers from the
        # third) or bids c, and the holder answers c..28 or passes (30-c ways, the holder may
        # raise): sum over k of k + (k+1)(k+2)/2 = 78 + 455 (247 when the holder only matched)
        533,
        776,
        3366,
    ),
    (
        "classic",
        "7H 8S QH JS AS TH 7C TC QD JC 9D 8H 9H TS JD TD AD KS 8C 7S 9C KH 7D 8D AH JH AC QS KD 9S QC KC",
        "2: bid 22; 3: bid 25; 0: pass; 1: bid 27; 2: bid 28; 3: bid 29; 3: trump C",
        753,
        552,
        1699,
    ),
]


def perft(st: RoundState, depth: int) -> int:
    if depth == 0 or st.is_over:
        return 1
    return sum(perft(apply(st, a)[0], depth - 1) for a in legal_actions(st))


@pytest.mark.parametrize(
    ("name", "deck", "script", "deal3", "play6", "play8"), CASES, ids=[c[0] for c in CASES]
)
def test_exact_counts(
    name: str, deck: str, script: str, deal3: int, play6: int, play8: int
) -> None:
    rules = preset(name)
    st, _ = start_round(rules, 0, cards(deck))
    assert perft(st, 3) == deal3
    st, _ = run(st, script)
    assert st.phase.name == "PLAY"
    assert perft(st, 6) == play6
    assert perft(st, 8) == play8
