"""``tilecam run --variant NAME --tiles NAME``: the engine's registry behind the flags."""

from __future__ import annotations

import argparse

import pytest

from tilecam.engine.variants import variants
from tilecam.firmware import cmd_run


def parse(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    cmd_run.register(parser.add_subparsers())
    return parser.parse_args(["run", *argv])


def empty_config(tmp_path) -> str:
    path = tmp_path / "c.toml"
    path.write_text("", encoding="utf-8")
    return str(path)


def test_variant_brings_its_board_and_tiles(tmp_path):
    config = cmd_run.build_config(parse("--variant", "super", "--config", empty_config(tmp_path)))
    assert (config.game.variant, config.game.tileset, config.game.layout) == ("super", "english-super", "super21")


def test_tiles_choose_the_set_under_a_variant(tmp_path):
    args = parse("--variant", "finish-line", "--tiles", "spanish", "--config", empty_config(tmp_path))
    config = cmd_run.build_config(args)
    assert (config.game.variant, config.game.tileset, config.game.layout) == ("finish-line", "spanish", "standard15")


def test_every_registered_variant_is_a_choice_and_others_are_refused(capsys):
    for v in variants():
        assert parse("--variant", v.name).variant == v.name
    with pytest.raises(SystemExit):
        parse("--variant", "scrabble-deluxe")
    assert "invalid choice" in capsys.readouterr().err
