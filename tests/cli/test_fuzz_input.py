"""Property-based fuzzing of what reaches Purser from outside: `purser play` lines and export
files. Whatever the bytes, the answer is an answer (never an exception), and nothing
refused changes the database."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.cli.session_cmd import _apply_line
from companion.errors import PurserError
from companion.session import TableSession, read_export
from companion.session.exports import seal
from companion.store import AlreadyStored, Store
from tests.support.faults import digest

PLAYERS = ["Ana", "Ben", "Cy"]
KEYS = ["type", "player", "card", "on", "total", "from", "junk", "dice", "at", ""]


def _json_like(floats: st.SearchStrategy[float]) -> st.SearchStrategy[object]:
    return st.recursive(
        st.none() | st.booleans() | st.integers(-(2**70), 2**70) | floats | st.text(max_size=20),
        lambda inner: (
            st.lists(inner, max_size=4)
            | st.dictionaries(st.sampled_from(KEYS) | st.text(max_size=5), inner, max_size=5)
        ),
        max_leaves=12,
    )


#: Values as Python's json writes them (Infinity included, which no reader should take).
json_values = _json_like(st.floats(allow_nan=False))
#: Values an export can be sealed with: its hash is over strict JSON, which has no Infinity.
sealable_values = _json_like(st.floats(allow_nan=False, allow_infinity=False))
actions = st.fixed_dictionaries(
    {"type": st.sampled_from(["play", "penalty", "undo", "redo", "dance"]) | st.text(max_size=8)},
    optional=dict.fromkeys(KEYS[1:], json_values),
)
lines = st.one_of(
    st.binary(max_size=200),
    actions.map(lambda a: json.dumps(a).encode()),
    json_values.map(lambda v: json.dumps(v).encode()),
    actions.map(lambda a: json.dumps(a).encode()).flatmap(
        lambda b: st.integers(0, max(len(b) - 1, 0)).map(lambda i: b[:i] + b"\xff" + b[i + 1 :])
    ),
)


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    db = tmp_path_factory.mktemp("fuzz") / "p.db"
    with Store.open(db) as store:
        sid = TableSession.create(store, "seven", PLAYERS, seed=3).id
    return db, sid


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(line=lines)
def test_any_play_line_gets_an_answer_and_a_refusal_changes_nothing(played, line):
    db, sid = played
    with Store.open(db) as store:
        session = TableSession(store, sid)
        before = (session.cursor, store.actions(sid))
        answer, code = _apply_line(session, line)
        assert isinstance(answer, dict) and isinstance(answer["ok"], bool)
        json.dumps(answer)
        assert code == (0 if answer["ok"] else {"malformed": 2, "illegal": 3}[answer["error"]])
        if not answer["ok"]:
            assert answer["error"] in ("malformed", "illegal") and answer["message"]
            assert (session.cursor, store.actions(sid)) == before
        again = TableSession(store, sid)  # whatever was saved replays
        assert again.cursor == session.cursor


@pytest.fixture(scope="module")
def sealed(tmp_path_factory):
    db = tmp_path_factory.mktemp("fuzz-export") / "p.db"
    with Store.open(db) as store:
        s = TableSession.create(store, "seven", PLAYERS, {"hand_size": 1, "rounds": 1}, seed=3)
        s.apply({"type": "play", "player": "Ana", "card": 3, "on": "hole"})
        s.apply({"type": "play", "player": "Ben", "card": 4, "on": "number"})
        return s.export()


def _import(raw: bytes) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "p.db"
        with Store.open(db) as store:
            TableSession.create(store, "seven", ["Dee", "Eli"], seed=1)
        before = digest(db)
        with Store.open(db) as store:
            try:
                TableSession.import_(store, read_export(raw))
            except AlreadyStored:
                raise AssertionError("a fresh database cannot already hold the game") from None
            except PurserError as exc:
                assert str(exc)
                refused = True
            else:
                refused = False
                assert len(store.sessions()) == 2
                for r in store.sessions():
                    TableSession(store, r.id)
        if refused:
            assert digest(db) == before


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_any_export_file_imports_soundly_or_is_refused_cleanly(sealed, data):
    text = json.dumps(sealed).encode()
    how = data.draw(st.sampled_from(["bytes", "cut", "flip", "field", "resealed"]), label="how")
    if how == "bytes":
        raw = data.draw(st.binary(max_size=300))
    elif how == "cut":
        raw = text[: data.draw(st.integers(0, len(text)))]
    elif how == "flip":
        i = data.draw(st.integers(0, len(text) - 1))
        raw = text[:i] + bytes([data.draw(st.integers(0, 255))]) + text[i + 1 :]
    else:
        key = data.draw(st.sampled_from(sorted(sealed)), label="key")
        values = sealable_values if how == "resealed" else json_values
        changed = {**sealed, key: data.draw(values, label="value")}
        raw = json.dumps(seal(changed) if how == "resealed" else changed).encode()
    _import(raw)
