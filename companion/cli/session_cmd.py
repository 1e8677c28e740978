"""Table sessions from the shell: new, play, show, undo, redo, sessions, export, import."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from companion.cli.common import add_db_option, add_parser_with_game_help, open_store, parse_rules, print_json
from companion.errors import PurserError
from companion.games import ConfigError, IllegalAction
from companion.session import Hardware, NothingToUndo, TableSession
from companion.session.hardware import needs_hardware
from companion.store import NotFound, Store, StoreError


def register(sub: argparse._SubParsersAction) -> None:
    """Add the session commands."""
    p = add_parser_with_game_help(sub, "new", help="start a game session and print its id")
    p.add_argument("game", help="which game (see `purser games`)")
    p.add_argument("--players", required=True, help="comma-separated names in seating order, e.g. Ana,Ben,Cy")
    p.add_argument("--rule", action="append", default=[], metavar="KEY=VALUE", help="a house rule (repeatable)")
    p.add_argument("--seed", type=int, help="seed for anything Purser draws at random (default: random)")
    p.add_argument("--scale", metavar="URL", help="the balance for this game (default auto://; sim:// for the built-in simulator)")
    p.add_argument("--camera", metavar="URL", help="the dice camera for this game (default auto://: the first camera, else the simulator; sim://, cv://0, file://PATH)")
    add_db_option(p)
    p.set_defaults(func=cmd_new)

    p = add_parser_with_game_help(
        sub, "play", help="apply JSON actions from stdin, one per line; print one JSON result line each",
        description="Reads one JSON action per line on stdin. Each line gets one JSON line back: "
        '{"ok": true, "seq": N, "events": [...], "prompt": "..."} once the action is saved, or '
        '{"ok": false, "error": "illegal"|"malformed"|"hardware", "message": "..."} (nothing changed). '
        'An action with "from": "scale" or "from": "camera" is measured first with the game\'s '
        'scale or camera (see `purser new --scale/--camera`). '
        '{"type": "undo"} and {"type": "redo"} work too.',
    )
    _session_args(p)
    p.set_defaults(func=cmd_play)

    p = add_parser_with_game_help(sub, "show", help="scores, whose turn it is and what happened")
    _session_args(p)
    p.add_argument("--json", action="store_true", help="print JSON")
    p.add_argument("--history", type=int, default=10, metavar="N", help="how many past actions to list (default 10)")
    p.set_defaults(func=cmd_show)

    for name, func, words in (("undo", cmd_undo, "take back the last action"), ("redo", cmd_redo, "put back the last undone action")):
        p = add_parser_with_game_help(sub, name, help=words)
        _session_args(p)
        p.set_defaults(func=func)

    p = add_parser_with_game_help(sub, "sessions", help="list game sessions, unfinished first")
    p.add_argument("--json", action="store_true", help="print JSON")
    add_db_option(p)
    p.set_defaults(func=cmd_sessions)

    p = add_parser_with_game_help(sub, "export", help="print one session as JSON")
    _session_args(p)
    p.add_argument("-o", "--output", help="write to this file instead of stdout")
    p.set_defaults(func=cmd_export)

    p = add_parser_with_game_help(sub, "import", help="store an exported session as a new one; prints its id")
    p.add_argument("file", help="a file written by `purser export` (- for stdin)")
    add_db_option(p)
    p.set_defaults(func=cmd_import)


def _session_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("session", help="session id, or `last` for the most recent unfinished one")
    add_db_option(p)


def _load(store: Store, ref: str) -> TableSession:
    if ref == "last":
        for record in store.sessions():
            if not record.finished:
                return TableSession(store, record.id)
        raise NotFound("there is no unfinished game session")
    try:
        sid = int(ref)
    except ValueError:
        raise NotFound(f"{ref!r} is not a session id (a number, or `last`)") from None
    return TableSession(store, sid)



def cmd_new(args: argparse.Namespace) -> int:
    """Create a session and print its id."""
    players = [p for p in args.players.split(",")]
    with open_store(args) as store:
        hardware = Hardware(args.scale, args.camera).to_config()
        session = TableSession.create(
            store, args.game, players, parse_rules(args.rule), seed=args.seed, hardware=hardware
        )
        print(session.id)
    return 0


def _apply_line(session: TableSession, line: str) -> dict[str, Any]:
    try:
        action = json.loads(line)
    except json.JSONDecodeError as exc:
        return {"ok": False, "error": "malformed", "message": f"not valid JSON ({exc.msg} at column {exc.colno})"}
    if not isinstance(action, dict):
        return {"ok": False, "error": "malformed", "message": 'an action must be a JSON object such as {"type": "..."}'}
    try:
        if action.get("type") == "undo" and len(action) == 1:
            entry = session.undo()
            return {"ok": True, "undone": entry.seq, "events": entry.events, "prompt": session.summary().prompt}
        if action.get("type") == "redo" and len(action) == 1:
            entry = session.redo()
            return {"ok": True, "redone": entry.seq, "events": entry.events, "prompt": session.summary().prompt}
        if needs_hardware(action):
            action = session.resolve(action)
        events = session.apply(action)
    except (IllegalAction, NothingToUndo) as exc:
        return {"ok": False, "error": "illegal", "message": str(exc)}
    except StoreError:
        raise
    except PurserError as exc:  # the scale or camera gave no trustworthy measurement
        return {"ok": False, "error": "hardware", "message": str(exc)}
    return {"ok": True, "seq": session.cursor, "events": events, "prompt": session.summary().prompt}


def cmd_play(args: argparse.Namespace) -> int:
    """Apply actions from stdin; each result line is written only after the action is saved."""
    with open_store(args) as store:
        session = _load(store, args.session)
        try:
            for line in sys.stdin:
                if not line.strip():
                    continue
                try:
                    result = _apply_line(session, line)
                except StoreError as exc:
                    print_json({"ok": False, "error": "storage", "message": str(exc)})
                    return 1
                print_json(result)
        finally:
            session.close()
    return 0


def _session_json(session: TableSession, history: int) -> dict[str, Any]:
    entries = session.history()
    return {
        "id": session.id,
        "game": session.game_name,
        "players": list(session.players),
        "rules": session.config,
        "cursor": session.cursor,
        "can_undo": session.can_undo,
        "can_redo": session.can_redo,
        "summary": session.summary().to_json(),
        "legal_actions": session.legal_actions(),
        "history": [{"seq": e.seq, "action": e.action, "text": e.text} for e in entries[-history:]] if history else [],
    }


def cmd_show(args: argparse.Namespace) -> int:
    """Print a session's summary and recent history."""
    with open_store(args) as store:
        session = _load(store, args.session)
        if args.json:
            print_json(_session_json(session, args.history))
            return 0
        summary = session.summary()
        print(f"Game {session.id}: {session.game.TITLE}, {'finished' if summary.over else 'in play'}")
        for player, score in summary.scores.items():
            marker = "*" if player in summary.to_act else " "
            print(f" {marker} {player:<16} {score:g}")
        entries = session.history()
        if entries and args.history:
            print("History:")
            for entry in entries[-args.history :]:
                print(f"  {entry.seq:>4}. {entry.text}")
        print(summary.prompt)
    return 0


def cmd_undo(args: argparse.Namespace) -> int:
    """Undo one action and say what was undone."""
    with open_store(args) as store:
        session = _load(store, args.session)
        entry = session.undo()
        print(f"Undid {entry.seq}: {entry.text}")
        print(session.summary().prompt)
    return 0


def cmd_redo(args: argparse.Namespace) -> int:
    """Redo one action and say what was redone."""
    with open_store(args) as store:
        session = _load(store, args.session)
        entry = session.redo()
        print(f"Redid {entry.seq}: {entry.text}")
        print(session.summary().prompt)
    return 0


def cmd_sessions(args: argparse.Namespace) -> int:
    """List sessions: unfinished first, most recent first."""
    with open_store(args) as store:
        records = store.sessions()
        if args.json:
            print_json([
                {"id": r.id, "game": r.game, "players": list(r.players), "finished": r.finished,
                 "winners": (r.result or {}).get("winners", []), "updated": r.updated}
                for r in records
            ])
            return 0
        if not records:
            print("No games yet. Start one with `purser new GAME --players A,B`.")
        for r in records:
            status = "won by " + ", ".join((r.result or {}).get("winners", [])) if r.finished else "in play"
            print(f"{r.id:>5}  {r.game:<14} {', '.join(r.players):<30} {status:<24} {r.updated[:16]}")
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    """Write one session as JSON."""
    with open_store(args) as store:
        data = _load(store, args.session).export()
    text = json.dumps(data, indent=2) + "\n"
    if args.output:
        try:
            with open(args.output, "w", encoding="utf-8") as f:
                f.write(text)
        except OSError as exc:
            raise PurserError(f"cannot write {args.output}: {exc.strerror}") from exc
    else:
        sys.stdout.write(text)
    return 0


def cmd_import(args: argparse.Namespace) -> int:
    """Store an exported session as a new one and print its id."""
    try:
        text = sys.stdin.read() if args.file == "-" else open(args.file, encoding="utf-8").read()
        data = json.loads(text)
    except OSError as exc:
        raise PurserError(f"cannot read {args.file}: {exc.strerror}") from exc
    except json.JSONDecodeError as exc:
        raise StoreError(f"{args.file} is not a Purser game export (not JSON: {exc.msg})") from exc
    with open_store(args) as store:
        print(TableSession.import_(store, data).id)
    return 0
