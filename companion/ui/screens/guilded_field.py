"""The battlefield of the Seize: Guilded Treasures screen: every side's 3x4 grid of tiles,
who stands where, pillars and fog, and the tiles the table may pick now lit up.

Drawn from the engine's summary (``mercenaries``, ``pillars``, ``fog``, ``battlefield``)
and the tiles the screen offers (taken from the summary's ``tile_choices``): nothing here
decides which tile is legal. With two sides facing each other the second side is turned
round, as it lies across the table; otherwise each side's grid is drawn on its own.

Cheap to draw: one rectangle per tile in one canvas, and one reused label per tile whose
text is set only when it changes; a change recolours only the tiles that changed.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from kivy.graphics import Color, Line, Rectangle
from kivy.metrics import dp
from kivy.properties import BooleanProperty, ListProperty, ObjectProperty, StringProperty
from kivy.uix.label import Label
from kivy.uix.widget import Widget

#: A tile as a key: (side's player, row, column).
TileKey = tuple[str, int, int]
#: How a tile is shown: "" (plain), "lit" (tap to send), "pick" (tap to choose who moves).
LIT, PICK = "lit", "pick"


def tile_key(tile: Mapping[str, Any]) -> TileKey:
    """``{"side": "Ana", "row": 1, "col": 2}`` -> ``("Ana", 1, 2)``."""
    return (str(tile["side"]), int(tile["row"]), int(tile["col"]))


def merc_short(m: Mapping[str, Any]) -> str:
    """A mercenary as a tile shows it: its name (shortened) and health."""
    name = str(m.get("name", ""))
    if len(name) > 12:
        name = name[:11] + "."
    return f"{name}\n{m.get('health')}/{m.get('max_health')}"


def blocks(players: list[str], sides: Mapping[str, int], facing: bool) -> list[tuple[str, int, int, bool]]:
    """Where each side's grid goes: (player, block column, block row, turned round).

    Facing: the first player at the bottom, the second above, turned round. Otherwise the
    grids two to a row, the first half (by team) at the bottom, the rest turned round above.
    """
    if facing:
        return [(players[0], 0, 0, False), (players[1], 0, 1, True)]
    order = sorted(players, key=lambda p: (sides.get(p, 0), players.index(p)))
    half = (len(order) + 1) // 2
    return [(p, i if i < half else i - half, 0 if i < half else 1, i >= half) for i, p in enumerate(order)]


class TileLabel(Label):
    """The words on one tile; ``key`` names the tile (``tile:Ana:1:2``), ``mode`` how it is lit."""

    key = StringProperty("")
    mode = StringProperty("")
    tile = ListProperty([])


class BattleField(Widget):
    """The battlefield grid. ``on_tile(tile_key)`` is called when a lit or pickable tile is tapped."""

    on_tile: Callable[[TileKey], None] | None = None
    theme = ObjectProperty(None, allownone=True)
    facing = BooleanProperty(True)

    def __init__(self, **kwargs: Any) -> None:
        self._layout: tuple[Any, ...] = ()
        self._cells: dict[TileKey, dict[str, Any]] = {}
        self._names: list[Label] = []
        self._blocks: list[tuple[str, int, int, bool]] = []
        self._rows = 3
        self._cols = 4
        super().__init__(**kwargs)
        self.bind(pos=self._place, size=self._place)

    # -- what is shown -------------------------------------------------------------------------

    def show(self, detail: Mapping[str, Any], modes: Mapping[TileKey, str]) -> None:
        """Show the battlefield of summary ``detail`` with ``modes`` (tile -> LIT or PICK) lit."""
        grid = detail.get("battlefield") or {"rows": 3, "cols": 4, "guild_hall_row": 1, "facing": True}
        players = list(detail.get("players", {}))
        if not players:
            return
        sides = {p: int(info.get("side", 0)) for p, info in detail.get("players", {}).items()}
        facing = bool(grid.get("facing")) and len(players) == 2
        layout = (tuple(players), tuple(sorted(sides.items())), facing, grid.get("rows"), grid.get("cols"))
        if layout != self._layout:
            self._build(layout, players, sides, facing, grid)
        hall = grid.get("guild_hall_row", 1)
        words: dict[TileKey, str] = {}
        owners: dict[TileKey, str] = {}
        for m in detail.get("mercenaries", []):
            if m.get("tile"):
                k = tile_key(m["tile"])
                words[k] = merc_short(m)
                owners[k] = str(m.get("owner", ""))
        pillars = {tile_key(t) for t in detail.get("pillars", [])}
        fog = {tile_key(t) for t in detail.get("fog", [])}
        for k, cell in self._cells.items():
            text = "Pillar" if k in pillars else words.get(k, "")
            if k in fog:
                text = (text + "\n" if text else "") + "Fog"
            look = (k in pillars, k in fog, owners.get(k), k[1] == hall, modes.get(k, ""))
            label = cell["label"]
            if label.text != text:
                label.text = text
            if label.mode != look[4]:
                label.mode = look[4]
            if cell["look"] != look:
                cell["look"] = look
                self._paint(cell, *look)

    def mode_of(self, key: TileKey) -> str:
        """How tile ``key`` is lit now ("" when it cannot be tapped)."""
        cell = self._cells.get(key)
        return cell["label"].mode if cell else ""

    def on_theme(self, _inst: Any, theme: Any) -> None:
        if theme is not None:
            theme.bind(name=self._repaint)

    def _repaint(self, *_: Any) -> None:
        """Another palette: paint every tile again."""
        for cell in self._cells.values():
            if cell["look"] is not None:
                self._paint(cell, *cell["look"])
        for name in self._names:
            name.color = self.theme.muted

    # -- building and drawing --------------------------------------------------------------------

    def _build(
        self,
        layout: tuple[Any, ...],
        players: list[str],
        sides: Mapping[str, int],
        facing: bool,
        grid: Mapping[str, Any],
    ) -> None:
        self._layout = layout
        self._rows, self._cols = int(grid.get("rows", 3)), int(grid.get("cols", 4))
        self._blocks = blocks(players, sides, facing)
        self.clear_widgets()
        self.canvas.before.clear()
        self._cells = {}
        self._names = []
        with self.canvas.before:
            for player, _bx, _by, _turned in self._blocks:
                for row in range(1, self._rows + 1):
                    for col in range(1, self._cols + 1):
                        color = Color(0, 0, 0, 1)
                        rect = Rectangle()
                        edge_color = Color(0, 0, 0, 0)
                        edge = Line(width=dp(1.5))
                        label = TileLabel(
                            key=f"tile:{player}:{row}:{col}", tile=[player, row, col], halign="center", valign="middle"
                        )
                        self._cells[(player, row, col)] = {
                            "color": color,
                            "rect": rect,
                            "edge_color": edge_color,
                            "edge": edge,
                            "label": label,
                            "look": None,
                        }
        for cell in self._cells.values():
            self.add_widget(cell["label"])
        for player, *_ in self._blocks:
            name = Label(
                text=f"{player}'s side",
                font_size=self._font(),
                halign="left",
                valign="middle",
                shorten=True,
                color=self.theme.muted if self.theme is not None else (0.7, 0.7, 0.7, 1),
            )
            self._names.append(name)
            self.add_widget(name)
        self._place()

    def _font(self) -> float:
        return self.theme.font_small if self.theme is not None else dp(15)

    def _strip(self) -> float:
        return dp(22)

    def _place(self, *_: Any) -> None:
        if not self._blocks:
            return
        across = max(bx for _p, bx, _by, _t in self._blocks) + 1
        up = max(by for _p, _bx, by, _t in self._blocks) + 1
        gap, strip = dp(6), self._strip()
        block_w = (self.width - gap * (across - 1)) / across
        block_h = (self.height - gap * (up - 1)) / up
        tile_w = block_w / self._cols
        tile_h = (block_h - strip) / self._rows
        for i, (player, bx, by, turned) in enumerate(self._blocks):
            x0 = self.x + bx * (block_w + gap)
            y0 = self.y + by * (block_h + gap)
            # the name strip sits on the side's own edge: below a side at the bottom, above one turned round
            grid_y = y0 + (0 if turned else strip)
            name = self._names[i]
            name.pos = (x0, y0 + block_h - strip if turned else y0)
            name.size = (block_w, strip)
            name.text_size = name.size
            for row in range(1, self._rows + 1):
                for col in range(1, self._cols + 1):
                    # row 1 (the Guild Hall) nearest its player; turned round, columns run right to left
                    y_index = (self._rows - row) if turned else (row - 1)
                    x_index = (self._cols - col) if turned else (col - 1)
                    cell = self._cells[(player, row, col)]
                    x, y = x0 + x_index * tile_w, grid_y + y_index * tile_h
                    inset = dp(1.5)
                    cell["rect"].pos = (x + inset, y + inset)
                    cell["rect"].size = (max(0, tile_w - 2 * inset), max(0, tile_h - 2 * inset))
                    cell["edge"].rectangle = (x + dp(3), y + dp(3), max(0, tile_w - dp(6)), max(0, tile_h - dp(6)))
                    label = cell["label"]
                    label.pos = (x, y)
                    label.size = (tile_w, tile_h)
                    label.text_size = (tile_w - dp(4), tile_h - dp(2))

    def _paint(self, cell: dict[str, Any], pillar: bool, fog: bool, owner: str | None, hall: bool, mode: str) -> None:
        t = self.theme
        if t is None:
            return
        if pillar:
            base = t.line
        elif mode == LIT:
            base = _mix(t.accent, t.surface, 0.45)
        elif owner:
            base = t.raised
        else:
            base = _mix(t.line, t.surface, 0.35) if hall else t.surface
        if fog and not pillar:
            base = _mix(base, t.muted, 0.35)
        cell["color"].rgba = base
        cell["edge_color"].rgba = t.accent if mode in (LIT, PICK) else (0, 0, 0, 0)
        label = cell["label"]
        label.color = t.accent_text if mode == LIT else (t.muted if pillar or not owner else t.text)
        label.bold = bool(owner)

    # -- taps ---------------------------------------------------------------------------------------

    def on_touch_down(self, touch: Any) -> bool:
        if self.disabled or not self.collide_point(*touch.pos):
            return super().on_touch_down(touch)
        for key, cell in self._cells.items():
            label = cell["label"]
            if label.collide_point(*touch.pos):
                if label.mode and self.on_tile is not None:
                    touch.grab(self)
                    touch.ud["guilded_tile"] = key
                    return True
                return True  # an unlit tile: nothing happens, and nothing beneath it either
        return super().on_touch_down(touch)

    def on_touch_up(self, touch: Any) -> bool:
        if touch.grab_current is self:
            touch.ungrab(self)
            key = touch.ud.get("guilded_tile")
            cell = self._cells.get(key) if key else None
            if cell and cell["label"].collide_point(*touch.pos) and cell["label"].mode and self.on_tile:
                self.on_tile(key)
            return True
        return super().on_touch_up(touch)


def _mix(a: Any, b: Any, share: float) -> list[float]:
    """``share`` of colour ``a`` and the rest of ``b`` (opaque)."""
    return [a[i] * share + b[i] * (1 - share) for i in range(3)] + [1.0]
