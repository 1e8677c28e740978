"""The actions panel of the Seize: Guilded Treasures screen, as a part of the screen: the
engine's listed actions grouped by kind and chosen in one or two steps, moving the turn on,
the forms for values an action only carries as examples, deck lists, and typed JSON.

:class:`ActionsPanel` is mixed into :class:`~companion.ui.screens.guilded.GuildedScreen`;
it reads the screen's properties (``group``, ``subject``, ``form_action`` ...) and ids.
The grouping rules and form fields are in :mod:`.guilded_actions`; presentation only.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from kivy.metrics import dp

from companion.ui.screens.guilded_actions import (
    FLOW,
    GROUP_WORDS,
    GROUPS,
    NAMED_BY_VALUE,
    STEP_OVER,
    TILE_KINDS,
    FormField,
    action_key,
    build_field,
    field_value,
    group_of,
    has_field,
    phrase,
    put_field,
    subject_of,
)
from companion.ui.screens.guilded_board import tile_words
from companion.ui.screens.guilded_deck import DeckForm
from companion.ui.widgets.base import PButton, PToggle, fill_buttons
from companion.ui.words import action_label, key_text


class ActionsPanel:
    """The right-hand side of the Guilded screen (a mixin of the screen: it uses the screen's
    ``act`` and the battlefield's ``_fill_field``)."""

    TYPED_HINT = '{"type": "heal", ...}'
    TYPED_EXAMPLE = '{"type": "heal", "target": "m1", "amount": 2}'

    controller: Any
    ids: Any
    _names: dict[str, str]
    _form_fields: list[FormField]
    _form_for: Any
    # the screen's properties and the battlefield's parts this panel uses
    group: str
    subject: Any
    step_text: str
    form_action: Any
    mover: str
    _typed_row: Any

    if TYPE_CHECKING:  # declared only: the real ones come from the screen's other parts

        def act(self, action: Mapping[str, Any]) -> bool: ...  # the screen's
        def _fill_field(self) -> None: ...  # the battlefield's

    _view: Any

    # -- actions ----------------------------------------------------------------------------------

    def _to_act(self) -> tuple[str, ...]:
        c = self.controller
        return tuple(c.summary.to_act) if c and c.summary else ()

    def _words(self, action: Mapping[str, Any], leave_out: tuple[str, ...] = ()) -> str:
        """Button words: the engine's, with mercenaries and tiles named as players see them."""
        if action.get("type") == "deck":
            return f"{action.get('player')}: enter the deck list..."
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
                shown[k] = self._names.get(v, v)
            elif k in ("tile", "to") and isinstance(v, Mapping):
                shown[k] = tile_words(v)
            else:
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
            specs.append(
                {
                    "text": text,
                    "action": a,
                    "value": None,
                    "key": f"flow:{a['type']}:{a.get('player', '')}",
                    "role": "primary" if a["type"] == "next_phase" else "normal",
                    "disabled": False,
                }
            )
        d = c.summary.detail
        building = d.get("clock", {}).get("building")
        if (
            d.get("stage") == "building"
            and building
            and not building.get("over")
            and d.get("clock", {}).get("last_at") is None
        ):
            # the engine's clock only moves with timed actions: this one starts the building time
            specs.insert(
                0,
                {
                    "text": f"Start the {int(building['limit_s'] or 0) // 60}-minute deck building timer",
                    "action": {"type": "clock"},
                    "value": None,
                    "key": "flow:clock",
                    "role": "primary",
                    "disabled": False,
                },
            )
        fill_buttons(self.ids.flow, specs, self._action_button)

    def _next_words(self, action: Mapping[str, Any], text: str) -> str:
        """ "Next phase: Attack" (or whose turn comes), as the engine would make it."""
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
        specs = [
            {"text": GROUP_WORDS[g], "value": g, "key": f"group:{g}", "state": "down" if g == self.group else "normal"}
            for g in present
        ]
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
        if action.get("type") == "deck" or self._form_specs(action):
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
                        specs.append(
                            {
                                "text": f"{self._subject_words(key)}  ({len(subjects[key])})",
                                "action": None,
                                "value": key,
                                "key": f"subject:{key[0]}:{key[1]}",
                                "role": "normal",
                                "disabled": False,
                            }
                        )
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
        return {
            "text": text,
            "action": dict(action),
            "value": None,
            "key": action_key(action),
            "role": "danger" if action.get("type") == "concede" else "normal",
            "disabled": False,
        }

    def _subject_words(self, subject: tuple[str, ...]) -> str:
        kind, what = subject[0], subject[1]
        if kind in ("merc", "target"):
            owner = next(
                (m["owner"] for m in self.controller.summary.detail.get("mercenaries", []) if m["id"] == what), ""
            )
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
        if self._form_for == action and (self._form_fields or box.children):
            return  # the same form stays open with what was entered
        box.clear_widgets()
        self._form_for = action
        self._form_fields = []
        if action.get("type") == "deck":  # a deck list: one row per card, not typed JSON
            box.add_widget(DeckForm(action=dict(action)))
            return
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
        deck = [w for w in self.ids.form.children if isinstance(w, DeckForm)]
        if deck:
            problem, filled = deck[0].filled()
            if problem:
                self.controller.say(problem, "error")
                return
            if self.act(filled):
                self.form_action = None
                self._fill_actions()
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
