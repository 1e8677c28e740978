"""7 Seize's cards: ranks, suits, colours, the two orders the rulebook uses, and the deck.

Players hold real cards; Purser only learns a card when it is revealed. A card is written
as its rank then its suit: ``"AS"`` (ace of spades), ``"10H"``, ``"QD"``, ``"7C"``.
Parsing also accepts ``T`` for 10, suit symbols (``"Q♥"``) and lower case.

The :class:`Deck` counts the draw deck and remembers the cards discarded since the last
reshuffle: those are physically in the discard pile, so they cannot be revealed again
until the discards are shuffled into a new draw deck.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

from companion.games.base import IllegalAction, shown

#: Acting order in the seize phase, first to last (A, K, Q, J, then 10 down to 2).
RANKS: tuple[str, ...] = ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2")
FACE_RANKS: tuple[str, ...] = ("A", "K", "Q", "J")
#: Suits from highest to lowest, the rulebook's round-1 tie order: spades, hearts, diamonds, clubs.
SUITS: tuple[str, ...] = ("S", "H", "D", "C")
SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
RANK_NAMES = {"A": "ace", "K": "king", "Q": "queen", "J": "jack"}
#: The role each face card plays in the seize phase.
ROLES = {"A": "Lookout", "K": "Quartermaster", "Q": "Strumpet", "J": "Knave"}
RED, BLACK = "red", "black"

ALL_CARDS: tuple[str, ...] = tuple(r + s for s in SUITS for r in RANKS)
DECK_SIZE = len(ALL_CARDS)

_SUIT_ALIASES = {
    "S": "S",
    "♠": "S",
    "♤": "S",
    "H": "H",
    "♥": "H",
    "♡": "H",
    "D": "D",
    "♦": "D",
    "♢": "D",
    "C": "C",
    "♣": "C",
    "♧": "C",
}


def parse_card(text: object) -> str:
    """The canonical form (``"10H"``) of a card typed by a player.

    Raises:
        IllegalAction: not a card of a standard 52-card deck.
    """
    if not isinstance(text, str):
        raise IllegalAction(f'a card is written like "QH" or "10S", not {shown(text)}')
    cleaned = text.strip().upper().replace(" ", "")
    if len(cleaned) >= 2:
        rank, suit = cleaned[:-1], _SUIT_ALIASES.get(cleaned[-1])
        rank = "10" if rank == "T" else rank
        if suit is not None and rank in RANKS:
            return rank + suit
    raise IllegalAction(
        f'{shown(text)} is not a card: write the rank (A, K, Q, J, 10-2) then the suit (S, H, D, C), e.g. "QH"'
    )


def rank_of(card: str) -> str:
    """``"10H"`` -> ``"10"``."""
    return card[:-1]


def suit_of(card: str) -> str:
    """``"10H"`` -> ``"H"``."""
    return card[-1]


def colour_of(card: str) -> str:
    """``"red"`` for hearts and diamonds, ``"black"`` for spades and clubs."""
    return RED if suit_of(card) in ("H", "D") else BLACK


def is_number(card: str) -> bool:
    """Whether the card is a Number card (2-10), not J, Q, K or A."""
    return rank_of(card) not in FACE_RANKS


def squabble_value(card: str) -> int:
    """A card's value when squabbling for Captain: its number, or 1 for J, Q, K and A."""
    rank = rank_of(card)
    return 1 if rank in FACE_RANKS else int(rank)


def seize_rank(card: str) -> int:
    """Position in the seize acting order: 0 for an ace (acts first) ... 12 for a 2."""
    return RANKS.index(rank_of(card))


def suit_rank(card: str) -> int:
    """Position in the suit order: 0 for spades (highest) ... 3 for clubs."""
    return SUITS.index(suit_of(card))


def card_name(card: str) -> str:
    """Words for players: ``"QH"`` -> ``"queen of hearts"``."""
    rank = rank_of(card)
    return f"{RANK_NAMES.get(rank, rank)} of {SUIT_NAMES[suit_of(card)]}"


def card_label(card: str) -> str:
    """Short label for screens: ``"Q♥"``."""
    return rank_of(card) + SUIT_SYMBOLS[suit_of(card)]


@dataclass(frozen=True)
class Deck:
    """What Purser knows of the deck: how many cards are left to draw, and the discards.

    ``discard`` holds the cards discarded since the last reshuffle (in card order);
    ``reshuffles`` counts how often the discards became a new draw deck.
    """

    draw: int
    discard: tuple[str, ...] = ()
    reshuffles: int = 0

    @classmethod
    def dealt(cls, hands: int, cards_each: int) -> Deck:
        """The deck after ``hands`` players each drew ``cards_each`` cards from a fresh shuffle."""
        return cls(draw=DECK_SIZE - hands * cards_each)

    def take(self, count: int) -> tuple[Deck, list[int]]:
        """Draw ``count`` cards; returns the deck and, for each reshuffle on the way, its size.

        Whenever the draw deck runs empty the discards are shuffled into a new one, as the
        rulebook says, even when that happens with the last card drawn.
        """
        deck, reshuffled = self, []
        for _ in range(count):
            if deck.draw == 0:
                deck, size = deck._reshuffle()
                reshuffled.append(size)
            if deck.draw == 0:  # every card is in a hand: nothing to draw
                break
            deck = replace(deck, draw=deck.draw - 1)
        if deck.draw == 0 and deck.discard:
            deck, size = deck._reshuffle()
            reshuffled.append(size)
        return deck, reshuffled

    def _reshuffle(self) -> tuple[Deck, int]:
        size = len(self.discard)
        return Deck(draw=size, discard=(), reshuffles=self.reshuffles + 1), size

    def discard_cards(self, cards: Iterable[str]) -> Deck:
        """Put revealed cards on the discard pile."""
        pile = set(self.discard) | set(cards)
        return replace(self, discard=tuple(c for c in ALL_CARDS if c in pile))


def order_by_suit(cards: dict[int, str]) -> list[int]:
    """Seats ordered by the suit of their card, spades first (ties kept in seat order)."""
    return sorted(cards, key=lambda seat: (suit_rank(cards[seat]), seat))
