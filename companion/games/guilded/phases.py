"""The turn's phases in order, what each allows, and the timed effects at their edges.

Phases: Beginning, Draw, Acquire, Rally, First Movement, Attack, Second Movement, End.
Purser applies what happens at a phase's edges itself when the table moves on
(``next_phase``/``end_turn``):

- Beginning starts: the turn's players' mercenaries each lose one exhaust counter.
- Draw starts: each turn player draws a card for turn (an empty deck loses).
- Rally starts: Regen X heals.
- First Movement starts: Frost is noted for the turn's movement; it ends: Frost is removed.
- Attack starts: Burn placed before this turn deals its damage; it ends: that Burn is removed.
- End starts: Bleed deals damage; Blind on the turn's mercenaries ends; Silence and Fog end.
- End ends: each turn player must be down to the hand limit; the next turn begins (or,
  when match time is up under ``time_up=most_loot``, the game ends on loot).
"""

from __future__ import annotations

from dataclasses import replace

from companion.games.base import Event, IllegalAction, event
from companion.games.guilded import effects, outcome, statuses
from companion.games.guilded.state import GuildedState, Merc

TITLES = {
    "beginning": "Beginning",
    "draw": "Draw",
    "acquire": "Acquire",
    "rally": "Rally",
    "first_movement": "First Movement",
    "attack": "Attack",
    "second_movement": "Second Movement",
    "end": "End",
}

#: What the turn players may do in each phase (instant abilities: any player with priority).
ALLOWS = {
    "beginning": (
        "start-of-turn effects resolve (one exhaust counter comes off each of your mercenaries)",
        "instant abilities",
    ),
    "draw": ("you drew a card for turn", "instant abilities"),
    "acquire": ("draw up to {acquire_limit} more cards, 1 loot from your Vault each", "no abilities"),
    "rally": (
        "play mercenaries (back 8 tiles of your side; at most {max_mercenaries} in play)",
        "play one treasure to your warchest (or a mercenary face down as one)",
        "equip (one treasure per mercenary, in your Guild Hall), then unequip",
        "exit mercenaries from your Guild Hall",
        "event and instant abilities",
        "upstage an enemy",
    ),
    "first_movement": (
        "move mercenaries up to their movement (Frost lowers it)",
        "spend 1 movement to reveal an adjacent stealthed enemy",
        "event and instant abilities",
    ),
    "attack": (
        "declare one attack with each mercenary (it is then exhausted)",
        "or plunder from an enemy Guild Hall (once per turn)",
        "attack and instant abilities",
    ),
    "second_movement": (
        "move mercenaries with the movement they did not use in First Movement",
        "event and instant abilities",
    ),
    "end": (
        "end-of-turn effects resolve (Bleed, Blind, Silence and Fog)",
        "discard down to {hand_limit} cards",
        "instant abilities",
    ),
}

MOVEMENT_PHASES = ("first_movement", "second_movement")


def allows(state: GuildedState, phase: str) -> list[str]:
    """What the phase allows, in words, with this match's figures."""
    s = state.settings
    return [
        text.format(acquire_limit=s.acquire_limit, max_mercenaries=s.max_mercenaries, hand_limit=s.hand_limit)
        for text in ALLOWS[phase]
    ]


# -- movement and attack readiness (frost) -----------------------------------------------------


def frost_level(state: GuildedState, merc: Merc) -> int:
    """The Frost that limits ``merc`` now (under ``frost_scope=turn`` also what it had when moving began)."""
    frost = merc.status("frost")
    if state.settings.frost_scope == "turn" and merc.owner in state.active:
        frost = max(frost, merc.frost_seen)
    return frost


def allowance(state: GuildedState, merc: Merc) -> int:
    """Spaces ``merc`` may move this turn in all (0 when frozen)."""
    penalty = statuses.frost_penalty(frost_level(state, merc))
    return 0 if penalty is None else max(0, merc.move - penalty)


def movement_left(state: GuildedState, merc: Merc) -> int:
    """Spaces ``merc`` may still move this turn."""
    return max(0, allowance(state, merc) - merc.moved)


def frozen(state: GuildedState, merc: Merc) -> bool:
    """Whether three Frost counters stop ``merc`` from moving and attacking."""
    return frost_level(state, merc) >= 3


# -- the turn --------------------------------------------------------------------------------


def start_turn(state: GuildedState, unit: int, events: list[Event]) -> GuildedState:
    """Begin the next turn for turn-taker ``unit``: reset per-turn flags and enter Beginning."""
    seats = state.units[unit]
    state = replace(state, unit=unit, turn=state.turn + 1, phase=0)
    for seat in seats:
        state = state.with_seat(seat, acquired=False, treasure_played=False, plundered=False, unequipped=False)
    state = replace(
        state,
        mercs=tuple(
            replace(m, attacked=False, equipped=False, moved=0, frost_seen=0) if m.owner in seats else m
            for m in state.mercs
        ),
    )
    who = " and ".join(state.players[s] for s in state.active)
    events.append(
        event(
            "turn",
            f"Turn {state.turn}: {who}. Beginning phase.",
            turn=state.turn,
            players=[state.players[s] for s in state.active],
            phase="beginning",
        )
    )
    return _enter(state, events)


def next_turn(state: GuildedState, events: list[Event]) -> GuildedState:
    """Pass the turn to the next turn-taker with a player still in the game."""
    n = len(state.units)
    for step in range(1, n + 1):
        unit = (state.unit + step) % n
        if any(not state.seats[s].out for s in state.units[unit]):
            return start_turn(state, unit, events)
    return state


def advance(state: GuildedState, events: list[Event]) -> GuildedState:
    """Leave the current phase and enter the next (or pass the turn after End).

    Raises:
        IllegalAction: the End phase cannot end yet (a hand over the limit).
    """
    phase = state.phase_name
    turn = state.turn
    state = _leave(state, events)
    state = after_change(state, events)
    if state.stage != "play" or state.turn != turn:
        return state
    if phase == "end":
        if state.time_up and state.settings.time_up == "most_loot":
            return outcome.end_on_time(state, events)
        return next_turn(state, events)
    state = replace(state, phase=state.phase + 1)
    events.append(event("phase", f"{TITLES[state.phase_name]} phase.", phase=state.phase_name, turn=state.turn))
    return _enter(state, events)


def after_change(state: GuildedState, events: list[Event]) -> GuildedState:
    """Settle losses; if every turn player is out, the next turn begins."""
    state = outcome.settle(state, events)
    if state.stage == "play" and not state.active:
        state = next_turn(state, events)
    return state


def _turn_mercs(state: GuildedState) -> list[str]:
    active = state.active
    return [m.id for m in state.mercs if m.owner in active]


def _still(state: GuildedState, merc_id: str) -> Merc | None:
    for m in state.mercs:
        if m.id == merc_id:
            return m
    return None


def _enter(state: GuildedState, events: list[Event]) -> GuildedState:
    phase = state.phase_name
    if phase == "beginning":
        for merc_id in _turn_mercs(state):
            merc = state.merc(merc_id)
            if merc.stored("exhaust"):
                state = effects.set_status(
                    state, merc_id, "exhaust", merc.stored("exhaust") - 1, events, why="Beginning phase"
                )
    elif phase == "draw":
        if state.turn == 1 and not state.settings.first_turn_draw:
            events.append(event("no_draw", "The first player does not draw on the first turn (house rule)."))
        else:
            for seat in state.active:
                state = effects.draw_cards(state, seat, 1, events, "draw for turn")
    elif phase == "rally":
        for merc_id in _turn_mercs(state):
            merc = state.merc(merc_id)
            if merc.status("regen"):
                state = effects.heal(state, merc_id, merc.status("regen"), events, f"Regen {merc.status('regen')}")
    elif phase == "first_movement":
        state = replace(
            state,
            mercs=tuple(
                replace(m, frost_seen=m.status("frost")) if m.owner in state.active else m for m in state.mercs
            ),
        )
    elif phase == "attack":
        for merc_id in _turn_mercs(state):
            burning = _still(state, merc_id)
            if (
                burning is None
                or not burning.status("burn")
                or burning.burn_turn is None
                or burning.burn_turn >= state.turn
            ):
                continue
            amount, kind, treasures_lost = statuses.burn_effect(burning.status("burn"))
            if treasures_lost and burning.treasures:
                state = state.with_merc(replace(burning, treasures=()))
                names = ", ".join(t.name for t in burning.treasures)
                events.append(
                    event(
                        "treasures_lost",
                        f"{state.label(burning)} loses its treasures to Burn: {names}.",
                        merc=merc_id,
                        treasures=[t.name for t in burning.treasures],
                    )
                )
            state, _ = effects.hurt(state, merc_id, amount, kind, events, cause=f"Burn {burning.status('burn')}")
    elif phase == "end":
        state = _enter_end(state, events)
    return after_change(state, events)


def _enter_end(state: GuildedState, events: list[Event]) -> GuildedState:
    bleeders = _turn_mercs(state) if state.settings.bleed_timing == "controller_end" else [m.id for m in state.mercs]
    for merc_id in bleeders:
        merc = _still(state, merc_id)
        if merc is not None and merc.status("bleed"):
            state, _ = effects.hurt(
                state,
                merc_id,
                merc.status("bleed"),
                state.settings.bleed_damage,
                events,
                cause=f"Bleed {merc.status('bleed')}",
            )
    active = state.active
    for merc in list(state.mercs):
        if merc.status("blind") and merc.owner in active:
            state = effects.set_status(state, merc.id, "blind", 0, events, why="End phase")
        for name in ("silence", "fog"):
            if state.merc(merc.id).status(name):
                state = effects.set_status(state, merc.id, name, 0, events, why="End phase")
    if state.fog:
        events.append(event("fog_lifts", "The fog lifts.", tiles=len(state.fog)))
        state = replace(state, fog=())
    for seat in active:
        extra = state.seats[seat].hand - state.settings.hand_limit
        if extra > 0:
            events.append(
                event(
                    "hand_limit",
                    f"{state.players[seat]} has {state.seats[seat].hand} cards: discard {extra} "
                    f"(hand limit {state.settings.hand_limit}).",
                    player=state.players[seat],
                    discard=extra,
                )
            )
    return state


def _leave(state: GuildedState, events: list[Event]) -> GuildedState:
    phase = state.phase_name
    if phase == "first_movement":
        for merc_id in _turn_mercs(state):
            if state.merc(merc_id).stored("frost"):
                state = effects.set_status(state, merc_id, "frost", 0, events, why="end of First Movement")
    elif phase == "attack":
        for merc_id in _turn_mercs(state):
            merc = state.merc(merc_id)
            if merc.stored("burn") and merc.burn_turn is not None and merc.burn_turn < state.turn:
                state = effects.set_status(state, merc_id, "burn", 0, events, why="end of the Attack phase")
    elif phase == "end":
        over = [(s, state.seats[s].hand - state.settings.hand_limit) for s in state.active]
        over = [(s, n) for s, n in over if n > 0]
        if over:
            seat, n = over[0]
            raise IllegalAction(
                f"{state.players[seat]} has {state.seats[seat].hand} cards in hand: discard {n} before the turn "
                f'ends ({{"type": "discard", "player": "{state.players[seat]}", "cards": {n}}})'
            )
    return state
