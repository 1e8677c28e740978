"""What the table sees of a Swashbuckle match: the legal actions and the summary."""

from __future__ import annotations

from typing import Any

from companion.games.base import Summary
from companion.games.scoresheet.dice import keeps, show
from companion.games.scoresheet.rules import ExtraRoll, counts
from companion.games.scoresheet.turn import MAX_ROLLS
from companion.games.swashbuckle.engine import current_options
from companion.games.swashbuckle.monikers import moniker_for
from companion.games.swashbuckle.specials import PIRACY, no_target_reason, pillage_targets
from companion.games.swashbuckle.state import OVER, PLAY, ROLL_OFF, SwashState
from companion.games.swashbuckle.tally import display_name, moniker_plunder, player_total, sheet_json


def _curse_actions(state: SwashState) -> list[dict[str, Any]]:
    seat = state.curse_window
    if seat is None or state.phase != PLAY or state.turn.dice.rolls or state.turn.piracy:
        return []
    pirate = state.pirates[seat]
    if pirate.curse is not None:
        return []
    if state.settings.solo_challenge and pirate.done:
        return []
    found = []
    for t, target in enumerate(state.pirates):
        if t == seat or target.done:
            continue
        if any(c.target == t for c in state.curses) or (t == state.current and state.turn.curse != "none"):
            continue
        if state.settings.solo_challenge and target.turns > 0:
            continue
        found.append({"type": "curse", "player": state.players[seat], "target": state.players[t]})
    return found


def _penalty_actions(state: SwashState) -> list[dict[str, Any]]:
    found = []
    if state.settings.etiquette_penalty:
        found += [{"type": "etiquette", "player": p} for p in state.players]
    if state.settings.calculator_penalty > 0:
        found += [{"type": "calculator", "player": p} for p in state.players]
    return found


def _score_actions(state: SwashState, player: str) -> list[dict[str, Any]]:
    found = []
    many = state.settings.columns > 1
    for o in current_options(state):
        base: dict[str, Any] = {"type": "score", "player": player, "box": o.box}
        if many:
            base["column"] = o.column + 1
        pillages = o.how == "max_potential" and o.box == PIRACY
        targets = pillage_targets(state, state.current, o.column) if pillages else []
        if len(targets) > 1:
            found += [{**base, "target": state.players[t]} for t in targets]
        else:
            found.append(base)
    return found


def legal_actions(state: SwashState) -> list[dict[str, Any]]:
    """Every action open now. Rolls are listed once per distinct hold with ``"from": "camera"``;
    typed dice go in ``"dice"`` instead. Any other player may send a listed ``remind``."""
    if state.phase == OVER:
        return []
    if state.phase == ROLL_OFF:
        return [
            {"type": "roll_off", "player": p, "from": "camera"}
            for p, r in zip(state.players, state.roll_off, strict=False)
            if r is None
        ] + _penalty_actions(state)
    seat = state.current
    player = state.players[seat]
    turn = state.turn
    dice = turn.dice
    pirate = state.pirates[seat]
    found: list[dict[str, Any]] = []
    if dice.pending is not None:
        found.append({"type": "confirm", "player": player, "dice": list(dice.pending.seen)})
    elif turn.piracy:
        if dice.rolls == 0:
            found.append({"type": "roll", "player": player, "from": "camera"})
        else:
            targets = pillage_targets(state, seat, turn.piracy_column)
            if len(targets) > 1:
                found += [{"type": "pillage", "player": player, "target": state.players[t]} for t in targets]
            elif targets:
                found.append({"type": "pillage", "player": player})
            else:  # nobody to pillage: the plunder just scores
                found.append({"type": "score", "player": player, "box": PIRACY})
            if not pirate.hornswaggle and dice.rolls == 1:
                found += [
                    {"type": "roll", "player": player, "keep": list(k), "hornswaggle": True, "from": "camera"}
                    for k in keeps(dice.dice)
                ]
    elif dice.rolls == 0:
        found.append({"type": "roll", "player": player, "from": "camera"})
    else:
        if dice.rolls < MAX_ROLLS:
            found += [{"type": "roll", "player": player, "keep": list(k), "from": "camera"} for k in keeps(dice.dice)]
        elif dice.rolls == MAX_ROLLS and not pirate.hornswaggle:
            found += [
                {"type": "roll", "player": player, "keep": list(k), "hornswaggle": True, "from": "camera"}
                for k in keeps(dice.dice)
            ]
        found += _score_actions(state, player)
        if turn.curse == "forgotten" and turn.cursed_by is not None:
            found += [
                {"type": "remind", "player": state.players[turn.cursed_by], "remove": v} for v in sorted(set(dice.dice))
            ]
    return found + _curse_actions(state) + _penalty_actions(state)


def _turn_json(state: SwashState) -> dict[str, Any]:
    turn = state.turn
    data: dict[str, Any] = {
        "player": state.players[state.current] if state.phase == PLAY else None,
        "max_rolls": MAX_ROLLS,
        "curse": turn.curse,
        "cursed_by": state.players[turn.cursed_by] if turn.cursed_by is not None else None,
        "dice_in_play": 4 if turn.curse in ("waiting", "active") else 5,
        "piracy": turn.piracy,
        "hornswaggled": turn.hornswaggled,
        **turn.dice.to_json(),
    }
    if turn.piracy:
        data["piracy_column"] = turn.piracy_column + 1
        if turn.dice.settled:
            rule = state.sheet.box(PIRACY).rule
            assert isinstance(rule, ExtraRoll)
            data["plunder"] = rule.plunder(counts(turn.dice.dice))
    return data


def _prompt(state: SwashState) -> str:
    if state.phase == ROLL_OFF:
        waiting = ", ".join(p for p, r in zip(state.players, state.roll_off, strict=False) if r is None)
        return f"Who starts? Each player rolls one die; the highest unmatched die starts. Waiting for {waiting}."
    seat = state.current
    player = state.players[seat]
    turn = state.turn
    dice = turn.dice
    if dice.pending is not None:
        return f"{player}: {dice.pending.why}; confirm the dice (the camera saw {show(dice.pending.seen)})."
    if turn.piracy:
        if dice.rolls == 0:
            return f"{player}: Piracy! Roll all five dice once more."
        data = _turn_json(state)
        targets = pillage_targets(state, seat, turn.piracy_column)
        names = ", ".join(state.players[t] for t in targets)
        if len(targets) > 1:
            who = f"choose whom to pillage ({names})"
        elif targets:
            who = f"pillage {names}"
        else:
            who = f"score it in Piracy ({no_target_reason(state, seat, turn.piracy_column)})"
        extra = " or Hornswaggle one more roll" if not state.pirates[seat].hornswaggle and dice.rolls == 1 else ""
        return f"{player}'s Piracy roll: {show(dice.dice)} = {data['plunder']}: {who}{extra}."
    if dice.rolls == 0:
        if turn.curse == "waiting":
            by = state.players[turn.cursed_by if turn.cursed_by is not None else seat]
            return f"{player}: cursed by {by}, roll only FOUR dice (roll 1 of {MAX_ROLLS})."
        return f"{player}: roll five dice (roll 1 of {MAX_ROLLS})."
    opts = current_options(state)
    listed = "; ".join(o.words(state.sheet.zero_word) for o in opts[:4]) + ("; ..." if len(opts) > 4 else "")
    left = MAX_ROLLS - dice.rolls
    again = f"hold and roll again ({left} left), or " if left > 0 else ""
    if left <= 0 and not state.pirates[seat].hornswaggle and dice.rolls == MAX_ROLLS:
        again = "Hornswaggle an extra roll, or "
    note = " Cursed: 4 Alike scores double, no Swashbuckle." if turn.cursed else ""
    if turn.curse == "forgotten":
        note = " Cursed but rolling five: remind them before the third roll!"
    return f"{player} has {show(dice.dice)}: {again}score it ({listed}).{note}"


def _standings(state: SwashState, totals: dict[str, int]) -> list[dict[str, Any]]:
    """Everyone by match score, best first, with the pirate name they go by (equal scores share a place)."""
    order = sorted(range(len(state.players)), key=lambda i: (-totals[state.players[i]], i))
    rows: list[dict[str, Any]] = []
    for rank, seat in enumerate(order):
        player = state.players[seat]
        tied = rows and rows[-1]["total"] == totals[player]
        rows.append(
            {
                "place": rows[-1]["place"] if tied else rank + 1,
                "player": player,
                "pirate_name": "Davy Jones" if state.davy_jones == seat else None,
                "shown_as": display_name(state, seat),
                "total": totals[player],
            }
        )
    return rows


def summary(state: SwashState) -> Summary:
    """Every sheet, whose turn, the dice and their scoring options, the prompt in words."""
    totals = {p: player_total(state, i) for i, p in enumerate(state.players)}
    scores = {p: float(t) for p, t in totals.items()}
    detail: dict[str, Any] = {
        "sheet": state.sheet.to_json(),
        "phase": state.phase,
        "pirates": {p: sheet_json(state, i) for i, p in enumerate(state.players)},
        "turn": _turn_json(state),
        "options": [o.to_json() for o in current_options(state)],
        "roll_off": dict(zip(state.players, state.roll_off, strict=False)) if state.phase == ROLL_OFF else None,
        "curses": [{"target": state.players[c.target], "cursor": state.players[c.cursor]} for c in state.curses],
        "may_curse": state.players[state.curse_window]
        if _curse_actions(state) and state.curse_window is not None
        else None,
        "davy_jones": state.players[state.davy_jones] if state.davy_jones is not None else None,
        "captain": state.players[state.captain] if state.captain is not None else None,
        "columns": state.settings.columns,
        "moniker_plunder": {p: moniker_plunder(state, i) for i, p in enumerate(state.players)},
        "standings": _standings(state, totals),
    }
    if state.phase == OVER:
        best = max(totals.values())
        winners = tuple(p for p, t in totals.items() if t == best)
        detail["monikers"] = {
            p: (m.label if (m := moniker_for(detail["moniker_plunder"][p])) else None) for p in state.players
        }
        verb = "wins" if len(winners) == 1 else "win"
        named = " and ".join(display_name(state, state.players.index(w)) for w in winners)
        prompt = f"Match over: {named} {verb} with {best} plunder."
        return Summary(scores, (), prompt, True, winners, detail)
    to_act = (
        tuple(p for p, r in zip(state.players, state.roll_off, strict=False) if r is None)
        if state.phase == ROLL_OFF
        else (state.players[state.current],)
    )
    return Summary(scores, to_act, _prompt(state), False, (), detail)
