"""The "7" screen: the pile's total, the chips table, and a play pad of the legal plays.

Every button on the pad is one of the engine's legal actions; the total a play makes is
asked of the engine (a preview), never worked out here.
"""

from __future__ import annotations

from typing import Any

from kivy.metrics import dp
from kivy.properties import StringProperty

from companion.ui.screens.game_base import GameScreen
from companion.ui.widgets import gamebar, table  # noqa: F401  (kv classes)
from companion.ui.widgets.base import PButton, fill_buttons


class SevenScreen(GameScreen):
    """Score table, pile, prompt and play pad for "7"."""

    total = StringProperty("")
    pile_text = StringProperty("")
    round_text = StringProperty("")

    def refresh(self) -> None:
        c = self.controller
        if c is None or c.summary is None:
            return
        s = c.summary
        d = s.detail
        self.title = str(c.game.TITLE)
        self.prompt = s.prompt
        self.total = str(d.get("total", 0)) if d.get("pile") else "-"
        top = d.get("top")
        pile = d.get("pile", 0)
        self.pile_text = (
            f"{pile} card{'s' * (pile != 1)} in the pile"
            + (f", top card {top}" if top is not None else "")
            + f"\n{d.get('draw_pile', 0)} to draw, {d.get('set_aside', 0)} set aside"
        )
        chips_left = d.get("chips_left")
        self.round_text = (
            f"Round {d.get('round', 1)} of {d.get('rounds', '?')}"
            if chips_left is None
            else (f"Round {d.get('round', 1)}, {chips_left} chips left in the box")
        )
        if s.over:
            self.round_text = "Game over"
        finishing = list(d.get("finishing", []))
        hands = d.get("hands", {})
        rows = []
        for player, chips in s.scores.items():
            place = f"{finishing.index(player) + 1}." if player in finishing else ""
            rows.append([player, f"{chips:g}", str(hands.get(player, "")), place])
        marked = [i for i, p in enumerate(s.scores) if p in s.to_act or p in s.winners]
        self.ids.scores.show(["Player", "Chips", "Cards", "Out"], rows, marked_rows=marked)
        self._fill_pad()

    def _fill_pad(self) -> None:
        c = self.controller
        highest = int(getattr(c.state, "highest_card", 7))
        by_key = {}
        penalty = None
        for action in c.legal:
            if action.get("type") == "play":
                by_key[(action.get("card"), action.get("on"))] = action
            elif action.get("type") == "penalty":
                penalty = action
        for row_id, on in (("hole_row", "hole"), ("number_row", "number")):
            specs = []
            for card in range(1, highest + 1):
                action = by_key.get((card, on))
                label = (
                    str(card)
                    if on == "hole" or action is None
                    else (f"{card}\n[size=15sp]makes {self._made(action)}[/size]")
                )
                specs.append({"text": label, "action": action, "disabled": action is None, "key": f"play:{card}:{on}"})
            fill_buttons(self.ids[row_id], specs, self._pad_button)
        pen = self.ids.penalty
        pen.action = penalty
        pen.disabled = penalty is None

    def _pad_button(self) -> PButton:
        from kivy.app import App

        return self.new_action_button(height=dp(76), markup=True, font_size=App.get_running_app().theme.font_big)

    def _made(self, action: Any) -> str:
        """The total the engine says ``action`` makes (from its "played" event)."""
        preview = self.controller.preview(action)
        if preview is None:
            return "?"
        for e in preview[1]:
            if "total" in e:
                return str(e["total"])
        return "?"

    def penalty(self) -> None:
        """Take a penalty card (the engine's listed penalty action)."""
        action = self.ids.penalty.action
        if action is not None:
            self.act(action)
