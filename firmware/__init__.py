"""The device: camera sources, the capture loop, buttons, the game store, the CLI and the daemon."""
