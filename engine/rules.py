"""The rules a game is played under, as one frozen value: tile set, layout, rack, bingo, challenge and end rules,
and the rule variants of the material (Finish Line target, Magical Words and cards, Clabbers, blanks that score).

>>> Rules().bingo_tile_counts, Rules.nine_tile().bingo_tile_counts
((7,), (7, 8, 9))
>>> Rules.casual().end_scoring
'casual'
>>> Rules.preset("super").layout, Rules.preset("clabbers").word_rule
('super21', 'anagram')

Every named preset (``Rules.preset``) lives in the registry ``engine/data/variants/registry.toml`` (see
:mod:`tilecam.engine.variants`), which also holds each tile set's end-of-game settings.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from .errors import RulesError
from .layout import Layout
from .tiles import TileSet

# void: invalid words refused at once; double: a wrong challenger loses the next turn;
# single: challenges are free; points: a wrong challenge gives the challenged player ``challenge_points``.
CHALLENGE_RULES = ("void", "double", "single", "points")
# tournament: going out earns twice the others' racks, nobody deducts; casual: the others' racks added, own subtracted.
END_SCORING = ("tournament", "casual")
# exact: every word formed must be in the lexicon; anagram (Clabbers): every word must be an anagram of one that is.
WORD_RULES = ("exact", "anagram")


@dataclass(frozen=True, slots=True)
class Rules:
    tileset: str = "english"
    layout: str = "standard15"
    rack_size: int = 7
    bingo_bonus: int = 50
    bingo_sizes: tuple[int, ...] | None = None  # tile counts that earn the bingo; None = (rack_size,)
    exchange_min_bag: int = 7  # exchanges only with at least this many tiles in the bag
    challenge: str = "double"
    challenge_points: int = 5  # the "(challenge) +5" bonus of the points rule (also what a GCG bonus line earns)
    end_scoring: str = "tournament"
    max_scoreless_turns: int | None = 6  # NASPA: the game ends after six consecutive scoreless turns
    end_on_passes: bool = False  # home rule: the game ends when every player has passed twice in a row
    min_players: int = 2
    max_players: int = 4
    passes_to_end: int | None = None  # the game ends after this many consecutive passes (German, Polish: 4)
    target_score: int | None = None  # Finish Line: the game ends when a player reaches this score
    word_rule: str = "exact"
    blanks_score_letter: bool = False  # house rule: a blank scores the value of the letter it stands for
    magical_words: str | None = None  # Harry Potter: the Magical Word bonus table (engine/data/bonuses/NAME.tsv)
    cards: bool = False  # Harry Potter: card effects may be entered as their own scored events

    def __post_init__(self) -> None:
        if self.challenge not in CHALLENGE_RULES:
            raise RulesError(f"unknown challenge rule {self.challenge!r}; one of {', '.join(CHALLENGE_RULES)}")
        if self.end_scoring not in END_SCORING:
            raise RulesError(f"unknown end scoring {self.end_scoring!r}; one of {', '.join(END_SCORING)}")
        if self.rack_size < 1:
            raise RulesError("rack_size must be at least 1")
        if self.bingo_sizes is not None and any(not 1 <= n <= self.rack_size for n in self.bingo_sizes):
            raise RulesError(f"bingo_sizes {self.bingo_sizes} must lie within 1..rack_size ({self.rack_size})")
        if self.word_rule not in WORD_RULES:
            raise RulesError(f"unknown word rule {self.word_rule!r}; one of {', '.join(WORD_RULES)}")
        if self.target_score is not None and self.target_score < 1:
            raise RulesError(f"target_score must be a positive score, not {self.target_score}")
        if self.passes_to_end is not None and self.passes_to_end < 1:
            raise RulesError(f"passes_to_end must be at least 1, not {self.passes_to_end}")

    @property
    def bingo_tile_counts(self) -> tuple[int, ...]:
        return self.bingo_sizes if self.bingo_sizes is not None else (self.rack_size,)

    @property
    def tiles(self) -> TileSet:
        return TileSet.load(self.tileset)

    @property
    def board_layout(self) -> Layout:
        return Layout.load(self.layout)

    def replace(self, **changes) -> "Rules":
        return replace(self, **changes)

    @classmethod
    def preset(cls, name: str, **changes) -> "Rules":
        """Rules by preset name, a variant of the registry (``tournament``, ``casual``, ``nine-tile``, ``super``,
        ``finish-line``, ``harry-potter`` …: the store's ``variant``) through
        :func:`~tilecam.engine.variants.rules_for` (so ``tileset=`` brings that tile set's end-of-game rules);
        ``changes`` win over the preset.

        >>> Rules.preset("nine-tile", challenge="void").rack_size
        9
        """
        from .variants import rules_for

        return rules_for(name, **changes)

    @classmethod
    def tournament(cls, **changes) -> "Rules":
        """NASPA-style: double challenge, twice the opponents' racks for going out, six scoreless turns end."""
        return cls(**changes)

    @classmethod
    def casual(cls, **changes) -> "Rules":
        """Home rules: free challenges, racks added/subtracted at the end, the game ends when all pass twice."""
        base = dict(challenge="single", end_scoring="casual", max_scoreless_turns=None, end_on_passes=True)
        return cls(**{**base, **changes})

    @classmethod
    def nine_tile(cls, **changes) -> "Rules":
        """The 9-tile variant: racks of nine, the bingo bonus for playing 7, 8 or 9 tiles."""
        return cls(**{**dict(rack_size=9, bingo_sizes=(7, 8, 9)), **changes})
