"""A grid of text cells for score sheets and score tables."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from kivy.properties import BooleanProperty, StringProperty
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label


class Cell(Label):
    """One cell: ``kind`` is "head", "body", "total" or "mark" (highlighted)."""

    kind = StringProperty("body")
    highlight = BooleanProperty(False)
    key = StringProperty("")


class ScoreTable(GridLayout):
    """Rows of cells: call :meth:`show` with a header row and body rows."""

    cols: Any  # GridLayout's property, declared for the type checker only

    def show(
        self,
        header: Sequence[Any],
        rows: Sequence[Sequence[Any]],
        *,
        marked_rows: Sequence[int] = (),
        marked_cols: Sequence[int] = (),
        total_rows: Sequence[int] = (),
    ) -> None:
        """Redraw with ``header`` and ``rows`` (cells are turned into text).

        ``marked_rows`` are highlighted whole; ``marked_cols`` only in the header. Cells are
        reused when the shape is unchanged, so only changed text is drawn again.
        """
        specs: list[tuple[str, str, bool, str]] = []
        for c, text in enumerate(header):
            specs.append((str(text), "head", c in marked_cols, f"head:{c}"))
        for r, row in enumerate(rows):
            for c, text in enumerate(row):
                specs.append(
                    (
                        "" if text is None else str(text),
                        "total" if r in total_rows else "body",
                        r in marked_rows,
                        f"{r}:{c}",
                    )
                )
        n_cols = max(1, len(header) or (len(rows[0]) if rows else 1))
        cells = list(reversed(self.children))
        if len(cells) != len(specs) or int(self.cols or 0) != n_cols:
            self.clear_widgets()
            self.cols = n_cols
            cells = []
            for _ in specs:
                cell = Cell()
                self.add_widget(cell)
                cells.append(cell)
        for cell, (text, kind, highlight, key) in zip(cells, specs):
            if cell.text != text:
                # Kivy's markup renderer shortens text one character at a time: only when needed
                cell.markup = "[" in text
                cell.text = text
            cell.kind = kind
            cell.highlight = highlight
            cell.key = key

    def cell(self, row: int, col: int) -> Cell | None:
        """The body cell at ``row``, ``col`` (None if there is none)."""
        for child in self.children:
            if isinstance(child, Cell) and child.key == f"{row}:{col}":
                return child
        return None
