"""The engine protocol for Scallywagger: initial_state, apply, legal_actions, summary."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from companion.games.base import (
    ConfigError,
    Event,
    IllegalAction,
    PrivateView,
    Rule,
    Summary,
    action_type,
    check_players,
    event,
    get_field,
    get_player,
    shown,
)
from companion.games.scallywagger.bids import (
    ONES_BIDS,
    RAISE_RULES,
    Bid,
    BidRules,
    Reveal,
    are_no_dice,
    bid_words,
    dice_word,
    legal_bids,
    refusal,
    reveal_from_action,
)
from companion.games.scallywagger.cards import DECKS, CardDef, build_catalogue, discard, draw, find_card, new_pile
from companion.games.scallywagger.state import (
    Challenge,
    Held,
    ScallywaggerState,
    Settings,
    after_losses,
    card_names,
    change_crew,
    clockwise_from,
    next_alive,
    set_pile,
    usable,
)

NAME = "scallywagger"
TITLE = "Scallywagger"
MIN_PLAYERS = 2
MAX_PLAYERS = 8

RULES: tuple[Rule, ...] = (
    Rule("crewmates", 5, "dice (Crewmates) each Captain starts with", minimum=1, maximum=20),
    Rule(
        "first_captain",
        "ask",
        "who takes the Treasure Token first: ask = the table rolls off and names the winner, "
        "random = Purser picks, first_seat = the first player listed",
        choices=("ask", "random", "first_seat"),
    ),
    Rule(
        "raise_rule",
        "any_face",
        "a raise is more dice of any face, or the same number of a higher face (any_face); "
        "or the face may never go down (no_lower_face)",
        choices=RAISE_RULES,
    ),
    Rule(
        "ones_bids",
        "lowest_face",
        "bids on 1s: 1 is the lowest face, so a bid on 1s must raise the number of dice "
        "(lowest_face); no bids on 1s at all (never); Perudo aces, needs wild_ones (aces)",
        choices=ONES_BIDS,
    ),
    Rule("wild_ones", False, "1s count as the bid face at a reveal (except for a bid on 1s)"),
    Rule(
        "parlay",
        "last_bid",
        "a Parlay says the standing bid is exact (last_bid), or names any quantity and face as exact (any_bid)",
        choices=("last_bid", "any_bid"),
    ),
    Rule(
        "treasure_cards",
        ("Treasure:20",),
        "the Treasure deck, one NAME:COPIES[:EFFECT[:KIND]] per card, e.g. "
        "Rum Barrel:3:self+1,Spyglass:2:none:lasting (empty: no deck)",
    ),
    Rule(
        "adventure_cards",
        ("Adventure:20",),
        "the Adventure deck, one NAME:COPIES[:EFFECT] per card, e.g. Kraken:2:others-1 (empty: no deck)",
    ),
    Rule("max_crewmates", 0, "the most crewmates a card can bring a Captain to (0: no limit)", minimum=0, maximum=99),
)

ACTIONS_HELP = """\
Scallywagger actions (players listed clockwise; the token holder opens the bidding):
  {"type": "first_captain", "player": "Ana"}                 the roll-off winner takes the Treasure Token
  {"type": "use", "player": "Ana", "card": "Rum Barrel"}     use a Treasure card (add "target": "Ben" if it names one)
  {"type": "pass", "player": "Ana"}                          decline to use a card (or to take an optional draw)
  {"type": "bid", "player": "Ana", "quantity": 3, "face": 2} at least three 2s on the table
  {"type": "call", "player": "Ben"}                          call out the Scallywagger: the bid is false
  {"type": "parlay", "player": "Ben"}                        the bid is exact (parlay=any_bid: add "quantity", "face")
  {"type": "adventure", "player": "Cy"}                      reveal a concealed Adventure card during bidding
  {"type": "adventure", "player": "Cy", "target": "Ana"}     ... and name the Captain it aims at, if it names one
  {"type": "reveal", "from": "camera"}                       count every die on the table with the camera
  {"type": "reveal", "dice": [4, 4, 2, 6, 1, 3]}             ... or type the faces, or {"type": "reveal", "count": 5}
  {"type": "confirm", "die": 3, "value": 4}                  a player confirms a die the camera was unsure of
  {"type": "drop", "die": 7}                                 ... or says it is no die (when the camera saw too many)
  {"type": "add", "value": 5}                                a player adds a die the camera missed, with its face
  {"type": "draw", "player": "Ana", "deck": "treasure"}      draw (add "card": "Map" to name a real card drawn)"""

# -- set-up -------------------------------------------------------------------------------


def _settings(config: Mapping[str, Any]) -> Settings:
    bids = BidRules(
        raise_rule=str(config.get("raise_rule", "any_face")),
        ones_bids=str(config.get("ones_bids", "lowest_face")),
        wild_ones=bool(config.get("wild_ones", False)),
    )
    if bids.ones_bids == "aces" and not bids.wild_ones:
        raise ConfigError("ones_bids=aces is the Perudo rule for wild 1s; also set wild_ones=yes")
    return Settings(
        crewmates=int(config.get("crewmates", 5)),
        first_captain=str(config.get("first_captain", "ask")),
        parlay=str(config.get("parlay", "last_bid")),
        max_crewmates=int(config.get("max_crewmates", 0)),
        bids=bids,
    )


def initial_state(config: Mapping[str, Any], players: Sequence[str], seed: int) -> ScallywaggerState:
    """A new game: decks shuffled, every Captain with their crewmates.

    Raises:
        ConfigError: a bad seating or a bad card list.
    """
    names = check_players(players, MIN_PLAYERS, MAX_PLAYERS, TITLE)
    settings = _settings(config)
    catalogue = build_catalogue(
        config.get("treasure_cards", ("Treasure:20",)), config.get("adventure_cards", ("Adventure:20",))
    )
    n = len(names)
    state = ScallywaggerState(
        players=names,
        seed=seed,
        settings=settings,
        catalogue=catalogue,
        phase="setup",
        turn=1,
        crew=(settings.crewmates,) * n,
        token=0,
        actor=0,
        declined=(),
        bids=(),
        challenge=None,
        reveal=None,
        draw_optional=False,
        hands=((),) * n,
        treasure=new_pile(catalogue, "treasure", seed),
        adventure=new_pile(catalogue, "adventure", seed),
        winner=None,
    )
    if settings.first_captain == "ask":
        return state
    first = random.Random(f"scallywagger:{seed}:first").randrange(n) if settings.first_captain == "random" else 0
    state, _ = _start_turn(replace(state, token=first), [])
    return state


# -- turn flow ----------------------------------------------------------------------------------


def _start_turn(state: ScallywaggerState, events: list[Event]) -> tuple[ScallywaggerState, list[Event]]:
    state = replace(state, phase="treasure", declined=(), bids=(), challenge=None, reveal=None, draw_optional=False)
    return _offer_priority(state, state.token, events)


def _offer_priority(state: ScallywaggerState, start: int, events: list[Event]) -> tuple[ScallywaggerState, list[Event]]:
    """Give priority to the first Captain clockwise from ``start`` who can use a Treasure
    card and has not declined; if there is none, the bidding begins."""
    for seat in clockwise_from(state, start):
        if seat not in state.declined and usable(state, seat, "use"):
            return replace(state, phase="treasure", actor=seat), events
    return _begin_bidding(state, events)


def _begin_bidding(state: ScallywaggerState, events: list[Event]) -> tuple[ScallywaggerState, list[Event]]:
    state = replace(state, phase="bidding", actor=state.token, declined=(), bids=())
    opener = state.players[state.token]
    events.append(
        event(
            "bidding",
            f"Turn {state.turn}: everyone rolls behind their screen; {opener} opens the bidding "
            f"({state.dice_on_table} dice on the table).",
            turn=state.turn,
            opener=opener,
            dice=state.dice_on_table,
        )
    )
    return state, events


def _end_turn(state: ScallywaggerState, events: list[Event]) -> tuple[ScallywaggerState, list[Event]]:
    """Discard the Adventure cards held through this turn, pass the token, start the next."""
    hands = []
    spent: list[int] = []
    for hand in state.hands:
        keep = []
        for held in hand:
            if state.catalogue[held.card].deck == "adventure" and held.drawn < state.turn:
                spent.append(held.card)
            else:
                keep.append(held)
        hands.append(tuple(keep))
    state = replace(state, hands=tuple(hands))
    if spent:
        state = replace(state, adventure=discard(state.adventure, spent))
        events.append(
            event(
                "adventure_discard",
                f"{len(spent)} Adventure card{'s' * (len(spent) != 1)} "
                f"from this turn go{'es' * (len(spent) == 1)} to the discard pile.",
                cards=len(spent),
            )
        )
    token = next_alive(state, state.token)
    events.append(event("token", f"The Treasure Token passes to {state.players[token]}.", player=state.players[token]))
    state = replace(state, token=token, turn=state.turn + 1)
    return _start_turn(state, events)


# -- legal actions --------------------------------------------------------------------------------


def _card_actions(state: ScallywaggerState, seat: int, kind: str) -> list[dict[str, Any]]:
    """Card actions open to ``seat``, as the whole table may see them.

    Treasure cards lie face up, so their uses name the card. A concealed Adventure card
    is never named: its holder may reveal "an Adventure card" (with a target for each
    other Captain still in, if any Adventure card in this game names one), and says
    which card it is by showing it. :func:`private_view` lists the named forms.
    """
    if kind == "adventure":
        return _public_adventure_actions(state, seat)
    return _named_card_actions(state, seat, kind)


def _public_adventure_actions(state: ScallywaggerState, seat: int) -> list[dict[str, Any]]:
    """ "Reveal an Adventure card", without naming it; a card that names a Captain then asks
    its holder for one (:func:`_aim`)."""
    if not usable(state, seat, "adventure"):
        return []
    return [{"type": "adventure", "player": state.players[seat]}]


def _aim_actions(state: ScallywaggerState) -> list[dict[str, Any]]:
    assert state.revealing is not None
    seat, _ = state.revealing
    player = state.players[seat]
    return [
        {"type": "adventure", "player": player, "target": state.players[other]}
        for other in state.alive
        if other != seat
    ]


def _named_card_actions(state: ScallywaggerState, seat: int, kind: str) -> list[dict[str, Any]]:
    player = state.players[seat]
    actions: list[dict[str, Any]] = []
    for name in card_names(state, seat, usable(state, seat, kind)):
        card = state.catalogue[find_card(state.catalogue, name)]  # type: ignore[index]
        if card.needs_target:
            for other in state.alive:
                if other != seat:
                    actions.append({"type": kind, "player": player, "card": name, "target": state.players[other]})
        else:
            actions.append({"type": kind, "player": player, "card": name})
    return actions


def legal_actions(state: ScallywaggerState) -> list[dict[str, Any]]:
    """Every action the table may take now, with bids, counts, dice and targets enumerated.

    Bids run up to the dice on the table; a reveal lists the camera and every count.
    """
    phase = state.phase
    if phase == "over":
        return []
    if phase == "setup":
        return [{"type": "first_captain", "player": p} for p in state.players]
    if state.revealing is not None:
        return _aim_actions(state)
    actor = state.players[state.actor]
    if phase == "treasure":
        return [*_card_actions(state, state.actor, "use"), {"type": "pass", "player": actor}]
    if phase == "bidding":
        actions = [
            {"type": "bid", "player": actor, "quantity": q, "face": f}
            for q, f in legal_bids(state.bid, state.dice_on_table, state.settings.bids)
        ]
        if state.bid is not None:
            actions.append({"type": "call", "player": actor})
            if state.settings.parlay == "last_bid":
                actions.append({"type": "parlay", "player": actor})
            else:
                actions.extend(
                    {"type": "parlay", "player": actor, "quantity": q, "face": f}
                    for f in range(1, 7)
                    for q in range(1, state.dice_on_table + 1)
                    if _parlay_refusal(state, q, f) is None
                )
        for seat in state.alive:
            actions.extend(_card_actions(state, seat, "adventure"))
            actions.extend(_card_actions(state, seat, "use"))
        return actions
    if phase == "reveal":
        return [{"type": "reveal", "from": "camera"}] + [
            {"type": "reveal", "count": n} for n in range(state.dice_on_table + 1)
        ]
    if phase == "confirm":
        assert state.reveal is not None
        reveal = state.reveal
        confirms = [{"type": "confirm", "die": i, "value": v} for i in reveal.unsure for v in range(1, 7)]
        drops = [{"type": "drop", "die": i} for i in reveal.unsure]
        adds = [{"type": "add", "value": v} for v in range(1, 7)] if reveal.missing else []
        return (confirms if reveal.may_confirm else []) + (drops if reveal.may_drop else []) + adds
    # draw
    actions = [{"type": "draw", "player": actor, "deck": deck} for deck in DECKS if not state.pile(deck).empty]
    if state.draw_optional:
        actions.append({"type": "pass", "player": actor})
    return actions


def _parlay_refusal(state: ScallywaggerState, quantity: int, face: int) -> str | None:
    if face not in range(1, 7):
        return f"a die has faces 1 to 6; there is no {face}"
    if not 1 <= quantity <= state.dice_on_table:
        return f"a Parlay names 1 to {state.dice_on_table} dice (the dice on the table)"
    if face == 1 and state.settings.bids.ones_bids == "never":
        return "bids on 1s are not allowed at this table (house rule ones_bids=never)"
    return None


# -- applying -----------------------------------------------------------------------------------------


def apply(state: ScallywaggerState, action: Mapping[str, Any]) -> tuple[ScallywaggerState, list[Event]]:
    """Apply one action; returns the new state and its events.

    Raises:
        IllegalAction: out of turn, an illegal raise, a malformed action or reveal.
    """
    kind = action_type(action)
    if state.phase == "over":
        raise IllegalAction("the game is over")
    if "from" in action:
        raise IllegalAction(f"take the measurement first: this action asks for the {shown(action['from'])}")
    handler = _HANDLERS.get(kind)
    if handler is None:
        names = ", ".join(sorted(_HANDLERS))
        raise IllegalAction(f"{TITLE} has no {shown(kind)} action (it has {names})")
    if state.revealing is not None and kind != "adventure":
        holder, pos = state.revealing
        name = state.catalogue[state.hands[holder][pos].card].name
        raise IllegalAction(f"first, {state.players[holder]} names the Captain {name} aims at")
    return handler(state, action)


def _phase_words(state: ScallywaggerState) -> str:
    return {
        "setup": "the table first names who won the roll-off for the Treasure Token",
        "treasure": f"{state.players[state.actor]} has priority to use a Treasure card or pass",
        "bidding": f"it is {state.players[state.actor]}'s turn to bid",
        "reveal": "the dice must be revealed and counted",
        "confirm": "dice the camera was unsure of must be confirmed, and those it missed added",
        "draw": f"{state.players[state.actor]} must draw a card",
    }.get(state.phase, "the game is over")


def _need_phase(state: ScallywaggerState, *phases: str) -> None:
    if state.phase not in phases:
        raise IllegalAction(f"not now: {_phase_words(state)}")


def _need_actor(state: ScallywaggerState, action: Mapping[str, Any]) -> int:
    player = get_player(action, state.players)
    seat = state.players.index(player)
    if seat != state.actor:
        raise IllegalAction(f"not {player}'s turn: {_phase_words(state)}")
    return seat


def _first_captain(state: ScallywaggerState, action: Mapping[str, Any]) -> tuple[ScallywaggerState, list[Event]]:
    _need_phase(state, "setup")
    player = get_player(action, state.players)
    seat = state.players.index(player)
    events = [event("first_captain", f"{player} wins the roll-off and takes the Treasure Token.", player=player)]
    return _start_turn(replace(state, token=seat, actor=seat), events)


def _pass(state: ScallywaggerState, action: Mapping[str, Any]) -> tuple[ScallywaggerState, list[Event]]:
    _need_phase(state, "treasure", "draw")
    seat = _need_actor(state, action)
    player = state.players[seat]
    if state.phase == "draw":
        if not state.draw_optional:
            raise IllegalAction(f"{player} must draw a card from the Treasure or the Adventure deck")
        return _end_turn(state, [event("no_draw", f"{player} chooses not to draw.", player=player)])
    events = [event("pass", f"{player} declines to use a Treasure card.", player=player)]
    state = replace(state, declined=(*state.declined, seat))
    return _offer_priority(state, (seat + 1) % len(state.players), events)


def _only_adventure_card(state: ScallywaggerState, seat: int) -> int:
    """The hand position of the one Adventure card ``seat`` may reveal now (no card named).

    Raises:
        IllegalAction: none to reveal, or different ones (the action must name the card shown).
    """
    positions = usable(state, seat, "adventure")
    player = state.players[seat]
    if not positions:
        raise IllegalAction(
            f"{player} has no concealed Adventure card to reveal now "
            "(one is revealed in the bidding round after it was drawn)"
        )
    if len(card_names(state, seat, positions)) > 1:
        raise IllegalAction(f'{player} holds {len(positions)} concealed Adventure cards: add the "card" that is shown')
    return positions[0]


def _held_card(state: ScallywaggerState, seat: int, action: Mapping[str, Any], kind: str) -> int:
    """The hand position of the usable card the action names."""
    name = get_field(action, "card", str)
    index = find_card(state.catalogue, name)
    player = state.players[seat]
    words = "an Adventure card" if kind == "adventure" else "a Treasure card"
    if index is None:
        raise IllegalAction(f"there is no card called {shown(name)} in this game")
    for pos in usable(state, seat, kind):
        if state.hands[seat][pos].card == index:
            return pos
    if any(h.card == index for h in state.hands[seat]):
        card = state.catalogue[index]
        if (card.deck == "adventure") != (kind == "adventure"):
            how = ("an Adventure", '"adventure"') if card.deck == "adventure" else ("a Treasure", '"use"')
            raise IllegalAction(f"{card.name} is {how[0]} card: play it with the {how[1]} action")
        if kind == "adventure":
            when = "during the bidding round after it was drawn, once"
        elif card.kind == "lasting" and not card.has_effect:
            when = "never: it stays in play and the table applies it"
        elif card.kind == "lasting":
            when = "once a turn, before bidding"
        elif card.kind == "anytime":
            when = "before or during bidding"
        else:
            when = "before bidding"
        raise IllegalAction(f"{player} cannot use {card.name} now ({card.name} is used {when})")
    raise IllegalAction(f"{player} does not hold {words} called {shown(name)}")


def _target(state: ScallywaggerState, seat: int, card: CardDef, action: Mapping[str, Any]) -> int | None:
    if not card.needs_target:
        if action.get("target") is not None:
            raise IllegalAction(f"{card.name} does not name a Captain: leave out the target")
        return None
    target = get_player(action, state.players, "target")
    t = state.players.index(target)
    if t == seat:
        raise IllegalAction(f"{card.name} names another Captain, not its holder")
    if state.crew[t] == 0:
        raise IllegalAction(f"{target} is out of the game")
    return t


def _apply_effect(
    state: ScallywaggerState, seat: int, card: CardDef, target: int | None, events: list[Event]
) -> ScallywaggerState:
    if card.who == "self":
        seats = [seat]
    elif card.who == "target":
        seats = [target] if target is not None else []
    elif card.who == "others":
        seats = [s for s in state.alive if s != seat]
    else:
        return state
    for s in seats:
        state = change_crew(state, s, card.amount, events)
    return after_losses(state, events)


def _use(state: ScallywaggerState, action: Mapping[str, Any]) -> tuple[ScallywaggerState, list[Event]]:
    _need_phase(state, "treasure", "bidding")
    if state.phase == "treasure":
        seat = _need_actor(state, action)
    else:
        seat = state.players.index(get_player(action, state.players))
    pos = _held_card(state, seat, action, "use")
    held = state.hands[seat][pos]
    card = state.catalogue[held.card]
    target = _target(state, seat, card, action)
    player = state.players[seat]
    on = f" on {state.players[target]}" if target is not None else ""
    events = [
        event(
            "use",
            f"{player} uses {card.name}{on}: {card.effect_words()}.",
            player=player,
            card=card.name,
            target=state.players[target] if target is not None else None,
        )
    ]
    hand = list(state.hands[seat])
    if card.kind == "lasting":
        hand[pos] = replace(held, used=state.turn)
    else:
        del hand[pos]
        state = replace(state, treasure=discard(state.treasure, [held.card]))
    hands = list(state.hands)
    hands[seat] = tuple(hand)
    phase = state.phase
    state = _apply_effect(replace(state, hands=tuple(hands)), seat, card, target, events)
    if state.phase == "over" or phase == "bidding":
        return state, events
    # A use starts the round of priority again, from the next Captain clockwise.
    return _offer_priority(replace(state, declined=()), (seat + 1) % len(state.players), events)


def _adventure(state: ScallywaggerState, action: Mapping[str, Any]) -> tuple[ScallywaggerState, list[Event]]:
    _need_phase(state, "bidding")
    seat = state.players.index(get_player(action, state.players))
    if state.revealing is not None:
        return _aim(state, seat, action)
    if action.get("card") is None:
        pos = _only_adventure_card(state, seat)
    else:
        pos = _held_card(state, seat, action, "adventure")
    held = state.hands[seat][pos]
    card = state.catalogue[held.card]
    player = state.players[seat]
    if card.needs_target and action.get("target") is None:
        # shown before its target is named: the holder names one next
        hand = list(state.hands[seat])
        hand[pos] = replace(held, used=state.turn)
        hands = list(state.hands)
        hands[seat] = tuple(hand)
        events = [
            event(
                "adventure_shown",
                f"{player} reveals the Adventure card {card.name} ({card.effect_words()}): "
                f"{player} names the Captain it aims at.",
                player=player,
                card=card.name,
            )
        ]
        return replace(state, hands=tuple(hands), revealing=(seat, pos)), events
    target = _target(state, seat, card, action)
    on = f" on {state.players[target]}" if target is not None else ""
    events = [
        event(
            "adventure",
            f"{player} reveals the Adventure card {card.name}{on}: {card.effect_words()}.",
            player=player,
            card=card.name,
            target=state.players[target] if target is not None else None,
        )
    ]
    hand = list(state.hands[seat])
    hand[pos] = replace(held, used=state.turn)
    hands = list(state.hands)
    hands[seat] = tuple(hand)
    return _apply_effect(replace(state, hands=tuple(hands)), seat, card, target, events), events


def _aim(state: ScallywaggerState, seat: int, action: Mapping[str, Any]) -> tuple[ScallywaggerState, list[Event]]:
    """The holder of an Adventure card just shown names the Captain it aims at."""
    assert state.revealing is not None
    holder, pos = state.revealing
    card = state.catalogue[state.hands[holder][pos].card]
    if seat != holder:
        raise IllegalAction(f"first, {state.players[holder]} names the Captain {card.name} aims at")
    if action.get("target") is None:
        raise IllegalAction(f'{card.name} names a Captain: add the "target"')
    target = _target(state, seat, card, action)
    assert target is not None
    player, aimed = state.players[seat], state.players[target]
    events = [
        event(
            "adventure",
            f"{player}'s {card.name} aims at {aimed}: {card.effect_words()}.",
            player=player,
            card=card.name,
            target=aimed,
        )
    ]
    return _apply_effect(replace(state, revealing=None), seat, card, target, events), events


def _quantity_face(action: Mapping[str, Any]) -> tuple[int, int]:
    return get_field(action, "quantity", int), get_field(action, "face", int)


def _bid(state: ScallywaggerState, action: Mapping[str, Any]) -> tuple[ScallywaggerState, list[Event]]:
    _need_phase(state, "bidding")
    seat = _need_actor(state, action)
    quantity, face = _quantity_face(action)
    why = refusal(state.bid, quantity, face, state.dice_on_table, state.settings.bids)
    if why is not None:
        raise IllegalAction(why)
    bid = Bid(seat, quantity, face)
    player = state.players[seat]
    events = [event("bid", f"{player} bids {bid.words()}.", player=player, quantity=quantity, face=face)]
    return replace(state, bids=(*state.bids, bid), actor=next_alive(state, seat)), events


def _call(state: ScallywaggerState, action: Mapping[str, Any]) -> tuple[ScallywaggerState, list[Event]]:
    _need_phase(state, "bidding")
    seat = _need_actor(state, action)
    bid = state.bid
    if bid is None:
        raise IllegalAction(f"there is no bid to call yet: {state.players[seat]} opens the bidding")
    player, bidder = state.players[seat], state.players[bid.seat]
    events = [
        event(
            "call",
            f"{player} calls {bidder} a Scallywagger: {bid.words()} is a lie! Reveal the dice.",
            player=player,
            bidder=bidder,
            quantity=bid.quantity,
            face=bid.face,
        )
    ]
    challenge = Challenge("call", seat, bid.seat, bid.quantity, bid.face)
    return replace(state, phase="reveal", challenge=challenge), events


def _parlay(state: ScallywaggerState, action: Mapping[str, Any]) -> tuple[ScallywaggerState, list[Event]]:
    _need_phase(state, "bidding")
    seat = _need_actor(state, action)
    bid = state.bid
    if bid is None:
        raise IllegalAction(f"there is no bid to call yet: {state.players[seat]} opens the bidding")
    if state.settings.parlay == "last_bid":
        if action.get("quantity") is not None or action.get("face") is not None:
            given = (action.get("quantity"), action.get("face"))
            if given != (bid.quantity, bid.face):
                raise IllegalAction(
                    f"a Parlay says the standing bid ({bid.words()}) is exact (house rule parlay=last_bid); "
                    'leave out "quantity" and "face"'
                )
        quantity, face = bid.quantity, bid.face
    else:
        quantity, face = _quantity_face(action)
        why = _parlay_refusal(state, quantity, face)
        if why is not None:
            raise IllegalAction(why)
    player = state.players[seat]
    events = [
        event(
            "parlay",
            f"{player} calls a Parlay: exactly {bid_words(quantity, face)}! Reveal the dice.",
            player=player,
            quantity=quantity,
            face=face,
        )
    ]
    challenge = Challenge("parlay", seat, bid.seat, quantity, face)
    return replace(state, phase="reveal", challenge=challenge), events


def _reveal(state: ScallywaggerState, action: Mapping[str, Any]) -> tuple[ScallywaggerState, list[Event]]:
    _need_phase(state, "reveal")
    assert state.challenge is not None
    reveal = reveal_from_action(action, state.dice_on_table, state.challenge.face)
    who = _who(state, action)
    events: list[Event] = []
    if reveal.missing:
        seen = len(reveal.dice or ())
        events.append(
            event(
                "missed",
                f"The camera saw {seen} of the {reveal.expected} dice on the table: a player adds the "
                f"{reveal.missing} it missed, with {'its face' if reveal.missing == 1 else 'their faces'}.",
                missing=reveal.missing,
                by=who,
            )
        )
    if reveal.unsure:
        n = len(reveal.unsure)
        dice, each = ("die", "it") if n == 1 else ("dice", "each")
        extra = (
            f" It saw {reveal.surplus} more than the {reveal.expected} on the table: "
            f"{reveal.surplus} of them {are_no_dice(reveal.surplus)}."
            if reveal.surplus
            else ""
        )
        events.append(
            event(
                "unsure",
                f"The camera is unsure of {n} {dice}: a player must confirm {each} before the challenge is settled."
                + extra,
                dice=list(reveal.dice or ()),
                unsure=list(reveal.unsure),
                by=who,
            )
        )
    if not reveal.settled:
        return replace(state, phase="confirm", reveal=reveal), events
    return _settle(replace(state, reveal=reveal), events)


def _who(state: ScallywaggerState, action: Mapping[str, Any]) -> str | None:
    if action.get("player") is None:
        return None
    return get_player(action, state.players)


def _confirm(state: ScallywaggerState, action: Mapping[str, Any]) -> tuple[ScallywaggerState, list[Event]]:
    def change(reveal: Reveal) -> tuple[Reveal, str, dict[str, Any]]:
        index = get_field(action, "die", int)
        value = get_field(action, "value", int)
        return reveal.confirm(index, value), f"die {index} shows {value}.", {"die": index, "value": value}

    return _word_on_reveal(state, action, "confirm", ("confirms", "Confirmed:"), change)


def _drop(state: ScallywaggerState, action: Mapping[str, Any]) -> tuple[ScallywaggerState, list[Event]]:
    def change(reveal: Reveal) -> tuple[Reveal, str, dict[str, Any]]:
        index = get_field(action, "die", int)
        return reveal.drop(index), f"die {index} is no die.", {"die": index}

    return _word_on_reveal(state, action, "drop", ("says", "Confirmed:"), change)


def _add(state: ScallywaggerState, action: Mapping[str, Any]) -> tuple[ScallywaggerState, list[Event]]:
    def change(reveal: Reveal) -> tuple[Reveal, str, dict[str, Any]]:
        value = get_field(action, "value", int)
        return reveal.add(value), f"a die the camera missed, showing {value}.", {"value": value}

    return _word_on_reveal(state, action, "add", ("adds", "Added:"), change)


def _word_on_reveal(
    state: ScallywaggerState,
    action: Mapping[str, Any],
    kind: str,
    verbs: tuple[str, str],
    change: Callable[[Reveal], tuple[Reveal, str, dict[str, Any]]],
) -> tuple[ScallywaggerState, list[Event]]:
    """A player's word on a die of the reveal (``change`` gives the new reveal, the event's
    words and data; ``verbs``: after a named player, and alone); the challenge is settled
    once every die is known."""
    _need_phase(state, "confirm")
    assert state.reveal is not None
    reveal, words, data = change(state.reveal)
    who = _who(state, action)
    by = f"{who} {verbs[0]}" if who else verbs[1]
    events = [event(kind, f"{by} {words}", **data, by=who)]
    state = replace(state, reveal=reveal)
    if not reveal.settled:
        return state, events
    return _settle(state, events)


def _settle(state: ScallywaggerState, events: list[Event]) -> tuple[ScallywaggerState, list[Event]]:
    """Count the revealed dice, take the crewmates owed, and set up the draw."""
    challenge, reveal = state.challenge, state.reveal
    assert challenge is not None and reveal is not None
    wild = state.settings.bids.wild_ones
    count = reveal.counted(challenge.face, wild)
    wild_words = " (1s wild)" if wild and challenge.face != 1 else ""
    events.append(
        event(
            "revealed",
            f"The dice show {bid_words(count, challenge.face)}{wild_words}.",
            count=count,
            face=challenge.face,
            dice=list(reveal.kept()) if reveal.dice is not None else None,
            source=reveal.source,
        )
    )
    caller, bidder = challenge.caller, challenge.bidder
    names = state.players
    optional = False
    if challenge.kind == "call":
        if count >= challenge.quantity:
            events.append(
                event(
                    "bid_confirmed",
                    f"The bid stands: {names[bidder]} told the truth.",
                    winner=names[bidder],
                    loser=names[caller],
                )
            )
            state = change_crew(state, caller, -1, events)
            drawer = bidder
        else:
            events.append(
                event(
                    "bid_false",
                    f"The bid is false: {names[bidder]} is a Scallywagger!",
                    winner=names[caller],
                    loser=names[bidder],
                )
            )
            state = change_crew(state, bidder, -1, events)
            drawer = caller
    elif count == challenge.quantity:
        events.append(
            event(
                "parlay_right",
                f"The Parlay is right: exactly {bid_words(count, challenge.face)}!",
                winner=names[caller],
            )
        )
        for seat in state.alive:
            if seat != caller:
                state = change_crew(state, seat, -1, events)
        drawer, optional = caller, True
    else:
        events.append(
            event(
                "parlay_wrong",
                f"The Parlay is wrong: not exactly {bid_words(challenge.quantity, challenge.face)}.",
                loser=names[caller],
            )
        )
        state = change_crew(state, caller, -2, events)
        drawer = bidder
    state = after_losses(replace(state, phase="draw"), events)
    if state.phase == "over":
        return state, events
    if state.crew[drawer] == 0 or (state.treasure.empty and state.adventure.empty):
        reason = "is out" if state.crew[drawer] == 0 else "finds both decks empty"
        events.append(event("no_draw", f"{names[drawer]} {reason}: no card is drawn.", player=names[drawer]))
        return _end_turn(state, events)
    may = "may draw" if optional else "draws"
    events.append(
        event(
            "to_draw",
            f"{names[drawer]} {may} a card from the Treasure or the Adventure deck.",
            player=names[drawer],
            optional=optional,
        )
    )
    return replace(state, actor=drawer, draw_optional=optional), events


def _draw(state: ScallywaggerState, action: Mapping[str, Any]) -> tuple[ScallywaggerState, list[Event]]:
    _need_phase(state, "draw")
    seat = _need_actor(state, action)
    deck = get_field(action, "deck", str).strip().lower()
    if deck not in DECKS:
        raise IllegalAction(f'"deck" must be "treasure" or "adventure", not {shown(action["deck"])}')
    pile = state.pile(deck)
    if pile.empty:
        raise IllegalAction(f"the {deck.title()} deck and its discard pile are empty; draw from the other deck")
    wanted = None
    name = get_field(action, "card", str, optional=True)
    if name is not None:
        wanted = find_card(state.catalogue, name)
        if wanted is None or state.catalogue[wanted].deck != deck:
            raise IllegalAction(f"there is no {deck.title()} card called {shown(name)} in this game")
    player = state.players[seat]
    events: list[Event] = []
    if not pile.deck:
        events.append(
            event(
                "reshuffle",
                f"The {deck.title()} deck is empty: shuffle its {len(pile.discard)} discarded cards into a new deck.",
                deck=deck,
                cards=len(pile.discard),
            )
        )
    pile, card_index, _ = draw(pile, deck, state.seed, wanted, state.catalogue)
    card = state.catalogue[card_index]
    if deck == "treasure":
        text = f"{player} draws the Treasure card {card.name} and lays it face up."
    else:
        text = f"{player} draws an Adventure card and keeps it concealed."
    public = {"card": card.name} if deck == "treasure" else {}
    events.append(event("draw", text, player=player, deck=deck, **public))
    hands = list(state.hands)
    hands[seat] = hands[seat] + (Held(card=card_index, drawn=state.turn),)
    state = set_pile(replace(state, hands=tuple(hands)), deck, pile)
    return _end_turn(state, events)


_HANDLERS = {
    "first_captain": _first_captain,
    "pass": _pass,
    "use": _use,
    "adventure": _adventure,
    "bid": _bid,
    "call": _call,
    "parlay": _parlay,
    "reveal": _reveal,
    "confirm": _confirm,
    "drop": _drop,
    "add": _add,
    "draw": _draw,
}


# -- summary -------------------------------------------------------------------------------------------


def _confirm_prompt(reveal: Reveal) -> str:
    """What the players must still say of a reveal: unsure dice, spots that are no dice,
    dice the camera missed."""
    assert reveal.dice is not None
    parts = []
    if reveal.unsure:
        waiting = ", ".join(f"die {i} (read as {reveal.dice[i]})" for i in reveal.unsure)
        surplus = reveal.surplus
        extra = f" {surplus} of them {are_no_dice(surplus)}: say which." if surplus else ""
        parts.append(f"The camera is unsure of {waiting}: a player confirms what each shows.{extra}")
    if reveal.missing:
        missed = f"{reveal.missing} {dice_word(reveal.missing)}"
        parts.append(f"The camera missed {missed}: a player adds what each shows.")
    return " ".join(parts)


def _hand_detail(state: ScallywaggerState) -> dict[str, Any]:
    treasure: dict[str, list[str]] = {}
    concealed: dict[str, int] = {}
    revealed: dict[str, list[str]] = {}
    for seat, hand in enumerate(state.hands):
        name = state.players[seat]
        treasure[name] = [state.catalogue[h.card].name for h in hand if state.catalogue[h.card].deck == "treasure"]
        adventure = [h for h in hand if state.catalogue[h.card].deck == "adventure"]
        concealed[name] = sum(1 for h in adventure if not h.used)
        revealed[name] = [state.catalogue[h.card].name for h in adventure if h.used]
    return {"treasure": treasure, "adventure_concealed": concealed, "adventure_revealed": revealed}


def summary(state: ScallywaggerState) -> Summary:
    """Crewmates per Captain, who must act, the standing bid, cards and decks."""
    names = state.players
    scores = {p: float(c) for p, c in zip(names, state.crew, strict=False)}
    bid = state.bid
    challenge = state.challenge
    detail: dict[str, Any] = {
        "phase": state.phase,
        "turn": state.turn,
        "token": names[state.token] if state.phase != "setup" else None,
        "dice_on_table": state.dice_on_table,
        "out": [p for p, c in zip(names, state.crew, strict=False) if c == 0],
        "bid": {"player": names[bid.seat], "quantity": bid.quantity, "face": bid.face} if bid else None,
        "bids": [{"player": names[b.seat], "quantity": b.quantity, "face": b.face} for b in state.bids],
        "challenge": None
        if challenge is None
        else {
            "kind": challenge.kind,
            "caller": names[challenge.caller],
            "bidder": names[challenge.bidder],
            "quantity": challenge.quantity,
            "face": challenge.face,
        },
        "reveal": None
        if state.reveal is None
        else {
            "dice": list(state.reveal.dice) if state.reveal.dice is not None else None,
            "unsure": list(state.reveal.unsure),
            "count": state.reveal.count,
            "source": state.reveal.source,
            "dropped": list(state.reveal.dropped),
            "surplus": state.reveal.surplus,
            "missing": state.reveal.missing,
        },
        "revealing": None
        if state.revealing is None
        else {
            "player": names[state.revealing[0]],
            "card": state.catalogue[state.hands[state.revealing[0]][state.revealing[1]].card].name,
        },
        "decks": {
            deck: {
                "deck": len(state.pile(deck).deck),
                "discard": len(state.pile(deck).discard),
                "shuffles": state.pile(deck).shuffles,
            }
            for deck in DECKS
        },
        **_hand_detail(state),
    }
    if state.phase == "over":
        winners = (names[state.winner],) if state.winner is not None else ()
        prompt = f"Game over: {winners[0]} wins." if winners else "Game over."
        return Summary(scores, (), prompt, True, winners, detail)
    actor = names[state.actor]
    alive = tuple(names[s] for s in state.alive)
    if state.phase == "setup":
        return Summary(
            scores,
            names,
            "Roll off for the Treasure Token (a die, rock/paper/scissors, rapiers), then name the winner.",
            False,
            (),
            detail,
        )
    if state.phase == "treasure":
        return Summary(scores, (actor,), f"{actor} has priority: use a Treasure card or pass.", False, (), detail)
    if state.revealing is not None:
        holder, pos = state.revealing
        name = state.catalogue[state.hands[holder][pos].card].name
        return Summary(
            scores, (names[holder],), f"{names[holder]}: name the Captain your {name} aims at.", False, (), detail
        )
    if state.phase == "bidding":
        if bid is None:
            prompt = f"{actor} opens the bidding ({state.dice_on_table} dice on the table)."
        else:
            prompt = f"{actor}: raise {names[bid.seat]}'s {bid.words()}, call out the Scallywagger, or call a Parlay."
        holders = [
            names[s]
            for s in state.alive
            if s != state.actor and (usable(state, s, "adventure") or usable(state, s, "use"))
        ]
        if holders:
            prompt += f" ({', '.join(holders)} may reveal a card at any moment.)"
        return Summary(scores, (actor,), prompt, False, (), detail)
    if state.phase == "reveal":
        assert challenge is not None
        return Summary(
            scores,
            alive,
            f"Everyone reveals their dice: count the {challenge.face}s "
            "(read them with the camera, or type the dice or the count).",
            False,
            (),
            detail,
        )
    if state.phase == "confirm":
        assert state.reveal is not None and state.reveal.dice is not None
        return Summary(
            scores,
            alive,
            _confirm_prompt(state.reveal),
            False,
            (),
            detail,
        )
    may = "may draw" if state.draw_optional else "draws"
    return Summary(
        scores, (actor,), f"{actor} {may} a card from the Treasure or the Adventure deck.", False, (), detail
    )


# -- hidden information ----------------------------------------------------------------------------------


def private_view(state: ScallywaggerState, player: str) -> PrivateView:
    """What only ``player`` may see: their concealed Adventure cards, and the reveal
    actions that name them (the public :func:`legal_actions` list them unnamed)."""
    seat = state.players.index(player)
    concealed = tuple(
        state.catalogue[h.card].name
        for h in state.hands[seat]
        if state.catalogue[h.card].deck == "adventure" and not h.used
    )
    named = state.phase == "bidding" and state.revealing is None
    actions = tuple(_named_card_actions(state, seat, "adventure")) if named else ()
    return PrivateView(player, concealed, actions, {"adventure_concealed": list(concealed)})


def public_action(action: Mapping[str, Any]) -> dict[str, Any]:
    """``action`` as the table may see it in the history: an Adventure draw without the card's name."""
    public = dict(action)
    if public.get("type") == "draw" and str(public.get("deck", "")).strip().lower() == "adventure":
        public.pop("card", None)
    return public
