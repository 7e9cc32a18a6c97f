"""Named fixed deals shared by the engine tests (all dealt by seat 3, so seat 0 is first hand).

Each hand lists its first batch (4 cards) then its second batch (4 cards); the 7th code is the
seat's seventh card.
"""

from __future__ import annotations

DEALER = 3

#: A general deal. Seat 0 (first hand) holds the top four spades and JH; its 7th card is 7H.
#: Seats 2 and 3 have no spades; nobody holds both KH and QH. Points: 10, 5, 11, 2.
PLAY = {
    0: "JS 9S AS JH TS 7C 7H 8C",
    1: "KS QS 8S 7S JD 9D QH QC",
    2: "JC 9C AC TC AD TD TH AH",
    3: "KC KD QD 8D 7D 9H KH 8H",
}

#: Like PLAY, but seat 0's only heart is its 7th card (7H). Points: 7, 8, 11, 2.
SEVENTH = {
    0: "JS 9S AS TS KS 7C 7H 8C",
    1: "QS 8S 7S JD 9D JH QH QC",
    2: "JC 9C AC TC AD TD TH AH",
    3: "KC KD QD 8D 7D 9H KH 8H",
}

#: Seat 0 holds the top clubs and spades, which win the first seven tricks when led lowest
#: first; its only heart, 7H, is its 7th card. Points: 13, 8, 5, 2.
LAST = {
    0: "JS 9S AS TS JC 9C 7H AC",
    1: "KS QS JD 9D 8S JH QH KC",
    2: "7S AD TD 8D TH AH TC QC",
    3: "KD QD 7D 8C 9H KH 8H 7C",
}

#: LAST with 7H moved into seat 0's first batch, to be laid face down as a hand card.
LAST_HAND_CARD = {**LAST, 0: "JS 9S AS 7H JC 9C TS AC"}
