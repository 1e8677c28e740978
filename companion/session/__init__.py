"""Table sessions: players, the chosen game, the journal, undo/redo, hardware wiring."""

from companion.session.exports import ExportRefused, read_export
from companion.session.hardware import Hardware
from companion.session.moves import BadJSON, MalformedAction, check_action, parse_json
from companion.session.replay import replay
from companion.session.table import HistoryEntry, NothingToUndo, SessionDamaged, TableSession

__all__ = [
    "BadJSON",
    "ExportRefused",
    "Hardware",
    "HistoryEntry",
    "MalformedAction",
    "NothingToUndo",
    "SessionDamaged",
    "TableSession",
    "check_action",
    "parse_json",
    "read_export",
    "replay",
]
