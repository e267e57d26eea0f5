"""The vision pipeline as the tracker's reader: ``read_board`` with the tile model, the board's turn learned once,
and on a settled frame only the squares that changed read again."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from tilecam.vision.moves.reading import EMPTY, turned_square
from tilecam.vision.raised import TILE_FACE_HEIGHT

log = logging.getLogger(__name__)

Reader = Callable[[Any], Any]

ORIENT_MIN_TILES = 2      # tiles on the board (one a letter) before the reader decides which edge is row 1 …
ORIENT_MAX_UNSURE = 2     # … with at most this many squares read as occluded (more: a hand is over the board)


def _one_line(grid: Sequence[str]) -> bool:
    """Whether the squares read as anything but empty lie in one row or one column."""
    squares = [(r, c) for r, row in enumerate(grid) for c, ch in enumerate(row) if ch != EMPTY]
    return bool(squares) and (len({r for r, _ in squares}) == 1 or len({c for _, c in squares}) == 1)


#: More squares than this to read again (changed, or believed doubtfully) and the board is read whole, the
#: squares' references taken anew: the board was bumped or the light changed everywhere, and a whole read costs little more.
WHOLE_READ_ABOVE = 60
#: Under a fixed camera a grid found more than this many squares (of the last grid's) from the last one at some
#: corner is the board moved on the table or a grid found wrong (an arm over its edge, a part of the board taken
#: for all of it); it is taken only when the next frame finds it there too, the frame between read on the last grid.
MOVED_FAR_SQUARES = 1.0


def _moved_squares(before: Any, after: Any, size: int) -> float:
    """How far the grid ``after`` lies from ``before`` (``BoardLocation``s of a board of ``size`` squares a side):
    the farthest corner's move, in ``before``'s squares."""
    from tilecam.vision.warp import square_px

    corners = np.asarray(before.corners, np.float64)
    moved = np.linalg.norm(np.asarray(after.corners, np.float64) - corners, axis=1).max()
    return float(moved / max(square_px(corners, size), 1e-6))


class ReaderStateError(RuntimeError):
    """The reader was asked for what it does not have yet (a turn of the board before it knows the board's turn)."""


class VisionReader:
    """``read_board`` with the tile model as the tracker's reader (see :func:`default_reader`).

    ``reader(image)`` reads every square. ``reader.read_changed(image, wanted)`` reads only the squares that
    ``wanted(signature)`` asks for (the tracker's memory: those whose pixels changed since the board last settled,
    and those it believes only doubtfully), each beside its reference crop from the last whole read; the other
    squares keep the last read's probabilities. It returns the reading and the frame's change signature.
    ``size``: the board's squares a side (15, or 21 for Super Scrabble's board)."""

    def __init__(self, classifier: Any, tileset: str, rotation: int | None, profile: Any = None,
                 size: int = 15, tile_height: float = TILE_FACE_HEIGHT, looks: Any = None) -> None:
        self.classifier = classifier
        self.tile_height = tile_height   # which tile read on the plane of the faces this far up (``read_board``)
        self.tileset = tileset
        self.rotation = rotation
        self.rotation_given = rotation is not None     # row 1 set by the calibration, not told from the tiles
        self.size = size
        self.profile = profile           # the board's profile (``tilecam calibrate``): each square's bare look
        self.hint: Any = None if profile is None else profile.location()
        self.learnt: dict[tuple[int, int], tuple[np.ndarray, int]] = {}   # square → its last look, its label
        self.adapter: Any = None         # the model's last layer refitted on ``learnt`` (``vision.adapt``)
        self._head: Any = None
        # the tiles learnt from a photo of the set laid out (``vision.laidout``), learnt before any game's
        self.taught = None if looks is None else looks.profile(classifier.classes)
        if self.taught is not None and self.taught.labels:
            self._head = self.taught.head
            self.adapter = self.taught.adapter()
        self.last: Any = None            # the last reading (its probabilities and references are reused)
        self._moved_to: Any = None       # a grid found far from the last one, not yet found there twice
        self._faces_of: Any = None       # the references whose face colours ``_faces`` are
        self._faces: Any = None
        self._square_faces: tuple[Any, Any] = (None, None)    # a reading, its squares' face colours
        self.squares_read: list[int] = []          # per read: squares classified
        self.classify_s: list[float] = []          # per read: seconds spent classifying

    def __call__(self, image: np.ndarray, wanted: Callable[[Any], np.ndarray] | None = None) -> Any:
        """Every square of ``image`` read (see the class doc). ``wanted``: the tracker's memory of what changed in
        pixels since the board last settled (as ``read_changed``'s), by which a square read as covered that did not
        change in pixels is no hand — a glare spot lying still does not keep the board's turn from being told."""
        from tilecam.vision.read import read_board

        classifier, tileset = self.classifier, self.tileset
        # the last location is the hint: kept while it still fits the frame, found again when the board moved
        reading = read_board(image, classifier, tileset=tileset, hint=self.hint, rotation=self.rotation or 0,
                             references=self._references(self.rotation or 0), adapter=self.adapter, size=self.size,
                             settled=False, tile_height=self.tile_height)
        self.hint = getattr(reading, "location", None)
        # Until the turn is known, every read of a board with no hand over it tells it from all four readings
        # (``orient.upright_turn``: a letter lying sideways or upside down may read as a bare square, so the
        # unturned reading alone cannot say whether there are letters): three more classifications a frame, for
        # the first frames of a game only. A few unsure squares are allowed (a first word's letters lying
        # sideways), a hand's worth is not — unless they lie in one row or column: a first word, not a hand. The
        # turn is kept once one letter is read surely in it among two tiles or more (glare on an empty board can
        # read as a tile or two in some turn), and the turn beats every other (``Orientation.decisive``: KEX upside
        # down reads its X surely both ways, and the wrong turn kept then read the whole game wrong).
        covered, grid = reading.occluded, reading.grid
        if wanted is not None and self.rotation is None:
            from tilecam.vision.moves.change import signature

            still = covered & ~wanted(signature(reading.warped), doubted=False)
            covered = covered & ~still
            grid = ["".join(EMPTY if still[r, c] else ch for c, ch in enumerate(row)) for r, row in enumerate(grid)]
        if self.rotation is None and (int(covered.sum()) <= ORIENT_MAX_UNSURE or _one_line(grid)):
            from tilecam.vision.orient import upright_turn
            from tilecam.vision.read import letters_of
            from tilecam.vision.warp import cut_cells

            found = upright_turn(cut_cells(reading.warped, self.size), reading.references, reading.probs, classifier,
                                 letters_of(tileset))
            if found.sure[found.rotation] and found.tiles >= ORIENT_MIN_TILES and found.decisive:
                self.rotation = found.rotation
                log.info("the board's row 1 is %d quarter turns from the picture's top edge", found.rotation)
                if found.rotation:
                    reading = read_board(image, classifier, tileset=tileset, hint=reading.location,
                                         rotation=found.rotation, references=self._references(found.rotation),
                                         adapter=self.adapter, size=self.size, settled=False,
                                         tile_height=self.tile_height)
        self.last = reading
        self.squares_read.append(self.size * self.size)
        self.classify_s.append(reading.timings.get("classify", 0.0) / 1000)
        return reading

    def _trusted(self, location: Any) -> Any:
        """``location``, or the last grid where ``location`` lies far from it (``MOVED_FAR_SQUARES``) and the frame
        before did not find it there too."""
        last = self.hint
        if last is None or location.method == "hint" or _moved_squares(last, location, self.size) <= MOVED_FAR_SQUARES:
            self._moved_to = None
            return location
        if self._moved_to is not None and _moved_squares(self._moved_to, location, self.size) <= MOVED_FAR_SQUARES:
            self._moved_to = None
            log.info("the board was moved: its grid found in the same new place twice")
            return location
        self._moved_to = location
        return last

    def _references(self, rotation: int) -> np.ndarray | None:
        """The profile's references as the board is read turned ``rotation``; None without a profile (the reader
        takes them from the board itself)."""
        return None if self.profile is None else self.profile.references_turned(rotation)

    def _reference_faces(self, references: np.ndarray) -> np.ndarray:
        """``context.face_colours`` of ``references``, kept while the same references are read against (every frame
        between whole reads)."""
        from tilecam.vision.context import face_colours

        if self._faces_of is not references:
            self._faces_of, self._faces = references, face_colours(references)
        return self._faces

    def read_changed(self, image: np.ndarray, wanted: Callable[[Any], np.ndarray]) -> tuple[Any, Any]:
        """The reading of ``image`` with only the squares ``wanted`` read again (see the class doc), and the
        frame's change signature; the whole board when there is no last reading, the board's turn is not known
        yet, or more than ``WHOLE_READ_ABOVE`` squares are wanted. Raises ``BoardNotFound`` as ``read_board``."""
        from tilecam.vision.locate import LocateConfig, locate_board
        from tilecam.vision.moves.change import signature
        from tilecam.vision.presence import judged_by_faces
        from tilecam.vision.read import letters_of, reading_of, rotate_corners, tiles_read_on_their_faces
        from tilecam.vision.tilecounts import tile_caps
        from tilecam.vision.warp import cut_cell, warp_board

        last = self.last
        if last is None or self.rotation is None or getattr(last, "references", None) is None:
            reading = self(image, wanted)
            return reading, signature(reading.warped)
        t0 = time.perf_counter()
        location = self._trusted(locate_board(image, LocateConfig(size=self.size), hint=self.hint))
        self.hint = location
        corners = rotate_corners(location.corners, self.rotation)
        warped = warp_board(image, corners, self.size)
        sig = signature(warped)
        want = np.argwhere(wanted(sig))
        if len(want) > WHOLE_READ_ABOVE:
            reading = self(image)
            return reading, signature(reading.warped)
        t1 = time.perf_counter()
        probs = np.array(last.probs, copy=True)
        embedding = None if last.embedding is None else np.array(last.embedding, copy=True)
        logits = None if last.logits is None else np.array(last.logits, copy=True)
        if len(want):
            crops = np.stack([cut_cell(warped, int(r), int(c)) for r, c in want])
            index = [int(r) * self.size + int(c) for r, c in want]
            z, e = self.classifier.run(crops, last.references[index])
            z, e = self.classifier.in_views(crops, last.references[index], z, e)
            if embedding is not None and e is not None:
                embedding[index], logits[index] = e, z
            z = z if self.adapter is None or e is None else self.adapter(e, z)
            probs[index] = self.classifier.calibrated(z, letters_of(self.tileset))
            probs = tiles_read_on_their_faces(image, corners, self.size, probs, last.references, self.classifier,
                                              letters_of(self.tileset), self.tile_height, rows=index,
                                              adapter=self.adapter)
            faces = self._faces_read_again(last, crops, index)
            probs, _ = judged_by_faces(probs, self.classifier.classes, faces, self._reference_faces(last.references),
                                       rows=index)
        t2 = time.perf_counter()
        self.squares_read.append(len(want))
        self.classify_s.append(t2 - t1)
        reading = reading_of(probs, self.classifier.classes, corners, warped, location, self.rotation, embedding,
                             last.references, logits, {"localise+rectify": (t1 - t0) * 1000,
                                                     "classify": (t2 - t1) * 1000, "total": (t2 - t0) * 1000},
                             tile_caps(self.classifier.classes, self.tileset))
        self.last = reading
        if len(want):
            self._square_faces = (reading, faces)
        elif self._square_faces[0] is last:
            self._square_faces = (reading, self._square_faces[1])
        return reading, sig

    def _faces_read_again(self, last: Any, crops: np.ndarray, index: list[int]) -> np.ndarray:
        """The face colours of every square (``context.square_faces``) with the squares ``index`` (their ``crops``
        cut from this frame) taken anew and the others as they were in the frame they were last read in, as their
        probabilities are: a board's colours are not taken again for a few squares (most of a read of five)."""
        from tilecam.vision.context import face_colours, square_faces

        kept, faces = self._square_faces
        faces = square_faces(last.warped, self.size) if kept is not last else faces.copy()
        faces[index] = face_colours(crops)
        return faces

    def turned(self, quarter_turns: int) -> Any:
        """The last reading as the board reads turned ``quarter_turns`` more (counter-clockwise, as ``np.rot90``):
        the same rectified picture turned, every square classified again (a board turned on a turntable reads
        upright again in its own turn). The reader's turn is left as it is (:meth:`turn` changes it). Raises
        ``ReaderStateError`` before a first reading."""
        from tilecam.vision.context import face_colours, references_from_board
        from tilecam.vision.presence import judged_by_faces
        from tilecam.vision.read import letters_of, reading_of, rotate_corners, turn_squares
        from tilecam.vision.tilecounts import tile_caps
        from tilecam.vision.warp import cut_cells

        last, k = self.last, quarter_turns % 4
        if last is None or self.rotation is None:
            raise ReaderStateError("no reading in a known turn to turn yet")
        if k == 0:
            return last
        t0 = time.perf_counter()
        rotation = (self.rotation + k) % 4
        crops = turn_squares(cut_cells(last.warped, self.size), k)
        refs = self._references(rotation)
        if refs is None:
            refs = references_from_board(crops) if last.references is None else turn_squares(last.references, k)
        # Every square is read again, none skipped as read surely bare before: the board was turned on the table, so
        # its letters lay sideways to the turn they were last read in, and a letter seen sideways can read surely
        # bare (a serif T on a cream tile did, to all of five retrained models). ``orient``'s shortcut for a single
        # photo assumes the turn the photo lies in; here a turn is rare and being wrong about it costs the game.
        logits, embedding = self.classifier.run(crops, refs)
        logits, embedding = self.classifier.in_views(crops, refs, logits, embedding)
        z = logits if self.adapter is None or embedding is None else self.adapter(embedding, logits)
        probs = self.classifier.calibrated(z, letters_of(self.tileset))
        probs, _ = judged_by_faces(probs, self.classifier.classes, face_colours(crops), face_colours(refs))
        warped = np.ascontiguousarray(np.rot90(last.warped, k))
        ms = (time.perf_counter() - t0) * 1000
        return reading_of(probs, self.classifier.classes, rotate_corners(last.location.corners, rotation), warped,
                          last.location, rotation, embedding, refs, logits, {"classify": ms, "total": ms},
                          tile_caps(self.classifier.classes, self.tileset))

    def turn(self, quarter_turns: int, reading: Any = None) -> None:
        """The board was turned on the table: from now on it is read turned ``quarter_turns`` more (as
        :meth:`turned`); ``reading``: the last reading so turned (``turned``'s), kept as the last one, so the next
        frame reads only what changed since. Squares learnt from the game move with their tiles."""
        k = quarter_turns % 4
        if self.rotation is None:
            raise ReaderStateError("the reader's turn is not known yet: nothing to turn")
        self.rotation = (self.rotation + k) % 4
        self.last = reading
        self.learnt = {turned_square(rc, k, self.size): look for rc, look in self.learnt.items()}

    def learn(self, committed: Sequence[str]) -> int:
        """Learn this board from the game: ``committed`` is the committed board (rows as the reader reads them:
        ``.`` bare, a letter, ``?`` a blank) at a settle, so nobody corrected it since. Each tile square is learnt
        with its committed label and its look in the last reading; each square that is bare in both is learnt as
        bare (a square with a tile not committed yet is left out). The model's last layer is then refitted on all
        squares learnt (``vision.adapt``), and the reads that follow use it. Returns the squares learnt now."""
        from tilecam.vision.adapt import BoardProfile, head_of

        last = self.last
        if last is None or last.embedding is None or last.logits is None:
            return 0
        classes = list(self.classifier.classes)
        if self._head is None:
            self._head = head_of(last.embedding, last.logits)
        read = np.asarray(last.probs).argmax(axis=1)
        empty, n = classes.index(EMPTY), 0
        for r, row in enumerate(committed):
            for c, ch in enumerate(row):
                i = r * len(row) + c
                if ch == EMPTY and read[i] != empty or ch not in classes:
                    continue
                self.learnt[(r, c)] = (np.asarray(last.embedding[i], np.float32), classes.index(ch))
                n += ch != EMPTY
        if n:
            looks = list(self.learnt.values())
            taught = self.taught or BoardProfile()
            profile = BoardProfile(taught.embeddings + [e for e, _ in looks], taught.labels + [y for _, y in looks],
                                   self._head)
            self.adapter = profile.adapter()
        return n


def default_reader(tileset: str, threads: int = 1, model: Any = None, rotation: int | None = None,
                   profile: Any = None, size: int = 15, tile_height: float = TILE_FACE_HEIGHT,
                   looks: Any = None) -> VisionReader:
    """The vision pipeline as a reader: ``read_board`` with the tile model (``model``: a path, None = the shipped
    one; ``threads`` onnxruntime threads), the last location as the hint.

    ``rotation``: which edge of the board is row 1 (quarter turns), when the camera was calibrated; None = learn
    it once, from the first board with letters on it and no hand over it (``orient.best_rotation``: upright
    letters read surely), and keep it, as a calibration would. A board turned later is the tracker's business
    (it matches the committed tiles against the board read in each turn, :meth:`VisionReader.turned`, and turns
    the reader, :meth:`VisionReader.turn`). ``profile``: the board's profile (``vision.profile``, ``tilecam
    calibrate``): its squares' bare looks are the references and its grid the first hint; ``ProfileError`` when
    it is of another board's size. ``size``: the board's squares a side, 15 or 21 (Super Scrabble).
    ``tile_height``: which tile read on the plane of the tiles' faces this far above the board (``read_board``; the
    board read turned on the table, ``turned``, stays on the board's plane); 0: the board's plane.
    ``looks``: the user's tiles learnt from a photo of the set laid out (``vision.laidout``, ``tilecam calibrate
    --laid-out``), read with from the first frame; left out, and said so in the log, where they were learnt with
    another model."""
    from tilecam.vision.classify import TileClassifier

    profile = None if profile is None else profile.fitting(size)
    classifier = TileClassifier.load(model, threads=threads)
    if looks is not None:
        from tilecam.vision.laidout import model_digest

        if looks.model != model_digest(classifier.path):
            log.warning("the tiles laid out were learnt with another tile model: reading without them (run "
                        "tilecam calibrate --laid-out again)")
            looks = None
    return VisionReader(classifier, tileset, rotation, profile, size, tile_height, looks)
