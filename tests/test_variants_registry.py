"""The registry of variants and tile sets (engine/data/variants/registry.toml) and the rules it builds."""

from __future__ import annotations

import json

import pytest

from tilecam.engine.errors import RulesError
from tilecam.engine.layout import Layout
from tilecam.engine.rules import Rules
from tilecam.engine.tiles import TileSet
from tilecam.engine.variants import (
    finish_line_target, layout_gcg_name, magical_word_bonus, registry, rules_for, tileset_info, tilesets, variants,
)


def test_every_registered_variant_and_tile_set_builds_rules_and_loads_its_data():
    for v in variants():
        rules = Rules.preset(v.name)
        assert rules.board_layout.size in (15, 21) and rules.tiles.total >= 100
    for t in tilesets():
        rules = rules_for("tournament", t.name)
        assert rules.tiles.name == t.name and t.gcg
    assert {t.name for t in tilesets()} == set(TileSet.bundled())


def test_the_old_presets_are_unchanged():
    assert Rules.preset("tournament") == Rules.tournament() == Rules()
    assert Rules.preset("casual") == Rules.casual()
    assert Rules.preset("nine-tile") == Rules.nine_tile()


@pytest.mark.parametrize("name,field,value", [
    ("super", "layout", "super21"), ("super", "tileset", "english-super"), ("nine-tile", "rack_size", 9),
    ("lexulous", "rack_size", 8), ("clabbers", "word_rule", "anagram"), ("blanks-score", "blanks_score_letter", True),
    ("harry-potter", "magical_words", "harry-potter"), ("harry-potter", "cards", True),
    ("wordswithfriends", "bingo_bonus", 35), ("wordswithfriends", "layout", "wordswithfriends15"),
])
def test_variant_rules(name, field, value):
    assert getattr(Rules.preset(name), field) == value


def test_a_tile_set_brings_its_end_of_game_rules_unless_the_variant_has_its_own():
    german = rules_for("tournament", "german")
    assert (german.passes_to_end, german.max_scoreless_turns) == (4, None)
    polish = rules_for("nine-tile", "polish")
    assert (polish.passes_to_end, polish.max_scoreless_turns, polish.rack_size) == (4, 6, 9)
    assert rules_for("tournament", "french").max_scoreless_turns == 6
    casual = rules_for("casual", "german")
    assert casual.end_on_passes and casual.passes_to_end is None
    assert Rules.preset("tournament", tileset="german").passes_to_end == 4
    assert rules_for("super", "german").layout == "super21"  # a named tile set replaces the variant's


def test_finish_line_targets_are_the_material_table():
    expected = {"beginner": (70, 60, 50), "intermediate": (120, 100, 90), "expert": (200, 180, 160)}
    for level, targets in expected.items():
        assert tuple(finish_line_target(level, n) for n in (2, 3, 4)) == targets
    assert rules_for("finish-line", players=4, level="beginner").target_score == 50
    assert rules_for("finish-line", target_score=333).target_score == 333
    with pytest.raises(RulesError, match="no Finish Line target"):
        finish_line_target("grandmaster", 2)
    with pytest.raises(RulesError, match="no target level"):
        rules_for("tournament", level="expert")


def test_magical_word_bonus_table_has_the_worked_example_rows():
    assert [magical_word_bonus("harry-potter", n) for n in (4, 5, 7)] == [7, 10, 25]
    assert magical_word_bonus("harry-potter", 1) == 0


def test_a_game_can_be_set_up_with_its_own_bonus_table(tmp_path):
    table = tmp_path / "our-board.tsv"
    table.write_text("# length bonus\n3 1\n6 9\n", encoding="utf-8")
    assert [magical_word_bonus(str(table), n) for n in (2, 3, 5, 6, 12)] == [0, 1, 1, 9, 9]


def test_unknown_names_say_what_exists():
    with pytest.raises(RulesError, match="super"):
        Rules.preset("scrabble-deluxe")
    with pytest.raises(RulesError, match="polish"):
        tileset_info("klingon")
    with pytest.raises(RulesError):
        Rules(word_rule="rhymes")


def test_gcg_names_for_the_pragmas():
    assert layout_gcg_name("standard15") == "CrosswordGame" and layout_gcg_name("super21") == "SuperCrosswordGame"
    assert tileset_info("english-super").gcg == "english_super" and tileset_info("romanian").gcg_note
    assert [v.gcg_game_type for v in variants() if v.name in ("super", "clabbers", "nine-tile")] == \
        ["classic_super", "nine-tile", "wordsmog"]
    for name in ("standard15", "super21", "wordswithfriends15"):
        assert Layout.load(name).size and layout_gcg_name(name)


def test_registry_is_plain_json_for_the_new_game_page():
    data = json.loads(json.dumps(registry()))
    names = [v["name"] for v in data["variants"]]
    assert {"tournament", "super", "nine-tile", "finish-line", "harry-potter", "clabbers", "blanks-score",
            "lexulous", "wordswithfriends"} <= set(names)
    assert next(v for v in data["variants"] if v["name"] == "finish-line")["needs_target"]
    assert {"level": "expert", "players": 3, "target": 180} in data["finish_line"]["targets"]
    assert {t["name"] for t in data["tilesets"]} >= {"english", "spanish", "polish", "romanian"}
