"""A readable score sheet: a fixed column of deliberately short box names, one column per
player (or per player's column) headed by the name in the player's colour, the totals
pinned at the foot, and the open boxes of the player to act tappable, each showing faintly
the points it would score now. A box just scored flashes so the whole table sees it.

Presentation only: which boxes are open, what they would score and every figure come
from the engine's summary and legal actions.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from kivy.animation import Animation
from kivy.metrics import dp
from kivy.properties import BooleanProperty, ColorProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label

from companion.ui.theme import player_colour

#: Short names players know the boxes by (the engine's own label when not listed).
SHORT_NAMES: dict[str, str] = {
    "succession_4": "Succession 4",
    "succession_5": "Succession 5",
    "three_kind": "3 of a kind",
    "four_kind": "4 of a kind",
    "full_house": "Full house",
    "small_straight": "Sm. straight",
    "large_straight": "Lg. straight",
    "little_straight": "Little str.",
    "big_straight": "Big straight",
}
#: Column figures shown as rows, in order: (keys in either engine's shape, words).
SUBTOTAL = (("crows_nest_subtotal", "upper"), "Upper")
UPPER_BONUS = (("blimey_bonus", "upper_bonus"), "Upper bonus")
EXTRAS = (
    (("swashbuckle_bonus_tally", "extra_five_bonus"), "Five bonus"),
    (("smooth_sailing", "clean_bonus"), "Clean bonus"),
    (("pillaged",), "Pillaged"),
    (("hornswaggle",), "Hornswaggle"),
)
TOTAL = (("total_plunder", "total"), "Total")


def short_name(box: Mapping[str, Any]) -> str:
    """A box's name on the sheet."""
    return SHORT_NAMES.get(str(box.get("key")), str(box.get("label", box.get("key"))))


def _figure(column: Mapping[str, Any], keys: Sequence[str]) -> Any:
    for k in keys:
        if k in column:
            return column[k]
    return None


@dataclass
class SheetColumn:
    """One column of scores: whose, its heading, the boxes and figures."""

    player: str
    heading: str
    boxes: dict[str, Any]
    figures: dict[str, Any]
    seat: int
    index: int = 1


@dataclass
class SheetView:
    """What the sheet draws: its columns, box rows (key, name, upper?), extra rows, footers."""

    columns: list[SheetColumn]
    boxes: list[tuple[str, str, bool]]
    extras: list[tuple[tuple[str, ...], str]] = field(default_factory=list)
    footers: list[tuple[str, list[str]]] = field(default_factory=list)


def sheet_view(detail: Mapping[str, Any], players: Sequence[str]) -> SheetView:
    """The sheet of ``players`` from a score-sheet game's summary detail (either engine shape)."""
    sheet = detail.get("sheet", {})
    words = {"upper": "Upper bonus", "five": "Five bonus", "clean": "Clean bonus"}
    if isinstance(sheet.get("upper_bonus"), Mapping) and sheet["upper_bonus"].get("label"):
        words["upper"] = str(sheet["upper_bonus"]["label"])
    if isinstance(sheet.get("extra_five"), Mapping) and sheet["extra_five"].get("label"):
        words["five"] = str(sheet["extra_five"]["label"])
    if isinstance(sheet.get("clean_bonus"), Mapping) and sheet["clean_bonus"].get("label"):
        words["clean"] = str(sheet["clean_bonus"]["label"])
    columns: list[SheetColumn] = []
    for seat, player in enumerate(players):
        if "pirates" in detail:
            cols = list(detail["pirates"][player]["columns"])
        else:
            cols = [dict(detail.get("sheets", {}).get(player, {}))]
        for i, col in enumerate(cols):
            heading = player if len(cols) == 1 else f"{player} {i + 1}"
            figures = {k: v for k, v in col.items() if k != "boxes"}
            columns.append(SheetColumn(player, heading, dict(col.get("boxes", {})), figures, seat, i + 1))
    boxes = [(str(b["key"]), short_name(b), b.get("section") == "upper") for b in sheet.get("boxes", [])]
    extras: list[tuple[tuple[str, ...], str]] = [(SUBTOTAL[0], SUBTOTAL[1]), (UPPER_BONUS[0], words["upper"])]
    names = {"Five bonus": words["five"], "Clean bonus": words["clean"]}
    for keys, name in EXTRAS:
        # rows that are zero for everyone stay off the sheet (they are in History when they change)
        if any(_figure(c.figures, keys) not in (None, 0) for c in columns):
            extras.append((keys, names.get(name, name)))
    footers = [("Total", [str(_figure(c.figures, TOTAL[0]) or 0) for c in columns])]
    if "pirates" in detail and any(c.index > 1 for c in columns):
        footers.append(("Match total", [str(detail["pirates"][c.player].get("total", "")) for c in columns]))
    monikers = detail.get("monikers") or {}
    if any(monikers.values()):
        footers.append(("Moniker", [str(monikers.get(c.player) or "") for c in columns]))
    return SheetView(columns, boxes, extras, footers)


class SheetCell(ButtonBehavior, Label):
    """One cell. ``kind``: "name", "head", "box", "open" (tappable, faint points), "figure",
    "total". ``flash`` (1 -> 0) lights a cell just scored."""

    kind = StringProperty("box")
    key = StringProperty("")
    colour = ColorProperty((0, 0, 0, 0))
    flash = NumericProperty(0)
    marked = BooleanProperty(False)
    action = ObjectProperty(None, allownone=True)


class ScoreSheet(BoxLayout):
    """The sheet: header, scrolling boxes, pinned totals. ``on_box(cell)`` is called when an
    open box is tapped (``cell.action`` holds the engine's listed score action)."""

    on_box: Callable[[SheetCell], Any] | None = None
    label_width = NumericProperty(0)

    def __init__(self, **kwargs: Any) -> None:
        self._shape: Any = None
        self._cells: dict[str, SheetCell] = {}
        self._values: dict[str, str] = {}
        super().__init__(**kwargs)

    def cell(self, key: str) -> SheetCell | None:
        """The cell called ``key`` ("box:<box>:<column>", "head:<column>", "foot:<row>:<column>")."""
        return self._cells.get(key)

    def show(
        self,
        view: SheetView,
        current: str | None = None,
        open_boxes: Mapping[tuple[str, int], tuple[str, Any]] | None = None,
    ) -> None:
        """Draw ``view``; ``current`` is the player to act; ``open_boxes[(box, column)]`` gives
        the faint points text and the score action of each box the current player may tap."""
        open_boxes = open_boxes or {}
        shape = (
            tuple(c.heading for c in view.columns),
            tuple(b[0] for b in view.boxes),
            tuple(e[1] for e in view.extras),
            tuple(f[0] for f in view.footers),
        )
        if shape != self._shape:
            self._build(view)
            self._shape = shape
        for i, col in enumerate(view.columns):
            head = self._cells[f"head:{i}"]
            head.text = col.heading
            head.colour = player_colour(col.seat)
            head.marked = col.player == current
            for key, _name, _upper in view.boxes:
                cell = self._cells[f"box:{key}:{i}"]
                value = col.boxes.get(key)
                offer = open_boxes.get((key, col.index)) if col.player == current else None
                if value is not None:
                    self._set(cell, str(value), "box", None)
                elif offer is not None:
                    self._set(cell, offer[0], "open", offer[1])
                else:
                    self._set(cell, "", "box", None)
            for keys, name in view.extras:
                value = _figure(col.figures, keys)
                self._set(self._cells[f"extra:{name}:{i}"], "" if value is None else str(value), "figure", None)
            for r, (_name, values) in enumerate(view.footers):
                self._set(self._cells[f"foot:{r}:{i}"], values[i], "total", None)

    def _set(self, cell: SheetCell, text: str, kind: str, action: Any) -> None:
        before = self._values.get(cell.key)
        if kind == "box" and text and before is not None and before == "" and cell.kind in ("box", "open"):
            cell.flash = 1.0  # just scored: light it up for the table
            Animation.cancel_all(cell, "flash")
            Animation(flash=0.0, duration=1.6, t="out_quad").start(cell)
        self._values[cell.key] = text if kind != "open" else ""
        cell.kind = kind
        cell.action = action
        cell.disabled = action is None
        if cell.text != text:
            cell.text = text

    def _build(self, view: SheetView) -> None:
        from kivy.core.text import Label as CoreLabel
        from kivy.uix.scrollview import ScrollView

        self.clear_widgets()
        self._cells = {}
        self._values = {}
        names = [b[1] for b in view.boxes] + [e[1] for e in view.extras] + [f[0] for f in view.footers]
        widest = 0.0
        for n in names:
            label = CoreLabel(text=n, font_size=self._font(), bold=True)
            label.refresh()
            widest = max(widest, label.content_width)
        self.label_width = widest + dp(20)
        cols = len(view.columns)
        header = self._grid(cols)
        header.add_widget(self._name_cell("", "name:head"))
        for i in range(cols):
            header.add_widget(self._new_cell(f"head:{i}", "head"))
        body = self._grid(cols)
        for key, name, _upper in view.boxes:
            body.add_widget(self._name_cell(name, f"name:{key}"))
            for i in range(cols):
                body.add_widget(self._new_cell(f"box:{key}:{i}", "box"))
            if key == self._last_upper(view):
                for _keys, extra in view.extras[:2]:
                    self._extra_row(body, extra, cols)
        for _keys, extra in view.extras[2:]:
            self._extra_row(body, extra, cols)
        scroller = ScrollView(do_scroll_x=False, effect_cls="ScrollEffect", bar_width=dp(6))
        scroller.add_widget(body)
        foot = self._grid(cols)
        for r, (name, _values) in enumerate(view.footers):
            foot.add_widget(self._name_cell(name, f"name:foot:{r}", kind="total"))
            for i in range(cols):
                foot.add_widget(self._new_cell(f"foot:{r}:{i}", "total"))
        self.add_widget(header)
        self.add_widget(scroller)
        self.add_widget(foot)
        self.scroller = scroller

    @staticmethod
    def _last_upper(view: SheetView) -> str:
        uppers = [b[0] for b in view.boxes if b[2]]
        return uppers[-1] if uppers else ""

    def _extra_row(self, grid: GridLayout, name: str, cols: int) -> None:
        grid.add_widget(self._name_cell(name, f"name:extra:{name}", kind="figure"))
        for i in range(cols):
            grid.add_widget(self._new_cell(f"extra:{name}:{i}", "figure"))

    @staticmethod
    def _font() -> float:
        from kivy.app import App

        return float(App.get_running_app().theme.font_small)

    def _grid(self, cols: int) -> GridLayout:
        grid = GridLayout(cols=cols + 1, size_hint_y=None, spacing=dp(2))
        grid.bind(minimum_height=grid.setter("height"))
        grid.cols_minimum = {0: self.label_width}
        return grid

    def _name_cell(self, text: str, key: str, kind: str = "name") -> SheetCell:
        cell = SheetCell(text=text, kind=kind, key=key, size_hint_x=None, width=self.label_width, disabled=True)
        self._cells[key] = cell
        return cell

    def _new_cell(self, key: str, kind: str) -> SheetCell:
        cell = SheetCell(kind=kind, key=key, disabled=True)
        cell.bind(on_release=self._tapped)
        self._cells[key] = cell
        return cell

    def _tapped(self, cell: SheetCell) -> None:
        if cell.action is not None and self.on_box is not None:
            self.on_box(cell)
