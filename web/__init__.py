"""The web app: live scoreboard, corrections and game review, served by the Pi itself."""
