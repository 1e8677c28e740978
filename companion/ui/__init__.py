"""The Kivy tablet app: one screen = one .py + one .kv; renders state, sends actions.

Importing this package sets the Kivy environment defaults the app needs (before Kivy
itself is imported): no command-line parsing by Kivy, Kivy logging through Python's
logging only, a 1280x800 landscape window, no multisampling, and Escape does not quit in
the middle of a game.
"""

import os

os.environ.setdefault("KIVY_NO_ARGS", "1")
# Purser's own logging setup prints Kivy's messages too; in its default mode Kivy would
# add a second set of handlers (every line twice) and take over sys.stderr.
os.environ.setdefault("KIVY_LOG_MODE", "PYTHON")
os.environ.setdefault("KCFG_GRAPHICS_WIDTH", "1280")
os.environ.setdefault("KCFG_GRAPHICS_HEIGHT", "800")
os.environ.setdefault("KCFG_KIVY_EXIT_ON_ESCAPE", "0")
os.environ.setdefault("KCFG_INPUT_MOUSE", "mouse,multitouch_on_demand")
# No multisampling: it doubles every frame's cost in software OpenGL, and the rounded
# shapes draw their own smooth edges (SmoothRoundedRectangle).
os.environ.setdefault("KCFG_GRAPHICS_MULTISAMPLES", "0")
