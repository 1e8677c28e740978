"""Every screen laid out in 1280x800 landscape and 800x1280 portrait: nothing outside the
window or its parent (or sticking out sideways from a scrolling list), no title cut short,
and every button big enough to hit."""

from __future__ import annotations

import random

import pytest

from companion.ui.app import SCREENS as APP_SCREENS
from tests.ui import kivy_driver as kd

SIZES = {"landscape": (1280, 800), "portrait": (800, 1280)}
MIN_TARGET = 44  # px at this density: a fingertip


def _setup(app, name: str):
    """Open screen ``name`` showing something typical."""
    if name in ("home", "newgame", "players", "past", "settings", "hardware", "calibrate"):
        return app.go(name)
    if name == "seven":
        app.start_game("seven", ["Ana", "Ben", "Cy"], {}, seed=1)
        app.controller.act({"type": "play", "player": "Ana", "card": 3, "on": "hole"})
    elif name == "generic":  # every game has its own screen: a Guilded session shown on this one
        app.start_game("guilded", ["Ana", "Ben"], {}, seed=1)
        app.go("generic", controller=app.controller)
    elif name == "guilded":
        app.start_game("guilded", ["Ana", "Ben", "Cy", "Dee"], {"format": "guild_master"}, seed=1)
        _guilded_boards(app.controller.session)
        app.controller.refresh()
    elif name == "scallywagger":
        app.start_game("scallywagger", ["Ana", "Ben", "Cy"], {}, seed=1)
        app.controller.act({"type": "first_captain", "player": "Ana"})
    elif name == "swashbuckle":
        app.start_game("swashbuckle", ["Ana", "Ben", "Cy"], {"who_starts": "seating"}, seed=1)
        app.controller.act({"type": "roll", "player": "Ana", "dice": [1, 2, 3, 4, 6]})
    elif name == "over":
        app.start_game("seven", ["Ana", "Ben", "Cy"], {"rounds": 1, "hand_size": 1}, seed=5)
        app.controller.act({"type": "play", "player": "Ana", "card": 7, "on": "hole"})
        while not app.controller.summary.over:
            app.controller.act(next(a for a in app.controller.legal if a["type"] in ("play", "penalty")))
        kd.pump(2)
        return app.go("over", controller=app.controller)
    elif name in ("seize", "weighoff"):
        app.start_game("seven-seize", ["Ana", "Ben", "Cy"], {}, seed=1)
        session, rng = app.controller.session, random.Random(1)
        stop = "weighoff" if name == "weighoff" else "seize"
        while session.summary().detail["phase"] != stop:
            session.apply(rng.choice(session.legal_actions()))
        if name == "weighoff":
            session.apply({"type": "weigh", "player": "Ana", "grams": 151.5})
        app.controller.refresh()
        if name == "weighoff":
            app.go("weighoff", controller=app.controller)
    return app.manager.current_screen


def _off_slide(widget) -> bool:
    """Whether ``widget`` is on a carousel page that is not the one shown (swiped away)."""
    from kivy.uix.carousel import Carousel

    w = widget
    while w is not None and w is not w.parent:
        parent = w.parent
        if isinstance(parent, Carousel) or (parent is not None and isinstance(parent.parent, Carousel)):
            carousel = parent if isinstance(parent, Carousel) else parent.parent
            slide = carousel.current_slide
            node = widget
            while node is not None and node is not carousel:
                if node is slide:
                    return False
                node = node.parent
            return widget is not carousel and widget is not parent
        w = parent
    return False


def _inside_scrollview(widget):
    from kivy.uix.scrollview import ScrollView

    w = widget.parent
    while w is not None and w is not w.parent:
        if isinstance(w, ScrollView):
            return w
        w = w.parent
    return None


SCREENS = tuple(name for name in APP_SCREENS if name != "problem")  # the error screen: test_app.py


def _guilded_boards(session) -> None:
    """Guild Master for four, each player with two mercenaries (one poisoned), back at Ana's Rally."""
    players = ("Ana", "Ben", "Cy", "Dee")
    for player, value in zip(players, (6, 1, 2, 3)):
        session.apply({"type": "roll", "player": player, "value": value})
    session.apply({"type": "go_first", "player": "Ana", "first": "Ana"})
    for player in players:
        session.apply({"type": "keep", "player": player})
    for turn in range(len(players) + 1):
        player = session.summary().detail["turn_players"][0]
        while session.summary().detail["phase"] != "rally":
            session.apply({"type": "next_phase", "player": player})
        if turn < len(players):
            for name in ("Corsair", "Sea Witch"):
                session.apply(
                    {
                        "type": "play_merc",
                        "player": player,
                        "name": name,
                        "health": 6,
                        "bounty": 2,
                        "melee": 2,
                        "ranged": 1,
                        "move": 2,
                    }
                )
            session.apply({"type": "end_turn", "player": player})
            session.apply({"type": "next_phase", "player": player})
    session.apply({"type": "add_status", "target": "m1", "status": "poison", "count": 2})


@pytest.mark.parametrize("orientation", list(SIZES))
@pytest.mark.parametrize("name", SCREENS)
def test_screen_fits(app, shots, name, orientation):
    from kivy.core.window import Window
    from kivy.uix.behaviors import ButtonBehavior

    kd.set_window(SIZES[orientation])
    screen = _setup(app, name)
    kd.pump(4)
    assert app.manager.current == screen.name
    width, height = Window.size
    problems = []
    for w in kd.walk(app.root):
        if not kd.visible(w) or w is app.root or _off_slide(w):
            continue
        x, y = w.to_window(*w.pos)
        right, top = x + w.width, y + w.height
        holder = _inside_scrollview(w)
        if holder is None:
            if x < -1 or y < -1 or right > width + 1 or top > height + 1:
                problems.append(
                    f"{type(w).__name__} {getattr(w, 'text', '')[:30]!r} at {x:.0f},{y:.0f} "
                    f"{w.width:.0f}x{w.height:.0f}"
                )
        else:
            hx, _ = holder.to_window(*holder.pos)
            if x < hx - 1 or right > hx + holder.width + 1:
                problems.append(f"{type(w).__name__} {getattr(w, 'text', '')[:30]!r} sticks out of its list sideways")
        if isinstance(w, ButtonBehavior) and min(w.width, w.height) < MIN_TARGET:
            problems.append(f"{type(w).__name__} {getattr(w, 'text', '')[:30]!r} is only {w.width:.0f}x{w.height:.0f}")
    problems += kd.outside_parent(app.root)
    problems += kd.hidden_tap_takers(app.root)
    bar = kd.find_all(app.root, cls="GameBar")
    if bar:
        problems += [f"title cut short: {t}" for t in kd.elided(bar[0])]
    kd.shot(app, shots, f"layout-{name}-{orientation}")
    kd.set_window(SIZES["landscape"])
    assert not problems, f"{name} ({orientation}):\n" + "\n".join(problems)
