"""The app's screens, one module (and one .kv beside it) each; see ``companion.ui.app.SCREENS``."""
