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

The parts live beside it, each with its own kv file: the boards in :mod:`.guilded_board`,
the battlefield in :mod:`.guilded_field` (drawing) and :mod:`.guilded_tiles` (what a tile
does), the actions panel in :mod:`.guilded_panel` (with the grouping and form fields of
:mod:`.guilded_actions` and the deck list form of :mod:`.guilded_deck`).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from typing import Any

from kivy.clock import Clock
from kivy.metrics import dp
from kivy.properties import ListProperty, ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout

from companion.ui.screens.game_base import GameScreen
from companion.ui.screens.guilded_actions import FormField
from companion.ui.screens.guilded_board import PlayerBoard, clock_words, counts_text, loot_lines, merc_spec
from companion.ui.screens.guilded_field import (
    BattleField,  # noqa: F401  (a kv class)
    TileKey,
)
from companion.ui.screens.guilded_panel import ActionsPanel
from companion.ui.screens.guilded_tiles import TileOffers
from companion.ui.widgets import gamebar, table  # noqa: F401  (kv classes)
from companion.ui.widgets.table import Cell
from companion.ui.words import key_text

#: The kv files of the screen's parts, loaded with its own (``guilded.kv``).
KV_PARTS = (
    "companion.ui.screens.guilded_board",
    "companion.ui.screens.guilded_actions",
    "companion.ui.screens.guilded_field",
    "companion.ui.screens.guilded_deck",
)


class GuildedScreen(ActionsPanel, TileOffers, GameScreen):
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
        self.prompt = (
            ""
            if s.over
            else (s.prompt if d.get("stage") != "play" or not allows else "; ".join(allows).capitalize() + ".")
        )
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
        match = (
            f"{fmt.get('title', '')}, game {fmt.get('game', 1)} of up to {fmt.get('best_of', 1)}"
            if fmt.get("best_of", 1) > 1
            else str(fmt.get("title", ""))
        )
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
            columns = [
                BoxLayout(orientation="vertical", size_hint_y=None, spacing=dp(8), pos_hint={"top": 1})
                for _ in range(min(2, len(names)))
            ]
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
