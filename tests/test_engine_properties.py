"""Property tests over random games: score = words + bingo, undo restores the exact state, GCG round-trips.

Hypothesis runs derandomized (the same examples every run); each game draws from ``random.Random(seed)``.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from tilecam.engine.board import Board, Tile
from tilecam.engine.coords import format_coord, parse_coord
from tilecam.engine.errors import IllegalMove, IllegalPlacement
from tilecam.engine.game import Game
from tilecam.engine.gcg import read_gcg, write_gcg
from tilecam.engine.move import Placement
from tilecam.engine.scoring import score

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def random_placement(rng: random.Random, game: Game) -> Placement | None:
    """A legal placement with tiles from the unseen pool, or None after a few tries."""
    board = game.board
    pool = list(game.unseen().elements())
    limit = min(game.rack_counts[game.turn], len(pool))
    if limit < 1:
        return None
    for _ in range(40):
        across = rng.random() < 0.5
        dr, dc = (0, 1) if across else (1, 0)
        length = rng.randint(1, limit)
        if board.is_empty():
            length = max(2, length)
            if length > limit:
                return None
            offset = rng.randint(0, length - 1)
            r, c = 7 - dr * offset, 7 - dc * offset
        else:
            occupied = [(r, c) for r, c, _ in board.tiles()]
            r0, c0 = rng.choice(occupied)
            r, c = r0 - dr * rng.randint(0, length), c0 - dc * rng.randint(0, length)
        squares, rr, cc = [], r, c
        while len(squares) < length and board.in_bounds(rr, cc):
            if board[rr, cc] is None:
                squares.append((rr, cc))
            rr, cc = rr + dr, cc + dc
        if len(squares) < length:
            continue
        letters = rng.sample(pool, length)
        tiles = [Tile(rng.choice(LETTERS), True) if ch == "?" else Tile(ch) for ch in letters]
        try:
            placement = Placement.from_squares(board, [(r, c, t) for (r, c), t in zip(squares, tiles)])
            score(board, placement, game.rules)
        except IllegalPlacement:
            continue
        return placement
    return None


def random_game(seed: int, actions: int, snapshots: list | None = None) -> Game:
    rng = random.Random(seed)
    game = Game(["Ann", "Ben"])
    for _ in range(actions):
        if snapshots is not None:
            snapshots.append(state(game))
        roll = rng.random()
        last = game.history[-1].kind if game.history else None
        try:
            if roll < 0.75:
                placement = random_placement(rng, game)
                if placement is None:
                    game.pass_turn()
                else:
                    game.play(placement, rack=placement.rack_letters())
            elif roll < 0.82:
                game.pass_turn()
            elif roll < 0.88:
                game.exchange(rng.randint(1, 7))
            elif roll < 0.94 and last == "play":
                game.withdraw()
            elif last == "play":
                game.challenge_bonus()
            else:
                game.pass_turn()
        except IllegalMove:
            if snapshots is not None:
                snapshots.pop()
        if game.finished_reason:
            break
    return game


def state(game: Game):
    return (game.board.rows(), game.scores, game.turn, game.bag_count, game.rack_counts, game.history,
            game.unseen(), game.scoreless_turns)


@settings(max_examples=25, deadline=None, derandomize=True)
@given(st.integers(0, 10**9))
def test_score_is_the_sum_of_the_word_breakdown_plus_bingo(seed):
    rng = random.Random(seed)
    game = Game(["Ann", "Ben"])
    for _ in range(12):
        placement = random_placement(rng, game)
        if placement is None:
            break
        result = score(game.board, placement, game.rules)
        assert result.score == sum(w.score for w in result.words) + result.bingo
        for w in result.words:
            assert w.score == sum(w.letter_scores) * w.word_multiplier
            assert w.breakdown.endswith(f"= {w.score}")
        assert result.bingo == (50 if placement.tile_count == 7 else 0)
        game.play(placement)


@settings(max_examples=20, deadline=None, derandomize=True)
@given(st.integers(0, 10**9), st.integers(1, 25))
def test_undo_restores_the_exact_state(seed, actions):
    snapshots: list = []
    game = random_game(seed, actions, snapshots)
    while snapshots:
        expected = snapshots.pop()
        game.undo()
        assert state(game) == expected
    assert not game.can_undo and game.board.is_empty()


@settings(max_examples=20, deadline=None, derandomize=True)
@given(st.integers(0, 10**9), st.integers(1, 25))
def test_gcg_write_then_read_gives_the_same_game(seed, actions):
    game = random_game(seed, actions)
    text = write_gcg(game)
    gcg = read_gcg(text)
    assert read_gcg(write_gcg(gcg)) == gcg
    replayed = gcg.replay()
    assert replayed.history == game.history
    assert replayed.board == game.board and replayed.scores == game.scores
    assert gcg.verify().ok


@settings(derandomize=True)
@given(st.integers(0, 14), st.integers(0, 14), st.booleans(), st.booleans())
def test_coordinates_round_trip(row, col, across, lettered):
    text = format_coord(row, col, across, lettered_rows=lettered)
    assert parse_coord(text, lettered_rows=lettered) == (row, col, across)


@settings(derandomize=True)
@given(st.lists(st.sampled_from(".ABCDEFGHIJKLMNOPQRSTUVWXYZabcxyzÄÖÜäöü?"), min_size=225, max_size=225))
def test_board_text_round_trips(cells):
    rows = ["".join(cells[i * 15:(i + 1) * 15]) for i in range(15)]
    assert Board.from_rows(rows).rows() == rows
