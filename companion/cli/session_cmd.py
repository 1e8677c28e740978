"""Table sessions from the shell: new, play, show, undo, redo, sessions, export, import."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

from companion.cli.common import (
    add_db_option,
    add_parser_with_game_help,
    open_store,
    parse_rules,
    print_json,
    say,
    warn,
)
from companion.errors import ExitCode, PurserError
from companion.games import IllegalAction, views
from companion.games.base import PrivateView, Summary, shown
from companion.session import BadJSON, Hardware, MalformedAction, NothingToUndo, TableSession, parse_json
from companion.session.exports import MAX_EXPORT_BYTES, read_export
from companion.session.hardware import needs_hardware
from companion.session.moves import MAX_ACTION_BYTES
from companion.store import (
    AlreadyStored,
    GameDamaged,
    NotFound,
    StaleWrite,
    StorageError,
    Store,
    StoreBusy,
    StoreError,
    StoreRefused,
)
from companion.store.db import MAX_INT


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the session commands."""
    p = add_parser_with_game_help(sub, "new", help="start a game session and print its id")
    p.add_argument("game", help="which game (see `purser games`)")
    p.add_argument("--players", required=True, help="comma-separated names in seating order, e.g. Ana,Ben,Cy")
    p.add_argument("--rule", action="append", default=[], metavar="KEY=VALUE", help="a house rule (repeatable)")
    p.add_argument(
        "--seed", type=_seed, help=f"seed for anything Purser draws at random, 0 to {MAX_INT} (default: random)"
    )
    p.add_argument(
        "--scale", metavar="URL", help="the balance for this game (default auto://; sim:// for the built-in simulator)"
    )
    p.add_argument(
        "--camera",
        metavar="URL",
        help="the dice camera for this game (default auto://: the first camera, else the simulator; "
        "sim://, cv://0, file://PATH)",
    )
    add_db_option(p)
    p.set_defaults(func=cmd_new)

    p = add_parser_with_game_help(
        sub,
        "play",
        help="apply JSON actions from stdin, one per line; print one JSON result line each",
        description="Reads one JSON action per line on stdin. Each line gets one JSON line back: "
        '{"ok": true, "seq": N, "events": [...], "prompt": "..."} once the action is saved, or '
        '{"ok": false, "error": KIND, "message": "..."} when nothing was changed, where KIND is '
        '"malformed" (not JSON, or not an action of this game), "illegal" (the rules refuse it), '
        '"stale" (the game changed in another window or process: it has been re-read, see "seq" '
        'and "prompt", and the line can be sent again if still legal), "hardware", "busy", '
        '"storage" (disk full or read-only) or "damaged"; the stream goes on either way. '
        "A refusal the table may overrule (a 7 Seize reading only the house-rule piece weights rule out) "
        'has "confirmable": true and, in "keep", the line that keeps that very reading. '
        "It ends with 0 when every line was applied, otherwise with the exit code of the first "
        "refused line (2 malformed, 3 illegal or nothing to undo, 4 stale or busy, 5 damaged, "
        "6 storage, 7 hardware). "
        'An action with "from": "scale" or "from": "camera" is measured first with the game\'s '
        "scale or camera (see `purser new --scale/--camera`). "
        '{"type": "undo"} and {"type": "redo"} work too.',
    )
    _session_args(p)
    p.set_defaults(func=cmd_play)

    p = add_parser_with_game_help(
        sub,
        "show",
        help="scores, whose turn it is and what happened",
        description="Prints what the whole table may see: no concealed card is ever named (the "
        "history lists each action as the table saw it). With --as PLAYER it prints instead what "
        "only that player may see: their concealed cards and the moves that name "
        "those cards; let only that player look.",
    )
    _session_args(p)
    p.add_argument("--json", action="store_true", help="print JSON")
    p.add_argument("--history", type=int, default=10, metavar="N", help="how many past actions to list (default 10)")
    p.add_argument(
        "--as",
        dest="as_player",
        metavar="PLAYER",
        help="print only PLAYER's private view: their concealed cards and the moves naming them",
    )
    p.set_defaults(func=cmd_show)

    for name, func, words in (
        ("undo", cmd_undo, "take back the last action"),
        ("redo", cmd_redo, "put back the last undone action"),
    ):
        p = add_parser_with_game_help(sub, name, help=words)
        _session_args(p)
        p.set_defaults(func=func)

    p = add_parser_with_game_help(sub, "sessions", help="list game sessions, unfinished first")
    p.add_argument("--json", action="store_true", help="print JSON")
    add_db_option(p)
    p.set_defaults(func=cmd_sessions)

    p = add_parser_with_game_help(
        sub,
        "export",
        help="print one session as JSON (the whole journal: a backup for its owner)",
        description="Writes the whole journal, as `purser import` needs it to replay the game: "
        "cards a player named when drawing from a real deck and Guilded deck lists included, "
        "and the seed that decides Purser's own deck. It is the owner's backup, not something "
        "to show the table while the game is in play.",
    )
    _session_args(p)
    p.add_argument("-o", "--output", help="write to this file instead of stdout")
    p.set_defaults(func=cmd_export)

    p = add_parser_with_game_help(sub, "import", help="store an exported session as a new one; prints its id")
    p.add_argument("file", help="a file written by `purser export` (- for stdin)")
    add_db_option(p)
    p.set_defaults(func=cmd_import)


def _seed(text: str) -> int:
    """``--seed``: a whole number from 0 to 2**63 - 1."""
    digits = text.strip()
    if not digits.isdigit() or len(digits) > 19 or int(digits) > MAX_INT:
        raise argparse.ArgumentTypeError(f"a seed must be a whole number from 0 to {MAX_INT}, not {text[:30]!r}")
    return int(digits)


def _session_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("session", help="session id, or `last` for the most recent unfinished one")
    add_db_option(p)


def _load(store: Store, ref: str) -> TableSession:
    """The session named on the command line (an id, or ``last``).

    Raises:
        NotFound: no such session (or not a session id at all).
    """
    if ref == "last":
        for record in store.sessions():
            if not record.finished and not record.damaged:
                return TableSession(store, record.id)
        raise NotFound("there is no unfinished game session")
    text = ref.strip()
    if not text.isdigit() or len(text) > 19 or not 0 < int(text) <= MAX_INT:
        raise NotFound(f"there is no game session {ref[:30]!r} (a session is a number such as 1, or `last`)")
    return TableSession(store, int(text))


def cmd_new(args: argparse.Namespace) -> int:
    """Create a session and print its id."""
    players = list(args.players.split(","))
    with open_store(args) as store:
        hardware = Hardware(args.scale, args.camera).to_config()
        session = TableSession.create(
            store, args.game, players, parse_rules(args.rule), seed=args.seed, hardware=hardware
        )
        say(session.id)
    return 0


_ERROR_KINDS: tuple[tuple[type[BaseException], str], ...] = (
    (MalformedAction, "malformed"),
    (IllegalAction, "illegal"),
    (NothingToUndo, "illegal"),
    (StaleWrite, "stale"),
    (StoreBusy, "busy"),
    (StorageError, "storage"),
    (GameDamaged, "damaged"),
    (StoreRefused, "damaged"),
    (NotFound, "not_found"),
    (StoreError, "storage"),
    (PurserError, "hardware"),  # the scale or camera gave no trustworthy measurement
)

#: The exit code a refused line of `purser play` stands for, by its error kind; a kind not
#: listed takes the error's own ``exit_code``.
_KIND_CODES = {"malformed": ExitCode.USAGE, "illegal": ExitCode.ILLEGAL}

#: One answer line of `purser play` and the exit code it stands for (0: applied).
_Answer = tuple[dict[str, Any], int]


def _malformed(message: str) -> _Answer:
    return {"ok": False, "error": "malformed", "message": message}, ExitCode.USAGE


def _refusal(exc: PurserError, **extra: Any) -> _Answer:
    kind = next(k for cls, k in _ERROR_KINDS if isinstance(exc, cls))
    return {"ok": False, "error": kind, "message": str(exc), **extra}, _KIND_CODES.get(kind, exc.exit_code)


def _apply_line(session: TableSession, line: bytes) -> _Answer:
    """One line of `purser play`: its answer, once any change it made is saved, and its exit code."""
    try:
        action = parse_json(line)
    except BadJSON as exc:
        return _malformed(str(exc))
    if not isinstance(action, dict):
        return _malformed('an action must be a JSON object such as {"type": "..."}')
    try:
        if action.get("type") in ("undo", "redo") and len(action) == 1:
            entry = session.undo() if action["type"] == "undo" else session.redo()
            done = "undone" if action["type"] == "undo" else "redone"
            return {"ok": True, done: entry.seq, "events": entry.events, "prompt": session.summary().prompt}, 0
        if needs_hardware(action):
            action = session.resolve(action)
        events = session.apply(action)
    except StaleWrite as exc:  # the session has re-read the game: offer it as it now stands
        return _refusal(exc, seq=session.cursor, prompt=session.summary().prompt)
    except PurserError as exc:
        if getattr(exc, "confirmable", None) is not None:
            return _confirmable(exc, action)
        return _refusal(exc)
    return {"ok": True, "seq": session.cursor, "events": events, "prompt": session.summary().prompt}, 0


def _confirmable(exc: PurserError, action: dict[str, Any]) -> _Answer:
    """A refusal the table may overrule (a 7 Seize reading only the house-rule piece weights
    rule out): says so, and gives in "keep" the line that keeps that very reading (for a
    weighing from the balance, the balance's reading, not a new weighing)."""
    answer, code = _refusal(exc, confirmable=bool(getattr(exc, "confirmable", False)))
    if answer["confirmable"]:
        answer["message"] += ' If that really is the weight, send the line in "keep" (this reading, "confirm": true).'
        answer["keep"] = {**action, "confirm": True}
    return answer, code


def _lines(stream: Any, limit: int) -> Any:
    """Lines of a byte stream; a line longer than ``limit`` comes back as None (its bytes are skipped)."""
    while True:
        line = stream.readline(limit + 1)
        if not line:
            return
        if len(line) > limit and not line.endswith(b"\n"):
            while line and not line.endswith(b"\n"):
                line = stream.readline(1 << 16)
            yield None
            continue
        yield line


def cmd_play(args: argparse.Namespace) -> int:
    """Apply actions from stdin; each result line is written only after the action is saved.

    Returns 0 when every line was applied, else the exit code of the first refused line
    (the session goes on after a refusal either way).
    """
    first_refusal = 0
    with open_store(args) as store:
        session = _load(store, args.session)
        try:
            for line in _lines(sys.stdin.buffer, MAX_ACTION_BYTES + 1024):
                if line is None:
                    answer = _malformed(f"the line is too long (an action is at most {MAX_ACTION_BYTES // 1024} kB)")
                elif not line.strip():
                    continue
                else:
                    answer = _apply_line(session, line)
                print_json(answer[0])
                first_refusal = first_refusal or answer[1]
        finally:
            session.close()
    return first_refusal


def _session_json(session: TableSession, history: int) -> dict[str, Any]:
    entries = session.history()
    public = views.public_history(session.game, [(e.action, e.events) for e in entries[-history:]]) if history else []
    return {
        "id": session.id,
        "game": session.game_name,
        "players": list(session.players),
        "rules": session.config,
        "cursor": session.cursor,
        "can_undo": session.can_undo,
        "can_redo": session.can_redo,
        **views.public_view(session.game, session.state),
        "history": [{"seq": e.seq, **shown} for e, shown in zip(entries[-history:], public, strict=True)]
        if history
        else [],
    }


class _NoSuchPlayer(PurserError):
    exit_code = ExitCode.NOT_FOUND


def _private_view(session: TableSession, name: str) -> PrivateView:
    """``name``'s private view (the name matched regardless of case).

    Raises:
        _NoSuchPlayer: nobody of that name plays in this game.
    """
    match = next((p for p in session.players if p.casefold() == name.strip().casefold()), None)
    if match is None:
        raise _NoSuchPlayer(
            f"nobody called {shown(name)} plays in game {session.id} (players: {', '.join(session.players)}); "
            "nothing was shown"
        )
    return views.private_view(session.game, session.state, match)


def _show_private(session: TableSession, name: str, as_json: bool) -> None:
    view = _private_view(session, name)
    if as_json:
        print_json({"id": session.id, "game": session.game_name, **view.to_json()})
        return
    who = view.player
    say(f"Game {session.id}: {session.game.TITLE}, for {who}'s eyes only")
    if not view.concealed:
        say(f"{who} holds no concealed card that Purser dealt: everything Purser knows is on the table.")
    else:
        say(f"{who}'s concealed cards: {', '.join(view.concealed)}")
    if view.actions:
        say(f"Moves only {who} may send to `purser play` (each names a concealed card):")
        for action in view.actions:
            say("  " + json.dumps(action, ensure_ascii=False))


def _score_names(summary: Summary) -> dict[str, str]:
    """Each player as the score lines call them: the pirate name they go by where the game
    gives one (Swashbuckle's ``standings``), otherwise their name."""
    names = {p: p for p in summary.scores}
    for row in summary.detail.get("standings") or ():
        if isinstance(row, dict) and row.get("player") in names and row.get("shown_as"):
            names[row["player"]] = str(row["shown_as"])
    return names


def cmd_show(args: argparse.Namespace) -> int:
    """Print a session's summary and recent history (or, with ``--as``, one player's private view)."""
    history = max(0, args.history)
    with open_store(args) as store:
        session = _load(store, args.session)
        if args.as_player is not None:
            _show_private(session, args.as_player, args.json)
            return 0
        if args.json:
            print_json(_session_json(session, history))
            return 0
        summary = session.summary()
        say(f"Game {session.id}: {session.game.TITLE}, {'finished' if summary.over else 'in play'}")
        names = _score_names(summary)
        monikers = (summary.detail.get("monikers") or {}) if summary.over else {}
        width = max([16, *(len(n) for n in names.values())])
        for player, score in summary.scores.items():
            marker = "*" if player in summary.to_act else " "
            earned = f"  {monikers[player]}" if monikers.get(player) else ""
            say(f" {marker} {names[player]:<{width}} {score:g}{earned}".rstrip())
        entries = session.history()
        if entries and history:
            say("History:")
            for entry in entries[-history:]:
                say(f"  {entry.seq:>4}. {entry.text}")
        say(summary.prompt)
    return 0


def cmd_undo(args: argparse.Namespace) -> int:
    """Undo one action and say what was undone."""
    with open_store(args) as store:
        session = _load(store, args.session)
        entry = session.undo()
        say(f"Undid {entry.seq}: {entry.text}")
        say(session.summary().prompt)
    return 0


def cmd_redo(args: argparse.Namespace) -> int:
    """Redo one action and say what was redone."""
    with open_store(args) as store:
        session = _load(store, args.session)
        entry = session.redo()
        say(f"Redid {entry.seq}: {entry.text}")
        say(session.summary().prompt)
    return 0


def cmd_sessions(args: argparse.Namespace) -> int:
    """List sessions: unfinished first, most recent first; damaged ones say so."""
    with open_store(args) as store:
        records = store.sessions()
        if args.json:
            print_json(
                [
                    {
                        "id": r.id,
                        "game": r.game,
                        "players": list(r.players),
                        "finished": r.finished,
                        "winners": (r.result or {}).get("winners", []),
                        "updated": r.updated,
                        **({"damaged": r.damaged} if r.damaged else {}),
                    }
                    for r in records
                ]
            )
            return 0
        if not records:
            say("No games yet. Start one with `purser new GAME --players A,B`.")
        for r in records:
            if r.damaged:
                status = "damaged"
            elif r.finished:
                status = "won by " + ", ".join((r.result or {}).get("winners", []))
            else:
                status = "in play"
            say(f"{r.id:>5}  {r.game:<14} {', '.join(r.players):<30} {status:<24} {r.updated[:16]}")
    return 0


class _OutputFailed(PurserError):
    exit_code = ExitCode.STORAGE


def _write_file(path: str, text: str) -> None:
    """Write ``text`` to ``path`` whole or not at all (a full disk leaves no half file)."""
    target = Path(path)
    temp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    try:
        with open(temp, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(temp, target)
    except OSError as exc:
        temp.unlink(missing_ok=True)
        raise _OutputFailed(f"cannot write {path}: {exc.strerror or exc}; nothing was written") from exc


def cmd_export(args: argparse.Namespace) -> int:
    """Write one session as JSON."""
    with open_store(args) as store:
        data = _load(store, args.session).export()
    text = json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    if args.output:
        _write_file(args.output, text)
    else:
        sys.stdout.write(text)
    return 0


def _read_input(name: str) -> bytes:
    try:
        if name == "-":
            return bytes(sys.stdin.buffer.read(MAX_EXPORT_BYTES + 1))
        with open(name, "rb") as f:
            return f.read(MAX_EXPORT_BYTES + 1)
    except FileNotFoundError:
        raise NotFound(f"there is no file {name}") from None
    except OSError as exc:
        raise PurserError(f"cannot read {name}: {exc.strerror or exc}") from exc


def cmd_import(args: argparse.Namespace) -> int:
    """Store an exported session as a new one and print its id (an import seen before: its id)."""
    name = "stdin" if args.file == "-" else args.file
    data = read_export(_read_input(args.file), name)
    with open_store(args) as store:
        try:
            sid = TableSession.import_(store, data).id
        except AlreadyStored as exc:
            warn(str(exc))
            sid = exc.session_id
        say(sid)
    return 0
