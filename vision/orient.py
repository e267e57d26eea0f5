"""Which edge of the board is row 1.

A fixed camera learns it once at calibration (the rotation is kept in the configuration). From a single photo it is
told from the tiles: letters read upright are read with high probability, letters turned a quarter or half turn are
not (the board's crops are read again each turned: no second warp; only the squares not surely bare). Given the
game's word list, the turn whose runs of tiles spell clearly more words comes first: a model can read a blurred
letter lying on its side as surely as an upright one, but such letters seldom spell words. The premium layout is
symmetric under every quarter turn, so the board's print cannot tell it; an empty board has no answer and keeps
rotation 0.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from tilecam.vision.classify import BLANK, OCCLUDED, SURELY_BARE, TileClassifier, letter_mask
from tilecam.vision.context import references_from_board
from tilecam.vision.locate import BoardLocation, LocateConfig, locate_board
from tilecam.vision.warp import cut_cells, warp_board
from tilecam.vision.words import runs


SURE_LETTER = 0.9     # a letter read at least this surely is taken as upright
#: With as many letters read surely, another turn is taken only when its whole reading is this much more probable
#: (log-probability, nats): half a nat, so that a board with no letter in sight keeps the camera's turn.
TURN_MARGIN = 0.5
#: A turn whose reading spells this many words more than every other turn's (runs of ``WORD_LETTERS`` tiles or more
#: the game's word list holds) is the upright one, whatever the letters' sureness: two, for one run may spell a word
#: turned too. Letters read blurred on their sides were read more surely than upright ones on a phone photo of a
#: board far off (jheidel, BENCHMARKS: Vision, the board's turn).
WORDS_MARGIN = 2
#: Only runs of this many tiles or more count as words there: of the 676 pairs of letters, 96 are words (ENABLE), so
#: a turned board's two-letter runs spell words by chance (a test board of random tiles read upside down spelt three);
#: of the 17,576 triples, 972.
WORD_LETTERS = 3
# A square read bare at classify.SURELY_BARE unturned is not read turned: it counts as read alike in every turn. This
# takes about two thirds off the three extra classifications, and a turned bare square's print read as a tile only
# added noise to the turns' comparison (the shipped model told row 1 right on 46 of srdewan's 53 photos reading
# every square turned, 52 with this: BENCHMARKS).


@dataclass(frozen=True)
class Orientation:
    """The quarter turns that bring row 1 to the top, with what they were told from."""
    rotation: int
    scores: tuple[float, ...]     # per turn: log-probability of the reading (each square's best class)
    sure: tuple[int, ...]         # per turn: tile squares read as a letter at SURE_LETTER or more
    tiles: int                    # squares read as a tile (a letter or a blank) unturned
    words: tuple[int, ...] = ()   # per turn: runs of tiles that are words of the game's word list (none given: ())
    #: the squares read turned (indices, unturned order: those not read bare at ``SURELY_BARE``) and the model's
    #: (logits, embedding) of them turned one, two and three quarters: ``reading_turned`` completes a turn's reading
    asked: np.ndarray = field(default_factory=lambda: np.zeros(0, np.intp), repr=False, compare=False)
    turned: tuple = field(default=(), repr=False, compare=False)

    @property
    def decisive(self) -> bool:
        """Whether the turn chosen beats every other: more letters read surely, or as many and a reading more probable
        by ``TURN_MARGIN``. Not so where a few letters read alike two ways (X, N, O, S, Z upside down): a tracker
        that keeps the turn for the whole game waits for more letters."""
        k = self.rotation
        return all(self.sure[k] > self.sure[j] or (self.sure[k] == self.sure[j]
                                                   and self.scores[k] > self.scores[j] + TURN_MARGIN)
                   for j in range(len(self.sure)) if j != k)


def upright_turn(crops: np.ndarray, refs: np.ndarray, probs: np.ndarray, classifier: TileClassifier,
                 letters, lexicon=None) -> Orientation:
    """The turn that stands the board's letters up, from its unturned reading (``probs`` of ``crops`` beside
    ``refs``): the squares not read bare at ``SURELY_BARE`` are read again with each crop turned a quarter, half and
    three quarters (one classification); the turn with the most letters read surely wins, then the one whose reading is the most
    probable (the sum over squares of the log of each square's best class: bare squares read alike in every turn,
    letters surely only upright), which must beat the unturned one by ``TURN_MARGIN``. With ``lexicon`` (the game's
    word list), a turn that spells ``WORDS_MARGIN`` words more than every other is taken first. An empty board
    keeps rotation 0."""
    classes = list(classifier.classes)
    ask = np.flatnonzero(classifier.bare_or_covered(probs) < SURELY_BARE)
    reads, turned = [probs], []
    if len(ask):
        logits, embedding = classifier.run(_turned(crops, ask, (1, 2, 3)), _turned(refs, ask, (1, 2, 3)))
        for k in range(3):
            part = slice(k * len(ask), (k + 1) * len(ask))
            p = probs.copy()
            p[ask] = classifier.calibrated(logits[part], letters)
            reads.append(p)
            turned.append((logits[part], None if embedding is None else embedding[part]))
    else:
        reads += [probs] * 3
    tile = np.zeros(len(probs), bool)
    for p in reads:
        tile |= classifier.bare_or_covered(p) < 0.5
    letter = letter_mask(classes)
    scores = [float(np.log(p.max(axis=1) + 1e-9).sum()) for p in reads]
    sure = [int((p[tile][:, letter].max(axis=1) >= SURE_LETTER).sum()) for p in reads]
    # letters read surely decide (an upright letter is; one lying sideways seldom is, and may even read as a bare
    # square); between turns with as many, the more probable reading
    best = max(range(4), key=lambda k: (sure[k], scores[k]))
    rotation = best if best and (sure[best] > sure[0] or scores[best] > scores[0] + TURN_MARGIN) else 0
    words = [] if lexicon is None else [words_spelt(p, k, classes, lexicon) for k, p in enumerate(reads)]
    if words:
        most = max(range(4), key=lambda k: words[k])
        if all(words[most] >= words[j] + WORDS_MARGIN for j in range(4) if j != most):
            rotation = most
    return Orientation(rotation, tuple(scores), tuple(sure), int(tile.sum()), tuple(words), asked=ask,
                       turned=tuple(turned))


def words_spelt(probs: np.ndarray, turn: int, classes, lexicon) -> int:
    """How many runs of ``WORD_LETTERS`` tiles or more are words of ``lexicon`` on the board read as ``probs`` (each
    square's most probable class; squares in unturned order, each crop read turned ``turn`` quarter turns), the board
    turned so too. A run with a blank or a covered square in it is not counted: a blank stands for any letter, and
    letters lying sideways read as blanks spelt "words" of blanks alone (srdewan's srd-board6 upside down)."""
    size = int(round(len(probs) ** 0.5))
    labels = np.asarray(classes, dtype=object)[probs.argmax(axis=1)].reshape(size, size)
    grid = np.rot90(labels, turn)
    words = 0
    for run in runs(grid):
        if len(run) < WORD_LETTERS:
            continue
        word = "".join(grid[r, c] for r, c in run)
        words += OCCLUDED not in word and BLANK not in word and word in lexicon
    return words


def _turned(squares: np.ndarray, which: np.ndarray, turns) -> np.ndarray:
    """The crops (or references) ``which`` turned each of ``turns`` quarter turns in place, one batch."""
    return np.ascontiguousarray(np.concatenate([np.rot90(squares[which], k, axes=(1, 2)) for k in turns]))


def reading_turned(found: Orientation, turn: int, crops: np.ndarray, refs: np.ndarray,
                   classifier: TileClassifier) -> tuple[np.ndarray, np.ndarray | None]:
    """The (logits, embedding) of every crop turned ``turn`` (1-3) quarter turns, in the squares' unturned order:
    the squares ``upright_turn`` read turned as it read them, the rest classified now (a bare square turned is still
    read: a letter lying sideways can read bare, and stands up in the turn chosen)."""
    asked = found.asked
    rest = np.setdiff1d(np.arange(len(crops)), asked)
    parts = [(asked, found.turned[turn - 1])] if len(asked) else []
    if len(rest):
        parts.append((rest, classifier.run(_turned(crops, rest, (turn,)), _turned(refs, rest, (turn,)))))
    order = np.argsort(np.concatenate([which for which, _ in parts]))    # back to the squares' order
    logits = np.concatenate([lg for _, (lg, _) in parts])[order]
    embeddings = [em for _, (_, em) in parts]
    embedding = None if any(em is None for em in embeddings) else np.concatenate(embeddings)[order]
    return logits, embedding


def find_orientation(image: np.ndarray, classifier: TileClassifier, tileset="english",
                     location: BoardLocation | None = None, size: int = 15, lexicon=None) -> Orientation:
    """``upright_turn`` of the board in ``image`` (located unless ``location`` is given; ``size`` squares a side;
    ``lexicon``: the game's word list, whose words tell the turn where they clearly do)."""
    from tilecam.vision.read import letters_of

    location = location or locate_board(image, LocateConfig(size=size))
    crops = cut_cells(warp_board(image, location.corners, size), size)
    refs = references_from_board(crops)
    letters = letters_of(tileset)
    probs = classifier.probabilities(crops, refs, letters)
    return upright_turn(crops, refs, probs, classifier, letters, lexicon)


def best_rotation(image: np.ndarray, classifier: TileClassifier, tileset="english",
                  location: BoardLocation | None = None, size: int = 15, lexicon=None) -> int:
    """The quarter turns that bring row 1 to the top; 0 unless another turn is clearly better."""
    return find_orientation(image, classifier, tileset, location, size, lexicon).rotation
