"""The generic game screen: any engine, driven only by its summary() and legal_actions().

Scores, whose turn it is, the prompt, the engine's details, and one button per legal
action (grouped by kind when there are many). Actions that carry values the engine cannot
enumerate (typed grams, dice) can be typed as JSON, the way ``purser play`` takes them.
"""

from __future__ import annotations

from kivy.metrics import dp
from kivy.properties import ListProperty, StringProperty

from companion.ui.screens.game_base import GameScreen
from companion.ui.widgets import gamebar, table  # noqa: F401  (kv classes)
from companion.ui.widgets.base import PToggle, fill_buttons
from companion.ui.words import detail_lines, key_text

#: With more legal actions than this, they are grouped by kind behind a row of chips.
GROUP_OVER = 24


class GenericGameScreen(GameScreen):
    """Every engine gets this screen the moment it is registered."""

    details = StringProperty("")
    kinds = ListProperty([])
    kind = StringProperty("")
    nothing = StringProperty("")

    def refresh(self) -> None:
        c = self.controller
        if c is None or c.summary is None:
            return
        s = c.summary
        self.title = str(c.game.TITLE)
        self.prompt = s.prompt
        rows = []
        for player, score in s.scores.items():
            mark = "to act" if player in s.to_act else ("winner" if player in s.winners else "")
            rows.append([player, f"{score:g}", mark])
        marked = [i for i, p in enumerate(s.scores) if p in s.to_act or p in s.winners]
        self.ids.scores.show(["Player", "Score", ""], rows, marked_rows=marked)
        self.details = "\n".join(detail_lines(s.detail))
        kinds = list(dict.fromkeys(a.get("type", "?") for a in c.legal))
        self.kinds = kinds if len(c.legal) > GROUP_OVER and len(kinds) > 1 else []
        if self.kind not in self.kinds:
            self.kind = self.kinds[0] if self.kinds else ""
        self._fill_kinds()
        self._fill_actions()

    def _fill_kinds(self) -> None:
        specs = [
            {
                "text": key_text(k).capitalize(),
                "value": k,
                "key": f"kind:{k}",
                "state": "down" if k == self.kind else "normal",
            }
            for k in self.kinds
        ]
        fill_buttons(self.ids.kinds, specs, self._kind_chip)

    def _kind_chip(self) -> PToggle:
        chip = PToggle(group=f"generic-kinds-{id(self)}", allow_no_selection=False)
        chip.bind(on_release=lambda w: self.pick_kind(w.value))
        return chip

    def pick_kind(self, kind: str) -> None:
        """Show only actions of ``kind``."""
        self.kind = kind
        self._fill_actions()

    def _fill_actions(self) -> None:
        c = self.controller
        legal = [a for a in c.legal if not self.kind or a.get("type") == self.kind]
        fill_buttons(self.ids.actions, self.action_specs(legal), lambda: self.new_action_button(height=dp(72)))
        self.nothing = (
            ""
            if legal
            else ("The game is over." if c.summary.over else "Nothing to choose here: use the typed action below.")
        )

    def example(self) -> str:
        """The engine's example actions, shown under the typed field."""
        c = self.controller
        return str(getattr(c.game, "ACTIONS_HELP", "")) if c else ""
