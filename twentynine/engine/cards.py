"""Cards, suits and card masks.

A card is an int 0..31: ``suit * 8 + strength``. Strength runs 0 (the 7, lowest) to 7 (the Jack,
highest), so within a suit a higher bit is a stronger card. A set of cards (a hand, the cards
played) is a 32-bit mask; suit ``s`` occupies bits ``8*s .. 8*s+7``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from .errors import NotationError

Card = int
Suit = int

SUITS = "CDHS"
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")
#: rank letters indexed by strength (7 is the lowest, J the highest)
RANKS = "78QKTA9J"
RANK_ORDER = "J9ATKQ87"  # high to low, the order players say it
POINTS_BY_STRENGTH = (0, 0, 0, 0, 1, 1, 2, 3)

CLUBS, DIAMONDS, HEARTS, SPADES = range(4)
SEVEN, EIGHT, QUEEN, KING, TEN, ACE, NINE, JACK = range(8)

ALL_CARDS: tuple[Card, ...] = tuple(range(32))
FULL_MASK = (1 << 32) - 1
SUIT_MASKS: tuple[int, ...] = tuple(0xFF << (8 * s) for s in range(4))

JACKS = sum(1 << (8 * s + JACK) for s in range(4))
NINES = sum(1 << (8 * s + NINE) for s in range(4))
ONES = sum((1 << (8 * s + ACE)) | (1 << (8 * s + TEN)) for s in range(4))
POINT_CARDS = JACKS | NINES | ONES


def suit_of(card: Card) -> Suit:
    return card >> 3


def strength_of(card: Card) -> int:
    return card & 7


def make_card(strength: int, suit: Suit) -> Card:
    return suit * 8 + strength


def card_points(card: Card) -> int:
    return POINTS_BY_STRENGTH[card & 7]


def mask_points(mask: int) -> int:
    """Card points in a set of cards."""
    return (
        3 * (mask & JACKS).bit_count() + 2 * (mask & NINES).bit_count() + (mask & ONES).bit_count()
    )


#: the code of every card 0..31 (see :func:`card_code`)
CARD_CODES: tuple[str, ...] = tuple(RANKS[c & 7] + SUITS[c >> 3] for c in range(32))


def card_code(card: Card) -> str:
    """``JS``, ``TD``, ``AH``: rank then suit."""
    return CARD_CODES[card]


def parse_card(code: str) -> Card:
    if len(code) != 2:
        raise NotationError(f"not a card code: {code!r} (expected rank J9ATKQ87 + suit CDHS)")
    rank, suit = code[0].upper(), code[1].upper()
    if rank == "1":  # some players (and the Bhoos protocol) write the Ace as 1
        rank = "A"
    r = RANKS.find(rank)
    s = SUITS.find(suit)
    if r < 0 or s < 0:
        raise NotationError(f"not a card code: {code!r} (expected rank J9ATKQ87 + suit CDHS)")
    return s * 8 + r


def parse_suit(letter: str) -> Suit:
    s = SUITS.find(letter.upper()) if len(letter) == 1 else -1
    if s < 0:
        raise NotationError(f"not a suit: {letter!r} (expected one of C D H S)")
    return s


def mask_of(cards: Iterable[Card]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def cards_in(mask: int) -> Iterator[Card]:
    """The cards of a mask, lowest bit first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def card_list(mask: int) -> list[Card]:
    return list(cards_in(mask))


#: _SUIT_DISPLAY[s][b]: the cards of suit ``s`` whose strengths are the bits of ``b``,
#: strongest first
_SUIT_DISPLAY: tuple[tuple[tuple[Card, ...], ...], ...] = tuple(
    tuple(tuple(8 * s + i for i in range(7, -1, -1) if b >> i & 1) for b in range(256))
    for s in range(4)
)


def sorted_for_display(mask: int) -> list[Card]:
    """Suit by suit (C D H S), strongest first within a suit."""
    d = _SUIT_DISPLAY
    return [
        *d[0][mask & 0xFF],
        *d[1][mask >> 8 & 0xFF],
        *d[2][mask >> 16 & 0xFF],
        *d[3][mask >> 24 & 0xFF],
    ]


def highest(mask: int) -> Card:
    """The strongest card of a mask that lies within one suit."""
    return mask.bit_length() - 1


def codes(cards: Iterable[Card]) -> list[str]:
    """Each card's code (``card_code``), in order; a lookup a card, no call (a table's snapshot
    writes its deck's 32 with every stored change)."""
    return list(map(CARD_CODES.__getitem__, cards))
