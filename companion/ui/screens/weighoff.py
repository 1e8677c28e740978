"""The weigh-off at the end of 7 Seize: live weight with a stable indicator, whose collection
goes on the pan, the collections weighed so far on a chart zoomed to the contested range
with each weight's confidence whiskers, the bracket, tie instructions and the winner.

Weighing is one of the engine's listed actions (``"from": "scale"``), measured on the scale
thread; with no scale, grams (or domino pips) are typed in.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kivy.app import App
from kivy.metrics import dp
from kivy.properties import ListProperty, NumericProperty, StringProperty

from companion.ui.screens.game_base import GameScreen
from companion.ui.widgets import gamebar, plot, table  # noqa: F401  (kv classes)
from companion.ui.widgets.base import PButton, PLabel


def reading_text(reading: Mapping[str, Any] | None) -> str:
    """"153.20 ± 0.40 g (20 pieces)" or "41 pips"; "-" before weighing."""
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
        outcome = f"{contest['winner']} stays in" + (f", {', '.join(contest['eliminated'])} out" if contest.get("eliminated") else "")
    else:
        outcome = "in progress"
    last = bouts[-1]["readings"] if bouts else {}
    weights = f" ({reading_text(last.get(a))} vs {reading_text(last.get(b))})" if last else ""
    return f"{a} vs {b}: {outcome}{weights}" + (f" after {ties} tie-break{'s' * (ties != 1)}" if ties else "")


class WeighOffScreen(GameScreen):
    """The weigh-off, from the first weighing to the winner."""

    on_pan = StringProperty("")
    result = StringProperty("")
    unit = StringProperty("g")
    weighed = NumericProperty(0)
    chart_rows = ListProperty([])

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.uses_scale = True

    def refresh(self) -> None:
        c = self.controller
        if c is None or c.summary is None:
            return
        s = c.summary
        d = s.detail
        wo = d.get("weighoff")
        if (wo is None or d.get("phase") not in ("weighoff", "over")) and self.manager \
                and self.manager.current == self.name:
            App.get_running_app().go("seize", controller=c)  # undone back into the rounds
            return
        if wo is None:
            return
        self.title = f"{c.game.TITLE}: weigh-off" + (" (Cursed Treasure: lightest wins)" if wo.get("cursed") else "")
        self.prompt = s.prompt or wo.get("instruction", "")
        self.unit = wo.get("unit", "g")
        pans = wo.get("pans_for", {})
        pieces = d.get("waiting", {}).get("pieces", {}) or {}
        self.on_pan = "\n".join(
            f"Pan {pans.get(n, 0) + 1}: {n}'s collection, {pieces.get(n, wo['pieces'].get(n, 0) - wo['removed'].get(n, 0))} pieces"
            for n in wo.get("waiting", [])
        )
        self.result = (f"{' and '.join(wo['winners'])} wins!" if len(wo.get("winners", [])) == 1 else
                       f"{' and '.join(wo['winners'])} win!" if wo.get("winners") else "")
        self._fill_actions(wo)
        self._fill_chart(wo)
        self._fill_bracket(wo)
        channel = next(iter(pans.values()), 0)
        self._channel = int(channel)
        hw = c.hardware
        if hw is not None and self.manager and self.manager.current == self.name:
            hw.watch_scale(True, int(channel))

    def _fill_actions(self, wo: Mapping[str, Any]) -> None:
        c = self.controller
        box = self.ids.weigh_buttons
        box.clear_widgets()
        typed = self.ids.typed_buttons
        typed.clear_widgets()
        seen: set[str] = set()
        for action in c.legal:
            if action.get("type") != "weigh":
                continue
            player = str(action["player"])
            if "from" in action:
                pan = int(action.get("channel", 0)) + 1
                box.add_widget(self.action_button(action, text=f"Weigh {player} (pan {pan})", role="primary",
                                                  key=f"weigh:{player}", height=dp(72)))
            if player not in seen:
                seen.add(player)
                b = PButton(text=f"Enter for {player}", key=f"typed:{player}")
                b.bind(on_release=lambda _b, p=player: self.enter_typed(p))
                typed.add_widget(b)
        if not box.children and not c.summary.over:
            box.add_widget(PLabel(text="No weighing to do now.", role="muted"))
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
            rows.append({"name": f"{name} ({pieces})" if pieces is not None else name, "value": value,
                         "spread": spread, "text": text, "state": state})
        self.weighed = sum(1 for r in rows if r["value"] is not None)
        self.chart_rows = rows
        unit = "pips" if self.unit == "pips" else "grams"
        self.ids.chart.title = "Weights"
        self.ids.chart.plot(interval_chart(rows, unit=f"{unit} (whiskers: {k:.2g} standard uncertainties)")
                            if self.weighed else None)
        self.ids.weights.text = "   ".join(f"{r['name']}: {r['text']}" for r in rows)

    def _fill_bracket(self, wo: Mapping[str, Any]) -> None:
        lines = [contest_text(cn) for cn in wo.get("contests", [])]
        if wo.get("contest"):
            lines.append(contest_text(wo["contest"]))
        self.ids.bracket.text = "\n".join(lines) or "Contests appear here once collections are weighed."
        rows = []
        for r in wo.get("ranking", []):
            value = r.get("value")
            weight = "-" if value is None else reading_text({"value": value, "uncertainty": r.get("uncertainty") or 0,
                                                             "unit": r.get("unit", "g")})
            rows.append([str(r.get("place") or "-"), r["player"], weight, str(r.get("pieces", ""))])
        self.ids.ranking.show(["Place", "Player", "Weight", "Pieces"], rows,
                              marked_rows=[i for i, r in enumerate(wo.get("ranking", [])) if r["player"] in wo.get("winners", [])])

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
        hw.tare(getattr(self, "_channel", 0), lambda _r: self.controller.say("Tared: the pan reads zero.", "info"),
                lambda exc: self.controller.say(f"Not tared: {exc}", "error"))
