"""The Kivy tablet app: one screen = one .py + one .kv; renders state, sends actions."""
