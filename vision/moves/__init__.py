"""Move inference: frames of the board in, game events out.

    frame ──reader──▶ per-square class probabilities + rectified image
          ──change (pixels against the last settled frame)──▶ which squares to believe anew
          ──tracker (settled?)──▶ settled reading ──interpret (against the committed board)──▶ [DetectedEvent]

One concept a module: :mod:`.reading` (what the reader says, per square), :mod:`.change` (what changed in pixels),
:mod:`.resolve` (new tiles → one play), :mod:`.alternatives` (when they are not one play at first sight),
:mod:`.interpret` (a settled board → what happened), :mod:`.tracker` (the state machine), :mod:`.reader` (the
vision pipeline as the tracker's reader), :mod:`.events` (what comes out), :mod:`.replay` (events into an engine
game, for tests and tools without a store).
"""
