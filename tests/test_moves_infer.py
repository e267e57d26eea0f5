"""Move resolution against a tiny in-test lexicon: doubtful letters, phonies, the tile distribution, blanks, and
the settled-board interpretations (play, withdrawal, withdrawal + play, disturbed)."""

from __future__ import annotations

import pytest

from tilecam.engine.board import Board, Tile
from tilecam.engine.lexicon import Lexicon
from tilecam.engine.move import Placement
from tilecam.engine.tiles import TileSet
from tilecam.vision.moves.interpret import diff_board, interpret
from tilecam.vision.moves.reading import Reading
from tilecam.vision.moves.resolve import NotAMove, resolve_move

from boards import committed

EN = TileSet.load("english")
LEX = Lexicon.from_words(["CAT", "CATS", "EAT", "FAT", "AT", "TA", "SH", "AS", "SASS", "ASS", "OX", "AX", "ZAX", "ZA"])
EMPTY = ["." * 15] * 15


def rows_with(*words: tuple[str, str], base: list[str] | None = None) -> list[str]:
    """Board text with GCG-style placements written onto it (``("8H", "CAT")``)."""
    grid = [list(r) for r in (base or EMPTY)]
    for coord, word in words:
        p = Placement.from_gcg(coord, word)
        for r, c, t in p.squares():
            if t is not None:
                grid[r][c] = str(t)
    return ["".join(r) for r in grid]


def squares_of(coord: str, word: str) -> list[tuple[int, int]]:
    return [(r, c) for r, c, t in Placement.from_gcg(coord, word).squares() if t is not None]


def test_doubtful_cell_takes_the_letter_that_makes_a_word():
    rows = rows_with(("8H", "EAT"))
    reading = Reading.from_rows(rows, uncertain={(7, 7): [("E", 0.55), ("F", 0.40), ("P", 0.05)]})
    cand = resolve_move(Board(), reading, squares_of("8H", "EAT"), EN, LEX)
    assert str(cand.placement) == "8H EAT"          # the model's favourite is a word: kept
    lex = Lexicon.from_words(["FAT"])
    cand = resolve_move(Board(), reading, squares_of("8H", "EAT"), EN, lex)
    assert str(cand.placement) == "8H FAT" and not cand.phony
    assert cand.corrected == ((7, 7, "E", "F"),)


def test_clear_phony_is_reported_not_hidden():
    rows = rows_with(("8H", "EAT"))
    # read clearly as E, though F would make the only word in this lexicon: a phony for the players to challenge
    reading = Reading.from_rows(rows, uncertain={(7, 7): [("E", 0.97), ("F", 0.03)]})
    cand = resolve_move(Board(), reading, squares_of("8H", "EAT"), EN, Lexicon.from_words(["FAT"]))
    assert str(cand.placement) == "8H EAT"
    assert cand.phony == ("EAT",) and cand.is_phony and cand.judged


def test_unlikely_alternative_does_not_hide_a_phony():
    rows = rows_with(("8H", "EAT"))
    reading = Reading.from_rows(rows, uncertain={(7, 7): [("E", 0.88), ("F", 0.005)]})
    cand = resolve_move(Board(), reading, squares_of("8H", "EAT"), EN, Lexicon.from_words(["FAT"]))
    assert cand.phony == ("EAT",)


def test_no_fifth_s():
    # four S already down (SASS, ASS); a fifth S read (even fairly surely) must be another letter
    base = rows_with(("8G", "SASS"), ("H9", "S"))
    board = Board.from_rows(base)
    assert board.tile_counts()["S"] == 4
    rows = rows_with(("J9", "AS"), base=base)      # down column J under the last S of SASS
    new = [(8, 9), (9, 9)]
    assert board[7, 9] is not None
    reading = Reading.from_rows(rows, uncertain={(9, 9): [("S", 0.80), ("H", 0.15), ("B", 0.05)]})
    cand = resolve_move(board, reading, new, EN)
    letters = {(r, c): t.letter for r, c, t in cand.placement.new_tiles()}
    assert letters[(9, 9)] == "H"
    assert cand.corrected == ((9, 9, "S", "H"),)
    assert board.tile_counts()["S"] + sum(t.letter == "S" for *_, t in cand.placement.new_tiles()) <= EN.count("S")


def test_blank_named_when_the_lexicon_allows_one_letter():
    base = rows_with(("8H", "AT"))
    board = Board.from_rows(base)
    rows = rows_with(("8G", "?"), base=base)        # a blank in front of AT; only ZAT is a word here
    cand = resolve_move(board, Reading.from_rows(rows), [(7, 6)], EN, Lexicon.from_words(["ZAT", "AT"]))
    assert cand.inferred_blanks == ((7, 6, "Z"),) and not cand.pending_blanks
    assert str(cand.placement) == "8G z.."


def test_blank_pending_when_several_letters_fit_or_no_lexicon():
    base = rows_with(("8H", "AT"))
    board = Board.from_rows(base)
    rows = rows_with(("8G", "?"), base=base)
    cand = resolve_move(board, Reading.from_rows(rows), [(7, 6)], EN, LEX)   # CAT, EAT, FAT
    assert cand.pending_blanks == ((7, 6),) and not cand.inferred_blanks
    assert str(cand.placement) == "8G ?.."
    cand = resolve_move(board, Reading.from_rows(rows), [(7, 6)], EN, None)
    assert cand.pending_blanks == ((7, 6),)


def test_not_a_move_shapes():
    rows = rows_with(("8H", "CAT"), ("9A", "OX"))
    with pytest.raises(NotAMove, match="one line"):
        resolve_move(Board(), Reading.from_rows(rows), squares_of("8H", "CAT") + squares_of("9A", "OX"), EN)
    rows = rows_with(("8A", "OX"))
    with pytest.raises(NotAMove, match="centre"):
        resolve_move(Board(), Reading.from_rows(rows), squares_of("8A", "OX"), EN)


def test_old_tiles_are_trusted_over_a_misreading():
    base = rows_with(("8H", "CAT"))
    board = Board.from_rows(base)
    rows = rows_with(("8H", "OAT"), ("H9", "X"), base=base)     # C misread as O; an X added below it
    diff = diff_board(board, Reading.from_rows(rows))
    assert diff.added == ((8, 7),) and not diff.removed and diff.changed == ((7, 7),)
    result = interpret(board, Reading.from_rows(rows), EN, None)
    assert result.kind == "play" and result.candidate.words == ("CX",)


def test_withdrawal_and_withdrawal_with_the_next_play():
    board = Board.from_rows(rows_with(("8H", "CAT")))
    last = Placement.from_squares(board, [(8, 7, Tile("Z")), (9, 7, Tile("A")), (10, 7, Tile("X"))])
    for r, c, t in last.new_tiles():
        board[r, c] = t
    # taken back entirely
    result = interpret(board, Reading.from_rows(rows_with(("8H", "CAT"))), EN, None, last_play=last)
    assert result.kind == "withdraw" and result.withdrawn == last
    # taken back, and the next play already down on two of the vacated squares with new letters
    rows = rows_with(("8H", "CAT"), ("H8", ".OX"))
    result = interpret(board, Reading.from_rows(rows), EN, None, last_play=last)
    assert result.kind == "withdraw+play" and str(result.candidate.placement) == "H8 .OX"
    # one tile of the last play lifted (a hand about to put it back): no move
    rows = rows_with(("8H", "CAT"), ("H8", ".ZA"))
    assert interpret(board, Reading.from_rows(rows), EN, None, last_play=last).kind == "disturbed"


def test_tiles_missing_that_are_not_the_last_play_are_no_move():
    board = Board.from_rows(rows_with(("8H", "CAT")))
    shifted = rows_with(("8H", "CA"), ("8K", "T"))      # the T slid one square right
    result = interpret(board, Reading.from_rows(shifted), EN, None, last_play=None)
    assert result.kind == "disturbed" and "J8" in result.reason


def test_a_doubtful_stray_tile_is_left_out_and_a_doubtful_empty_keeps_the_tile():
    board = Board.from_rows(rows_with(("8H", "CAT")))
    rows = rows_with(("H9", "O"), ("3C", "E"), base=rows_with(("8H", "CAT")))   # O below C; a stray E far away
    reading = Reading.from_rows(rows, uncertain={(2, 2): [("E", 0.6), (".", 0.4)], (7, 9): [(".", 0.7), ("T", 0.3)]})
    result = interpret(board, reading, EN, None)
    assert result.kind == "play" and str(result.candidate.placement) == "H8 .O"
    assert result.ignored == ((2, 2),)


def test_a_stray_the_model_also_saw_empty_is_left_out_before_a_letter_it_only_doubted():
    board = Board.from_rows(rows_with(("8H", "CAT")))
    rows = rows_with(("H9", "OW"), ("3C", "?"), base=rows_with(("8H", "CAT")))   # COW down from the C; a "blank"
    reading = Reading.from_rows(rows, uncertain={(9, 7): [("W", 0.83), ("V", 0.1), ("U", 0.04)],   # a tile, unsure
                                                 (2, 2): [("?", 0.48), (".", 0.48)]})              # a white square
    result = interpret(board, reading, EN, Lexicon.from_words(["CAT", "CO", "COW"]))
    assert result.kind == "play" and str(result.candidate.placement) == "H8 .OW"
    assert result.ignored == ((2, 2),)


def test_a_tile_no_play_can_reach_is_left_out_once_the_players_go_on():
    """A premium print read as a blank at 0.97 under a lamp switched on mid-game, on the board's edge far from every
    tile: no candidate could hold it. At first the board waits (a word laid from its far end, or with its middle to
    come, looks the same); once the players went on it is left out — and after, while no play can reach it."""
    board, last = committed(("8H", "CAT"))
    rows = rows_with(("H9", "O"), ("4A", "?"), base=rows_with(("8H", "CAT")))
    reading = Reading.from_rows(rows, uncertain={(3, 0): [("?", 0.97), (".", 0.03)]})
    assert interpret(board, reading, EN, None, last_play=last).kind == "unclear"
    for result in (interpret(board, reading, EN, None, last_play=last, went_on=True),
                   interpret(board, reading, EN, None, last_play=last, strays=[(3, 0)])):
        assert result.kind == "play" and str(result.candidate.placement) == "H8 .O"
        assert result.unreachable == ((3, 0),) and result.ignored == ((3, 0),)
    # alone: the board waits; alone and left out before: nothing new
    alone = Reading.from_rows(rows_with(("4A", "?"), base=rows_with(("8H", "CAT"))))
    assert interpret(board, alone, EN, None, last_play=last, went_on=True).kind == "unclear"
    assert interpret(board, alone, EN, None, last_play=last, strays=[(3, 0)]).kind == "none"
    # in the line of a new tile within reach and a rack's span of it: a word's far end, its middle still to come
    partial = Reading.from_rows(rows_with(("H9", "O"), ("9C", "TO"), base=rows_with(("8H", "CAT"))))
    assert interpret(board, partial, EN, None, last_play=last, went_on=True).kind == "unclear"
    # a tile a square away in its line (a gap a blank read bare may fill) is within reach: not left out
    gap = rows_with(("H9", "O"), ("8L", "S"), base=rows_with(("8H", "CAT")))
    assert interpret(board, Reading.from_rows(gap), EN, None, last_play=last, went_on=True).unreachable == ()
    # once a play reaches it, it is looked at again: the word that came through it (seed 26200: WITHY's W)
    stray = rows_with(("J5", "A"), base=rows_with(("8H", "CAT")))
    assert interpret(board, Reading.from_rows(stray), EN, None, last_play=last, strays=[(4, 9)]).kind == "none"
    through = rows_with(("J5", "ABU"), base=rows_with(("8H", "CAT")))
    result = interpret(board, Reading.from_rows(through), EN, None, last_play=last, strays=[(4, 9)])
    assert result.kind == "play" and str(result.candidate.placement) == "J5 ABU." and result.unreachable == ()


def test_a_bare_square_read_surely_as_a_tile_beside_a_play_is_taken_for_a_misread_only_as_the_last_resort():
    """A camera low over the board sees a tile's face over the bare square beyond it and reads a tile there, surely
    (seed 25701 at 45 degrees: two squares beside FORtIES's column at 0.96-1.0, and the rest of the game was lost):
    no play holds it (one player's hands: no two plays), and a play can reach it, so it is no stray. Once the
    players went on, and as the last resort (``misread``), the fewest squares beside a new tile that leave a legal
    reading are taken for bare ones misread; not before, not away from the new tiles (a hand put that one down),
    and never a gap in one line (a word whose middle is still to come)."""
    board, last = committed(("8H", "CAT"))
    rows = rows_with(("H9", "OX"), ("G10", "E"), base=rows_with(("8H", "CAT")))   # OX down from the C; E beside X
    reading = Reading.from_rows(rows, uncertain={(9, 6): [("E", 0.97), (".", 0.03)]})
    assert interpret(board, reading, EN, None, last_play=last, one_player=True).kind == "unclear"
    assert interpret(board, reading, EN, None, last_play=last, went_on=True, one_player=True).kind == "unclear"
    result = interpret(board, reading, EN, None, last_play=last, went_on=True, one_player=True, misread=True)
    assert result.kind == "play" and str(result.candidate.placement) == "H8 .OX"
    assert result.misread == ((9, 6),) and result.ignored == ((9, 6),) and result.unreachable == ()
    # left out so, it stays left out while it reads as a tile: the next play beside it is decided without it
    after = board.copy()
    after[8, 7], after[9, 7] = Tile("O"), Tile("X")
    nxt = Reading.from_rows(rows_with(("I10", "E"), base=rows), uncertain={(9, 6): [("E", 0.97), (".", 0.03)]})
    later = interpret(after, nxt, EN, None, bare=result.misread)
    assert later.kind == "play" and str(later.candidate.placement) == "10H .E" and later.ignored == ((9, 6),)
    assert later.misread == ((9, 6),) and later.unreachable == ()
    # a tile read away from the new ones is no misread of theirs: the board waits
    away = Reading.from_rows(rows_with(("H9", "OX"), ("K8", "S"), base=rows_with(("8H", "CAT"))))
    assert interpret(board, away, EN, None, last_play=last, went_on=True, one_player=True, misread=True).kind == \
        "unclear"
    # new tiles in one line with a gap: a word's middle still to come, never a misread
    partial = Reading.from_rows(rows_with(("H9", "O"), ("9C", "TO"), base=rows_with(("8H", "CAT"))))
    assert interpret(board, partial, EN, None, last_play=last, went_on=True, misread=True).kind == "unclear"


def test_two_plays_seen_at_once_are_split_in_turn_order():
    base = rows_with(("8H", "CAT"))
    board = Board.from_rows(base)
    # OX down from the C, then an A in front of that X (AX across): two plays, the second needs the first
    rows = rows_with(("H9", "OX"), ("10G", "A"), base=base)
    result = interpret(board, Reading.from_rows(rows), EN, None)
    assert result.kind == "play"
    assert [str(c.placement) for c in result.earlier + (result.candidate,)] == ["H8 .OX", "10G A."]


CAT_ROWS = rows_with(("8H", "CAT"))
CATS_AND_OX = rows_with(("8H", "CATS"), ("H9", "OX"))     # S at K8 and OX down from the C: either may be first


@pytest.mark.parametrize("first_changed, order", [
    ({(7, 10): 3.0, (8, 7): 5.0, (9, 7): 5.5}, ["8H ...S", "H8 .OX"]),     # against the default (the larger first)
    ({(7, 10): 6.0, (8, 7): 3.0, (9, 7): 3.5}, ["H8 .OX", "8H ...S"]),
    ({(7, 10): 3.0, (8, 7): 9.0, (9, 7): 3.5}, ["8H ...S", "H8 .OX"]),     # OX's median square is the later one
])
def test_two_plays_in_one_change_are_ordered_by_when_their_squares_first_changed(first_changed, order):
    result = interpret(Board.from_rows(CAT_ROWS), Reading.from_rows(CATS_AND_OX), EN, None,
                       first_changed=first_changed)
    assert [str(c.placement) for c in result.earlier + (result.candidate,)] == order
    assert "first seen" in result.note and "guess" not in result.note


@pytest.mark.parametrize("first_changed", [
    None,                                                  # no pixels (readings): nothing to tell the order by
    {(7, 10): 3.0, (8, 7): 3.0, (9, 7): 3.0},              # all in one frame
    {(7, 10): 3.0, (8, 7): 3.2, (9, 7): 3.4},              # apart by less than order_margin_s
    {(8, 7): 2.0, (9, 7): 2.0},                            # the S never seen changing
])
def test_two_plays_the_frames_do_not_order_keep_the_default_order_as_a_guess(first_changed):
    result = interpret(Board.from_rows(CAT_ROWS), Reading.from_rows(CATS_AND_OX), EN, None,
                       first_changed=first_changed)
    assert [str(c.placement) for c in result.earlier + (result.candidate,)] == ["H8 .OX", "8H ...S"]
    assert result.note.endswith("their order is a guess")


def test_the_frames_do_not_reorder_plays_whose_order_the_rules_fix():
    # OX down from the C, then A in front of the X: AX needs the X. The frames seeing the A first (its own tile
    # uncovered before the X) do not turn the rules round, and the order said is no guess.
    rows = rows_with(("H9", "OX"), ("10G", "A"), base=CAT_ROWS)
    result = interpret(Board.from_rows(CAT_ROWS), Reading.from_rows(rows), EN, None,
                       first_changed={(9, 6): 1.0, (8, 7): 4.0, (9, 7): 4.0})
    assert [str(c.placement) for c in result.earlier + (result.candidate,)] == ["H8 .OX", "10G A."]
    assert "guess" not in result.note


def test_tolerated_missing_tile_is_a_misreading_but_a_shifted_one_is_not():
    from tilecam.vision.moves.decide import Weights as ResolvePolicy

    board = Board.from_rows(rows_with(("8H", "CAT")))
    lenient = ResolvePolicy(tolerate_missing=2)
    # the C read empty (glare) while an S is added at the other end: the play stands, the C stays
    rows = rows_with(("8I", "ATS"))
    assert interpret(board, Reading.from_rows(rows), EN, None).kind == "disturbed"
    result = interpret(board, Reading.from_rows(rows), EN, None, policy=lenient)
    assert result.kind == "play" and str(result.candidate.placement) == "8H ...S"
    # the T slid one square right: next to the new square, so still no move
    shifted = rows_with(("8H", "CA"), ("8K", "T"))
    assert interpret(board, Reading.from_rows(shifted), EN, None, policy=lenient).kind == "disturbed"


class _FakeBoardReading:
    """What tilecam.vision.read returns, as far as move inference looks at it."""

    def __init__(self, labels_probs: dict, classes=(".", "A", "C", "T", "?", "#")):
        import numpy as np

        self.classes = classes
        self.probs = np.zeros((225, len(classes)))
        self.probs[:, 0] = 1.0
        for (r, c), dist in labels_probs.items():
            self.probs[r * 15 + c] = [dist.get(k, 0.0) for k in classes]
        best = self.probs.argmax(axis=1)
        self.grid = tuple("".join(classes[best[r * 15 + c]] for c in range(15)) for r in range(15))
        self.confidence = self.probs.max(axis=1).reshape(15, 15)
        self.occluded = np.array([[ch == "#" for ch in row] for row in self.grid])


def test_vision_reading_adapter_lone_unsure_squares_and_hands():
    from tilecam.vision.moves.reading import as_reading

    cat = {(7, 7): {"C": 0.99}, (7, 8): {"#": 0.6, "A": 0.35, ".": 0.05}, (7, 9): {"T": 0.97, "?": 0.03}}
    fake = _FakeBoardReading(cat)
    reading = as_reading(fake)
    assert reading.grid[7][7:10] == "CAT" and not reading.any_occluded
    assert reading.options(7, 8)[0] == ("A", 0.35) and fake.occluded[7, 8]     # the vision reading is untouched
    assert str(resolve_move(Board(), reading, [(7, 7), (7, 8), (7, 9)], EN).placement) == "8H CAT"
    hand = {(r, c): {"#": 0.9, ".": 0.1} for r in range(3) for c in range(2)}
    assert as_reading(_FakeBoardReading({**cat, **hand})).any_occluded
    # one square, but the model sees nothing there except "covered": a fingertip, not an odd tile
    finger = as_reading(_FakeBoardReading({**cat, (0, 5): {"#": 0.95, "A": 0.02, "T": 0.01, ".": 0.02}}))
    assert finger.any_occluded and finger.grid[0][5] == "#"


def test_a_blank_and_a_letter_are_weighed_by_their_calibrated_probabilities_alone():
    rows = rows_with(("8H", "CAT"))
    letter = Reading.from_rows(rows, uncertain={(7, 8): [("A", 0.55), ("?", 0.4)]})
    assert str(resolve_move(Board(), letter, squares_of("8H", "CAT"), EN).placement) == "8H CAT"
    blank = Reading.from_rows(rows, uncertain={(7, 8): [("?", 0.55), ("A", 0.4)]})
    assert resolve_move(Board(), blank, squares_of("8H", "CAT"), EN).pending_blanks == ((7, 8),)
    # with every blank already down, the same reading is the letter
    board = Board.from_rows(rows_with(("H6", "ab")))
    rows = rows_with(("H6", "ab"), ("8H", "CAT"))
    blank = Reading.from_rows(rows, uncertain={(7, 8): [("?", 0.55), ("A", 0.4)]})
    assert str(resolve_move(board, blank, squares_of("8H", "CAT"), EN).placement) == "8H CAT"


def test_a_gap_the_model_doubted_is_filled_but_a_clear_gap_is_not():
    board, last = committed(("8H", "CAT"))
    rows = rows_with(("8H", "CAT"), ("G7", "EAT"))           # E A T down column G … the A read as empty:
    rows[7] = rows[7][:6] + "." + rows[7][7:]
    doubt = Reading.from_rows(rows, uncertain={(7, 6): [(".", 0.8), ("A", 0.2)]})
    result = interpret(board, doubt, EN, LEX, last_play=last)
    assert result.kind == "play" and str(result.candidate.placement) == "G7 EAT"
    clear = Reading.from_rows(rows)
    assert interpret(board, clear, EN, LEX, last_play=last).kind == "unclear"
    # A blank on a white board: read as a bare square, 91 % sure; the few per cent left and the gap say it is a tile.
    bare = Reading.from_rows(rows, uncertain={(7, 6): [(".", 0.91), ("#", 0.027), ("?", 0.025)]})
    result = interpret(board, bare, EN, LEX, last_play=last)
    assert result.kind == "play" and str(result.candidate.placement) == "G7 E?T"      # a blank, to be named
    sure = Reading.from_rows(rows, uncertain={(7, 6): [(".", 0.97), ("?", 0.02)]})
    assert interpret(board, sure, EN, LEX, last_play=last).kind == "unclear"
    # the players went on past it (the tracker saw more tiles put down): the gap is a blank read bare
    result = interpret(board, clear, EN, LEX, last_play=last, went_on=True)
    assert result.kind == "play" and str(result.candidate.placement) == "G7 E?T"
    # a hole of two squares (E at G6, T at G9) is left as it is: only a single empty square is taken for one
    wide = rows_with(("8H", "CAT"), ("G6", "E"))
    wide[8] = rows[8]
    assert interpret(board, Reading.from_rows(wide), EN, LEX, last_play=last, went_on=True).kind == "unclear"


def test_a_letter_read_surely_bare_in_a_gap_is_found_by_its_words_once_the_players_go_on():
    """No blank left (both on the board): a gap read bare beyond doubt may still hold a letter the reader missed (a
    shadow over it when its play settled). Once the players went on, the letters the bag holds are tried there and
    the words choose; before, the board waits."""
    board, last = committed(("8H", "CAT"), ("D4", "ab"))       # the set's two blanks are down
    # ARC down column H to CAT's C: its A put down, its R (H7) read as the bare board beyond doubt
    rows = rows_with(("H6", "A"), base=rows_with(("8H", "CAT"), ("D4", "ab")))
    lex = Lexicon.from_words(["CAT", "ARC", "AB"])
    clear = Reading.from_rows(rows)
    assert interpret(board, clear, EN, lex, last_play=last).kind == "unclear"
    result = interpret(board, clear, EN, lex, last_play=last, went_on=True)
    assert result.kind == "play" and str(result.candidate.placement) == "H6 AR."
    assert not result.candidate.phony and not result.candidate.pending_blanks


def test_more_new_tiles_than_a_rack_holds_are_not_one_play():
    from tilecam.vision.moves.decide import Weights as ResolvePolicy

    board, _ = committed(("8H", "CAT"))
    rows = rows_with(("8H", "CAT"), ("H9", "AAAAAAA"))
    with pytest.raises(NotAMove, match="more than a rack"):
        resolve_move(board, Reading.from_rows(rows), squares_of("H9", "AAAAAAA"), EN,
                     policy=ResolvePolicy(rack_size=6))


def test_a_play_read_short_is_amended_when_the_next_play_shows_its_missing_tile():
    lex = Lexicon.load()
    # sCRIEVE was played with its S at J1 read as an empty square: CRIEVE (a phony) was committed
    board, short = committed(("8D", "DJINN"), ("I7", "WITHY"), ("J2", "CRIEVE"))
    # the next play, 1H MASTERLY, goes through that S: 8 squares look new, more than a rack holds
    rows = rows_with(("8D", "DJINN"), ("I7", "WITHY"), ("J1", "SCRIEVE"), ("1H", "MA.TERLY"))
    result = interpret(board, Reading.from_rows(rows), EN, lex, last_play=short)
    assert result.kind == "amend" and result.withdrawn == short
    assert str(result.amended.placement) == "J1 SCRIEVE" and not result.amended.phony
    assert str(result.candidate.placement) == "1H MA.TERLY"
    # the same with the S still read as empty (a gap the model doubted): the gap is filled, then amended
    rows[0] = rows[0][:9] + "." + rows[0][10:]
    doubt = Reading.from_rows(rows, uncertain={(0, 9): [(".", 0.7), ("S", 0.25)]})
    result = interpret(board, doubt, EN, lex, last_play=short)
    assert result.kind == "amend" and str(result.amended.placement) == "J1 SCRIEVE"


def test_a_tile_read_as_a_doubtful_empty_square_at_the_end_of_a_phony_is_added_when_that_makes_words():
    lex = Lexicon.load()
    # OVULATE with its see-through blank at G8 read as an empty square (p 0.6): VULATE alone is not a word
    rows = rows_with(("8H", "VULATE"))
    doubt = {(7, 6): [(".", 0.6), ("?", 0.38)]}
    result = interpret(Board(), Reading.from_rows(rows, uncertain=doubt), EN, lex)
    assert result.kind == "play" and str(result.candidate.placement) == "8G oVULATE"
    assert not result.candidate.phony and result.candidate.inferred_blanks == ((7, 6, "O"),)
    # a clear empty square, or one the model gave a tile only a small chance (a blank there would make many a
    # phony a word), is not doubted: the phony stands, for the players to challenge
    for weak in ({}, {(7, 6): [(".", 0.84), ("?", 0.13)]}):
        result = interpret(Board(), Reading.from_rows(rows, uncertain=weak), EN, lex)
        assert str(result.candidate.placement) == "8H VULATE" and result.candidate.phony == ("VULATE",)
    # a real word is never lengthened by a doubtful neighbour
    result = interpret(Board(), Reading.from_rows(rows_with(("8H", "VOLE")), uncertain=doubt), EN, lex)
    assert str(result.candidate.placement) == "8H VOLE"


def test_the_vision_readings_doubtful_empty_squares_keep_their_alternatives():
    from types import SimpleNamespace

    import numpy as np

    classes = (".", "A", "?", "#")
    probs = np.zeros((225, 4))
    probs[:, 0] = 1.0
    probs[0] = [0.6, 0.0, 0.4, 0.0]        # an empty square read doubtfully: maybe a blank
    probs[1] = [0.0, 1.0, 0.0, 0.0]
    grid = ["." + "A" + "." * 13] + ["." * 15] * 14
    conf = probs.max(axis=1).reshape(15, 15)
    reading = Reading.from_board_reading(SimpleNamespace(grid=grid, confidence=conf, probs=probs, classes=classes))
    assert reading.options(0, 0) == ((".", 0.6), ("?", 0.4))
    assert reading.options(0, 2) == ((".", 1.0),)


def test_the_lexicon_may_overrule_the_model_further_for_each_word_it_makes_good():
    board, _ = committed(("I8", "OI"))
    # BEL across row 10 ending under OI: with the model's I, BEI and OII; with its second guess L, BEL and OIL
    rows = rows_with(("I8", "OI"), ("10G", "BEI"))
    doubt = {(9, 8): [("I", 0.70), ("L", 0.15), ("E", 0.07)]}
    lex = Lexicon.from_words(["OI", "BEL", "OIL"])
    cand = resolve_move(board, Reading.from_rows(rows, uncertain=doubt), squares_of("10G", "BEI"), EN, lex)
    assert str(cand.placement) == "10G BEL" and cand.phony == ()
    # one word made good is worth 4x only: with OIL alone at stake, the model's I stands (a phony to challenge)
    one = resolve_move(board, Reading.from_rows(rows, uncertain=doubt), squares_of("10G", "BEI"), EN,
                       Lexicon.from_words(["OI", "BEL", "BEI"]))
    assert str(one.placement) == "10G BEI" and one.phony == ("OII",)


def test_each_word_outside_the_lexicon_costs_the_same_odds():
    board, _ = committed(("8H", "AT"))
    reading = Reading.from_rows(rows_with(("8H", "AT"), ("7H", "QO")), uncertain={(6, 7): [("Q", 0.6), ("Z", 0.4)]})
    # QO / QA / OT rejected against ZO / OT: one word fewer outside the lexicon is worth the odds of 0.6 to 0.4
    cand = resolve_move(board, reading, squares_of("7H", "QO"), EN, Lexicon.from_words(["AT", "ZA"]))
    assert str(cand.placement) == "7H ZO" and set(cand.phony) == {"ZO", "OT"}
    # with the Q read clearly (0.9 to 0.1: more than a word's odds), the Q stands and its phonies are reported
    clear = Reading.from_rows(rows_with(("8H", "AT"), ("7H", "QO")), uncertain={(6, 7): [("Q", 0.9), ("Z", 0.1)]})
    cand = resolve_move(board, clear, squares_of("7H", "QO"), EN, Lexicon.from_words(["AT", "ZA"]))
    assert str(cand.placement) == "7H QO" and set(cand.phony) == {"QO", "QA", "OT"}
    # ZO and ZA good, OT (a word of another lexicon, the same either way) still rejected: Z is taken all the same
    cand = resolve_move(board, reading, squares_of("7H", "QO"), EN, Lexicon.from_words(["AT", "ZA", "ZO"]))
    assert str(cand.placement) == "7H ZO" and cand.phony == ("OT",)


def test_a_blank_read_where_no_blank_is_left_is_an_empty_square():
    # Both blanks are down (the c and the t of CAT). A bare square under the new O, read as a bare tile with the
    # empty square as the model's next guess, is that empty square: the set has no third blank.
    base = rows_with(("8H", "cAt"))
    board = Board.from_rows(base)
    assert sum(t.is_blank for _, _, t in board.tiles()) == 2
    rows = rows_with(("H9", "O?"), base=base)
    reading = Reading.from_rows(rows, uncertain={(9, 7): [("?", 0.94), (".", 0.02), ("O", 0.01)]})
    result = interpret(board, reading, EN, None)
    assert result.kind == "play" and str(result.candidate.placement) == "H8 .O"
    assert result.ignored == ((9, 7),)
    # With one blank still unseen the same reading is a blank tile, played with the O.
    board = Board.from_rows(rows_with(("8H", "cAT")))
    result = interpret(board, Reading.from_rows(rows_with(("H9", "O?"), base=rows_with(("8H", "cAT"))),
                                                uncertain={(9, 7): [("?", 0.94), (".", 0.02)]}), EN, None)
    assert result.kind == "play" and [(r, c) for r, c, _ in result.candidate.placement.new_tiles()] == [
        (8, 7), (9, 7)]
    # A letter the set has no more of is not taken for an empty square: it is a misread letter.
    only_blank = Reading.from_rows(rows, uncertain={(9, 7): [("?", 0.97)]})
    result = interpret(Board.from_rows(base), only_blank, EN, None)
    assert (9, 7) in [(r, c) for r, c, _ in result.candidate.placement.new_tiles()]


def test_a_committed_blank_read_doubtfully_empty_is_still_there():
    base = rows_with(("8H", "cAT"))
    board = Board.from_rows(base)
    rows = base[:7] + ["." * 7 + "." + base[7][8:]] + base[8:]      # the blank's square reads empty …
    doubtful = Reading.from_rows(rows, uncertain={(7, 7): [(".", 0.93), ("?", 0.05)]})
    assert diff_board(board, doubtful).empty                       # … 93 % sure: the blank is still down
    gone = Reading.from_rows(rows, uncertain={(7, 7): [(".", 0.99)]})
    assert diff_board(board, gone).removed == ((7, 7),)
    # A letter needs less: 93 % is taken as read.
    lettered = Board.from_rows(rows_with(("8H", "CAT")))
    assert diff_board(lettered, doubtful).removed == ((7, 7),)


def test_a_bare_square_read_as_a_blank_is_left_out_before_the_tiles_are_split_in_two_plays():
    board = Board.from_rows(rows_with(("8H", "CAT")))
    rows = rows_with(("8G", "?"), ("H9", "?T"), base=rows_with(("8H", "CAT")))
    reading = Reading.from_rows(rows, uncertain={(7, 6): [("?", 0.90), (".", 0.06)],      # a white square
                                                 (8, 7): [("?", 0.89), (".", 0.07)]})     # a real blank, doubted
    result = interpret(board, reading, EN, LEX)
    assert result.kind == "play" and not result.earlier
    assert str(result.candidate.placement) == "H8 .aT" and result.ignored == ((7, 6),)


def test_two_plays_seen_at_once_in_the_same_row_apart_are_split():
    base = rows_with(("H6", "CAT"), ("M6", "OX"))
    board = Board.from_rows(base)
    # Row 8: AT after the T (TAT), an empty square, then ZA under the X: two plays of two tiles, one row.
    rows = rows_with(("8I", "AT"), ("8L", "ZA"), base=base)
    result = interpret(board, Reading.from_rows(rows), EN, None)
    assert result.kind == "play" and len(result.earlier) == 1
    assert {str(c.placement) for c in result.earlier + (result.candidate,)} == {"8H .AT", "8L ZA"}


def test_a_board_gone_on_past_that_amends_the_last_play_and_holds_the_next_is_decided_first():
    """The last play CA (a phony: its T read bare then) made whole by its T, and the next player's AR. down column H,
    left unclear, then TOE put down on them (seed 24302, wiegand: .IS made .ISH, LIMP, then INSIDERS' first tiles,
    all in one change — the board gone past was the last play amended and a play, which the decision in turn did not
    take, and every later play added to it for the rest of the game, 12/25). Decided in turn: the amendment, the
    play, then what came since."""
    from tilecam.vision.moves.interpret import interpret_in_turn

    lex = Lexicon.from_words(["CAT", "ARC", "TOE"])
    base = rows_with(("8H", "CA"))
    reading = Reading.from_rows(rows_with(("8H", "CAT"), ("H6", "AR"), ("J9", "OE"), base=base))
    decided = interpret_in_turn(Board.from_rows(base), reading, {(7, 9), (5, 7), (6, 7)}, EN, lex,
                                Placement.from_gcg("8H", "CA"))
    assert decided is not None and decided.kind == "amend"
    assert str(decided.amended.placement) == "8H CAT" and str(decided.withdrawn) == "8H CA"
    assert [str(e.placement) for e in decided.earlier] == ["H6 AR."] and str(decided.candidate.placement) == "J8 .OE"


def test_a_tile_seen_going_down_with_the_second_play_is_the_second_plays():
    """LOB, then the next player's MEG down to the square beside LOB's L, one change: GLOB + ME is as legal as LOB +
    MEG, but the G first changed with the M and the E, two seconds after LOB's tiles."""
    rows = rows_with(("8G", "LOB"), ("F6", "MEG"))
    first_changed = {(7, 6): 3.2, (7, 7): 3.2, (7, 8): 3.2, (5, 5): 5.3, (6, 5): 5.3, (7, 5): 5.3}
    result = interpret(Board(), Reading.from_rows(rows), EN, None, first_changed=first_changed)
    assert [str(c.placement) for c in result.earlier + (result.candidate,)] == ["8G LOB", "F6 MEG"]
