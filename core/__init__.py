"""The game core: the game service and its store, shared by the device (firmware) and the web."""
