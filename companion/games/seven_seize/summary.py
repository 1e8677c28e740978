"""What a 7 Seize table sees: who must act, the prompt in words, and the screen data."""

from __future__ import annotations

from typing import Any

from companion.games.base import Summary
from companion.games.seven_seize.cards import ALL_CARDS
from companion.games.seven_seize.phases import (
    acting_order,
    cards_still_out,
    contestants,
    revealing,
    strumpet_options,
    table_cards,
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
    SeizeState,
)


def summary(state: SeizeState) -> Summary:
    """Scores are pieces held per seat, the 2-player Interloper included (weights appear only
    at the weigh-off); ``detail`` holds:

    - ``round`` (1-7), ``rounds`` (7), ``phase``: ``squabble`` | ``divvy`` | ``seize`` |
      ``weighoff`` | ``over``;
    - ``captain``, ``previous_captain`` (names or null);
    - ``bag`` (pieces not yet divvied), ``stashes`` ``{"red": n, "black": n}``,
      ``collections`` ``{seat: pieces}`` (the Interloper included), ``booty_total`` (49);
    - ``cards``: ``{"squabble": {player: card}, "seize": {seat: card}}`` revealed this
      round (``"QH"``; null while face down);
    - ``acting_order``: seats in seize order as far as settled, ``acting``: whose card acts
      now (null outside the seize phase);
    - ``waiting``: the decision the game waits on: ``{"kind", "deciders", ...}`` where kind
      is ``reveal`` | ``captain`` | ``divvy`` | ``order`` | ``quartermaster`` |
      ``strumpet`` | ``pick`` | ``weigh`` | null, with ``for`` (the seat concerned),
      ``options``, ``pieces``, ``stash`` as they apply;
    - ``deck``: ``{"draw": n, "discard": n, "seen": [cards seen since the last reshuffle,
      on the table too], "still_out": [cards], "reshuffles": n, "next_reshuffle":
      {"round": r, "at": "interloper_card" | "draw"} or null (not in this game)}``;
    - ``history``: one entry per finished round (captain, cards, divvy, order, pieces
      gained per seat);
    - ``weighoff``: null until round 7 ends, then the bracket
      (:meth:`WeighOff.to_json`): weights with uncertainties, contests and their bouts,
      eliminations in order, tie instructions, ranking, winners.
    """
    # every seat that holds booty, so the 2-player Interloper (which can win) is shown too
    scores = {seat: float(pieces) for seat, pieces in zip(state.seats, state.collections, strict=True)}
    deciders, waiting = _waiting(state)
    detail: dict[str, Any] = {
        "round": state.round,
        "rounds": ROUNDS,
        "phase": state.phase,
        "captain": _player(state, state.captain),
        "previous_captain": _player(state, state.previous_captain),
        "bag": state.bag,
        "stashes": {"red": state.red, "black": state.black},
        "collections": dict(zip(state.seats, state.collections, strict=False)),
        "booty_total": state.booty_total,
        "interloper": state.seats[state.interloper] if state.interloper is not None else None,
        "cards": {
            "squabble": dict(zip(state.players, state.squabble_cards, strict=False)),
            "seize": dict(zip(state.seats, state.seize_cards, strict=False)),
        },
        "acting_order": [state.seats[s] for s in acting_order(state)[0]]
        if state.phase == SEIZE and not revealing(state)
        else [],
        "acting": _acting(state),
        "waiting": waiting,
        "deck": _deck(state),
        "history": [_record(state, r) for r in state.history],
        "weighoff": state.weighoff.to_json() if state.weighoff is not None else None,
    }
    over = state.phase == OVER
    winners = state.weighoff.winners if over and state.weighoff is not None else ()
    return Summary(scores, deciders, _prompt(state, waiting), over, winners, detail)


def _player(state: SeizeState, index: int | None) -> str | None:
    return state.players[index] if index is not None else None


def _acting(state: SeizeState) -> str | None:
    pending = state.pending
    if pending is not None and pending.kind in ("quartermaster", "strumpet", "pick"):
        return state.seats[pending.seat]
    return None


def _waiting(state: SeizeState) -> tuple[tuple[str, ...], dict[str, Any]]:
    """Who must act and what they decide (see :func:`summary`)."""
    pending = state.pending
    if pending is not None:
        kind = pending.kind
        info: dict[str, Any] = {"kind": kind}
        if kind == "captain":
            assert state.captain is not None
            decider = state.captain
            info["options"] = [state.players[s] for s in pending.seats]
        elif kind == "order":
            assert state.captain is not None
            decider = state.captain
            info["options"] = [state.seats[s] for s in pending.seats]
        else:
            decider = state.decider(pending.seat)
            info.update({"for": state.seats[pending.seat], "stash": pending.stash})
            if kind == "strumpet":
                info["options"] = [
                    {"choice": "seize"} if o is None else {"choice": "steal", "victim": state.seats[o]}
                    for o in strumpet_options(state, pending.seat)
                ]
            else:
                info["pieces"] = pending.amount
        info["deciders"] = [state.players[decider]]
        return (state.players[decider],), info
    if state.phase in (SQUABBLE, SEIZE):
        seats = revealing(state)
        names = [state.seats[s] for s in seats]
        deciders = [n for n in names if n in state.players]
        if state.interloper in seats and state.non_captain is not None:
            deciders.append(state.players[state.non_captain])
        deciders = list(dict.fromkeys(deciders))
        return tuple(deciders), {"kind": "reveal", "deciders": deciders, "for": names}
    if state.phase == DIVVY:
        assert state.captain is not None
        captain = state.players[state.captain]
        return (captain,), {"kind": "divvy", "deciders": [captain], "pieces": PIECES_PER_ROUND}
    if state.phase == WEIGHOFF and state.weighoff is not None:
        due = state.weighoff.waiting()
        deciders = [n if n in state.players else _interloper_minder(state) for n in due]
        deciders = list(dict.fromkeys(deciders))
        forms = ["pips"] if state.settings.booty == "dominoes" else ["weighing", "grams"]
        return tuple(deciders), {
            "kind": "weigh",
            "deciders": deciders,
            "for": list(due),
            "pieces": {n: state.weighoff.on_pan(n) for n in due},
            "pans": {n: state.weighoff.pan_for(n) for n in due},
            "accepts": forms,
        }
    return (), {"kind": None, "deciders": []}


def _interloper_minder(state: SeizeState) -> str:
    """Who handles the Interloper's collection at the weigh-off: the last round's non-Captain."""
    return state.players[state.non_captain] if state.non_captain is not None else state.players[0]


def _prompt(state: SeizeState, waiting: dict[str, Any]) -> str:
    kind = waiting.get("kind")
    pending = state.pending
    if kind == "reveal":
        what = "for Captain" if state.phase == SQUABBLE else "to seize"
        names = waiting["for"]
        text = f"Round {state.round}: reveal a card {what} ({', '.join(names)} still to reveal)."
        if state.interloper is not None and state.seats[state.interloper] in names and state.non_captain is not None:
            # the rulebook: the non-Captain placed the Interloper's card, and reveals it
            text += f" {state.players[state.non_captain]} reveals the Interloper's card too."
        return text
    if kind == "captain":
        return f"{waiting['deciders'][0]}: choose the new Captain among {', '.join(waiting['options'])}."
    if kind == "divvy":
        return (
            f"Captain {waiting['deciders'][0]}: take {PIECES_PER_ROUND} pieces from the bag and divvy them "
            "between the Red and Black stashes (at least 1 each)."
        )
    if kind == "order":
        return f"Captain {waiting['deciders'][0]}: set the order for {', '.join(waiting['options'])} (same rank)."
    if pending is not None and kind == "quartermaster":
        who = waiting["deciders"][0]
        behalf = "" if who == waiting["for"] else f" for {waiting['for']}"
        if state.settings.quartermaster_return == "whole_collection":
            source = "chosen from the whole collection (the new pieces too)"
        else:
            source = "chosen from the pieces held before this seize"
        return (
            f"{who}: return {pending.amount} piece{'s' * (pending.amount != 1)}{behalf} to the "
            f"{pending.stash.title()} stash, {source}."
        )
    if pending is not None and kind == "strumpet":
        who = waiting["deciders"][0]
        behalf = "" if who == waiting["for"] else f" for the {waiting['for']}'s Strumpet"
        words = [
            "seize 1 from the " + pending.stash.title() + " stash"
            if o.get("choice") == "seize"
            else f"steal 1 from {o['victim']}"
            for o in waiting["options"]
        ]
        return f"{who}{behalf}: {' or '.join(words)}."
    if pending is not None and kind == "pick":
        return (
            f"{waiting['deciders'][0]}: pick {pending.amount} piece{'s' * (pending.amount != 1)} from the "
            f"{pending.stash.title()} stash for the Interloper."
        )
    if state.weighoff is not None:
        return state.weighoff.instruction()
    return ""


def _deck(state: SeizeState) -> dict[str, Any]:
    still_out = cards_still_out(state)
    seen = [c for c in ALL_CARDS if c not in still_out]
    return {
        "draw": state.deck.draw,
        "discard": len(state.deck.discard),
        "on_table": list(table_cards(state)),
        "seen": seen,
        "still_out": list(still_out),
        "reshuffles": state.deck.reshuffles,
        "next_reshuffle": next_reshuffle(state),
    }


def next_reshuffle(state: SeizeState) -> dict[str, Any] | None:
    """When the draw deck will next run out: ``{"round": r, "at": "interloper_card"|"draw"}``.

    ``"draw"`` is the draw after round ``r``; ``None`` when it lasts the game.
    """
    if state.phase in (WEIGHOFF, OVER):
        return None
    left = state.deck.draw
    for rnd in range(state.round, ROUNDS + 1):
        draws: list[tuple[str, int]] = []
        if state.interloper is not None and (rnd > state.round or state.phase in (SQUABBLE, DIVVY)):
            draws.append(("interloper_card", 1))
        if rnd < ROUNDS:
            draws.append(("draw", DRAW * len(state.players)))
        for at, count in draws:
            if left <= count:
                return {"round": rnd, "at": at}
            left -= count
    return None


def _record(state: SeizeState, r: Any) -> dict[str, Any]:
    return {
        "round": r.round,
        "captain": state.players[r.captain],
        "squabble": dict(zip(state.players, r.squabble, strict=False)),
        "seize": dict(zip(state.seats, r.seize, strict=False)),
        "divvy": {"red": r.red, "black": r.black},
        "order": [state.seats[s] for s in r.order],
        "gained": dict(zip(state.seats, r.gained, strict=False)),
    }


__all__ = ["contestants", "next_reshuffle", "summary"]
