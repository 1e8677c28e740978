"""The settings file: defaults, round trip, a damaged file set aside (no window needed)."""

from __future__ import annotations

import pytest

from companion.ui.settings import Settings, settings_path


def test_settings_live_beside_the_database(tmp_path):
    assert settings_path(tmp_path / "purser.db") == tmp_path / "purser.settings.json"


def test_missing_file_gives_defaults(tmp_path):
    settings, warning = Settings.load(tmp_path / "none.json")
    assert settings == Settings() and warning == ""
    assert settings.theme == "dark" and settings.camera_url == "auto://" and settings.scale_url == "auto://"


def test_round_trip(tmp_path):
    path = tmp_path / "s.json"
    Settings(scale_url="sim://?pieces=5", camera_url="cv://0", theme="light", rules={"seven": {"rounds": 3}}).save(path)
    loaded, warning = Settings.load(path)
    assert warning == ""
    assert loaded == Settings("sim://?pieces=5", "cv://0", "light", {"seven": {"rounds": 3}})
    assert not list(tmp_path.glob("*.tmp"))


@pytest.mark.parametrize("content", ["", "{", "[1, 2]", '{"rules": 5}', "\x00\xff garbage"])
def test_a_damaged_file_is_set_aside_never_deleted(tmp_path, content):
    path = tmp_path / "s.json"
    path.write_text(content, encoding="utf-8", errors="surrogateescape")
    settings, warning = Settings.load(path)
    assert settings == Settings()
    assert "damaged" in warning
    assert not path.exists()
    assert (tmp_path / "s.json.bad").read_text(encoding="utf-8", errors="surrogateescape") == content


def test_an_unknown_theme_falls_back_to_dark(tmp_path):
    path = tmp_path / "s.json"
    path.write_text('{"theme": "neon"}')
    assert Settings.load(path)[0].theme == "dark"
