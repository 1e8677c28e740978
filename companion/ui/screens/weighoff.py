"""The weigh-off at the end of 7 Seize: live weight with a stable indicator, whose collection
goes on the pan, the collections weighed so far on a chart zoomed to the contested range
with each weight's confidence whiskers, the bracket, tie instructions and the winner.

Weighing is one of the engine's listed actions (``"from": "scale"``), measured on the scale
thread; with no scale, grams (or domino pips) are typed in.

The balance is taken pan by pan: a weigh button only for a pan that can weigh (a collection
due on a pan that cannot is offered on one that can, the pan only being where it is put),
the pan that cannot named with the wire to check, the buttons held while the balance is
unplugged and waited for, and why a weighing found no steady weight (noise or motion) in
one line, with what to check on the screen.

A reading the engine refuses as impossible is shown with its reason and "Weigh again"
(weighs that collection afresh, or lets the grams be typed again); when only the house-rule
piece weights rule it out, "Keep this reading" beside it sends that very reading again with
``"confirm": true``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kivy.app import App
from kivy.metrics import dp
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, StringProperty

from companion.pans import pan_name
from companion.ui.scale_words import noisy, pan_problem
from companion.ui.screens.game_base import GameScreen
from companion.ui.widgets import gamebar, plot, table  # noqa: F401  (kv classes)
from companion.ui.widgets.base import PButton, PLabel


def reading_text(reading: Mapping[str, Any] | None) -> str:
    """ "153.20 ± 0.40 g (20 pieces)" or "41 pips"; "-" before weighing."""
    if not reading:
        return "-"
    value, u, unit = reading.get("value", 0.0), reading.get("uncertainty", 0.0), reading.get("unit", "g")
    pieces = reading.get("pieces")
    tail = f" ({pieces} pieces)" if pieces else ""
    if unit == "pips":
        return f"{value:g} pips{tail}"
    return (f"{value:.2f} ± {u:.2f} g" if u else f"{value:.2f} g") + tail


def contest_text(contest: Mapping[str, Any]) -> str:
    """One contest of the bracket in words."""
    a, b = contest["pair"]
    bouts = contest.get("bouts", [])
    ties = contest.get("tie_breaks", 0)
    if contest.get("drawn"):
        outcome = "drawn: both stay in"
    elif contest.get("winner"):
        outcome = f"{contest['winner']} stays in" + (
            f", {', '.join(contest['eliminated'])} out" if contest.get("eliminated") else ""
        )
    else:
        outcome = "in progress"
    last = bouts[-1]["readings"] if bouts else {}
    weights = f" ({reading_text(last.get(a))} vs {reading_text(last.get(b))})" if last else ""
    return f"{a} vs {b}: {outcome}{weights}" + (f" after {ties} tie-break{'s' * (ties != 1)}" if ties else "")


def balance_note(state: str, message: str, pans: list[Mapping[str, Any]]) -> str:
    """What a table needs to know about the balance before weighing: it is being waited
    for, or it cannot weigh at all, or which pan cannot (and the wire to check), or that a
    pan is noisy but weighs."""
    if state in ("waiting", "fault"):
        return message
    if state != "ready":
        return ""
    notes = [pan_problem(p) for p in pans if not p.get("working", True) and p.get("state") != "disconnected"]
    for p in pans:
        if noisy(p):
            notes.append(
                f"Pan {pan_name(int(p['channel']))} is noisy (±{p['noise_g']:.3f} g, "
                f"{p['noise_ratio']:.1f}× an HX711's): it weighs, averaging {p['averaging']} readings."
            )
    return " ".join(n for n in notes if n)


def weigh_plan(channel: int, hardware: Any) -> tuple[int | None, bool]:
    """Which pan a collection due on pan ``channel`` is weighed on, and whether the button
    can be pressed now: the pan itself when it can weigh, else the first pan that can
    (None: no pan can). While the balance is waited for, the pan stays and the button waits."""
    if hardware is None:
        return channel, True
    if hardware.scale_state == "waiting":
        return channel, False
    if hardware.can_weigh(channel):
        return channel, True
    working = [c for c in range(int(hardware.scale_channels)) if hardware.can_weigh(c)]
    return (working[0], True) if working else (None, False)


class WeighOffScreen(GameScreen):
    """The weigh-off, from the first weighing to the winner."""

    #: Whose collection goes on which pan ("Pan A: Ana's collection, 20 pieces").
    pan_text = StringProperty("")
    result = StringProperty("")
    unit = StringProperty("g")
    weighed = NumericProperty(0)
    chart_rows = ListProperty([])
    #: The pan the live reading is from ("A"), shown on a two-pan balance.
    live_pan = StringProperty("")
    #: The balance in a line when something about it matters (see :func:`balance_note`).
    note = StringProperty("")
    #: The pan being watched can be tared now.
    can_tare = BooleanProperty(False)
    #: A reading was refused as impossible: its reason, and whether the table may keep it.
    refused = BooleanProperty(False)
    refusal_text = StringProperty("")
    can_keep = BooleanProperty(False)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.uses_scale = True
        self._balance_key: tuple[Any, ...] | None = None
        self._refusals: Any = None
        hw = App.get_running_app().hardware
        if hw is not None:
            hw.bind(pans=self._balance_changed, scale_state=self._balance_changed, scale_message=self._balance_changed)

    def on_controller(self, inst: Any, controller: Any) -> None:
        if self._refusals is not None:
            self._refusals.unbind(refusal=self._refusal_changed)
        self._refusals = controller
        if controller is not None:
            controller.bind(refusal=self._refusal_changed)
        super().on_controller(inst, controller)
        self._refusal_changed()

    def _refusal_changed(self, *_: Any) -> None:
        """Show a refused reading's reason with "Weigh again" (and "Keep this reading" when
        the table may keep it); the message bar then only points to it."""
        c = self.controller
        refusal = c.refusal if c is not None else None
        box = self.ids.refusal_buttons
        box.clear_widgets()
        if refusal is None or refusal["action"].get("type") != "weigh":
            self.refused, self.refusal_text, self.can_keep = False, "", False
            return
        self.refusal_text = refusal["reason"]
        self.can_keep = bool(refusal["confirmable"])
        self.refused = True
        if self.can_keep:
            keep = PButton(text="Keep this reading", key="keep-reading", role="quiet")
            keep.bind(on_release=lambda _b: self.keep_reading())
            box.add_widget(keep)
        again = PButton(text="Count again" if self.unit == "pips" else "Weigh again", key="weigh-again", role="primary")
        again.bind(on_release=lambda _b: self.weigh_again())
        box.add_widget(again)
        if self.manager is not None and self.manager.current == self.name:
            player = refusal["action"].get("player", "")
            c.say(f"{player}'s reading was not kept: see why above the weigh buttons.", "error")

    def keep_reading(self) -> None:
        """Keep the refused reading at the table's word: the same reading, ``"confirm": true``."""
        refusal = self.controller.refusal if self.controller else None
        if refusal is not None and refusal["confirmable"]:
            self.act({**refusal["action"], "confirm": True})

    def weigh_again(self) -> None:
        """Weigh the refused collection afresh on the balance (a weighing), or clear the way to
        type it again (typed grams or pips)."""
        c = self.controller
        refusal = c.refusal if c is not None else None
        if refusal is None:
            return
        action = refusal["action"]
        c.refusal = None
        c.say("", "")
        if "weighing" in action:
            button = next(
                (
                    b
                    for b in self.ids.weigh_buttons.children
                    if getattr(b, "key", "") == f"weigh:{action.get('player')}" and not b.disabled
                ),
                None,
            )
            if button is not None:
                self.act(button.action)
                return
        self.ids.typed.focus = True
        self.ids.typed.select_all()

    def _balance_changed(self, *_: Any) -> None:
        """The balance's state or a pan's changed: the note, and the weigh buttons when which
        pans can weigh has changed."""
        hw = App.get_running_app().hardware
        if hw is None:
            return
        self.note = balance_note(hw.scale_state, hw.scale_message, list(hw.pans))
        self.can_tare = hw.can_weigh(int(getattr(self, "_channel", 0)))
        key = (hw.scale_state, tuple(c for c in range(int(hw.scale_channels)) if hw.can_weigh(c)))
        if key != self._balance_key:
            self._balance_key = key
            c = self.controller
            if (
                c is not None
                and c.summary is not None
                and self.manager is not None
                and self.manager.current == self.name
            ):
                wo = c.summary.detail.get("weighoff")
                if wo is not None:
                    self._fill_actions(wo)

    def refresh(self) -> None:
        c = self.controller
        if c is None or c.summary is None:
            return
        s = c.summary
        d = s.detail
        wo = d.get("weighoff")
        if (
            (wo is None or d.get("phase") not in ("weighoff", "over"))
            and self.manager
            and self.manager.current == self.name
        ):
            App.get_running_app().go("seize", controller=c)  # undone back into the rounds
            return
        if wo is None:
            return
        self.title = f"{c.game.TITLE}: weigh-off" + (" (Cursed Treasure: lightest wins)" if wo.get("cursed") else "")
        self.prompt = s.prompt or wo.get("instruction", "")
        self.unit = wo.get("unit", "g")
        pans = wo.get("pans_for", {})
        pieces = d.get("waiting", {}).get("pieces", {}) or {}
        self.pan_text = "\n".join(
            f"Pan {pan_name(int(pans.get(n, 0)))}: {n}'s collection, "
            f"{pieces.get(n, wo['pieces'].get(n, 0) - wo['removed'].get(n, 0))} pieces"
            for n in wo.get("waiting", [])
        )
        self.result = (
            f"{' and '.join(wo['winners'])} wins!"
            if len(wo.get("winners", [])) == 1
            else f"{' and '.join(wo['winners'])} win!"
            if wo.get("winners")
            else ""
        )
        self._fill_actions(wo)
        self._fill_chart(wo)
        self._fill_bracket(wo)
        channel = next(iter(pans.values()), 0)
        hw = c.hardware
        if hw is not None:
            shown, _ = weigh_plan(int(channel), hw)
            channel = channel if shown is None else shown
            self.live_pan = f"pan {pan_name(int(channel))}" if int(hw.scale_channels) > 1 else ""
        self._channel = int(channel)
        if hw is not None and self.manager and self.manager.current == self.name:
            hw.watch_scale(True, int(channel))
            self._balance_changed()

    def _fill_actions(self, wo: Mapping[str, Any]) -> None:
        c = self.controller
        box = self.ids.weigh_buttons
        box.clear_widgets()
        typed = self.ids.typed_buttons
        typed.clear_widgets()
        seen: set[str] = set()
        hw = c.hardware
        two = hw is not None and int(hw.scale_channels) > 1
        for action in c.legal:
            if action.get("type") != "weigh":
                continue
            player = str(action["player"])
            if "from" in action:
                due = int(action.get("channel", 0))
                on, ready = weigh_plan(due, hw)
                if on is not None:  # else no pan can weigh: the note says why, the grams are typed
                    where = f" (pan {pan_name(on)})" if two else ""
                    if on != due:
                        where = f" on pan {pan_name(on)} (pan {pan_name(due)} cannot weigh)"
                    button = self.action_button(
                        {**action, "channel": on},
                        text=f"Weigh {player}{where}",
                        role="primary",
                        key=f"weigh:{player}",
                        height=dp(72),
                    )
                    button.disabled = not ready
                    box.add_widget(button)
            if player not in seen:
                seen.add(player)
                b = PButton(text=f"Enter for {player}", key=f"typed:{player}")
                b.bind(on_release=lambda _b, p=player: self.enter_typed(p))
                typed.add_widget(b)
        if not box.children and not c.summary.over:
            due = any(a.get("type") == "weigh" for a in c.legal)
            box.add_widget(
                PLabel(
                    text="The balance cannot weigh now: type the grams below." if due else "No weighing to do now.",
                    role="muted",
                )
            )
        self.ids.typed_row.shown = bool(seen)

    def _fill_chart(self, wo: Mapping[str, Any]) -> None:
        from companion.ui.widgets.plot import interval_chart

        k = float(wo.get("coverage_factor", 2.0))
        winners = set(wo.get("winners", []))
        out = set(wo.get("eliminated", []))
        rows = []
        for name, reading in wo.get("weights", {}).items():
            value = reading.get("value") if reading else None
            spread = k * float(reading.get("uncertainty", 0.0)) if reading else 0.0
            state = "winner" if name in winners else ("out" if name in out else "in")
            text = reading_text({**reading, "pieces": 0}) if reading else "not weighed"
            pieces = wo.get("pieces", {}).get(name)
            rows.append(
                {
                    "name": f"{name} ({pieces})" if pieces is not None else name,
                    "value": value,
                    "spread": spread,
                    "text": text,
                    "state": state,
                }
            )
        self.weighed = sum(1 for r in rows if r["value"] is not None)
        self.chart_rows = rows
        unit = "pips" if self.unit == "pips" else "grams"
        self.ids.chart.title = "Weights"
        self.ids.chart.plot(
            interval_chart(rows, unit=f"{unit} (whiskers: {k:.2g} standard uncertainties)") if self.weighed else None
        )
        self.ids.weights.text = "   ".join(f"{r['name']}: {r['text']}" for r in rows)

    def _fill_bracket(self, wo: Mapping[str, Any]) -> None:
        lines = [contest_text(cn) for cn in wo.get("contests", [])]
        if wo.get("contest"):
            lines.append(contest_text(wo["contest"]))
        self.ids.bracket.text = "\n".join(lines) or "Contests appear here once collections are weighed."
        rows = []
        for r in wo.get("ranking", []):
            value = r.get("value")
            weight = (
                "-"
                if value is None
                else reading_text(
                    {"value": value, "uncertainty": r.get("uncertainty") or 0, "unit": r.get("unit", "g")}
                )
            )
            rows.append([str(r.get("place") or "-"), r["player"], weight, str(r.get("pieces", ""))])
        self.ids.ranking.show(
            ["Place", "Player", "Weight", "Pieces"],
            rows,
            marked_rows=[i for i, r in enumerate(wo.get("ranking", [])) if r["player"] in wo.get("winners", [])],
        )

    def enter_typed(self, player: str) -> None:
        """Send the typed grams (or pips) for ``player``'s collection."""
        text = self.ids.typed.text.strip().replace(",", ".")
        try:
            value = float(text)
        except ValueError:
            self.controller.say("Type the weight first: a number, like 151.5", "error")
            return
        key = "pips" if self.unit == "pips" else "grams"
        action: dict[str, Any] = {"type": "weigh", "player": player, key: int(value) if key == "pips" else value}
        if self.act(action):
            self.ids.typed.text = ""

    def tare(self) -> None:
        """Zero the pan before a collection goes on."""
        hw = self.controller.hardware if self.controller else None
        if hw is None:
            return
        self.controller.say("Taring: keep the pan empty and still...", "info")
        hw.tare(
            getattr(self, "_channel", 0),
            lambda _r: self.controller.say("Tared: the pan reads zero.", "info"),
            lambda exc: self.controller.say(f"Not tared. {exc}", "error"),
        )
