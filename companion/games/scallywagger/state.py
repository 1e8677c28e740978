"""Scallywagger's state: who has how many crewmates, who holds what, and the seat order.

The helpers here change crewmates and cards the same way for every action of
:mod:`companion.games.scallywagger` (card effects and settled challenges alike).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from companion.games.base import Event, event
from companion.games.scallywagger.bids import Bid, BidRules, Reveal
from companion.games.scallywagger.cards import DECKS, CardDef, Pile, discard

PHASES = ("setup", "treasure", "bidding", "reveal", "confirm", "draw", "over")


@dataclass(frozen=True)
class Settings:
    """The house rules a game was started with."""

    crewmates: int
    first_captain: str
    parlay: str
    max_crewmates: int
    bids: BidRules


@dataclass(frozen=True)
class Held:
    """A card in front of a Captain: catalogue index, the turn it was drawn in, and the turn
    it was last used in (0: never; for an Adventure card, the turn it was revealed)."""

    card: int
    drawn: int
    used: int = 0


@dataclass(frozen=True)
class Challenge:
    """A call (``kind="call"``) or Parlay (``"parlay"``) by ``caller`` against ``bidder``'s
    standing bid, on ``quantity`` dice of ``face`` (at least, or exactly)."""

    kind: str
    caller: int
    bidder: int
    quantity: int
    face: int


@dataclass(frozen=True)
class ScallywaggerState:
    """Everything Purser knows about a game (the dice under the screens are not known).

    ``actor`` is the Captain the game waits on: priority holder, bidder, or drawer.
    ``declined`` lists who declined priority since the last card use; ``bids`` is this
    turn's bidding, oldest first. ``revealing`` holds an Adventure card just shown whose
    holder must still name the Captain it aims at.
    """

    players: tuple[str, ...]
    seed: int
    settings: Settings
    catalogue: tuple[CardDef, ...]
    phase: str
    turn: int
    crew: tuple[int, ...]
    token: int
    actor: int
    declined: tuple[int, ...]
    bids: tuple[Bid, ...]
    challenge: Challenge | None
    reveal: Reveal | None
    draw_optional: bool
    hands: tuple[tuple[Held, ...], ...]
    treasure: Pile
    adventure: Pile
    winner: int | None
    #: An Adventure card shown without its target yet: (holder's seat, hand position).
    revealing: tuple[int, int] | None = None

    @property
    def alive(self) -> tuple[int, ...]:
        """Seats of the Captains who still have crewmates."""
        return tuple(i for i, c in enumerate(self.crew) if c > 0)

    @property
    def dice_on_table(self) -> int:
        """Every crewmate still in play."""
        return sum(self.crew)

    @property
    def bid(self) -> Bid | None:
        """The standing bid, if any."""
        return self.bids[-1] if self.bids else None

    def pile(self, deck: str) -> Pile:
        """The Treasure or Adventure pile."""
        return self.treasure if deck == "treasure" else self.adventure


# -- seats ----------------------------------------------------------------------------------


def next_alive(state: ScallywaggerState, seat: int) -> int:
    """The first Captain still in clockwise after ``seat`` (``seat`` itself if alone)."""
    n = len(state.players)
    for step in range(1, n + 1):
        s = (seat + step) % n
        if state.crew[s] > 0:
            return s
    return seat


def clockwise_from(state: ScallywaggerState, seat: int) -> list[int]:
    """Every seat, clockwise, starting with ``seat``."""
    n = len(state.players)
    return [(seat + step) % n for step in range(n)]


# -- cards in hand ----------------------------------------------------------------------------


def usable(state: ScallywaggerState, seat: int, kind: str) -> list[int]:
    """Positions in ``seat``'s hand of cards usable now: ``kind`` is "use" (Treasure) or
    "adventure"."""
    if state.crew[seat] == 0:
        return []
    found = []
    for pos, held in enumerate(state.hands[seat]):
        card = state.catalogue[held.card]
        if kind == "adventure":
            if state.phase == "bidding" and card.deck == "adventure" and held.drawn < state.turn and not held.used:
                found.append(pos)
            continue
        if card.deck != "treasure":
            continue
        if state.phase == "treasure":
            if card.kind in ("once", "anytime") or (card.has_effect and held.used != state.turn):
                found.append(pos)
        elif state.phase == "bidding" and card.kind == "anytime":
            found.append(pos)
    return found


def card_names(state: ScallywaggerState, seat: int, positions: list[int]) -> list[str]:
    """The names of the cards at ``positions`` in ``seat``'s hand, each once, in hand order."""
    names: list[str] = []
    for pos in positions:
        name = state.catalogue[state.hands[seat][pos].card].name
        if name not in names:
            names.append(name)
    return names


# -- crewmates ----------------------------------------------------------------------------------


def change_crew(state: ScallywaggerState, seat: int, delta: int, events: list[Event]) -> ScallywaggerState:
    """Add ``delta`` crewmates to ``seat`` (never below 0, never above ``max_crewmates``)."""
    before = state.crew[seat]
    if before == 0 or delta == 0:
        return state
    after = max(0, before + delta)
    cap = state.settings.max_crewmates
    if delta > 0 and cap:
        after = max(before, min(after, cap))
    name = state.players[seat]
    crew = list(state.crew)
    crew[seat] = after
    state = replace(state, crew=tuple(crew))
    if after == before:
        events.append(event("crew_capped", f"{name} already has the most crewmates allowed ({cap}).", player=name))
        return state
    change = after - before
    n = abs(change)
    verb = "gains" if change > 0 else "loses"
    events.append(
        event(
            "crew",
            f"{name} {verb} {n} crewmate{'s' * (n != 1)} and has {after}.",
            player=name,
            change=change,
            crewmates=after,
        )
    )
    if after == 0:
        state = retire(state, seat, events)
    return state


def retire(state: ScallywaggerState, seat: int, events: list[Event]) -> ScallywaggerState:
    """``seat`` has no crewmates: they are out, their cards go to the discard piles."""
    name = state.players[seat]
    events.append(event("out", f"{name} has no crewmates left and is out of the game.", player=name))
    held = state.hands[seat]
    if held:
        for deck in DECKS:
            cards = [h.card for h in held if state.catalogue[h.card].deck == deck]
            if cards:
                state = set_pile(state, deck, discard(state.pile(deck), cards))
        hands = list(state.hands)
        hands[seat] = ()
        state = replace(state, hands=tuple(hands))
    return state


def after_losses(state: ScallywaggerState, events: list[Event]) -> ScallywaggerState:
    """End the game if one Captain is left; otherwise move the token and turn off anyone out."""
    alive = state.alive
    if len(alive) <= 1:
        winner = alive[0] if alive else None
        if winner is not None:
            name = state.players[winner]
            events.append(event("game_over", f"{name} is the last Captain with crewmates and wins!", winner=name))
        return replace(state, phase="over", winner=winner, actor=winner if winner is not None else 0)
    if state.crew[state.token] == 0 and state.phase in ("treasure", "bidding") and not state.bids:
        # The opener is gone before the bidding opened: the next Captain takes the token and opens.
        state = replace(state, token=next_alive(state, state.token))
        events.append(
            event(
                "token",
                f"The Treasure Token passes to {state.players[state.token]}.",
                player=state.players[state.token],
            )
        )
    if state.phase == "bidding" and state.crew[state.actor] == 0:
        state = replace(state, actor=next_alive(state, state.actor))
    return state


def set_pile(state: ScallywaggerState, deck: str, pile: Pile) -> ScallywaggerState:
    """The state with the Treasure or Adventure ``pile`` replaced."""
    return replace(state, treasure=pile) if deck == "treasure" else replace(state, adventure=pile)
