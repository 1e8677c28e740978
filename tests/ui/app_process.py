"""The real app in its own process, remote-controlled over stdin/stdout (one JSON object a line).

Started by the kill-and-resume test: ``python -m tests.ui.app_process DB``. Commands:

- ``{"tap": KEY}``: tap the widget whose ``key`` is KEY;
- ``{"type": [KEY, TEXT]}``: type TEXT into that field;
- ``{"look": true}``: report without doing anything;
- ``{"shot": PATH}``: save a screenshot.

After each command it prints ``{"ok": true, "screen": NAME, "prompt": ..., "texts": ...}``
(``ok`` false with ``error`` when a command fails). It never exits by itself: the test
kills it.
"""

from __future__ import annotations

import json
import queue
import sys
import threading
import traceback
from pathlib import Path
from typing import Any

from tests.ui import kivy_driver as kd


def report(app: Any, **extra: Any) -> dict[str, Any]:
    screen = app.manager.current_screen
    prompt = screen.ids["prompt"].text if "prompt" in screen.ids else ""
    data = {"ok": True, "screen": app.manager.current, "prompt": prompt, "texts": kd.texts(app.root)}
    data.update(extra)
    return data


def run(db: Path) -> None:
    kd.environment_ready()
    app = kd.start_app(db)
    lines: queue.Queue[str | None] = queue.Queue()

    def reader() -> None:
        for line in sys.stdin:
            lines.put(line)
        lines.put(None)

    threading.Thread(target=reader, daemon=True).start()
    print(json.dumps(report(app, ready=True)), flush=True)
    while True:
        kd.pump(1)
        try:
            line = lines.get(timeout=0.02)
        except queue.Empty:
            continue
        if line is None:
            return
        try:
            command = json.loads(line)
            if "tap" in command:
                kd.tap_key(app.root, command["tap"])
                kd.pump(3)  # lists (history) lay their lines out over a few frames
            elif "type" in command:
                key, text = command["type"]
                kd.type_text(kd.find(app.root, key=key), text)
            elif "shot" in command:
                path = Path(command["shot"])
                kd.shot(app, path.parent, path.stem)
            out = report(app)
        except Exception as exc:  # reported to the test, which fails with it
            out = {"ok": False, "error": f"{exc}\n{traceback.format_exc()}"}
        print(json.dumps(out), flush=True)


if __name__ == "__main__":
    run(Path(sys.argv[1]))
