"""The formats of Seize: Guilded Treasures and the deck check each one needs.

A :class:`Format` holds what the rulebook's "Formats" section states for one format:
seatings, starting loot, deck size, the extra card kept outside the deck (Arena's
Champion, Guild Master's Guild Master), the match timer, deck building time, best-of-N
and the mechanical differences (Arena: no plundering, no bounty, no entering or exiting,
teammates share a turn). :func:`deck_problems` checks a deck list against a format.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.games.base import IllegalAction, shown

#: Card kinds a deck list may name.
CARD_KINDS = ("mercenary", "treasure", "ability")


@dataclass(frozen=True)
class Format:
    """One format as the rulebook states it (times in minutes; 0 means no timer)."""

    key: str
    title: str
    seatings: tuple[int, ...]
    loot: int
    deck_size: int
    extra_card: str
    minutes: int
    building_minutes: int
    best_of: int
    plunder: bool = True
    bounty: bool = True
    exit: bool = True
    enter_guild_hall: bool = True
    shared_team_turns: bool = False
    single_class: bool = False
    goal: str = "reduce the opposing Vault to 0 (or they run out of cards in their deck)"

    def seating_words(self) -> str:
        """ "2 or 4 players" and the like."""
        counts = [str(n) for n in self.seatings]
        return (", ".join(counts[:-1]) + " or " if len(counts) > 1 else "") + counts[-1] + " players"


FORMATS: dict[str, Format] = {
    # The rulebook writes Standard for 1v1 and 2v2; three players play each for themselves.
    "standard": Format(
        "standard",
        "Standard",
        (2, 3, 4),
        loot=30,
        deck_size=40,
        extra_card="",
        minutes=50,
        building_minutes=0,
        best_of=1,
    ),
    "draft": Format(
        "draft",
        "Draft",
        (2,),
        loot=20,
        deck_size=30,
        extra_card="",
        minutes=40,
        building_minutes=15,
        best_of=1,
    ),
    # The rulebook gives Arena no Vault; Purser keeps Standard's 30 so Acquire still costs loot.
    "arena": Format(
        "arena",
        "Arena",
        (2, 4),
        loot=30,
        deck_size=30,
        extra_card="champion",
        minutes=40,
        building_minutes=0,
        best_of=3,
        plunder=False,
        bounty=False,
        exit=False,
        enter_guild_hall=False,
        shared_team_turns=True,
        single_class=True,
        goal="eliminate the opposing mercenaries",
    ),
    "guild_master": Format(
        "guild_master",
        "Guild Master",
        (2, 3, 4),
        loot=40,
        deck_size=60,
        extra_card="guild_master",
        minutes=0,
        building_minutes=0,
        best_of=1,
        goal="reduce opposing Vaults to 0 or defeat their Guild Master (or they run out of cards)",
    ),
}


def find_format(key: str) -> Format:
    """The format called ``key`` (``standard``, ``draft``, ``arena``, ``guild_master``).

    Raises:
        IllegalAction: no such format.
    """
    try:
        return FORMATS[key]
    except KeyError:
        raise IllegalAction(f"there is no format called {shown(key)} (formats: {', '.join(FORMATS)})") from None


# -- deck lists --------------------------------------------------------------------------


@dataclass(frozen=True)
class DeckCard:
    """One line of a deck list: ``count`` copies of a card with ``stars`` rarity (1-4)."""

    name: str
    stars: int
    count: int = 1
    kind: str = ""
    card_class: str = ""


def _int_field(raw: Mapping[str, Any], key: str, default: int | None, where: str) -> int:
    value = raw.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int):
        raise IllegalAction(f'{where}: "{key}" must be a whole number, not {shown(value)}')
    return value


def parse_card(raw: Any, where: str = "a deck card") -> DeckCard:
    """Read one deck-list entry ``{"name", "stars", "count"?, "kind"?, "class"?}``.

    Raises:
        IllegalAction: a missing name, stars outside 1-4, a count below 1, an unknown kind.
    """
    if not isinstance(raw, Mapping):
        raise IllegalAction(f'{where} must be an object like {{"name": "Deckhand", "stars": 1, "count": 2}}')
    name = raw.get("name")
    if not isinstance(name, str) or not name.strip():
        raise IllegalAction(f'{where} needs a "name"')
    where = f"{where} {shown(name.strip())}"
    stars = _int_field(raw, "stars", None, where) if "stars" in raw else None
    if stars is None:
        raise IllegalAction(f'{where} needs "stars" (its rarity, 1 to 4)')
    if not 1 <= stars <= 4:
        raise IllegalAction(f"{where}: rarity runs from 1 to 4 stars, not {stars}")
    count = _int_field(raw, "count", 1, where)
    if count < 1:
        raise IllegalAction(f"{where}: a count must be at least 1, not {count}")
    kind = raw.get("kind", "") or ""
    if kind not in ("", *CARD_KINDS):
        raise IllegalAction(f"{where}: a card's kind is one of {', '.join(CARD_KINDS)}, not {shown(kind)}")
    card_class = raw.get("class", "") or ""
    if not isinstance(card_class, str):
        raise IllegalAction(f'{where}: "class" must be text')
    return DeckCard(name.strip(), stars, count, kind, card_class.strip())


def parse_deck(raw: Any) -> tuple[DeckCard, ...]:
    """Read a deck list (a JSON list of cards).

    Raises:
        IllegalAction: it is not a list, or an entry is malformed.
    """
    if not isinstance(raw, Sequence) or isinstance(raw, (str, bytes)):
        raise IllegalAction('"cards" must be a list of cards like [{"name": "Deckhand", "stars": 1, "count": 2}]')
    return tuple(parse_card(c, f"deck card {i + 1}") for i, c in enumerate(raw))


def deck_problems(
    fmt: Format,
    size: int,
    exact: bool,
    cards: Sequence[DeckCard],
    extra: DeckCard | None = None,
) -> list[str]:
    """Everything that makes ``cards`` illegal for ``fmt``; empty when the deck is legal.

    ``size`` is the deck size required (``exact``: exactly, else at least); ``extra`` is
    the Champion (Arena) or Guild Master kept outside the deck.
    """
    problems: list[str] = []
    total = sum(c.count for c in cards)
    if exact and total != size:
        problems.append(f"it has {total} cards; {fmt.title} needs exactly {size}")
    elif not exact and total < size:
        problems.append(f"it has {total} cards; {fmt.title} needs at least {size}")
    copies: dict[str, int] = {}
    names: dict[str, str] = {}
    for card in list(cards) + ([extra] if extra else []):
        if card.stars == 4:
            key = card.name.casefold()
            copies[key] = copies.get(key, 0) + card.count
            names[key] = card.name
    for key, n in copies.items():
        if n > 1:
            problems.append(f"{shown(names[key])} is a 4-star card and appears {n} times (the Legendary rule allows 1)")
    if fmt.extra_card == "champion":
        if extra is None:
            problems.append('Arena needs a Champion: add "champion": {"name": ..., "stars": ..., "class": ...}')
        else:
            if extra.count != 1:
                problems.append("there is exactly one Champion")
            if extra.kind not in ("", "mercenary"):
                problems.append("the Champion must be a mercenary")
    if fmt.extra_card == "guild_master":
        if extra is None:
            problems.append('Guild Master needs its Guild Master: add "guild_master": {"name": ..., "stars": 3 or 4}')
        else:
            if extra.count != 1:
                problems.append("there is exactly one Guild Master")
            if extra.stars < 3:
                problems.append(f"the Guild Master must be Rare or Legendary (3 or 4 stars), not {extra.stars}-star")
            if extra.kind not in ("", "mercenary"):
                problems.append("the Guild Master must be a mercenary")
    if fmt.single_class:
        classes = sorted({c.card_class for c in list(cards) + ([extra] if extra else []) if c.card_class})
        if len(classes) > 1:
            problems.append(f"{fmt.title} decks are single-class, and this one mixes {', '.join(classes)}")
    return problems
