"""Scallywagger's Treasure and Adventure decks: table-defined cards, draws and reshuffles.

The rulebook does not print the cards, so a table lists its own, one spec per card name::

    NAME:COPIES[:EFFECT[:KIND]]

- ``COPIES``: how many of that card are in the deck (1-99);
- ``EFFECT`` on crewmates: ``none`` (the table applies whatever the card says itself),
  or ``self+N`` / ``self-N`` (the user), ``target+N`` / ``target-N`` (one other Captain the
  user names), ``others+N`` / ``others-N`` (every other Captain still in), N from 1 to 9;
- ``KIND`` (Treasure cards only): ``once`` (one-time, used before bidding, then
  discarded), ``lasting`` (stays in play; an effect may be used once each turn before
  bidding) or ``anytime`` (one-time, usable before or during bidding: "unless the card
  states otherwise"). Adventure cards are always used during one bidding round.

Examples: ``Rum Barrel:3:self+1``, ``Spyglass:2:none:lasting``, ``Kraken:2:others-1``.

Purser keeps each deck's order (shuffled from the game's seed), the discard pile and who
holds what. A draw takes the top card, or the card a player names when the table uses a
real deck; an empty deck is refilled by shuffling its discard pile at the next draw.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable
from dataclasses import dataclass, replace

from companion.games.base import ConfigError, IllegalAction, shown

DECKS = ("treasure", "adventure")
KINDS = ("once", "lasting", "anytime")
TARGETS = ("none", "self", "target", "others")

_EFFECT = re.compile(r"^(self|target|others)([+-])([1-9])$")


@dataclass(frozen=True)
class CardDef:
    """One kind of card: its ``name``, ``deck``, ``copies``, ``kind`` and crewmate effect.

    The effect changes the crewmates of ``who`` (``none``, ``self``, ``target`` or
    ``others``) by ``amount`` (positive: gained, negative: lost).
    """

    name: str
    deck: str
    copies: int
    kind: str = "once"
    who: str = "none"
    amount: int = 0

    @property
    def needs_target(self) -> bool:
        """Whether using it needs a named Captain."""
        return self.who == "target"

    @property
    def has_effect(self) -> bool:
        """Whether Purser applies an effect on crewmates when it is used."""
        return self.who != "none"

    def effect_words(self) -> str:
        """The effect in words: ``every other Captain loses 1 crewmate``."""
        if not self.has_effect:
            return "the table applies what the card says"
        n = abs(self.amount)
        change = f"{'gains' if self.amount > 0 else 'loses'} {n} crewmate{'s' if n != 1 else ''}"
        subject = {"self": "its holder", "target": "a chosen Captain", "others": "every other Captain"}[self.who]
        return f"{subject} {change}"

    def spec(self) -> str:
        """The card as a spec string (the inverse of :func:`parse_card`)."""
        effect = "none" if not self.has_effect else f"{self.who}{'+' if self.amount > 0 else '-'}{abs(self.amount)}"
        kind = f":{self.kind}" if self.deck == "treasure" and self.kind != "once" else ""
        return f"{self.name}:{self.copies}:{effect}{kind}"


def parse_card(spec: str, deck: str) -> CardDef:
    """One card spec (``NAME:COPIES[:EFFECT[:KIND]]``) for ``deck``.

    Raises:
        ConfigError: the spec does not follow that form.
    """
    parts = [p.strip() for p in str(spec).split(":")]
    where = f"{deck} card {shown(spec)}"
    if len(parts) < 2 or len(parts) > 4 or not parts[0]:
        raise ConfigError(f"{where}: write NAME:COPIES[:EFFECT[:KIND]], e.g. 'Rum Barrel:3:self+1'")
    name = parts[0]
    try:
        copies = int(parts[1])
    except ValueError:
        raise ConfigError(f"{where}: the number of copies must be a whole number, not {shown(parts[1])}") from None
    if not 1 <= copies <= 99:
        raise ConfigError(f"{where}: a deck holds 1 to 99 copies of a card, not {copies}")
    who, amount = "none", 0
    effect = parts[2].lower() if len(parts) > 2 and parts[2] else "none"
    if effect != "none":
        match = _EFFECT.match(effect)
        if match is None:
            raise ConfigError(
                f"{where}: the effect must be none, self+N, self-N, target+N, target-N, others+N or others-N "
                f"(N from 1 to 9), not {shown(parts[2])}"
            )
        who = match.group(1)
        amount = int(match.group(3)) * (1 if match.group(2) == "+" else -1)
    kind = parts[3].lower() if len(parts) > 3 and parts[3] else "once"
    if kind not in KINDS:
        raise ConfigError(f"{where}: the kind must be once, lasting or anytime, not {shown(parts[3])}")
    if deck == "adventure" and kind != "once":
        raise ConfigError(f"{where}: Adventure cards are always used in one bidding round; leave out {shown(kind)}")
    return CardDef(name=name, deck=deck, copies=copies, kind=kind, who=who, amount=amount)


def build_catalogue(treasure: Iterable[str], adventure: Iterable[str]) -> tuple[CardDef, ...]:
    """Every card kind of both decks, Treasure first; blank specs are skipped.

    Raises:
        ConfigError: a bad spec, or one name used twice (names identify cards in actions).
    """
    cards: list[CardDef] = []
    for deck, given in (("treasure", treasure), ("adventure", adventure)):
        specs = given.split(",") if isinstance(given, str) else given
        for spec in specs:
            if str(spec).strip():
                cards.append(parse_card(str(spec), deck))
    seen: dict[str, CardDef] = {}
    for card in cards:
        key = card.name.casefold()
        if key in seen:
            raise ConfigError(
                f"the card name {shown(card.name)} is listed twice ({seen[key].deck} and {card.deck}); "
                "give each card its own name, or raise its number of copies"
            )
        seen[key] = card
    return tuple(cards)


def find_card(catalogue: tuple[CardDef, ...], name: str) -> int | None:
    """The catalogue index of the card called ``name`` (case-insensitive), or None."""
    key = name.strip().casefold()
    for i, card in enumerate(catalogue):
        if card.name.casefold() == key:
            return i
    return None


@dataclass(frozen=True)
class Pile:
    """One deck in play: the face-down ``deck`` (top first) and the ``discard`` pile.

    Both hold catalogue indices, one per physical card. ``shuffles`` counts the shuffles
    so far; each shuffle's order comes from the game seed and that count alone.
    """

    deck: tuple[int, ...]
    discard: tuple[int, ...]
    shuffles: int

    @property
    def empty(self) -> bool:
        """No card left to draw, even after a reshuffle."""
        return not self.deck and not self.discard


def _shuffled(cards: Iterable[int], seed: int, name: str, shuffles: int) -> tuple[int, ...]:
    order = sorted(cards)
    random.Random(f"scallywagger:{seed}:{name}:{shuffles}").shuffle(order)
    return tuple(order)


def new_pile(catalogue: tuple[CardDef, ...], deck: str, seed: int) -> Pile:
    """The shuffled ``deck`` at the start of a game."""
    cards = [i for i, c in enumerate(catalogue) if c.deck == deck for _ in range(c.copies)]
    return Pile(deck=_shuffled(cards, seed, deck, 1), discard=(), shuffles=1)


def draw(
    pile: Pile, deck: str, seed: int, wanted: int | None = None, catalogue: tuple[CardDef, ...] = ()
) -> tuple[Pile, int, bool]:
    """Draw one card: the top one, or the card ``wanted`` (a catalogue index).

    Returns ``(pile, card, reshuffled)``; ``reshuffled`` says the discard pile was
    shuffled into a new deck first because the deck was empty.

    Raises:
        IllegalAction: no card to draw, or the ``wanted`` card is not in the deck.
    """
    reshuffled = False
    if not pile.deck:
        if not pile.discard:
            raise IllegalAction(f"the {deck.title()} deck and its discard pile are both empty")
        shuffles = pile.shuffles + 1
        pile = Pile(deck=_shuffled(pile.discard, seed, deck, shuffles), discard=(), shuffles=shuffles)
        reshuffled = True
    if wanted is None:
        return replace(pile, deck=pile.deck[1:]), pile.deck[0], reshuffled
    if wanted not in pile.deck:
        name = catalogue[wanted].name if 0 <= wanted < len(catalogue) else "that card"
        raise IllegalAction(f"there is no {name} left in the {deck.title()} deck; check the card drawn")
    at = pile.deck.index(wanted)
    return replace(pile, deck=pile.deck[:at] + pile.deck[at + 1 :]), wanted, reshuffled


def discard(pile: Pile, cards: Iterable[int]) -> Pile:
    """The pile with ``cards`` put on its discard pile."""
    return replace(pile, discard=pile.discard + tuple(cards))
