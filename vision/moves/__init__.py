"""Move inference: frames of the board in, game events out.

    frame ──reader──▶ per-square class probabilities + rectified image
          ──change (pixels against the last settled frame)──▶ which squares to believe anew
          ──tracker (settled?)──▶ settled reading ──interpret (against the committed board)──▶ [DetectedEvent]

One concept a module: :mod:`.reading` (what the reader says, per square), :mod:`.change` (what changed in pixels),
:mod:`.belief` (what is believed on each square, and which squares to read again), :mod:`.reader` (the vision
pipeline as the tracker's reader: on a settled frame only those squares), :mod:`.interpret` (a settled board
against the committed one: new squares, a withdrawal), :mod:`.decide` (the one scored decision: the most probable
event), :mod:`.squares` and :mod:`.letters` (its squares' probabilities and its letters), :mod:`.resolve` (a decided
play, the tile counts, the lexicon), :mod:`.turned` (a board turned on the table, told from its letters),
:mod:`.tracker` (the state machine), :mod:`.events` (what comes out), :mod:`.replay` (events into an engine game,
for tests and tools without a store).
"""
