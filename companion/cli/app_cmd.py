"""`purser app`: start the tablet app."""

from __future__ import annotations

import argparse


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``app`` command."""
    p = sub.add_parser("app", help="start the tablet app (simulated scale and camera when none is attached)")
    p.add_argument("--db", help="database file (default: the user's data directory)")
    p.add_argument("--scale", default=None, help="scale URL, e.g. sim://, serial:///dev/ttyUSB0, auto://")
    p.add_argument("--camera", default=None, help="camera URL, e.g. auto://, sim://, cv://0, file://photos/")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Start the Kivy app and return when its window closes."""
    from companion.ui.app import run_app

    return run_app(db=args.db, scale_url=args.scale, camera_url=args.camera)
