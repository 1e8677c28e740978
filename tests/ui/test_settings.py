"""Settings: hardware addresses, house-rule defaults and the theme, kept across restarts."""

from __future__ import annotations

import json

from tests.ui import kivy_driver as kd


def test_theme_switches_at_once_and_is_kept(home):
    app = home
    kd.tap_key(app.root, "nav:settings")
    screen = app.manager.current_screen
    dark_bg = tuple(app.theme.bg)
    kd.tap_key(screen, "theme:light")
    kd.tap_key(screen, "save")
    assert screen.status == "Saved."
    assert app.theme.name == "light" and tuple(app.theme.bg) != dark_bg
    saved = json.loads(app.settings_file.read_text())
    assert saved["theme"] == "light"
    kd.tap_key(screen, "theme:dark")
    kd.tap_key(screen, "save")
    assert app.theme.name == "dark" and tuple(app.theme.bg) == dark_bg


def saved_text(app) -> str | None:
    """The settings file as it stands on disk (None: nothing saved yet)."""
    return app.settings_file.read_text() if app.settings_file.exists() else None


def test_an_address_without_a_scheme_is_refused(home):
    app = home
    before = saved_text(app)
    screen = app.go("settings")
    kd.pump()
    kd.type_text(screen.ids.scale_url, "/dev/ttyUSB0")
    kd.tap_key(screen, "save")
    assert screen.status_kind == "error" and "sim://" in screen.status
    assert saved_text(app) == before  # nothing saved


def test_house_rule_defaults_start_new_games(home):
    app = home
    screen = app.go("settings")
    kd.pump()
    kd.tap_key(screen, "rules-game:seven")
    kd.tap_key(screen, "rule:rounds:-")
    kd.tap_key(screen, "rule:rounds:-")
    kd.tap_key(screen, "save")
    assert screen.status == "Saved.", screen.status
    assert app.settings.rules == {"seven": {"rounds": "5"}}
    kd.tap_key(app.root, "back")
    kd.tap_key(app.root, "new:seven")
    form = app.manager.current_screen
    assert kd.find(form, key="rule:rounds").text == "5"
    kd.tap_key(form, "clear_seats")
    for name in ("Mo", "Lu"):
        kd.type_text(kd.find(form, key="new_name"), name)
        kd.tap_key(form, "add_player")
    kd.tap_key(form, "start")
    assert app.controller.session.config["rounds"] == 5


def test_a_bad_house_rule_default_is_not_saved(home):
    app = home
    before = saved_text(app)
    screen = app.go("settings")
    kd.pump()
    kd.tap_key(screen, "rules-game:seven")
    kd.type_text(kd.find(screen, key="rule:hand_size"), "0")
    kd.tap_key(screen, "save")
    assert screen.status_kind == "error" and "hand_size" in screen.status
    assert saved_text(app) == before  # nothing saved


def test_changed_scale_address_is_used_at_once(home):
    app = home
    screen = app.go("settings")
    kd.pump()
    kd.tap_key(screen, "scale_url:sim://")
    assert screen.ids.scale_url.text == "sim://"
    kd.type_text(screen.ids.scale_url, "sim://?pieces=42")
    kd.tap_key(screen, "save")
    assert app.hardware.scale_url == "sim://?pieces=42"
    kd.wait_until(lambda: app.hardware.scale_state == "ready", 60, "the new scale")
    app.hardware.watch_scale(True)
    kd.wait_until(lambda: app.hardware.grams is not None and abs(app.hardware.grams - 42) < 0.5, 60, "42 g")
    app.hardware.watch_scale(False)
