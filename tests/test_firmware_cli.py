"""The command line's dispatcher: a command named on the command line is parsed by its own module alone."""

import argparse
import importlib

from tilecam.firmware.cli import COMMAND_MODULES, COMMANDS, build_parser, main


def _commands(parser: argparse.ArgumentParser) -> set[str]:
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return set(sub.choices)


def test_every_command_is_mapped_to_the_module_that_registers_it():
    assert _commands(build_parser()) == set(COMMANDS)
    for name in COMMAND_MODULES:
        parser = argparse.ArgumentParser()
        importlib.import_module(name).register(parser.add_subparsers())
        assert {c for c, module in COMMANDS.items() if module == name} == _commands(parser)


def test_a_named_command_gets_its_modules_parser_and_help_gets_all(capsys):
    assert _commands(build_parser("read")) == {"read", "eval-vision"}
    assert _commands(build_parser("no-such-command")) == set(COMMANDS)
    assert main([]) == 2
    assert "calibrate" in capsys.readouterr().out


def test_a_command_runs_through_main(tmp_path, capsys):
    assert main(["read", str(tmp_path / "missing.jpg")]) == 2
    assert "cannot read an image" in capsys.readouterr().err
