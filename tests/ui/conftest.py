"""The real app in a real offscreen window, one app per test module (a window per process).

A module may set ``SCALE_URL`` / ``CAMERA_URL`` to choose the hardware its app uses.
Screenshots go to a temporary folder (printed with -s); set PURSER_UI_SHOTS to keep them.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.ui import kivy_driver as kd


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "/tests/ui/" in str(item.fspath):
            item.add_marker(pytest.mark.ui)


@pytest.fixture(scope="session", autouse=True)
def private_data_dir(tmp_path_factory: pytest.TempPathFactory):
    """Calibrations and other per-user files go to a temporary folder, not the home directory."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("PURSER_DATA_DIR", str(tmp_path_factory.mktemp("purser-data")))
        yield


@pytest.fixture(scope="session")
def shots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where tests save screenshots."""
    keep = os.environ.get("PURSER_UI_SHOTS")
    return Path(keep) if keep else tmp_path_factory.mktemp("ui-shots")


@pytest.fixture(scope="module")
def app(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory):
    """The Purser app on a fresh database, started once for the module."""
    module = request.module
    db = tmp_path_factory.mktemp("ui-db") / "purser.db"
    the_app = kd.start_app(
        db,
        scale_url=getattr(module, "SCALE_URL", "sim://"),
        camera_url=getattr(module, "CAMERA_URL", "sim://"),
        size=getattr(module, "WINDOW_SIZE", (1280, 800)),
    )
    yield the_app
    kd.stop_app(the_app)


@pytest.fixture
def home(app):
    """The app on its home screen, with the resume offer dismissed."""
    app.go_home()
    kd.pump(3)
    return app
