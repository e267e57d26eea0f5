"""Random positions: crossing runs of tiles out of a tile set's bag, all joined to the centre as in a game
(``random_grid``), and a grid's letters drawn anew in another tile set (``reletter``: the training's Spanish and
Polish boards, the tile-set bench's rare letters).
"""

from __future__ import annotations

import numpy as np

from tilecam.models.synth_scene import SIZE

#: The most tiles a random position holds, by the board's size: a full bag of the board's game.
MOST_TILES = {15: 100, 21: 200}


def random_grid(rng: np.random.Generator, tileset: str = "english", tiles: int | None = None, size: int = SIZE
                ) -> tuple[str, ...]:
    """A plausible position on a ``size`` x ``size`` board: crossing runs of tiles drawn out of the tile set's bag
    (no more of a letter, or blanks, than the set holds), starting through the centre, every tile joined to the
    others as in a game."""
    from tilecam.engine.tiles import TileSet

    ts = TileSet.load(tileset)
    bag = [l for l in ts.letters for _ in range(ts.count(l))] + ["?"] * ts.blanks
    target = int(rng.integers(0, MOST_TILES[size] + 1)) if tiles is None else tiles
    board = [["."] * size for _ in range(size)]
    mid = size // 2
    placed = 0
    for attempt in range(400 * size // SIZE):     # tries in proportion to the board's side
        if placed >= target:
            break
        length = int(rng.integers(2, 9))
        across = bool(rng.integers(2))
        if placed == 0:   # the first word covers the centre star
            off = int(rng.integers(0, length))
            r, c = (mid, mid - off) if across else (mid - off, mid)
        else:
            cells = [(i, j) for i in range(size) for j in range(size) if board[i][j] != "."]
            ar, ac = cells[int(rng.integers(len(cells)))]
            off = int(rng.integers(0, length))
            r, c = (ar, ac - off) if across else (ar - off, ac)
        squares = [(r, c + k) if across else (r + k, c) for k in range(length)]
        if any(not (0 <= i < size and 0 <= j < size) for i, j in squares):
            continue
        for i, j in squares:
            if board[i][j] == "." and placed < target and bag:
                board[i][j] = bag.pop(int(rng.integers(len(bag))))
                placed += 1
    return _joined_to_centre(board)


def _joined_to_centre(board: list[list[str]]) -> tuple[str, ...]:
    """The rows of ``board`` with only the tiles joined to the centre square's: a run cut short by the target may
    stop before the tile it hangs on, and a game's tiles all hang together."""
    from tilecam.vision.connected import groups_of

    mid = len(board) // 2
    groups = groups_of(np.array([[ch != "." for ch in row] for row in board]))
    keep = groups == groups[mid, mid]
    return tuple("".join(ch if keep[r, c] else "." for c, ch in enumerate(row)) for r, row in enumerate(board))


def own_letters(tileset: str) -> tuple[str, ...]:
    """The letters of ``tileset`` that the English set lacks (Spanish ``Ç Ŀ Ñ Ř``, Polish ``Ą Ć`` …)."""
    from tilecam.engine.tiles import TileSet

    english = set(TileSet.load("english").letters)
    return tuple(letter for letter in TileSet.load(tileset).letters if letter not in english)


def reletter(grid, tileset: str, rng: np.random.Generator, favoured: tuple[str, ...] = (), share: float = 0.0,
             within_counts: bool = True) -> tuple[str, ...]:
    """``grid`` with each lettered tile's letter drawn anew in ``tileset``: with probability ``share`` evenly among
    the ``favoured`` letters, else from the set's bag; bare squares and blank tiles stay as they are. With
    ``within_counts`` the tiles come out of the bag (no more of a letter than the set holds, as on a real board;
    the favoured letters those it still holds); without, each is drawn from the whole bag again (a training board,
    whose squares are learnt one by one, can hold a set's one Ź many times)."""
    from tilecam.engine.tiles import TileSet

    ts = TileSet.load(tileset)
    full = [letter for letter in ts.letters for _ in range(ts.count(letter))]
    bag = list(full)
    rows = []
    for row in grid:
        squares = []
        for ch in row:
            if not ch.isalpha() or ch.islower():
                squares.append(ch)
                continue
            if not bag:
                raise ValueError(f"the grid holds more lettered tiles than the {tileset} set has")
            left = [letter for letter in favoured if letter in bag] if within_counts else list(favoured)
            if left and rng.random() < share:
                letter = left[int(rng.integers(len(left)))]
            else:
                letter = bag[int(rng.integers(len(bag)))]
            if within_counts:
                bag.remove(letter)
            squares.append(letter)
        rows.append("".join(squares))
    return tuple(rows)
