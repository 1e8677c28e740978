"""7 Seize's round, phase by phase: squabble for Captain, divvy, seize, swab, next round.

Each handler takes a state and an action already known to be of its type, checks it
against the rules and returns ``(new_state, events)``; anything illegal raises
:class:`IllegalAction` before a new state exists. Automatic steps (a Lookout's seize,
the Number cards' round and round, the swab) run on their own until the game needs a
decision from someone, which is then held in ``state.pending``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from companion.games.base import Event, IllegalAction, event, get_field, get_player
from companion.games.seven_seize.cards import (
    ALL_CARDS,
    FACE_RANKS,
    RANKS,
    ROLES,
    card_label,
    card_name,
    colour_of,
    order_by_suit,
    parse_card,
    rank_of,
    seize_rank,
    squabble_value,
    suit_rank,
)
from companion.games.seven_seize.state import (
    DIVVY,
    DRAW,
    OVER,
    PIECES_PER_ROUND,
    ROUNDS,
    SEIZE,
    SQUABBLE,
    WEIGHOFF,
    Pending,
    RoundRecord,
    SeizeState,
)
from companion.games.seven_seize.weighoff import GRAMS, PIPS, WeighOff

# -- who may reveal, and which cards are still out ----------------------------------------------


def table_cards(state: SeizeState) -> tuple[str, ...]:
    """Cards face up on the table now (revealed this phase, not yet discarded)."""
    cards = state.squabble_cards if state.phase == SQUABBLE else state.seize_cards if state.phase == SEIZE else ()
    return tuple(c for c in cards if c)


def cards_still_out(state: SeizeState) -> tuple[str, ...]:
    """Cards not seen since the last reshuffle: in hands or in the draw deck."""
    seen = set(state.deck.discard) | set(table_cards(state))
    return tuple(c for c in ALL_CARDS if c not in seen)


def revealing(state: SeizeState) -> tuple[int, ...]:
    """Seats whose card for this phase is still face down (empty once all are revealed)."""
    if state.pending is not None:
        return ()
    if state.phase == SQUABBLE:
        return tuple(i for i, c in enumerate(state.squabble_cards) if c is None)
    if state.phase == SEIZE:
        return tuple(i for i, c in enumerate(state.seize_cards) if c is None)
    return ()


def reveal(state: SeizeState, action: Mapping[str, Any]) -> tuple[SeizeState, list[Event]]:
    """A player (or the Interloper) reveals a card."""
    if state.phase not in (SQUABBLE, SEIZE) or not revealing(state):
        raise IllegalAction("no cards are being revealed now")
    names = state.players if state.phase == SQUABBLE else state.seats
    name = get_player(action, names)
    seat = names.index(name)
    card = parse_card(get_field(action, "card", str))
    cards = state.squabble_cards if state.phase == SQUABBLE else state.seize_cards
    already = cards[seat]
    if already is not None:
        raise IllegalAction(f"{name} has already revealed the {card_name(already)}; undo to change it")
    if card in state.deck.discard:
        raise IllegalAction(f"the {card_name(card)} is in the discard pile; check the card")
    holder = next((names[i] for i, c in enumerate(cards) if c == card), None)
    if holder is not None:
        raise IllegalAction(f"{holder} already revealed the {card_name(card)}; check the card")
    cards = (*cards[:seat], card, *cards[seat + 1 :])
    what = "for Captain" if state.phase == SQUABBLE else "to seize"
    events = [
        event("revealed", f"{name} reveals the {card_name(card)} {what}.", player=name, card=card, phase=state.phase)
    ]
    if state.phase == SQUABBLE:
        state = replace(state, squabble_cards=cards)
        if all(cards):
            state = _squabble(state, events)
        return state, events
    state = replace(state, seize_cards=cards)
    if all(cards):
        state = run_seize(state, events)
    return state, events


# -- squabble for Captain ------------------------------------------------------------------------


def _squabble(state: SeizeState, events: list[Event]) -> SeizeState:
    cards = {i: c for i, c in enumerate(state.squabble_cards) if c}
    best = max(squabble_value(c) for c in cards.values())
    tied = [i for i, c in cards.items() if squabble_value(c) == best]
    if len(tied) == 1:
        return _make_captain(state, tied[0], f"with the highest card ({best})", events)
    names = _and([state.players[i] for i in tied])
    if state.round == 1 or state.settings.squabble_tie == "suit":
        by_suit = order_by_suit({i: cards[i] for i in tied})
        top_suit = suit_rank(cards[by_suit[0]])
        same = [i for i in by_suit if suit_rank(cards[i]) == top_suit]
        if len(same) == 1:
            return _make_captain(state, same[0], f"({names} tied at {best}; the suit decides)", events)
        if state.settings.squabble_face_tie == "rank":
            winner = min(same, key=lambda i: seize_rank(cards[i]))
            why = f"({names} tied at {best} in one suit; the rank decides)"
        else:
            winner = min(same)
            why = f"({names} tied at {best} in one suit; the earlier seat decides)"
        return _make_captain(state, winner, why, events)
    chooser = state.players[state.captain] if state.captain is not None else ""
    events.append(
        event(
            "captain_tie",
            f"{names} tie at {best}: {chooser}, the previous Captain, chooses the new Captain among them.",
            tied=[state.players[i] for i in tied],
            chooser=chooser,
        )
    )
    return replace(state, pending=Pending("captain", seats=tuple(tied)))


def choose_captain(state: SeizeState, action: Mapping[str, Any]) -> tuple[SeizeState, list[Event]]:
    """The previous Captain settles a tie for Captain."""
    pending = _expect(state, "captain")
    assert state.captain is not None
    _check_decider(state, action, state.captain)
    chosen = get_player(action, state.players, "captain")
    seat = state.players.index(chosen)
    if seat not in pending.seats:
        raise IllegalAction(
            f"{chosen} did not tie for Captain; choose {_and([state.players[i] for i in pending.seats])}"
        )
    events: list[Event] = []
    state = _make_captain(replace(state, pending=None), seat, f"(chosen by {state.players[state.captain]})", events)
    return state, events


def _make_captain(state: SeizeState, seat: int, why: str, events: list[Event]) -> SeizeState:
    name = state.players[seat]
    events.append(
        event(
            "captain",
            f"{name} is Captain {why}. Discard the revealed cards; {name} takes the bag and "
            f"divvies {PIECES_PER_ROUND} pieces between the Red and Black stashes.",
            player=name,
        )
    )
    deck = state.deck.discard_cards(c for c in state.squabble_cards if c)
    return replace(state, previous_captain=state.captain, captain=seat, phase=DIVVY, deck=deck)


# -- divvy --------------------------------------------------------------------------------------


def divvy(state: SeizeState, action: Mapping[str, Any]) -> tuple[SeizeState, list[Event]]:
    """The Captain splits 7 pieces from the bag between the Red and Black stashes."""
    if state.phase != DIVVY:
        raise IllegalAction("the booty is divvied only after the Captain is chosen")
    assert state.captain is not None
    _check_decider(state, action, state.captain)
    red = get_field(action, "red", int, optional=True)
    black = get_field(action, "black", int, optional=True)
    if red is None and black is None:
        raise IllegalAction('say how many pieces go on each stash, e.g. {"red": 3, "black": 4}')
    if red is None:
        red = PIECES_PER_ROUND - black
    if black is None:
        black = PIECES_PER_ROUND - red
    if red + black != PIECES_PER_ROUND:
        raise IllegalAction(f"the Captain divvies exactly {PIECES_PER_ROUND} pieces, not {red + black}")
    if red < 1 or black < 1:
        raise IllegalAction("each stash must get at least 1 piece")
    captain = state.players[state.captain]
    events = [
        event(
            "divvied",
            f"{captain} divvies {red} to the Red stash and {black} to the Black stash.",
            player=captain,
            red=red,
            black=black,
        )
    ]
    state = replace(state, bag=state.bag - PIECES_PER_ROUND, red=red, black=black, divvied=(red, black), phase=SEIZE)
    if state.interloper is not None:
        assert state.non_captain is not None
        who = state.players[state.non_captain]
        deck, reshuffles = state.deck.take(1)
        events.append(
            event("interloper_card", f"{who} puts the top card of the deck face down for the Interloper.", player=who)
        )
        _reshuffle_events(reshuffles, events)
        state = replace(state, deck=deck)
    return state, events


# -- seize --------------------------------------------------------------------------------------


def acting_order(state: SeizeState) -> tuple[list[int], tuple[int, ...] | None]:
    """The seats in seize order as far as it is settled, and the first tied group not yet ordered."""
    by_rank: dict[int, list[int]] = {}
    for seat, card in enumerate(state.seize_cards):
        if card:
            by_rank.setdefault(seize_rank(card), []).append(seat)
    order: list[int] = []
    for rank in range(len(RANKS)):
        members = by_rank.get(rank, [])
        if len(members) <= 1:
            order += members
        elif state.settings.seize_tie == "suit":
            order += order_by_suit({s: state.seize_cards[s] for s in members})  # type: ignore[misc]
        else:
            decided = next((o for o in state.orders if set(o) == set(members)), None)
            if decided is None:
                return order, tuple(members)
            order += decided
    return order, None


def face_actors(state: SeizeState) -> int:
    """How many seats revealed a face card (they act before the Number cards)."""
    return sum(1 for c in state.seize_cards if c and rank_of(c) in FACE_RANKS)


def run_seize(state: SeizeState, events: list[Event]) -> SeizeState:
    """Play the seize phase on until someone must decide, or it ends with the swab."""
    while state.pending is None and state.phase == SEIZE:
        order, missing = acting_order(state)
        faces = face_actors(state)
        if state.pos < faces:
            if state.pos >= len(order):
                assert missing is not None
                state = _ask_order(state, missing, events)
                continue
            seat = order[state.pos]
            state = _act_face(replace(state, pos=state.pos + 1), seat, events)
            continue
        if missing is not None:
            state = _ask_order(state, missing, events)
            continue
        numbers = order[faces:]
        if not numbers or all(state.stash(_colour(state, s)) == 0 for s in numbers):
            state = _swab(state, order, events)
            continue
        seat = numbers[(state.pos - faces) % len(numbers)]
        state = replace(state, pos=state.pos + 1)
        colour = _colour(state, seat)
        if state.stash(colour) > 0:
            state = _seize(state, seat, colour, 1, events)
    return state


def _ask_order(state: SeizeState, seats: tuple[int, ...], events: list[Event]) -> SeizeState:
    assert state.captain is not None
    rank = rank_of(state.seize_cards[seats[0]] or "")
    names = _and([state.seats[s] for s in seats])
    events.append(
        event(
            "order_tie",
            f"{names} revealed the same rank ({rank}): Captain "
            f"{state.players[state.captain]} sets the order they act in.",
            tied=[state.seats[s] for s in seats],
        )
    )
    return replace(state, pending=Pending("order", seats=seats))


def _act_face(state: SeizeState, seat: int, events: list[Event]) -> SeizeState:
    card = state.seize_cards[seat]
    assert card is not None
    rank, colour, name = rank_of(card), colour_of(card), state.seats[seat]
    stash = state.stash(colour)
    role = f"{name}'s {ROLES[rank]} ({card_label(card)})"
    if rank == "Q":
        if not strumpet_options(state, seat):
            events.append(event("nothing", f"{role} finds nothing to seize or steal.", player=name))
            return state
        return replace(state, pending=Pending("strumpet", seat=seat, stash=colour))
    if stash == 0:
        events.append(event("nothing", f"{role}: the {colour.title()} stash is empty; nothing to seize.", player=name))
        return state
    if rank == "A":
        return _seize(state, seat, colour, 1, events, who=role)
    if rank == "J":
        return _seize(state, seat, colour, min(2, stash), events, who=role)
    # The Quartermaster seizes the whole stash, then returns as many pieces.
    before = state.collections[seat]
    state = _seize(state, seat, colour, stash, events, who=role, pick=False)
    back = stash if state.settings.quartermaster_return == "whole_collection" else min(stash, before)
    if back == 0:
        events.append(event("nothing", f"{name} held no booty before, so returns none.", player=name))
        return state
    return replace(state, pending=Pending("quartermaster", seat=seat, amount=back, stash=colour))


def _seize(
    state: SeizeState, seat: int, colour: str, count: int, events: list[Event], *, who: str = "", pick: bool = True
) -> SeizeState:
    name = state.seats[seat]
    collections = _add(state.collections, seat, count)
    red = state.red - count if colour == "red" else state.red
    black = state.black - count if colour == "black" else state.black
    text = f"{who or name} seizes {_pieces(count)} from the {colour.title()} stash."
    events.append(event("seized", text, player=name, stash=colour, pieces=count))
    state = replace(state, collections=collections, red=red, black=black)
    if pick and seat == state.interloper and count > 0:
        state = replace(state, pending=Pending("pick", seat=seat, amount=count, stash=colour))
    return state


def strumpet_options(state: SeizeState, seat: int) -> list[int | None]:
    """What a Strumpet may do: ``None`` to seize 1 from her stash, or a seat to steal 1 from."""
    card = state.seize_cards[seat]
    assert card is not None
    colour = colour_of(card)
    options: list[int | None] = [None] if state.stash(colour) > 0 else []
    for other, other_card in enumerate(state.seize_cards):
        if other == seat or other_card is None or state.collections[other] == 0:
            continue
        if state.settings.strumpet_steal == "any_player" or colour_of(other_card) == colour:
            options.append(other)
    return options


def set_order(state: SeizeState, action: Mapping[str, Any]) -> tuple[SeizeState, list[Event]]:
    """The Captain orders players who revealed the same rank."""
    pending = _expect(state, "order")
    assert state.captain is not None
    _check_decider(state, action, state.captain)
    given = get_field(action, "order", list)
    if not all(isinstance(item, str) for item in given):
        raise IllegalAction('"order" is a list of names, first to act first')
    seats = [state.seats.index(get_player({"type": "order", "player": item}, state.seats)) for item in given]
    if sorted(seats) != sorted(pending.seats) or len(set(seats)) != len(seats):
        raise IllegalAction(f"put exactly {_and([state.seats[s] for s in pending.seats])} in order, each once")
    events = [
        event(
            "order",
            f"Captain {state.players[state.captain]} sets the order: {', '.join(state.seats[s] for s in seats)}.",
            order=[state.seats[s] for s in seats],
        )
    ]
    state = replace(state, pending=None, orders=(*state.orders, tuple(seats)))
    return run_seize(state, events), events


def quartermaster(state: SeizeState, action: Mapping[str, Any]) -> tuple[SeizeState, list[Event]]:
    """The Quartermaster (or the non-Captain, for the Interloper) has returned the pieces."""
    pending = _expect(state, "quartermaster")
    _check_decider(state, action, state.decider(pending.seat))
    _check_for(state, action, pending.seat)
    returned = get_field(action, "returned", int, optional=True)
    if returned is not None and returned != pending.amount:
        raise IllegalAction(f"the Quartermaster returns exactly {_pieces(pending.amount)}, not {returned}")
    name = state.seats[pending.seat]
    chooser = (
        ""
        if state.decider(pending.seat) == pending.seat
        else f" (chosen by {state.players[state.decider(pending.seat)]})"
    )
    events = [
        event(
            "returned",
            f"{name} returns {_pieces(pending.amount)} to the {pending.stash.title()} stash{chooser}.",
            player=name,
            stash=pending.stash,
            pieces=pending.amount,
        )
    ]
    collections = _add(state.collections, pending.seat, -pending.amount)
    red = state.red + pending.amount if pending.stash == "red" else state.red
    black = state.black + pending.amount if pending.stash == "black" else state.black
    state = replace(state, collections=collections, red=red, black=black, pending=None)
    return run_seize(state, events), events


def strumpet(state: SeizeState, action: Mapping[str, Any]) -> tuple[SeizeState, list[Event]]:
    """The Strumpet seizes 1 from her stash or steals 1 from a player."""
    pending = _expect(state, "strumpet")
    _check_decider(state, action, state.decider(pending.seat))
    _check_for(state, action, pending.seat)
    choice = get_field(action, "choice", str)
    options = strumpet_options(state, pending.seat)
    name = state.seats[pending.seat]
    events: list[Event] = []
    if choice == "seize":
        if None not in options:
            raise IllegalAction(f"the {pending.stash.title()} stash is empty: {name} can only steal")
        state = _seize(
            replace(state, pending=None), pending.seat, pending.stash, 1, events, who=f"{name}'s Strumpet", pick=False
        )
    elif choice == "steal":
        victim = state.seats.index(get_player(action, state.seats, "victim"))
        if victim not in options:
            raise IllegalAction(
                f"{name} cannot steal from {state.seats[victim]}; {_options_words(state, pending.seat, options)}"
            )
        collections = _add(_add(state.collections, victim, -1), pending.seat, 1)
        events.append(
            event(
                "stole",
                f"{name}'s Strumpet steals 1 piece from {state.seats[victim]}.",
                player=name,
                victim=state.seats[victim],
            )
        )
        state = replace(state, collections=collections, pending=None)
    else:
        raise IllegalAction('the Strumpet\'s "choice" is "seize" or "steal" (with a "victim")')
    return run_seize(state, events), events


def pick(state: SeizeState, action: Mapping[str, Any]) -> tuple[SeizeState, list[Event]]:
    """The non-Captain has picked the Interloper's pieces."""
    pending = _expect(state, "pick")
    _check_decider(state, action, state.decider(pending.seat))
    _check_for(state, action, pending.seat)
    pieces = get_field(action, "pieces", int, optional=True)
    if pieces is not None and pieces != pending.amount:
        raise IllegalAction(f"the Interloper seizes {_pieces(pending.amount)} here, not {pieces}")
    stash = get_field(action, "stash", str, optional=True)
    if stash is not None and stash.lower() != pending.stash:
        raise IllegalAction(f"the Interloper seizes from the {pending.stash.title()} stash")
    who = state.players[state.decider(pending.seat)]
    events = [
        event(
            "picked",
            f"{who} picks {_pieces(pending.amount)} from the {pending.stash.title()} stash for the Interloper.",
            player=who,
            pieces=pending.amount,
            stash=pending.stash,
        )
    ]
    return run_seize(replace(state, pending=None), events), events


# -- swab, and the next round or the weigh-off ---------------------------------------------------


def _swab(state: SeizeState, order: list[int], events: list[Event]) -> SeizeState:
    first = order[0]
    left = state.red + state.black
    name = state.seats[first]
    if left:
        events.append(
            event(
                "swab",
                f"Swab the deck: {name} acted first and takes the {_pieces(left)} left in the stashes.",
                player=name,
                pieces=left,
            )
        )
    state = replace(state, collections=_add(state.collections, first, left), red=0, black=0)
    assert state.captain is not None
    record = RoundRecord(
        round=state.round,
        captain=state.captain,
        squabble=state.squabble_cards,
        seize=state.seize_cards,
        red=state.divvied[0],
        black=state.divvied[1],
        order=tuple(order),
        gained=tuple(c - s for c, s in zip(state.collections, state.start, strict=False)),
    )
    deck = state.deck.discard_cards(c for c in state.seize_cards if c)
    state = replace(state, deck=deck, history=(*state.history, record))
    if state.round >= ROUNDS:
        return start_weighoff(state, events)
    deck, reshuffles = state.deck.take(DRAW * len(state.players))
    events.append(
        event(
            "round",
            f"Round {state.round} is over. Everyone keeps their last card and draws {DRAW}. "
            f"Round {state.round + 1}: squabble for Captain.",
            round=state.round + 1,
        )
    )
    _reshuffle_events(reshuffles, events)
    n = len(state.seats)
    return replace(
        state,
        deck=deck,
        round=state.round + 1,
        phase=SQUABBLE,
        squabble_cards=(None,) * len(state.players),
        seize_cards=(None,) * n,
        divvied=(0, 0),
        orders=(),
        pos=0,
        start=state.collections,
    )


def contestants(state: SeizeState) -> tuple[str, ...]:
    """Who takes part in the weigh-off: every player, and the Interloper if the house rule says so."""
    if state.interloper is not None and not state.settings.interloper_weighs:
        return state.players
    return state.seats


def start_weighoff(state: SeizeState, events: list[Event]) -> SeizeState:
    """All booty is seized: set up the weigh-off."""
    names = contestants(state)
    s = state.settings
    weighoff, caused = WeighOff.start(
        names,
        [state.collections[state.seats.index(n)] for n in names],
        pans=2 if s.balance == "two_pans" else 1,
        cursed=s.cursed,
        confidence=s.tie_confidence,
        unit=PIPS if s.booty == "dominoes" else GRAMS,
        pieces_return=s.tie_pieces == "return",
    )
    events.extend(caused)
    return replace(
        state,
        phase=OVER if weighoff.done else WEIGHOFF,
        weighoff=weighoff,
        squabble_cards=(None,) * len(state.players),
        seize_cards=(None,) * len(state.seats),
    )


# -- helpers ------------------------------------------------------------------------------------


def _expect(state: SeizeState, kind: str) -> Pending:
    if state.pending is None or state.pending.kind != kind:
        raise IllegalAction(f"there is no {kind} decision to make now")
    return state.pending


def _check_decider(state: SeizeState, action: Mapping[str, Any], seat: int) -> None:
    name = get_player(action, state.seats)
    if name != state.players[seat]:
        raise IllegalAction(f"that is {state.players[seat]}'s decision, not {name}'s")


def _check_for(state: SeizeState, action: Mapping[str, Any], seat: int) -> None:
    on_behalf = get_field(action, "for", str, optional=True)
    if on_behalf is not None and on_behalf.strip().casefold() != state.seats[seat].casefold():
        raise IllegalAction(f"this decision is for {state.seats[seat]}, not {on_behalf}")


def _colour(state: SeizeState, seat: int) -> str:
    card = state.seize_cards[seat]
    assert card is not None
    return colour_of(card)


def _add(values: tuple[int, ...], i: int, amount: int) -> tuple[int, ...]:
    return (*values[:i], values[i] + amount, *values[i + 1 :])


def _reshuffle_events(sizes: list[int], events: list[Event]) -> None:
    for size in sizes:
        events.append(
            event(
                "reshuffle",
                f"The draw deck is empty: shuffle the {size} discarded cards into a new draw deck.",
                cards=size,
            )
        )


def _options_words(state: SeizeState, seat: int, options: list[int | None]) -> str:
    words = ["seize 1" if o is None else f"steal from {state.seats[o]}" for o in options]
    return "choose: " + ", ".join(words)


def _pieces(n: int) -> str:
    return f"{n} piece{'s' * (n != 1)}"


def _and(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
