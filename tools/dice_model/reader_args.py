"""``--set NAME=VALUE``: read held-out photos with a ReaderSettings field changed."""

from __future__ import annotations

import argparse
import dataclasses

from companion.vision.reader import ReaderSettings


def add_set_option(ap: argparse.ArgumentParser) -> None:
    """Add ``--set NAME=VALUE`` (repeatable) to ``ap``."""
    ap.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="read with this ReaderSettings field changed (e.g. face_views=2, rescale=no), to weigh a setting",
    )


def reader_settings(ap: argparse.ArgumentParser, texts: list[str]) -> ReaderSettings:
    """The app's ReaderSettings with each ``NAME=VALUE`` of ``texts`` applied; a bad one
    ends the script with a usage error naming the fields."""
    return dataclasses.replace(ReaderSettings(), **dict(_setting(ap, text) for text in texts))


def _setting(ap: argparse.ArgumentParser, text: str) -> tuple[str, object]:
    """``NAME=VALUE`` as a ReaderSettings field and a value of that field's type."""
    name, _, value = text.partition("=")
    fields = {f.name: f for f in dataclasses.fields(ReaderSettings)}
    if name not in fields or not value:
        ap.error(f"--set {text!r}: give NAME=VALUE with NAME one of {', '.join(fields)}")
    current = getattr(ReaderSettings(), name)
    kind = float if current is None else type(current)  # unsure_below: None stands for "calibrated"
    try:
        if kind is bool:
            return name, value.lower() in ("1", "true", "yes")
        if kind is tuple:
            return name, tuple(float(v) for v in value.split(","))
        return name, kind(value)
    except (TypeError, ValueError):
        ap.error(f"--set {text!r}: {value!r} is not a {type(current).__name__}")
    raise AssertionError  # ap.error exits
