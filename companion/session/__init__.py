"""Table sessions: players, the chosen game, the journal, undo/redo, hardware wiring."""

from companion.session.hardware import Hardware
from companion.session.replay import replay
from companion.session.table import HistoryEntry, NothingToUndo, SessionDamaged, TableSession

__all__ = ["Hardware", "HistoryEntry", "NothingToUndo", "SessionDamaged", "TableSession", "replay"]
