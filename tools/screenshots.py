"""Save every screen of the tablet app as a PNG, landscape (1280x800) and portrait (800x1280).

    python tools/screenshots.py [--out docs/screenshots] [--only home,seven]

Runs the real app in an offscreen window on a throw-away database with the simulated
scale and camera, plays a little of each game so the screens show something real, and
writes ``<screen>-landscape.png`` / ``<screen>-portrait.png``.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

os.environ.setdefault("KIVY_NO_ARGS", "1")
os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
os.environ.setdefault("KIVY_NO_FILELOG", "1")

SIZES = {"landscape": (1280, 800), "portrait": (800, 1280)}


def pump(frames: int = 3) -> None:
    from kivy.base import EventLoop

    for _ in range(frames):
        EventLoop.idle()


def wait(condition: Any, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition() and time.monotonic() < deadline:
        pump(1)
        time.sleep(0.02)


def play_randomly(session: Any, seed: int, until: Any) -> None:
    """Apply random legal actions (measurements typed in) until ``until(summary)``."""
    rng = random.Random(seed)
    for _ in range(2000):
        s = session.summary()
        if until(s) or s.over:
            return
        legal = [a for a in session.legal_actions() if "from" not in a]
        if not legal:
            return
        session.apply(rng.choice(legal))


def build_history(app: Any) -> None:
    """Games for the home, past-games and players screens: one finished "7", one finished
    Swashbuckle match (titles), one "7" in play."""
    from companion.session import TableSession

    done = TableSession.create(app.store, "seven", ["Ana", "Ben"], {"rounds": 1, "hand_size": 1}, seed=5)
    done.apply({"type": "play", "player": "Ana", "card": 7, "on": "hole"})
    match = TableSession.create(app.store, "swashbuckle", ["Ana", "Ben", "Cy"], {"who_starts": "seating"}, seed=3)
    rng = random.Random(4)
    while not match.summary().over:
        legal = match.legal_actions()
        scores = [a for a in legal if a["type"] == "score"]
        if scores:
            match.apply(scores[0])
        elif any(a["type"] == "pillage" for a in legal):
            match.apply(next(a for a in legal if a["type"] == "pillage"))
        else:
            roll = next(a for a in legal if a["type"] == "roll")
            n = match.summary().detail["turn"]["dice_in_play"] - len(roll.get("keep", []))
            dice = [rng.randint(1, 6) for _ in range(n)]
            match.apply({k: v for k, v in roll.items() if k != "from"} | {"dice": dice})
    live = TableSession.create(app.store, "seven", ["Ana", "Ben", "Cy"], {}, seed=8)
    live.apply({"type": "play", "player": "Ana", "card": 4, "on": "hole"})
    live.apply({"type": "play", "player": "Ben", "card": 1, "on": "number"})


def show(app: Any, name: str, opened: dict[str, int]) -> None:
    """Put screen ``name`` on show with typical content; a game made for it before (the
    other orientation) is opened again rather than made twice."""
    if name in opened:
        app.open_session(opened[name])
        if name in ("weighoff", "generic"):
            app.go(name, controller=app.controller)
        _after(app, name)
        return
    _make(app, name)
    if app.controller is not None:
        opened[name] = app.controller.session.id
    _after(app, name)


def _after(app: Any, name: str) -> None:
    """What a screen shows beyond its game: the hint, a die being fixed."""
    screen = app.manager.current_screen
    if name == "swashbuckle":
        screen.set_hint(True)
        wait(lambda: app.advice.state in ("ready", "failed"), 600)
        screen.refresh()
    elif name == "fixdice":
        screen.fixing = 2
        screen.refresh()
        screen.fixing = 2
        screen._fill_dice()


#: The balance the calibration is shown on: the simulator on its own clock (a whole
#: procedure with checks, corners and creep in a second or two).
CALIBRATION_SCALE = "sim://?clock=virtual&seed=3"


def _calibrated(app: Any) -> None:
    """The calibrate screen after a whole procedure: M1 masses, checks, corners, creep."""
    hw = app.hardware
    hw.reconfigure(CALIBRATION_SCALE, hw.camera_url)
    wait(lambda: hw.scale_state == "ready" and hw.scale_url == CALIBRATION_SCALE, 60)
    screen = app.go("calibrate", channel=0)
    screen.ids.checks.text = "50,150,400"
    screen.ids.creep.text = "10"
    screen.choose_class("M1")
    screen.start()
    wait(lambda: not screen.running, 120)


def _cleanup(app: Any, name: str, scale_url: str) -> None:
    """Put back what a screen's picture changed (the calibration's own balance)."""
    if name == "calibrate":
        app.hardware.reconfigure(scale_url, app.hardware.camera_url)
        wait(lambda: app.hardware.scale_state == "ready", 60)


def _make(app: Any, name: str) -> None:
    if name in ("home", "players", "past", "settings"):
        app.resume_offered = False
        app.go(name)
    elif name == "calibrate":
        _calibrated(app)
    elif name == "over":
        finished = next(r for r in app.store.sessions() if r.finished and r.game == "swashbuckle")
        app.open_session(finished.id)  # a finished game opens on its result
    elif name == "fixdice":
        app.start_game("swashbuckle", ["Ana", "Ben", "Cy"], {"who_starts": "seating"}, seed=4)
        read = [(5, False), (5, False), (3, True), (6, False), (2, True)]
        app.controller.act(
            {
                "type": "roll",
                "player": "Ana",
                "detections": {
                    "dice": [
                        {"value": v, "box": [40 + 90 * i, 60, 60, 60], "confidence": 0.55 if u else 0.97, "unsure": u}
                        for i, (v, u) in enumerate(read)
                    ],
                    "unsure": 2,
                },
            }
        )
    elif name == "newgame":
        screen = app.go("newgame")
        screen.choose_game("swashbuckle")
        for player in ("Ana", "Ben", "Cy"):
            screen.toggle_seat(player, True)
    elif name == "hardware":
        app.go("hardware")
        wait(lambda: app.hardware.detections is not None and app.hardware.grams is not None)
    elif name == "seven":
        app.start_game("seven", ["Ana", "Ben", "Cy"], {}, seed=1)
        for action in (
            {"type": "play", "player": "Ana", "card": 3, "on": "hole"},
            {"type": "play", "player": "Ben", "card": 2, "on": "number"},
        ):
            app.controller.act(action)
    elif name == "generic":  # every game has its own screen: a Guilded session shown on this one
        app.start_game("guilded", ["Ana", "Ben"], {}, seed=1)
        session = app.controller.session
        while len(session.legal_actions()) <= 24:
            session.apply(session.legal_actions()[0])
        app.controller.refresh()
        app.go("generic", controller=app.controller)
    elif name == "guilded":
        app.start_game("guilded", ["Ana", "Ben"], {}, seed=3)
        for action in GUILDED_TURNS:
            app.controller.act(action)
    elif name == "scallywagger":
        app.start_game("scallywagger", ["Ana", "Ben", "Cy"], {}, seed=1)
        for action in (
            {"type": "first_captain", "player": "Ana"},
            {"type": "bid", "player": "Ana", "quantity": 4, "face": 3},
            {"type": "bid", "player": "Ben", "quantity": 4, "face": 5},
        ):
            app.controller.act(action)
    elif name == "swashbuckle":
        app.start_game("swashbuckle", ["Ana", "Ben", "Cy"], {"who_starts": "seating"}, seed=2)
        session = app.controller.session
        turns = ([1, 1, 1, 1, 2], "aces_high"), ([2, 3, 4, 5, 6], "succession_5"), ([3, 3, 3, 5, 5], "full_boat")
        for dice, box in turns:
            player = session.summary().detail["turn"]["player"]
            session.apply({"type": "roll", "player": player, "dice": dice})
            session.apply({"type": "score", "player": player, "box": box})
        player = session.summary().detail["turn"]["player"]
        session.apply({"type": "roll", "player": player, "dice": [6, 6, 4, 6, 1]})
        app.controller.refresh()
    elif name in ("seize", "weighoff"):
        app.start_game("seven-seize", ["Ana", "Ben", "Cy", "Dee"], {}, seed=1)
        session = app.controller.session
        if name == "seize":
            play_randomly(session, 1, lambda s: s.detail["round"] == 3 and s.detail["phase"] == "seize")
        else:
            play_randomly(session, 1, lambda s: s.detail["phase"] == "weighoff")
            for player, grams in (("Ana", 151.2), ("Ben", 151.25), ("Cy", 120.4)):
                if player in session.summary().detail["weighoff"]["waiting"]:
                    session.apply({"type": "weigh", "player": player, "grams": grams})
        app.controller.refresh()
        if name == "weighoff":
            app.go("weighoff", controller=app.controller)
    else:
        raise SystemExit(f"no such screen: {name}")


def screen_names() -> list[str]:
    """Every screen of the app (but the error screen), and a camera roll being fixed."""
    from companion.ui.app import SCREENS

    return [n for n in SCREENS if n != "problem"] + ["fixdice"]


#: Guilded Treasures into Ben's second turn: mercenaries on both sides, statuses, loot spent.
GUILDED_TURNS = (
    {"type": "roll", "player": "Ana", "value": 5},
    {"type": "roll", "player": "Ben", "value": 2},
    {"type": "go_first", "player": "Ana", "first": "Ana"},
    {"type": "keep", "player": "Ana"},
    {"type": "keep", "player": "Ben"},
    {"type": "next_phase", "player": "Ana"},
    {"type": "next_phase", "player": "Ana"},
    {"type": "acquire", "player": "Ana", "cards": 2},
    {"type": "next_phase", "player": "Ana"},
    {
        "type": "play_merc",
        "player": "Ana",
        "name": "Deckhand",
        "health": 6,
        "bounty": 2,
        "armour": 1,
        "melee": 3,
        "move": 2,
        "tile": {"side": "Ana", "row": 1, "col": 2},
    },
    {
        "type": "play_merc",
        "player": "Ana",
        "name": "Sea Witch",
        "health": 4,
        "bounty": 3,
        "ranged": 3,
        "ranged_type": "staff",
        "move": 1,
        "tile": {"side": "Ana", "row": 1, "col": 3},
    },
    {"type": "end_turn", "player": "Ana"},
    {"type": "next_phase", "player": "Ana"},
    {"type": "next_phase", "player": "Ben"},
    {"type": "next_phase", "player": "Ben"},
    {"type": "acquire", "player": "Ben", "cards": 1},
    {"type": "next_phase", "player": "Ben"},
    {
        "type": "play_merc",
        "player": "Ben",
        "name": "Raider",
        "health": 7,
        "bounty": 3,
        "magic_armour": 1,
        "defence": 2,
        "melee": 2,
        "move": 3,
        "tile": {"side": "Ben", "row": 1, "col": 3},
    },
    {"type": "add_status", "target": "m1", "status": "poison", "count": 2},
    {"type": "add_status", "target": "m1", "status": "bleed", "count": 1},
    {"type": "next_phase", "player": "Ben"},
    {"type": "next_phase", "player": "Ben"},
    {"type": "attack", "player": "Ben", "merc": "m3", "target": "m2", "with": "melee"},
)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    parser.add_argument("--only", default="", help="comma-separated screen names")
    args = parser.parse_args(argv)
    names = [n for n in args.only.split(",") if n] or screen_names()

    from kivy.base import EventLoop

    import companion.ui  # noqa: F401  (Kivy environment)

    EventLoop.ensure_window()
    from kivy.core.window import Window

    from companion.ui.app import PurserApp

    args.out.mkdir(parents=True, exist_ok=True)
    from companion.advisor.table import cache_dir

    # the best-play tables are kept where the app keeps them: built once, not on every run
    os.environ.setdefault("PURSER_ADVISOR_CACHE", str(cache_dir()))
    with tempfile.TemporaryDirectory(prefix="purser-shots-") as tmp:
        os.environ["PURSER_DATA_DIR"] = tmp
        # a maker's first balance: two-channel firmware with one amplifier fitted (pan B missing)
        scale_url = "sim://?channels=2&missing=1&pieces=151.2"
        app = PurserApp(db=Path(tmp) / "purser.db", scale_url=scale_url, camera_url="sim://?dice=5&seed=7")
        app._run_prepare()
        pump(5)
        build_history(app)
        opened: dict[str, int] = {}
        for orientation, size in SIZES.items():
            Window.size = size
            pump(3)
            for name in names:
                show(app, name, opened)
                pump(6)
                if "preview" in app.manager.current_screen.ids:  # let a camera frame arrive and draw
                    wait(lambda: app.hardware.frame is not None)
                for _ in range(5):  # plots are drawn a frame after they are laid out
                    time.sleep(0.1)
                    pump(2)
                path = args.out / f"{name}-{orientation}.png"
                app.export_png(path)
                _shrink(path)
                print(path.relative_to(ROOT) if path.is_relative_to(ROOT) else path)
                _cleanup(app, name, scale_url)
                app.go_home()
                pump(2)
        app.dispatch("on_stop")
    return 0


def _shrink(path: Path) -> None:
    """Re-save with the strongest PNG compression (flat UI colours compress well)."""
    import cv2

    image = cv2.imread(str(path), cv2.IMREAD_UNCHANGED)
    if image is not None:
        if image.ndim == 3 and image.shape[2] == 4:
            image = image[:, :, :3]
        cv2.imwrite(str(path), image, [cv2.IMWRITE_PNG_COMPRESSION, 9])


if __name__ == "__main__":
    raise SystemExit(main())
