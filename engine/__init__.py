"""The rules engine: board, tiles, lexicon, scoring, game state and GCG.

Depends on the standard library only; nothing here knows of cameras or web servers.
"""
