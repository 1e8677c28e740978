"""The boards of the Seize: Guilded Treasures screen: a player's counts and Vault, the
mercenaries in play, the match clock; words made from the engine's summary, nothing decided."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from kivy.properties import BooleanProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout

from companion.ui.words import key_text

NBSP = "\u00a0"
#: Vault changes shown on each board.
LOOT_LINES = 3


def tile_words(tile: Mapping[str, Any] | None) -> str:
    """``{"side": "Ana", "row": 2, "col": 3}`` -> ``Ana's side, row 2, column 3``."""
    if not tile:
        return ""
    return f"{tile.get('side')}'s side, row {tile.get('row')}, column {tile.get('col')}"


def clock_words(clock: Mapping[str, Any], stage: str, now: float) -> tuple[str, float | None]:
    """The match clock in words, counted on from the engine's last time to ``now``; and the
    seconds left (None when no timer runs)."""
    last = clock.get("last_at")
    building = clock.get("building")
    if stage == "building" and building:
        if building.get("over"):
            return "Deck building time is up", None
        left = max(0.0, float(building["limit_s"] or 0) - float(building["elapsed_s"]))
        if last is None:
            return f"Deck building: {_minutes(left)}", None
        left = max(0.0, left - max(0.0, now - float(last)))
        return f"Deck building: {_minutes(left)} left", left
    if clock.get("casual") or clock.get("limit_s") is None:
        return "No match timer (casual play)", None
    if clock.get("time_up"):
        return "Match time is up", None
    remaining = float(clock.get("remaining_s") or 0.0)
    if stage == "over":
        return f"Match time used: {_minutes(float(clock.get('elapsed_s') or 0.0))}", None
    if clock.get("started_at") is None:
        return f"Match time {_minutes(remaining)}, not started", None
    if last is not None:
        remaining = max(0.0, remaining - max(0.0, now - float(last)))
    return f"Match time: {_minutes(remaining)} left", remaining


def _minutes(seconds: float) -> str:
    if seconds > 60:
        return f"{math.ceil(seconds / 60)} min"
    return "under 1 min" if seconds > 0 else "0 min"


def _together(fact: str) -> str:
    """A short fact ("Ranged 2 staff") kept on one line: no-break spaces inside."""
    return fact.replace(" ", NBSP) if len(fact) <= 24 else fact


def counts_text(info: Mapping[str, Any], stage: str | None) -> str:
    """A player's hand, deck and warchest (and, during set-up, the roll and mulligans)."""
    text = f"Hand {info.get('hand')}   Deck {info.get('deck')}   Warchest {info.get('warchest')}"
    if stage not in ("play", "over"):
        extra = []
        if info.get("roll") is not None:
            extra.append(f"rolled {info['roll']}")
        if info.get("mulligans"):
            extra.append(f"mulligans {info['mulligans']}")
        if info.get("kept"):
            extra.append("kept")
        if extra:
            text += "\n" + ", ".join(extra).capitalize()
    return text


def merc_spec(m: Mapping[str, Any], status_rules: Mapping[str, Any]) -> dict[str, Any]:
    """The :class:`MercRow` properties showing mercenary ``m`` (as the summary gives it)."""
    role = {"champion": "Champion", "guild_master": "Guild Master"}.get(m.get("role") or "", "")
    stats = [f"Bounty {m['bounty']}"]
    if m.get("armour"):
        stats.append(f"Armour {m['armour']}")
    if m.get("magic_armour"):
        stats.append(f"Magic armour {m['magic_armour']}")
    if m.get("defence"):
        stats.append(f"Shield {m['defence']}" + ("" if m.get("defence_ready") else " (spent)"))
    if m.get("melee"):
        stats.append(f"Melee {m['melee']}")
    if m.get("ranged"):
        stats.append(f"Ranged {m['ranged']} {'staff' if m.get('ranged_type') == 'magic' else 'crossbow'}")
    move = m.get("move", 0)
    left = m.get("movement_left", move)
    stats.append(f"Move {left} of {move}" if left != move else f"Move {move}")
    if m.get("treasures"):
        stats.append("Equipped: " + ", ".join(t["name"] for t in m["treasures"]))
    if m.get("tile"):
        stats.append(tile_words(m["tile"]))
    marks = []
    for name, count in m.get("statuses", {}).items():
        flag = status_rules.get(name, {}).get("shape") == "flag"
        banked = m.get("banked", {}).get(name)
        marks.append(
            key_text(name).capitalize() + ("" if flag else f" {count}") + (f" ({banked} stored)" if banked else "")
        )
    if m.get("blinded") and "blind" not in m.get("statuses", {}):
        marks.append("Blinded (fog)")
    if m.get("frozen"):
        marks.append("Frozen")
    if m.get("burn_due"):
        marks.append("Burn due")
    if m.get("lethal_range"):
        marks.append("At half health")
    if m.get("can_attack"):
        marks.append("can attack")
    elif m.get("can_move"):
        marks.append("can move")
    return {
        "key": f"merc:{m['id']}",
        "title": f"{m['name']} ({m['id']})" + (f", {role}" if role else ""),
        "health": m.get("health", 0),
        "max_health": max(1, m.get("max_health", 1)),
        "health_text": f"{m.get('health')}/{m.get('max_health')}",
        # each fact kept on one line ("Ranged 2 staff" never split): no-break spaces inside
        "stats_text": "   ".join(_together(x) for x in stats),
        "status_text": "   ".join(_together(x) for x in marks),
        "active": bool(m.get("can_attack") or m.get("can_move")),
    }


def loot_lines(log: list[Mapping[str, Any]], player: str) -> str:
    """The last Vault changes of ``player``, newest first, with their reasons."""
    mine = [e for e in log if e.get("player") == player][-LOOT_LINES:]
    return "\n".join(f"{e['change']:+d} {e['reason']} (Vault {e['vault']})" for e in reversed(mine))


class MercRow(ButtonBehavior, BoxLayout):
    """One mercenary in play: name, health (with a bar), stats, statuses. Tapping it picks it."""

    key = StringProperty("")
    title = StringProperty("")
    health = NumericProperty(0)
    max_health = NumericProperty(1)
    health_text = StringProperty("")
    stats_text = StringProperty("")
    status_text = StringProperty("")
    active = BooleanProperty(False)


class PlayerBoard(BoxLayout):
    """One player's side of the table: counts, Vault changes and mercenaries."""

    key = StringProperty("")
    name = StringProperty("")
    vault_text = StringProperty("")
    counts_text = StringProperty("")
    log_text = StringProperty("")
    out_text = StringProperty("")
    highlight = BooleanProperty(False)
    screen = ObjectProperty(None, allownone=True)

    def show(self, rows: list[dict[str, Any]]) -> None:
        """Show one :class:`MercRow` per spec (property values), reusing the rows it has."""
        box = self.ids.mercs
        have = list(reversed(box.children))
        while len(have) > len(rows):
            box.remove_widget(have.pop())
        while len(have) < len(rows):
            row = MercRow()
            row.bind(on_release=lambda r: self.screen is not None and self.screen.pick_merc(r.key[len("merc:") :]))
            box.add_widget(row)
            have.append(row)
        for row, spec in zip(have, rows):
            for name, value in spec.items():
                if getattr(row, name) != value:
                    setattr(row, name, value)
