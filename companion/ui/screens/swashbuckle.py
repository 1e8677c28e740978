"""Swashbuckle (and the Yahtzee and Yacht presets): score sheets side by side, the dice with
holds, the scoring options best first, and the special actions when the engine lists them.

Dice come from the camera ("Read the dice") or are tapped in on the pad. Holding dice picks
which of the engine's listed rolls is sent; every box offered, every Piracy target, curse
and reminder is one of the engine's legal actions.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from kivy.app import App
from kivy.metrics import dp
from kivy.properties import BooleanProperty, ListProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.carousel import Carousel
from kivy.uix.scrollview import ScrollView

from companion.ui.screens.game_base import GameScreen
from companion.ui.widgets import dice_view, gamebar, table  # noqa: F401  (kv classes)
from companion.ui.widgets.base import PButton, PLabel, PToggle, fill_buttons
from companion.ui.widgets.table import ScoreTable
from companion.ui.words import action_label, key_text

#: Per-column figures worth a row under the boxes (when the engine reports them).
_SKIP_FIGURES = {"column", "boxes", "scuttles", "swashbuckle_bonus_marks", "marks"}


def _columns(detail: Mapping[str, Any], player: str) -> list[dict[str, Any]]:
    """A player's sheet columns as ``{"boxes": {...}, figures...}`` dicts (either engine shape)."""
    if "pirates" in detail:
        return list(detail["pirates"][player]["columns"])
    return [dict(detail.get("sheets", {}).get(player, {}))]


def sheet_table(detail: Mapping[str, Any], players: Sequence[str]) -> tuple[list[str], list[list[str]], list[int]]:
    """Header, rows and total-row indices of the score sheets of ``players``, side by side.

    Box rows come from the engine's sheet layout; the figures under them (subtotals,
    bonuses, totals) are whatever numbers each column reports.
    """
    boxes = detail.get("sheet", {}).get("boxes", [])
    header = [""]
    cols: list[dict[str, Any]] = []
    for player in players:
        columns = _columns(detail, player)
        for i, column in enumerate(columns):
            header.append(player if len(columns) == 1 else f"{player} {i + 1}")
            cols.append(column)
    rows: list[list[str]] = []
    for box in boxes:
        row = [str(box.get("label", box["key"]))]
        for column in cols:
            value = column.get("boxes", {}).get(box["key"])
            row.append("" if value is None else str(value))
        rows.append(row)
    figures: list[str] = []
    for column in cols:
        for key, value in column.items():
            if key in _SKIP_FIGURES or isinstance(value, bool) or not isinstance(value, int | float):
                continue
            if key not in figures:
                figures.append(key)
    totals = []
    for key in figures:
        totals.append(len(rows))
        rows.append([key_text(key).capitalize()] + [str(c.get(key, "")) for c in cols])
    if "pirates" in detail:
        totals.append(len(rows))
        rows.append(["Match total"] + [str(detail["pirates"][p].get("total", "")) for p in players
                                       for _ in _columns(detail, p)])
    monikers = detail.get("monikers") or {}
    if monikers:
        rows.append(["Moniker"] + [str(monikers.get(p) or "") for p in players for _ in _columns(detail, p)])
    return header, rows, totals


def option_text(option: Mapping[str, Any], columns: int) -> str:
    """A scoring option in words: "Full Boat  25", "Ones  scuttle (0)"."""
    label = str(option.get("label", option.get("box")))
    how = option.get("how")
    points = option.get("points", 0)
    if how == "zero" or option.get("scuttle"):
        text = f"{label}  scuttle (0)"
    elif how == "extra_roll":
        text = f"{label}  roll all five again"
    elif how == "max_potential":
        text = f"{label}  {points} (max potential)"
    elif how == "joker":
        text = f"{label}  {points} (joker)"
    else:
        text = f"{label}  {points}"
    if option.get("bonus"):
        text += f"  +{option['bonus']} bonus"
    if columns > 1:
        text += f"  (column {option.get('column')})"
    return text


class SwashbuckleScreen(GameScreen):
    """Sheets, dice and choices for the score-sheet dice games."""

    roll_text = StringProperty("")
    entry = ListProperty([])
    held = ListProperty([])
    hornswaggle = BooleanProperty(False)
    entry_text = StringProperty("")
    no_dice = StringProperty("")
    no_options = StringProperty("")

    def __init__(self, **kwargs: Any) -> None:
        self._turn_key: Any = None
        super().__init__(**kwargs)
        self.uses_camera = True
        App.get_running_app().bind(portrait=lambda *_: self._fill_sheets())

    # -- drawing ------------------------------------------------------------------------------

    def refresh(self) -> None:
        c = self.controller
        if c is None or c.summary is None:
            return
        s = c.summary
        d = s.detail
        turn = d.get("turn", {})
        self.title = str(c.game.TITLE)
        self.prompt = s.prompt
        key = (turn.get("player"), turn.get("rolls"), tuple(turn.get("dice") or ()), turn.get("piracy"), c.session.cursor)
        if key != self._turn_key:
            self._turn_key = key
            self.held = []
            self.entry = []
            self.hornswaggle = False
        pending = self._legal("confirm")
        if pending and not self.entry:
            self.entry = list(pending[0].get("dice", []))
        rolls, most = turn.get("rolls", 0), turn.get("max_rolls", 3)
        self.roll_text = "" if not turn.get("player") or not rolls else (
            f"Roll {rolls} of {most}" + (" (Piracy roll)" if turn.get("piracy") else "")
            + (f", {turn.get('dice_in_play')} dice" if turn.get("dice_in_play", 5) != 5 else "")
        )
        self._fill_sheets()
        self._fill_dice()
        self._fill_choices()

    def _legal(self, kind: str) -> list[dict[str, Any]]:
        return [a for a in self.controller.legal if a.get("type") == kind]

    def _fill_sheets(self) -> None:
        c = self.controller
        if c is None or c.summary is None or "sheet_holder" not in self.ids:
            return
        s = c.summary
        d = s.detail
        players = list(s.scores)
        current = d.get("turn", {}).get("player")
        swipe = App.get_running_app().portrait and len(players) > 1
        layout = (swipe, tuple(players))
        holder = self.ids.sheet_holder
        if getattr(self, "_sheet_layout", None) != layout:
            self._sheet_layout = layout
            holder.clear_widgets()
            self._tables = []
            if swipe:
                self._carousel = Carousel(direction="right", loop=True)
                holder.add_widget(self._carousel)
            for _ in players if swipe else [None]:
                page = ScrollView(do_scroll_x=False)
                t = ScoreTable()
                page.add_widget(t)
                self._tables.append(t)
                (self._carousel if swipe else holder).add_widget(page)
        if swipe:
            for t, p in zip(self._tables, players):
                header, rows, totals = sheet_table(d, [p])
                t.show(header, rows, total_rows=totals, marked_cols=[1] if p == current else [])
            if current in players and self._carousel.index != players.index(current):
                self._carousel.index = players.index(current)
            return
        header, rows, totals = sheet_table(d, players)
        marked = [i + 1 for i, h in enumerate(header[1:]) if current and h.split(" ")[0] == current]
        self._tables[0].show(header, rows, total_rows=totals, marked_cols=marked)

    def _fill_dice(self) -> None:
        d = self.controller.summary.detail
        dice = list(d.get("turn", {}).get("dice") or [])
        can_hold = bool(self._legal("roll")) and any(a.get("keep") for a in self._legal("roll"))
        specs = [{"text": str(v), "key": f"die:{i}", "value": i, "state": "down" if i in self.held else "normal",
                  "disabled": not can_hold} for i, v in enumerate(dice)]
        fill_buttons(self.ids.dice_row, specs, self._die_toggle)
        self.no_dice = "" if dice else "No dice rolled yet."
        self._update_entry()

    def _die_toggle(self) -> PToggle:
        die = PToggle(height=dp(84), font_size=dp(40))
        die.bind(on_release=lambda w: self.toggle_hold(w.value, w.state == "down"))
        return die

    def _update_entry(self) -> None:
        self.entry_text = " ".join(str(v) for v in self.entry) if self.entry else "Tap the dice in, or read them."

    def toggle_hold(self, index: int, held: bool) -> None:
        """Hold (keep) or release die ``index``."""
        held_now = [i for i in self.held if i != index]
        if held:
            held_now.append(index)
        self.held = sorted(held_now)
        self._fill_choices()

    def _keep(self) -> list[int]:
        dice = list(self.controller.summary.detail.get("turn", {}).get("dice") or [])
        return sorted(dice[i] for i in self.held if i < len(dice))

    def _roll_action(self) -> dict[str, Any] | None:
        """The engine's listed roll for the dice held now (and the Hornswaggle choice)."""
        keep = self._keep()
        for action in self._legal("roll"):
            if sorted(action.get("keep", [])) == keep and bool(action.get("hornswaggle")) == self.hornswaggle:
                return action
        return None

    def _fill_choices(self) -> None:
        c = self.controller
        d = c.summary.detail
        roll = self._roll_action()
        self.ids.read_dice.disabled = roll is None or c.busy
        self.ids.roll_typed.disabled = roll is None
        any_horn = any(a.get("hornswaggle") for a in self._legal("roll"))
        self.ids.hornswaggle.disabled = not any_horn
        self.ids.hornswaggle.opacity = 1 if any_horn else 0
        self.ids.hornswaggle.state = "down" if self.hornswaggle else "normal"
        confirm = self._legal("confirm")
        self.ids.confirm.disabled = not confirm
        self.ids.confirm.opacity = 1 if confirm else 0
        columns = int(d.get("columns", 1) or 1)
        scores = self._legal("score")
        specs: list[dict[str, Any]] = []
        for option in d.get("options", []):
            for action in scores:
                if action.get("box") != option.get("box"):
                    continue
                if columns > 1 and action.get("column") != option.get("column"):
                    continue
                text = option_text(option, columns)
                if "target" in action:
                    text += f"  (pillage {action['target']})"
                suffix = f":{action['column']}" if columns > 1 else ""
                suffix += f":{action['target']}" if "target" in action else ""
                specs.append({"text": text, "action": action, "key": f"score:{action['box']}{suffix}",
                              "role": "danger" if option.get("scuttle") else "normal", "disabled": False})
        others = [a for a in c.legal if a.get("type") not in ("roll", "score", "confirm", "roll_off")]
        for action in others:
            specs.append({"text": action_label(action, c.summary.to_act), "action": action, "role": "normal",
                          "disabled": False,
                          "key": f"{action['type']}:{action.get('player')}:{action.get('target', action.get('remove', ''))}"})
        fill_buttons(self.ids.options, specs, self.new_action_button)
        roll_offs = self._legal("roll_off")
        holder = self.ids.roll_off
        if [a["player"] for a in roll_offs] != [getattr(r, "player", None) for r in reversed(holder.children)]:
            holder.clear_widgets()
            for action in roll_offs:
                holder.add_widget(self._roll_off_row(action))
        self.no_options = "" if specs or roll_offs else (
            c.summary.prompt if c.summary.over else "Roll first: scoring options appear here.")

    def _roll_off_row(self, action: Mapping[str, Any]) -> BoxLayout:
        player = str(action["player"])
        row = BoxLayout(size_hint_y=None, height=dp(64), spacing=dp(4))
        row.player = player
        row.add_widget(PLabel(text=player, size_hint_x=0.3, size_hint_y=1))
        row.add_widget(self.action_button(action, text="Camera", key=f"rolloff:{player}:camera", size_hint_x=0.25))
        for v in range(1, 7):
            b = PButton(text=str(v), key=f"rolloff:{player}:{v}", size_hint_x=0.075,
                        action={"type": "roll_off", "player": player, "dice": [v]})
            b.bind(on_release=lambda w: self.act(w.action))
            row.add_widget(b)
        return row

    # -- the dice pad -------------------------------------------------------------------------

    def pad(self, value: int) -> None:
        """Add a typed die."""
        self.entry = [*self.entry, value]
        self._update_entry()

    def clear_entry(self) -> None:
        """Forget the typed dice."""
        self.entry = []
        self._update_entry()

    def set_hornswaggle(self, on: bool) -> None:
        """Make the next roll the once-per-match extra roll (or not)."""
        self.hornswaggle = on
        self._fill_choices()

    def read_dice(self) -> None:
        """Roll with the dice read by the camera (the listed action, measured first)."""
        action = self._roll_action()
        if action is not None:
            self.act(action)

    def roll_typed(self) -> None:
        """Roll with the dice tapped in on the pad."""
        action = self._roll_action()
        if action is None:
            return
        typed = {k: v for k, v in action.items() if k != "from"}
        typed["dice"] = list(self.entry)
        if self.act(typed):
            self.entry = []

    def confirm(self) -> None:
        """Settle dice the camera was unsure of, as typed on the pad."""
        listed = self._legal("confirm")
        if listed:
            self.act({**listed[0], "dice": list(self.entry)})
