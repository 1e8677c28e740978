"""The Seize: Guilded Treasures screen: both sides' boards, the turn's phase as a stepper, the
match clock, and the legal actions grouped by kind.

Everything shown comes from the engine's ``summary()`` and ``legal_actions()``:

- a board per player: Vault (with the last reasons it changed), hand, deck, warchest, and
  each mercenary in play with its health, stats and statuses;
- the phase stepper, whose turn it is, the match clock (counted down between moves from the
  last time the engine saw), and the result with its reasons when the match is over;
- the listed actions as buttons, grouped by kind (set-up, acquire, play, move, attack,
  abilities, effects, cards and loot). Moving the turn on is always in sight. When a kind
  has many actions they are chosen in two steps: first who acts (or who is targeted), then
  the action. An action whose listed values are only examples (a mercenary's printed
  stats, a damage amount) opens a form built from the summary's ``forms``; the engine
  checks what is sent. Anything else can be typed as JSON, as ``purser play`` takes it.

Every action sent carries ``"at"`` (the tablet's clock, seconds), so the engine keeps the
match timer; the engine never reads a clock itself.

- the battlefield (:mod:`.guilded_field`): every side's grid with who stands where, pillars
  and fog. When the action at hand needs a tile (where a mercenary enters, where a pillar
  or a fog goes, where a mercenary moves in a Movement phase), the tiles the engine offers
  in the summary's ``tile_choices`` light up and one tap sends the action; other tiles do
  nothing. With several mercenaries able to move, tapping one (on the battlefield or its
  board) shows its moves.

The boards live in :mod:`.guilded_board`, the grouping of actions and the forms in
:mod:`.guilded_actions`; their look is in ``guilded.kv``.
"""

from __future__ import annotations

import copy
import json
import time
from collections.abc import Callable, Mapping
from typing import Any

from kivy.clock import Clock
from kivy.metrics import dp
from kivy.properties import ListProperty, ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout

from companion.ui.screens.game_base import GameScreen
from companion.ui.screens.guilded_actions import (
    FLOW, GROUP_WORDS, GROUPS, NAMED_BY_VALUE, STEP_OVER, TILE_KINDS, TYPED_ONLY, FormField, action_key, build_field,
    field_value, group_of, has_field, phrase, put_field, subject_of,
)
from companion.ui.screens.guilded_board import (
    PlayerBoard, clock_words, counts_text, loot_lines, merc_spec, tile_words,
)
from companion.ui.screens.guilded_field import BattleField  # noqa: F401  (a kv class)
from companion.ui.screens.guilded_field import LIT, PICK, TileKey, tile_key
from companion.ui.widgets import gamebar, table  # noqa: F401  (kv classes)
from companion.ui.widgets.base import PButton, PToggle, fill_buttons
from companion.ui.widgets.table import Cell
from companion.ui.words import action_label, key_text


class GuildedScreen(GameScreen):
    """Seize: Guilded Treasures: boards, phases, clock and the table's actions."""

    turn_text = StringProperty("")
    clock_text = StringProperty("")
    reminder_text = StringProperty("")
    result_text = StringProperty("")
    group = StringProperty("")
    groups = ListProperty([])
    subject = ObjectProperty(None, allownone=True)
    step_text = StringProperty("")
    nothing = StringProperty("")
    form_action = ObjectProperty(None, allownone=True)
    form_text = StringProperty("")
    #: What tapping a lit tile of the battlefield does now ("" when no tile can be tapped).
    field_text = StringProperty("")
    #: The mercenary whose moves the battlefield offers (chosen by tapping it).
    mover = StringProperty("")
    #: The tablet's clock, seconds (a test may stand in another).
    now: Callable[[], float] = staticmethod(time.time)

    def __init__(self, **kwargs: Any) -> None:
        self._ticker: Any = None
        self._ticked_at_revision = -1
        self._names: dict[str, str] = {}
        self._form_fields: list[FormField] = []
        self._form_for: Any = None
        self._moment: Any = None
        self._boards: list[PlayerBoard] = []
        self._view: Any = None
        #: What each tappable tile does: ("send", action), ("form", field, tile) or ("pick", merc id).
        self._offer: dict[TileKey, tuple[Any, ...]] = {}
        super().__init__(**kwargs)
        self.ids.field.on_tile = self.tap_tile
        self._typed_row = self.ids.typed_row.__self__  # a strong reference: it leaves the tree

    # -- life cycle -----------------------------------------------------------------------------

    def on_pre_enter(self, *args: Any) -> None:
        super().on_pre_enter(*args)
        if self._ticker is None:
            self._ticker = Clock.schedule_interval(lambda _dt: self.tick(), 1.0)

    def on_leave(self, *args: Any) -> None:
        super().on_leave(*args)
        if self._ticker is not None:
            self._ticker.cancel()
            self._ticker = None

    def on_controller(self, inst: Any, controller: Any) -> None:
        self._moment = None
        self.group = ""
        self.subject = None
        self.form_action = None
        super().on_controller(inst, controller)

    def act(self, action: Mapping[str, Any]) -> bool:
        """Send ``action`` stamped with the time it was taken (the engine's match timer)."""
        timed = dict(action)
        timed.setdefault("at", round(self.now(), 3))
        return super().act(timed)

    def tick(self) -> None:
        """Count the match clock down; when it runs out, tell the engine the time once."""
        c = self.controller
        if c is None or c.summary is None:
            return
        d = c.summary.detail
        text, left = clock_words(d.get("clock", {}), d.get("stage", ""), self.now())
        if text != self.clock_text:
            self.clock_text = text
        if left is not None and left <= 0 and self._ticked_at_revision != c.revision and not c.busy:
            self._ticked_at_revision = c.revision
            self.act({"type": "clock"})

    # -- drawing ----------------------------------------------------------------------------------

    def refresh(self) -> None:
        c = self.controller
        if c is None or c.summary is None:
            return
        s = c.summary
        d = s.detail
        self.title = str(c.game.TITLE)
        self._names = {m["id"]: f"{m['name']} ({m['id']})" for m in d.get("mercenaries", [])}
        allows = d.get("allows") or []
        # in play the stepper and the turn line say whose turn and phase: the prompt says what it allows
        self.prompt = "" if s.over else (s.prompt if d.get("stage") != "play" or not allows
                                         else "; ".join(allows).capitalize() + ".")
        self.reminder_text = "\n".join(d.get("reminders", []))
        self.result_text = self._result(s) if s.over else ""
        self.turn_text = self._turn_words(d, s)
        moment = (d.get("format", {}).get("game"), d.get("stage"), d.get("turn"), d.get("phase"))
        if moment != self._moment:  # a new phase: show what it is for, not the last phase's kind
            self._moment = moment
            self.group = ""
            self.subject = None
            self.mover = ""
        self.tick()
        self._fill_stepper(d)
        self._fill_boards(d, s)
        self._fill_flow()
        self._fill_groups()
        self._fill_actions()

    def _turn_words(self, d: Mapping[str, Any], s: Any) -> str:
        fmt = d.get("format", {})
        match = f"{fmt.get('title', '')}, game {fmt.get('game', 1)} of up to {fmt.get('best_of', 1)}" \
            if fmt.get("best_of", 1) > 1 else str(fmt.get("title", ""))
        stage = d.get("stage")
        if stage == "play":
            who = " and ".join(d.get("turn_players", []))
            return f"Turn {d.get('turn')}: {who}   ({match})"
        if stage == "over":
            return f"Match over   ({match})"
        return f"Set-up: {key_text(stage)}   ({match})"

    def _result(self, s: Any) -> str:
        lines = [s.prompt]
        fmt = s.detail.get("format", {})
        for r in fmt.get("results", []):
            winners = r.get("winners") or "nobody (a draw)"
            why = f" ({r['reason']})" if r.get("reason") else ""
            lines.append(f"Game {r.get('game')} to {winners}{why}.")
        return "\n".join(lines)

    def _fill_stepper(self, d: Mapping[str, Any]) -> None:
        row = self.ids.stepper
        phases = list(d.get("phases", []))
        if len(row.children) != len(phases):
            row.clear_widgets()
            for key in phases:
                row.add_widget(Cell(text=key_text(key).title(), kind="head", key=f"phase:{key}"))
        current = f"phase:{d.get('phase')}"
        for cell in row.children:
            cell.highlight = cell.key == current

    def _fill_boards(self, d: Mapping[str, Any], s: Any) -> None:
        players = d.get("players", {})
        names = sorted(players, key=lambda p: (players[p].get("side", 0), list(players).index(p)))
        holder = self.ids.boards
        if [b.name for b in self._boards] != names:
            holder.clear_widgets()
            self._boards = [PlayerBoard(name=name, key=f"board:{name}", screen=self) for name in names]
            columns = [BoxLayout(orientation="vertical", size_hint_y=None, spacing=dp(8), pos_hint={"top": 1})
                       for _ in range(min(2, len(names)))]
            for column in columns:
                column.bind(minimum_height=column.setter("height"), height=self._fit_boards)
                holder.add_widget(column)
            for i, board in enumerate(self._boards):  # sides face each other: 1v1 left and right
                columns[i * len(columns) // len(self._boards)].add_widget(board)
        boards = self._boards
        log = d.get("loot_log", [])
        stage = d.get("stage")
        rules = d.get("status_rules", {})
        for board in boards:
            info = players[board.name]
            board.highlight = board.name in s.to_act or board.name in s.winners
            board.vault_text = f"Vault {info.get('vault')}"
            board.counts_text = counts_text(info, stage)
            board.out_text = f"Out: {info['out']}" if info.get("out") else ""
            board.log_text = loot_lines(log, board.name)
            board.show([merc_spec(m, rules) for m in d.get("mercenaries", []) if m.get("owner") == board.name])

    def _fit_boards(self, *_: Any) -> None:
        holder = self.ids.boards
        holder.height = max([c.height for c in holder.children] or [0])

    # -- actions ----------------------------------------------------------------------------------

    def _to_act(self) -> tuple[str, ...]:
        c = self.controller
        return tuple(c.summary.to_act) if c and c.summary else ()

    def _words(self, action: Mapping[str, Any], leave_out: tuple[str, ...] = ()) -> str:
        """Button words: the engine's, with mercenaries and tiles named as players see them."""
        if action.get("type") == "deck":
            return f"{action.get('player')}: type a deck list"
        # values asked for by a form are only examples: the button says a form follows
        asked = {f["field"].split(".")[0] for f in self._form_specs(action)}
        said = phrase(action, lambda m: self._names.get(m, m), tile_words, leave_out)
        if said is not None:
            who = action.get("player")
            acting = self._to_act()
            mine = "player" in leave_out or not who or (len(acting) == 1 and acting[0] == who)
            return ("" if mine else f"{who}: ") + said + ("..." if asked else "")
        shown: dict[str, Any] = {}
        for k, v in action.items():
            if k in leave_out or k in asked:
                continue
            if k in NAMED_BY_VALUE and "type" in shown:  # "Damage magic", not "Damage (damage type magic)"
                shown["type"] = f"{shown['type']} {v}"
                continue
            if k in ("merc", "target", "source") and isinstance(v, str):
                v = self._names.get(v, v)
            elif k in ("tile", "to") and isinstance(v, Mapping):
                v = tile_words(v)
            shown[k] = v
        return action_label(shown, self._to_act()) + ("..." if asked else "")

    def _fill_flow(self) -> None:
        c = self.controller
        specs = []
        for a in c.legal:
            if a.get("type") not in FLOW:
                continue
            text = self._words(a)
            if a["type"] == "next_phase":
                text = self._next_words(a, text)
            specs.append({"text": text, "action": a, "value": None, "key": f"flow:{a['type']}:{a.get('player', '')}",
                          "role": "primary" if a["type"] == "next_phase" else "normal", "disabled": False})
        d = c.summary.detail
        building = d.get("clock", {}).get("building")
        if d.get("stage") == "building" and building and not building.get("over") \
                and d.get("clock", {}).get("last_at") is None:
            # the engine's clock only moves with timed actions: this one starts the building time
            specs.insert(0, {"text": f"Start the {int(building['limit_s'] or 0) // 60}-minute deck building timer",
                             "action": {"type": "clock"}, "value": None, "key": "flow:clock", "role": "primary",
                             "disabled": False})
        fill_buttons(self.ids.flow, specs, self._action_button)

    def _next_words(self, action: Mapping[str, Any], text: str) -> str:
        """"Next phase: Attack" (or whose turn comes), as the engine would make it."""
        seen = self.controller.preview(action)
        if seen is None:
            return text
        after = seen[0].detail
        before = self.controller.summary.detail
        if after.get("stage") != "play":
            return text
        if after.get("turn") != before.get("turn"):
            return f"{text}: {' and '.join(after.get('turn_players', []))}'s turn"
        return f"{text}: {after.get('phase_title')}"

    def _shown_actions(self) -> list[dict[str, Any]]:
        return [a for a in self.controller.legal if a.get("type") not in FLOW]

    def _fill_groups(self) -> None:
        present = list(dict.fromkeys(group_of(a) for a in self._shown_actions()))
        order = [key for key, _w, _k in GROUPS] + ["other"]
        present.sort(key=order.index)
        if present:
            present.append("typed")
        self.groups = present
        if self.group not in present:
            self.group = self._first_group(present)
            self.subject = None
        specs = [{"text": GROUP_WORDS[g], "value": g, "key": f"group:{g}",
                  "state": "down" if g == self.group else "normal"} for g in present]
        fill_buttons(self.ids.groups, specs, self._group_chip)

    def _first_group(self, present: list[str]) -> str:
        """The kind first listed by the engine (it lists the turn's own actions first); when the
        turn cannot move on, the kind of what holds it (the hand limit's discard)."""
        shown = self._shown_actions()
        if shown and not any(a.get("type") in FLOW for a in self.controller.legal):
            return group_of(shown[0])
        for a in shown:
            g = group_of(a)
            if g in present and g not in ("cards", "effects"):
                return g
        return present[0] if present else ""

    def _group_chip(self) -> PToggle:
        chip = PToggle(group=f"guilded-kinds-{id(self)}", allow_no_selection=False)
        chip.bind(on_release=lambda w: self.pick_group(w.value))
        return chip

    def _action_button(self) -> PButton:
        button = PButton(height=dp(64))
        button.bind(on_release=self._pressed)
        return button

    def _pressed(self, button: PButton) -> None:
        if button.action is not None:
            self.choose(button.action)
        elif isinstance(button.value, tuple | list):
            self.pick_subject(tuple(button.value))

    def pick_group(self, group: str) -> None:
        """Show the actions of kind ``group``."""
        self.group = group
        self.subject = None
        self.form_action = None
        self._fill_groups()
        self._fill_actions()

    def pick_subject(self, subject: tuple[str, str] | None) -> None:
        """Second step: the actions of ``subject`` (None: back to the first step)."""
        self.subject = subject
        self.form_action = None
        self._fill_actions()

    def pick_merc(self, merc_id: str) -> None:
        """A mercenary on a board was tapped: explain its statuses and offer the effects on it."""
        c = self.controller
        if c is None or c.summary is None:
            return
        d = c.summary.detail
        m = next((m for m in d.get("mercenaries", []) if m["id"] == merc_id), None)
        if m is None:
            return
        rules = d.get("status_rules", {})
        notes = [f"{key_text(n).capitalize()}: {rules.get(n, {}).get('text', '')}" for n in m.get("statuses", {})]
        c.say(f"{self._names.get(merc_id, merc_id)}. " + (" ".join(notes) if notes else "No statuses."), "info")
        if any(ch.get("merc") == merc_id and ch["type"] == "move" for ch in d.get("tile_choices", [])):
            self.mover = merc_id  # its moves light up on the battlefield
            self._fill_field()
        targeted = [a for a in self._shown_actions() if subject_of(a) == ("target", merc_id)]
        if targeted:
            self.group = group_of(targeted[0])
            self._fill_groups()
            self.pick_subject(("target", merc_id))

    def choose(self, action: Mapping[str, Any]) -> None:
        """A listed action was tapped: send it, or first ask for its open values."""
        if action.get("type") in TYPED_ONLY:
            self.pick_group("typed")
            self.ids.typed.text = json.dumps(dict(action))
            return
        if self._form_specs(action):
            self.form_action = dict(action)
            self._fill_actions()
            return
        self.act(action)

    def _form_specs(self, action: Mapping[str, Any]) -> list[dict[str, Any]]:
        forms = self.controller.summary.detail.get("forms", {}) if self.controller.summary else {}
        return [f for f in forms.get(str(action.get("type")), []) if f.get("extra") or has_field(action, f["field"])]

    def _fill_actions(self) -> None:
        c = self.controller
        if c is None or c.summary is None:
            return
        typed = self.group == "typed"
        row = self._typed_row
        if typed and row.parent is None:
            self.ids.scrolled.add_widget(row)
        elif not typed and row.parent is not None:
            row.parent.remove_widget(row)
        if self.form_action is not None and self.form_action not in c.legal:
            self.form_action = None
        self._fill_form()
        legal = [a for a in self._shown_actions() if group_of(a) == self.group]
        subjects: dict[tuple[str, str], list[dict[str, Any]]] = {}
        for a in legal:
            key = subject_of(a)
            if key is not None:
                subjects.setdefault(key, []).append(a)
        two_step = len(legal) > STEP_OVER and any(len(v) > 1 for v in subjects.values())
        if self.subject is not None and (not two_step or tuple(self.subject) not in subjects):
            self.subject = None
        specs: list[dict[str, Any]] = []
        if self.form_action is not None:
            self.step_text = ""
        elif self.subject is not None:
            subject = tuple(self.subject)
            self.step_text = f"{self._subject_words(subject)}: choose"
            field = {"merc": "merc", "target": "target", "player": "player"}.get(subject[0], "")
            on_field = subject[0] == "type" and subject[1] in TILE_KINDS
            if on_field:  # one button per tile would be a long list: the battlefield offers them
                self.step_text = f"{self._subject_words(subject)}: tap a lit tile on the battlefield"
            for a in [] if on_field else subjects[subject]:
                specs.append(self._spec(a, self._words(a, (field,)) if field else self._words(a)))
        else:
            self.step_text = ""
            listed: set[tuple[str, str]] = set()
            for a in legal:
                key = subject_of(a)
                if two_step and key is not None and len(subjects[key]) > 1:
                    if key not in listed:
                        listed.add(key)
                        specs.append({"text": f"{self._subject_words(key)}  ({len(subjects[key])})", "action": None,
                                      "value": key, "key": f"subject:{key[0]}:{key[1]}", "role": "normal",
                                      "disabled": False})
                else:
                    specs.append(self._spec(a, self._words(a)))
        fill_buttons(self.ids.actions, specs, self._action_button)
        view = (self.group, self.subject, self.form_action is not None)
        if view != self._view:  # another list or form: start at its top
            self._view = view
            self.ids.scroller.scroll_y = 1
        self.nothing = "" if legal or typed else ("The match is over." if c.summary.over else "Nothing to choose here.")
        self._fill_field()

    def _spec(self, action: Mapping[str, Any], text: str) -> dict[str, Any]:
        return {"text": text, "action": dict(action), "value": None, "key": action_key(action),
                "role": "danger" if action.get("type") == "concede" else "normal", "disabled": False}

    def _subject_words(self, subject: tuple[str, ...]) -> str:
        kind, what = subject[0], subject[1]
        if kind in ("merc", "target"):
            owner = next((m["owner"] for m in self.controller.summary.detail.get("mercenaries", [])
                          if m["id"] == what), "")
            name = self._names.get(what, what)
            return f"{owner}'s {name}" if owner else name
        if kind == "type":
            return {"fog": "Fog a tile", "pillar": "Place a pillar"}.get(what, key_text(what).capitalize())
        if kind == "player":
            return f"{what}: roll"
        return what

    # -- forms --------------------------------------------------------------------------------------

    def _fill_form(self) -> None:
        box = self.ids.form
        action = self.form_action
        if action is None:
            if box.children:
                box.clear_widgets()
            self._form_fields = []
            self._form_for = None
            self.form_text = ""
            return
        self.form_text = self._words(action)
        if self._form_for == action and self._form_fields:
            return  # the same form stays open with what was entered
        box.clear_widgets()
        self._form_for = action
        self._form_fields = []
        for spec in self._form_specs(action):
            field = FormField(spec=spec, words=key_text(spec["field"].split(".")[-1]).capitalize())
            value = field_value(action, spec["field"], spec.get("default"))
            build_field(field, spec, value)
            box.add_widget(field)
            self._form_fields.append(field)

    def send_form(self, extra: Mapping[str, Any] | None = None) -> None:
        """Send the action of the open form with the values entered (and ``extra`` fields: a tile)."""
        action = self.form_action
        if action is None:
            return
        filled = copy.deepcopy(dict(action))
        filled.update(extra or {})
        for field in self._form_fields:
            spec = field.spec
            raw = field.entered()
            if spec["kind"] == "number":
                try:
                    value: Any = int(raw)
                except ValueError:
                    self.controller.say(f"Enter a whole number for {field.words.lower()}.", "error")
                    return
            else:
                value = raw if spec["kind"] == "choice" else raw.strip()
            if spec.get("extra") and (value == spec.get("default") or value == ""):
                continue
            put_field(filled, spec["field"], value)
        if self.act(filled):
            self.form_action = None
            self._fill_actions()

    def cancel_form(self) -> None:
        """Close the form without sending anything."""
        self.form_action = None
        self._fill_actions()

    # -- the battlefield ------------------------------------------------------------------------------

    def _fill_field(self) -> None:
        c = self.controller
        if c is None or c.summary is None:
            return
        d = c.summary.detail
        self._offer, self.field_text = self._tile_offer(d)
        modes = {k: (PICK if o[0] == "pick" else LIT) for k, o in self._offer.items()}
        self.ids.field.show(d, modes)

    def _tile_offer(self, d: Mapping[str, Any]) -> tuple[dict[TileKey, tuple[Any, ...]], str]:
        """What each tile offered now does, and the words saying so. The tiles are the engine's
        ``tile_choices``; the screen only picks which kind of action they are for."""
        choices = d.get("tile_choices", [])
        if self.controller.summary.over:
            return {}, ""

        def choice(kind: str, **who: Any) -> Mapping[str, Any] | None:
            return next((ch for ch in choices if ch["type"] == kind
                         and all(ch.get(k) == v for k, v in who.items() if v is not None)), None)

        form = self.form_action
        if form is not None:
            ch = choice(str(form.get("type")), player=form.get("player"))
            if ch is None:
                return {}, ""
            offer = {tile_key(t): ("form", ch["field"], dict(t)) for t in ch["tiles"]}
            return offer, "Tap a lit tile: it enters there (Send leaves it off the battlefield)."
        subject = tuple(self.subject) if self.subject is not None else None
        for kind, words in (("fog", "Tap a lit tile to cover it with fog."),
                            ("pillar", "Tap a lit tile to place a pillar there.")):
            if subject == ("type", kind) or (kind == "pillar" and d.get("stage") == "pillars"):
                listed = {tile_key(a["tile"]): a for a in self.controller.legal
                          if a.get("type") == kind and isinstance(a.get("tile"), Mapping)}
                offer = {}
                for ch in choices:
                    if ch["type"] == kind:
                        offer.update({tile_key(t): ("send", listed[tile_key(t)]) for t in ch["tiles"]
                                      if tile_key(t) in listed})
                return offer, words if offer else ""
        # in a Movement phase the battlefield offers the moves whatever kind of action is shown
        return self._move_offer(d, [ch for ch in choices if ch["type"] == "move"])

    def _move_offer(self, d: Mapping[str, Any], movers: list[Mapping[str, Any]]
                    ) -> tuple[dict[TileKey, tuple[Any, ...]], str]:
        by_merc = {ch["merc"]: ch for ch in movers}
        if not by_merc:
            return {}, ""
        mover = self.mover or ""
        if mover not in by_merc and self.subject is not None and tuple(self.subject)[0] == "merc":
            mover = tuple(self.subject)[1]
        if mover not in by_merc and len(by_merc) == 1:
            mover = next(iter(by_merc))
        where = {m["id"]: m.get("tile") for m in d.get("mercenaries", [])}
        offer: dict[TileKey, tuple[Any, ...]] = {tile_key(where[m]): ("pick", m) for m in by_merc
                                                 if where.get(m) and m != mover}
        if mover not in by_merc:
            return offer, "Tap a lit mercenary to see where it can move."
        ch = by_merc[mover]
        for t in ch["tiles"]:
            offer[tile_key(t)] = ("send", {"type": "move", "player": ch["player"], "merc": mover, "to": dict(t)})
        others = " (or tap another lit mercenary)" if len(by_merc) > 1 else ""
        return offer, f"Tap a lit tile to move {self._names.get(mover, mover)} there{others}."

    def tap_tile(self, key: TileKey) -> None:
        """A lit tile of the battlefield was tapped: send its action, or choose who moves."""
        offer = self._offer.get(tuple(key))  # type: ignore[arg-type]
        if offer is None:
            return
        if offer[0] == "pick":
            self.mover = offer[1]
            self._fill_field()
        elif offer[0] == "form":
            self.send_form({offer[1]: offer[2]})
        else:
            self.act(offer[1])

    def send_typed(self) -> None:
        """Send the JSON action typed in the field (as ``purser play`` takes it)."""
        field = self.ids.typed
        try:
            action = json.loads(field.text)
        except json.JSONDecodeError as exc:
            self.controller.say(f"That is not a JSON action ({exc.msg}); for example {{\"type\": \"heal\", ...}}",
                                "error")
            return
        if not isinstance(action, dict):
            self.controller.say('An action is a JSON object such as {"type": "heal", "target": "m1", "amount": 2}',
                                "error")
            return
        if self.act(action):
            field.text = ""


