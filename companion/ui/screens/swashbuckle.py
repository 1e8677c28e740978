"""Swashbuckle (and the Yahtzee and Yacht presets): the score sheets of every player side by
side (totals pinned), the dice as dice with holds, the scoring options best first, an
optional hint (the advisor's optimal hold or box), and the special actions when the engine
lists them.

Dice come from the camera ("Read the dice") or are tapped in on the pad, which shows
when the camera is missing, when a roll waits for confirmation, or when asked for.
Confirming a camera roll, a die is fixed by tapping it and its value ("die 3: 6?").
Holding dice picks which of the engine's listed rolls is sent; every box offered, every
Piracy target, curse and reminder is one of the engine's legal actions.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kivy.app import App
from kivy.metrics import dp
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout

from companion.ui.advice import ADVISED, sheet_for
from companion.ui.screens.game_base import GameScreen
from companion.ui.widgets import dice, dice_view, gamebar, sheet  # noqa: F401  (kv classes)
from companion.ui.widgets.base import PButton, PLabel, fill_buttons
from companion.ui.widgets.dice import DieFace, fill_faces, unreadable_count, unreadable_text
from companion.ui.widgets.sheet import sheet_view
from companion.ui.words import action_label


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


def faint_points(option: Mapping[str, Any]) -> str:
    """What an open box would score now, as the sheet shows it faintly."""
    if option.get("how") == "zero" or option.get("scuttle"):
        return "0"
    if option.get("how") == "extra_roll":
        return "roll"
    return f"+{option.get('points', 0)}"


class SwashbuckleScreen(GameScreen):
    """Sheets, dice and choices for the score-sheet dice games."""

    roll_text = StringProperty("")
    entry = ListProperty([])
    held = ListProperty([])
    hornswaggle = BooleanProperty(False)
    entry_text = StringProperty("")
    no_dice = StringProperty("")
    no_options = StringProperty("")
    #: The pad for typing dice: shown when the camera cannot be used or is unsure, or asked for.
    typing = BooleanProperty(False)
    pad_shown = BooleanProperty(False)
    #: A roll read by the camera waits for confirmation (the dice can be fixed one by one).
    confirming = BooleanProperty(False)
    unsure = ListProperty([])
    #: The die being fixed (-1: none) and what the reader could not read.
    fixing = NumericProperty(-1)
    fix_text = StringProperty("")
    unread_text = StringProperty("")
    can_roll = BooleanProperty(False)
    over = BooleanProperty(False)
    #: The advisor's hint, when asked for.
    hint_on = BooleanProperty(False)
    hint_text = StringProperty("")
    can_hint = BooleanProperty(False)

    def __init__(self, **kwargs: Any) -> None:
        self._turn_key: Any = None
        self._sheet: Any = None
        super().__init__(**kwargs)
        self.uses_camera = True
        self.ids.sheet.on_box = self._box_tapped
        app = App.get_running_app()
        app.hardware.bind(camera_state=self._camera_changed, has_frame=self._camera_changed)
        app.advice.bind(state=self._advice_changed, progress=self._advice_changed)

    def on_controller(self, inst: Any, controller: Any) -> None:
        # another game: the hint and the typing pad start off again
        self.hint_on = False
        self.typing = False
        super().on_controller(inst, controller)

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
        self.over = bool(s.over)
        key = (
            turn.get("player"),
            turn.get("rolls"),
            tuple(turn.get("dice") or ()),
            turn.get("piracy"),
            c.session.cursor,
        )
        pending = self._legal("confirm")
        if key != self._turn_key:
            self._turn_key = key
            self.held = []
            self.entry = list(pending[0].get("dice", [])) if pending else []
            self.unsure = self._unsure_flags(len(self.entry)) if pending else []
            self.fixing = -1
            self.hornswaggle = False
        self.confirming = bool(pending)
        self.can_roll = bool(self._legal("roll")) or self.confirming
        self.unread_text = unreadable_text(self._unread()) if pending else ""
        rolls, most = turn.get("rolls", 0), turn.get("max_rolls", 3)
        self.roll_text = (
            ""
            if not turn.get("player") or not rolls
            else (
                f"Roll {rolls} of {most}"
                + (" (Piracy roll)" if turn.get("piracy") else "")
                + (f", {turn.get('dice_in_play')} dice" if turn.get("dice_in_play", 5) != 5 else "")
            )
        )
        self.can_hint = c.session.game_name in ADVISED and not s.over and int(d.get("columns", 1) or 1) == 1
        if self._sheet is None or self._sheet[0] != c.session.id:
            self._sheet = (c.session.id, sheet_for(c.session.game_name, c.session.config))
        self._fill_sheet()
        self._fill_dice()
        self._fill_choices()
        self._update_pad()
        self._fill_hint()

    def _legal(self, kind: str) -> list[dict[str, Any]]:
        return [a for a in self.controller.legal if a.get("type") == kind]

    def _last_reading(self) -> Mapping[str, Any] | None:
        history = self.controller.session.history()
        if not history:
            return None
        detections = history[-1].action.get("detections")
        return detections if isinstance(detections, Mapping) else None

    def _unsure_flags(self, n: int) -> list[bool]:
        reading = self._last_reading() or {}
        flags = [bool(d.get("unsure")) for d in reading.get("dice", []) if isinstance(d, Mapping)]
        return (flags + [False] * n)[:n]

    def _unread(self) -> int:
        return unreadable_count(self._last_reading())

    def _fill_sheet(self) -> None:
        c = self.controller
        s = c.summary
        d = s.detail
        players = list(s.scores)
        current = d.get("turn", {}).get("player")
        columns = int(d.get("columns", 1) or 1)
        open_boxes: dict[tuple[str, int], tuple[str, Any]] = {}
        if not c.locked:
            scores = self._legal("score")
            for option in d.get("options", []):
                matching = [
                    a
                    for a in scores
                    if a.get("box") == option.get("box") and (columns == 1 or a.get("column") == option.get("column"))
                ]
                if matching:
                    # several listed actions for one box (a Piracy target): the list below chooses
                    open_boxes[(str(option["box"]), int(option.get("column", 1) or 1))] = (
                        faint_points(option),
                        matching[0] if len(matching) == 1 else {"choose": option["box"]},
                    )
        self.ids.sheet.show(sheet_view(d, players), current, open_boxes)

    def _box_tapped(self, cell: Any) -> None:
        action = cell.action
        if action is None:
            return
        if "choose" in action:
            self.controller.say("Choose whom to pillage in the list of options.", "info")
            return
        self.act(action)

    def _fill_dice(self) -> None:
        d = self.controller.summary.detail
        turn = d.get("turn", {})
        row = self.ids.dice_row
        if self.confirming:
            values = list(self.entry)
            specs = [
                {
                    "value": v,
                    "held": False,
                    "unsure": i < len(self.unsure) and self.unsure[i],
                    "selected": i == self.fixing,
                    "key": f"die:{i}",
                    "disabled": False,
                }
                for i, v in enumerate(values)
            ]
        else:
            values = list(turn.get("dice") or [])
            can_hold = any(a.get("keep") for a in self._legal("roll")) and not self.controller.locked
            specs = [
                {
                    "value": v,
                    "held": i in self.held,
                    "unsure": False,
                    "selected": False,
                    "key": f"die:{i}",
                    "disabled": not can_hold,
                }
                for i, v in enumerate(values)
            ]
        fill_faces(row, specs, self._die_tapped)
        if self.confirming or self.over:
            self.no_dice = ""
        else:
            self.no_dice = "" if values else "No dice rolled yet."
        self._update_fix()
        self._update_entry()

    def _die_tapped(self, face: DieFace) -> None:
        index = int(face.key.split(":")[1])
        if self.confirming:
            self.fixing = -1 if self.fixing == index else index
            self._fill_dice()
        else:
            self.toggle_hold(index, index not in self.held)

    def _update_fix(self) -> None:
        if self.confirming and 0 <= self.fixing < len(self.entry):
            i = self.fixing
            doubt = "?" if i < len(self.unsure) and self.unsure[i] else ""
            self.fix_text = f"Die {i + 1}: {self.entry[i]}{doubt}"
        else:
            self.fixing = -1
            self.fix_text = ""

    def fix_die(self, value: int) -> None:
        """Set the die being fixed to ``value`` (it is no longer in doubt)."""
        i = self.fixing
        if not 0 <= i < len(self.entry):
            return
        entry = list(self.entry)
        entry[i] = value
        self.entry = entry
        unsure = list(self.unsure) + [False] * (len(entry) - len(self.unsure))
        unsure[i] = False
        self.unsure = unsure
        self.fixing = -1
        self._fill_dice()

    def remove_die(self) -> None:
        """Take the die being fixed away (the camera saw one too many)."""
        i = self.fixing
        if not 0 <= i < len(self.entry):
            return
        self.entry = [v for j, v in enumerate(self.entry) if j != i]
        self.unsure = [u for j, u in enumerate(self.unsure) if j != i]
        self.fixing = -1
        self._fill_dice()

    def _update_entry(self) -> None:
        if self.confirming:
            doubts = sum(1 for u in self.unsure if u)
            self.entry_text = (
                f"{doubts} unsure: tap a die to fix it, then Confirm."
                if doubts
                else "Tap a die to fix it, then Confirm."
            )
        else:
            self.entry_text = (
                " ".join(str(v) for v in self.entry) if self.entry else ("Tap the dice in." if self.pad_shown else "")
            )

    def toggle_hold(self, index: int, held: bool) -> None:
        """Hold (keep) or release die ``index``."""
        held_now = [i for i in self.held if i != index]
        if held:
            held_now.append(index)
        self.held = sorted(held_now)
        self._fill_dice()
        self._fill_choices()

    def _keep(self) -> list[int]:
        dice_now = list(self.controller.summary.detail.get("turn", {}).get("dice") or [])
        return sorted(dice_now[i] for i in self.held if i < len(dice_now))

    def _roll_action(self) -> dict[str, Any] | None:
        """The engine's listed roll for the dice held now (and the Hornswaggle choice)."""
        keep = self._keep()
        for action in self._legal("roll"):
            if sorted(action.get("keep", [])) == keep and bool(action.get("hornswaggle")) == self.hornswaggle:
                return action
        return None

    def _camera_usable(self) -> bool:
        hw = App.get_running_app().hardware
        return hw is not None and hw.camera_state == "ready" and bool(hw.has_frame)

    def _camera_changed(self, *_: Any) -> None:
        if self.controller is not None and self.manager is not None and self.manager.current == self.name:
            self._fill_choices()
            self._update_pad()

    def _update_pad(self) -> None:
        # dice being typed keep the pad, even if the camera comes up meanwhile
        self.pad_shown = (
            self.can_roll
            and not self.controller.locked
            and (self.typing or self.confirming or bool(self.entry) or not self._camera_usable())
        )
        self._update_entry()

    def set_typing(self, on: bool) -> None:
        """Show (or hide) the pad for typing the dice in."""
        self.typing = on
        self._update_pad()

    def _fill_choices(self) -> None:
        c = self.controller
        d = c.summary.detail
        roll = self._roll_action()
        self.ids.read_dice.disabled = roll is None or c.busy or not self._camera_usable()
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
                specs.append(
                    {
                        "text": text,
                        "action": action,
                        "key": f"score:{action['box']}{suffix}",
                        "role": "danger" if option.get("scuttle") else "normal",
                        "disabled": False,
                    }
                )
        others = [a for a in c.legal if a.get("type") not in ("roll", "score", "confirm", "roll_off")]
        for action in others:
            specs.append(
                {
                    "text": action_label(action, c.summary.to_act),
                    "action": action,
                    "role": "normal",
                    "disabled": False,
                    "key": f"{action['type']}:{action.get('player')}:{action.get('target', action.get('remove', ''))}",
                }
            )
        fill_buttons(self.ids.options, specs, self.new_action_button)
        roll_offs = self._legal("roll_off")
        holder = self.ids.roll_off
        if [a["player"] for a in roll_offs] != [getattr(r, "player", None) for r in reversed(holder.children)]:
            holder.clear_widgets()
            for action in roll_offs:
                holder.add_widget(self._roll_off_row(action))
        waiting = specs or roll_offs or c.summary.over or self.confirming
        self.no_options = "" if waiting else "Roll first: scoring options appear here."

    def _roll_off_row(self, action: Mapping[str, Any]) -> BoxLayout:
        player = str(action["player"])
        row = BoxLayout(size_hint_y=None, height=dp(64), spacing=dp(4))
        row.player = player
        row.add_widget(PLabel(text=player, size_hint_x=0.22, size_hint_y=1, shorten=True))
        row.add_widget(self.action_button(action, text="Camera", key=f"rolloff:{player}:camera", size_hint_x=0.2))
        for v in range(1, 7):
            b = PButton(
                text=str(v),
                key=f"rolloff:{player}:{v}",
                size_hint_x=0.097,
                action={"type": "roll_off", "player": player, "dice": [v]},
            )
            b.bind(on_release=lambda w: self.act(w.action))
            row.add_widget(b)
        return row

    # -- the hint ---------------------------------------------------------------------------------

    def set_hint(self, on: bool) -> None:
        """Show (or hide) the advisor's best play."""
        self.hint_on = on
        self._fill_hint()

    def _advice_changed(self, *_: Any) -> None:
        if self.hint_on and self.manager is not None and self.manager.current == self.name:
            self._fill_hint()

    def _fill_hint(self) -> None:
        sheet_now = self._sheet[1] if self._sheet else None
        if not self.hint_on or not self.can_hint or sheet_now is None:
            self.hint_text = ""
            return
        advice = App.get_running_app().advice
        if advice.advisor(sheet_now) is None:
            advice.prepare(sheet_now)
            self.hint_text = advice.message or "Getting the hint ready..."
            return
        d = self.controller.summary.detail
        turn = d.get("turn", {})
        player = turn.get("player")
        if not player or self.confirming or turn.get("piracy"):
            self.hint_text = "Hints come with a roll of five dice."
            return
        dice_now = list(turn.get("dice") or [])
        if turn.get("dice_in_play", 5) != 5 or (dice_now and len(dice_now) != 5):
            self.hint_text = "No hint for a cursed roll of four dice."
            return
        if "pirates" in d:
            boxes = d["pirates"][player]["columns"][0].get("boxes", {})
        else:
            boxes = d.get("sheets", {}).get(player, {}).get("boxes", {})
        rolls_left = max(0, int(turn.get("max_rolls", 3)) - int(turn.get("rolls", 0)))
        if not self._legal("roll"):
            rolls_left = 0
        try:
            self.hint_text, _hint = advice.hint_text(sheet_now, boxes, dice_now, min(2, rolls_left))
        except ValueError as exc:
            self.hint_text = f"No hint here ({exc})."

    # -- the dice pad -------------------------------------------------------------------------

    def pad(self, value: int) -> None:
        """Add a typed die."""
        self.entry = [*self.entry, value]
        self._update_pad()
        if self.confirming:
            self.unsure = [*self.unsure, False]
            self._fill_dice()
        self._update_entry()

    def clear_entry(self) -> None:
        """Forget the typed dice."""
        self.entry = []
        self.unsure = []
        self.fixing = -1
        if self.confirming:
            self._fill_dice()
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
        """Settle dice the camera was unsure of, as fixed or typed."""
        listed = self._legal("confirm")
        if listed:
            self.act({**listed[0], "dice": list(self.entry)})
