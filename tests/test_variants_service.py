"""Every variant and tile set of the engine's registry starts a game through the game service, which takes its
rules from :func:`tilecam.engine.variants.rules_for` (Finish Line's target, Harry Potter's cards and Magical Words,
Spanish two-letter tiles, the 21x21 board)."""

from __future__ import annotations

import argparse

import pytest

from tilecam.core.lexicons import lexicon_for_settings
from tilecam.core.service import CommandRefused, GameService
from tilecam.core.store import GameStore
from tilecam.engine.variants import finish_line_target, rules_for, tilesets, variants
from tilecam.firmware import cmd_run


@pytest.fixture()
def service(tmp_path):
    store = GameStore(tmp_path)
    yield GameService(store, lexicon=lexicon_for_settings)
    store.close()


@pytest.mark.parametrize("variant", [v.name for v in variants()])
def test_every_registry_variant_starts_with_its_board_and_tiles(service, variant):
    service.new_game(["Ann", "Ben"], {"variant": variant}, actor="test")
    rules = service.game.rules
    settings = service.state()["settings"]
    assert (settings["variant"], settings["tileset"], settings["layout"]) == (variant, rules.tileset, rules.layout)
    assert service.state()["size"] == rules.board_layout.size


@pytest.mark.parametrize("tileset", [t.name for t in tilesets()])
def test_every_registry_tile_set_starts_and_plays(service, tileset):
    service.new_game(["Ann", "Ben"], {"variant": "tournament", "tileset": tileset}, actor="test")
    tiles = service.game.rules.tiles
    word = "".join(sorted(tiles.letters)[:2])  # any two tiles of the set: legality ignores words
    event = service.play(f"8H {word}", actor="test")
    assert event.payload["score"] == 2 * sum(tiles.value(ch) for ch in word)  # the centre star doubles
    assert sum(service.state()["unseen"].values()) == tiles.total - 2


def test_super_scrabble_is_21_by_21_with_200_tiles(service):
    service.new_game(["Ann", "Ben"], {"variant": "super"}, actor="test")
    assert service.state()["size"] == 21 and len(service.state()["board"]) == 21
    assert service.state()["bag"] == 200 - 14
    service.play("11K QUANT", actor="test")
    service.play("K11 QAT", actor="test")  # down from the Q, reaching row 13
    assert service.state()["board"][12][10] == "T"


def test_spanish_digraphs_are_played_with_brackets_and_stored_as_one_tile(service):
    service.new_game(["Ann", "Ben"], {"tileset": "spanish"}, actor="test")
    event = service.play("8G [CH]E", actor="test")
    assert event.payload["word"] == "ÇE" and event.payload["score"] == 2 * (5 + 1)
    with pytest.raises(CommandRefused, match="XY"):
        service.play("9G [XY]", actor="test")


def test_a_spanish_game_has_no_word_judgement_unless_a_word_list_is_given(service, tmp_path):
    service.new_game(["Ann", "Ben"], {"tileset": "spanish"}, actor="test")
    service.play("8G [CH]E", actor="test")
    with pytest.raises(CommandRefused, match="no lexicon"):
        service.challenge("test")
    words = tmp_path / "es.txt"
    words.write_text("CHE\n", encoding="utf-8")
    service.new_game(["Ann", "Ben"], {"tileset": "spanish", "lexicon": str(words)}, actor="test")
    service.play("8G [CH]E", actor="test")
    assert service.challenge("test").payload["valid"] is True


@pytest.mark.parametrize("players", [2, 3, 4])
def test_finish_line_target_from_level_and_players_and_the_end_it_asks_for(service, players):
    names = ["Ann", "Ben", "Cy", "Di"][:players]
    service.new_game(names, {"variant": "finish-line", "level": "beginner"}, actor="test")
    assert service.state()["target"] == finish_line_target("beginner", players)
    service.new_game(names, {"variant": "finish-line", "target": 40}, actor="test")
    service.play("8D QUANT", actor="test")
    state = service.state()
    assert (state["target"], state["to_target"][0], state["progress"][0]) == (40, 0, 1.0)
    assert state["pending"][0]["reason"] == "target"
    service.end_game(None, "test")
    assert service.state()["is_over"] and service.state()["winners"] == [0]


def test_a_target_is_refused_for_a_variant_without_one(service):
    with pytest.raises(CommandRefused, match="no target"):
        service.new_game(["Ann", "Ben"], {"variant": "super", "level": "expert"}, actor="test")
    with pytest.raises(CommandRefused, match="unknown variant"):
        service.new_game(["Ann", "Ben"], {"variant": "scrabble-deluxe"}, actor="test")


def test_harry_potter_card_and_magical_word_are_their_own_moves_and_undo_steps(service):
    service.new_game(["Ann", "Ben"], {"variant": "harry-potter"}, actor="test")
    service.play("8D QUANT", actor="test")  # 48
    assert service.card("First-years o'er here", "test", multiplier=3).payload["score"] == 96
    assert service.magical_word("test").payload["score"] == 10  # five letters, the default table
    state = service.state()
    assert [m["kind"] for m in state["moves"]] == ["play", "card", "magical_word"]
    assert state["players"][0]["score"] == 48 + 96 + 10 and state["turn"] == 1
    assert state["last_move"]["kind"] == "magical_word" and state["last_move"]["word"] == "QUANT"
    service.undo("test")
    assert service.state()["players"][0]["score"] == 48 + 96
    with pytest.raises(CommandRefused, match="whole number"):
        service.card("Accio", "test", points="ten")


def test_cards_are_refused_outside_the_harry_potter_edition(service):
    service.new_game(["Ann", "Ben"], {}, actor="test")
    service.play("8D QUANT", actor="test")
    with pytest.raises(CommandRefused, match="without Harry Potter cards"):
        service.card("Accio", "test", points=10)
    with pytest.raises(CommandRefused, match="no Magical Word"):
        service.magical_word("test")


def test_a_stored_variant_game_is_rebuilt_the_same(service, tmp_path):
    service.new_game(["Ann", "Ben", "Cy"], {"variant": "finish-line", "tileset": "polish", "level": "expert"},
                     actor="test")
    again = GameService(service.store, lexicon=lexicon_for_settings)
    again.resume()
    assert again.state()["target"] == finish_line_target("expert", 3)
    assert again.game.rules.tileset == "polish" and again.game.rules.passes_to_end == 4


def test_clabbers_challenge_accepts_an_anagram_of_a_word(service, tmp_path):
    words = tmp_path / "en.txt"
    words.write_text("QUANT\n", encoding="utf-8")
    service.new_game(["Ann", "Ben"], {"variant": "clabbers", "lexicon": str(words)}, actor="test")
    service.play("8D TNAUQ", actor="test")
    assert "phony" not in service.state()["moves"][0]["flags"]
    assert service.challenge("test").payload["valid"] is True


@pytest.mark.parametrize("argv, expected", [
    (["--variant", "super"], ("super21", "english-super", 21)),
    (["--variant", "finish-line", "--tiles", "spanish"], ("standard15", "spanish", 15)),
    (["--variant", "wordswithfriends"], ("wordswithfriends15", "wordswithfriends", 15)),
])
def test_tilecam_run_variant_and_tiles_start_that_game(service, tmp_path, argv, expected):
    parser = argparse.ArgumentParser()
    cmd_run.register(parser.add_subparsers())
    (tmp_path / "c.toml").write_text("", encoding="utf-8")
    config = cmd_run.build_config(parser.parse_args(["run", *argv, "--config", str(tmp_path / "c.toml")]))
    service.new_game(list(config.game.players), config.game.settings(), actor="run")
    rules = service.game.rules
    assert (rules.layout, rules.tileset, service.state()["size"]) == expected
    assert rules == rules_for(argv[1], rules.tileset, players=len(config.game.players), layout=rules.layout)
