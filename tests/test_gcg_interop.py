"""GCG that other programs read: every event kind the project writes against the reference parser's own patterns,
reading the text back, the names other programs use (pragmas, [CH] tiles, 21x21 coordinates), and records from
Woogles and cross-tables opened here."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from tilecam.engine.errors import GcgSyntaxError
from tilecam.engine.game import Game
from tilecam.engine.gcg import (CARD_NOTE, MAGICAL_WORD_NOTE, ORIENTATION_NOTE, RACK_UNSEEN_NOTE, RACKS_UNSEEN_NOTE,
                                GcgGame, load_gcg, read_gcg, write_gcg)
from tilecam.engine.move import Placement
from tilecam.engine.rules import Rules
from tilecam.engine.tiles import TileSet
from tilecam.firmware import cli
from tilecam.web.review import parse_gcg_upload

GCG_LINT = Path(__file__).resolve().parents[1].parent / "shared" / "tools" / "gcg-lint"

# The line patterns of the reference parser (domino14/macondo gcgio, as ../shared/tools/gcg-lint holds them, read
# 2026-11), in its order: the first that matches a line decides what the line is.
MACONDO_PATTERNS = [
    ("player", r"^#player(?P<p>[1-2])\s+(?P<nick>\S+)\s+(?P<real>.+)"),
    ("title", r"^#title\s+.*"), ("description", r"^#description\s+.*"), ("id", r"^#id\s*\S+\s+\S+"),
    ("rack1", r"^#rack1\s+\S+"), ("rack2", r"^#rack2\s+\S+"),
    ("encoding", r"^#character-encoding\s+\S+"),
    ("move", r">(\S+):\s+(\S+)\s+(\w+)\s+(\S+)\s+\+(\d+)\s+(\d+)"),
    ("note", r"^#note\s+.*"), ("lexicon", r"^#lexicon\s+.+"),
    ("phony", r">(\S+):\s+(\S+)\s+--\s+-(\d+)\s+(\d+)"),
    ("pass", r">(\S+):\s+(\S+)\s+-\s+\+0\s+(\d+)"),
    ("challenge", r">(\S+):\s+(\S*)\s+\(challenge\)\s+\+(\d+)\s+(\d+)"),
    ("exchange", r">(\S+):\s+(\S+)\s+-(\S+)\s+\+0\s+(\d+)"),
    ("endrack", r">(\S+):\s+\((\S+)\)\s+\+(\d+)\s+(-?\d+)"),
    ("time", r">(\S+):(?:\s+(\S*))?\s+\(time\)\s+\+?-(\d+)\s+(-?\d+)"),
    ("lastrack", r">(\S+):\s+(\S+)\s+\((\S+)\)\s+-(\d+)\s+(-?\d+)"),
    ("game-type", r"^#game-type\s+.*"), ("tile-set", r"^#tile-set\s+.*"), ("game-board", r"^#game-board\s+.*"),
    ("continuation", r"^#- .*"), ("board-layout", r"^#board-layout\s+.*"),
    ("tile-distribution", r"^#tile-distribution\s+.*"), ("incomplete", r"^#incomplete.*"),
    ("tile", r"^#tile \S+\s+\S+"),
]
COMPILED = [(kind, re.compile(p)) for kind, p in MACONDO_PATTERNS]


def macondo_kinds(text: str) -> list[str]:
    """What the reference parser takes each line of ``text`` for; fails on a line it would drop or refuse."""
    assert text.isascii() or text.startswith("#character-encoding UTF-8\n"), "non-ASCII text read as ISO-8859-1"
    kinds: list[str] = []
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        kind = next((k for k, rx in COMPILED if rx.search(line)), None)
        # an unmatched line after a note is folded into the note by the parser: an event there is lost silently
        assert kind is not None, f"line {n}: no macondo pattern matches {line!r}"
        kinds.append(kind)
    return kinds


def lint_with_shared_tool(tmp_path: Path, text: str) -> None:
    """Run ../shared/tools/gcg-lint on ``text`` too when the shared folder is beside the checkout."""
    if not GCG_LINT.is_file():
        return
    path = tmp_path / "written.gcg"
    path.write_bytes(text.encode("utf-8"))
    done = subprocess.run([sys.executable, str(GCG_LINT), str(path)], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout


def camera_game() -> Game:
    """A game as the camera records it, no rack ever seen, with every event kind the engine writes as GCG."""
    g = Game(["Ann Lee", "Ben"], Rules(challenge="points", end_scoring="casual"))
    g.play(Placement.from_gcg("8D", "QUAnT"))
    g.pass_turn()
    g.exchange(3)
    g.exchange("EV")
    g.play(Placement.from_gcg("E7", "A."))
    g.play(Placement.from_gcg("F7", "O."))
    g.withdraw(note="challenged off")
    g.play(Placement.from_gcg("G7", "Z."))
    g.challenge_bonus(words=1)
    g.time_penalty(1, 10)
    g.end(racks={1: "DE"}, out=0)
    return g


def test_every_event_kind_of_a_camera_game_reads_in_macondo_and_back(tmp_path):
    game = camera_game()
    text = write_gcg(game)
    kinds = macondo_kinds(text)
    assert [k for k in kinds if k not in ("player", "note")] == [
        "move", "pass", "exchange", "exchange", "move", "move", "phony", "move", "challenge", "time", "endrack",
        "lastrack"]
    lint_with_shared_tool(tmp_path, text)
    assert f"#note {RACKS_UNSEEN_NOTE}" in text and text.isascii() and "#character-encoding" not in text
    assert ">Ann_Lee: QUA?T 8D QUAnT +46 46" in text and ">Ben: - - +0 0" in text and ">Ann_Lee: - -3 +0" in text
    assert ">Ben: EV -EV +0 0" in text and ">Ann_Lee:  (challenge) +5" in text
    again = read_gcg(text)
    def recorded(e):  # what a GCG line holds: a withdrawal's "--" line does not repeat the play's square and word,
        where = ("", "") if e.kind == "withdraw" else (e.position, e.word)  # and a last-rack line's rack field is
        rack = "" if e.kind == "end_penalty" else e.rack                     # the letters it deducts
        return e.kind, e.player, e.score, e.total, rack, *where, e.letters, e.count, e.note

    # the racks written in place of unseen ones are unknown again
    assert [recorded(e) for e in again.events] == [recorded(e) for e in game.history]
    assert again.players == GcgGame.from_game(game).players
    assert all(ev.rack == "" for ev in again.events if ev.kind not in ("end_penalty",))
    assert again.replay(Rules(challenge="points", end_scoring="casual")).history == game.history


def test_a_game_with_some_racks_seen_notes_each_rack_not_seen(tmp_path):
    g = Game(["Ann", "Ben"])
    g.play(Placement.from_gcg("8D", "QUANT"), rack="AQNTUXY")
    g.pass_turn()
    g.play(Placement.from_gcg("D8", ".AT"))
    text = write_gcg(g)
    assert RACKS_UNSEEN_NOTE not in text and text.count(f"#note {RACK_UNSEEN_NOTE}") == 2
    assert macondo_kinds(text)[2:] == ["move", "pass", "note", "move", "note"]
    lint_with_shared_tool(tmp_path, text)
    again = read_gcg(text)
    assert [e.rack for e in again.events] == ["AQNTUXY", "", ""] and all(not e.note for e in again.events)
    assert again.replay().history == g.history


def harry_potter_game() -> Game:
    """The material's order on one turn: the word, a card re-tripling it, the Magical Word bonus; then a card
    that adds nothing, one that takes points away, and a Magical Word with a note of its own."""
    g = Game(["Harry", "Ron"], Rules(cards=True, magical_words="harry-potter"))
    g.play(Placement.from_gcg("8D", "QUANT"))
    g.card("First-years o'er here", multiplier=3)
    g.magical_word()
    g.play(Placement.from_gcg("D8", ".AT"))
    g.card("Obliviate")
    g.card("Peeves", points=-4, note="a made-up card that costs points")
    g.magical_word("QAT", note="agreed by both")
    return g


def test_harry_potter_cards_and_magical_words_read_in_macondo_and_back(tmp_path):
    game = harry_potter_game()
    text = write_gcg(game)
    kinds = [k for k in macondo_kinds(text) if k not in ("player", "note")]
    # the bonus lines macondo has: a challenge bonus, or a time penalty for a card that takes points away
    assert kinds == ["move", "challenge", "challenge", "move", "challenge", "time", "challenge"]
    lint_with_shared_tool(tmp_path, text)
    assert f">Harry:  (challenge) +96 144\n#note {CARD_NOTE}First-years o'er here\n" in text
    assert f">Harry:  (challenge) +10 154\n#note {MAGICAL_WORD_NOTE}QUANT\n" in text
    assert ">Ron:  (time) -4 " in text and f"#note {MAGICAL_WORD_NOTE}QAT\n#note agreed by both\n" in text
    again = read_gcg(text)
    def recorded(e):
        return e.kind, e.player, e.score, e.total, e.word, e.count, e.note
    assert [recorded(e) for e in again.events] == [recorded(e) for e in game.history]
    rules = again.rules()  # cards and the bundled Magical Word table, from the events themselves
    assert rules.cards and rules.magical_words == "harry-potter"
    assert again.replay(rules).history == game.history
    assert again.verify(rules).ok


def test_lettered_rows_are_said_in_a_note_macondo_reads(tmp_path):
    g = Game(["Ann", "Ben"])
    g.play(Placement.from_gcg("8D", "QUANT"), rack="AQNTUXY")
    text = write_gcg(g, orientation="lettered-rows")
    assert f"#note {ORIENTATION_NOTE}" in text and ">Ann: AQNTUXY H4 QUANT +48 48" in text
    assert macondo_kinds(text) == ["player", "player", "note", "move"]
    lint_with_shared_tool(tmp_path, text)
    again = read_gcg(text)
    assert again.orientation == "lettered-rows" and again.events[0].position == "8D" and not again.pragmas
    assert again.replay().history == g.history


def test_german_game_keeps_its_umlauts_and_says_its_encoding_first(tmp_path):
    g = Game(["Ann", "Ben"], Rules(tileset="german"))
    g.play(Placement.from_gcg("8D", "MÜHSt"), rack="MÜHST?E")
    text = write_gcg(g)
    assert text.startswith("#character-encoding UTF-8\n") and "#tile-distribution german" in text
    macondo_kinds(text)
    lint_with_shared_tool(tmp_path, text)
    again = read_gcg(text.encode("utf-8"))
    assert again.events[0].word == "MÜHSt" and again.events[0].rack == "MÜHST?E"
    assert again.rules().tileset == "german" and again.replay(again.rules()).history == g.history


def test_spanish_digraphs_are_one_tile_each_in_brackets(tmp_path):
    es = TileSet.load("spanish")
    text = ("#character-encoding UTF-8\n#player1 ana Ana\n#player2 eva Eva\n#tile-distribution spanish\n"
            "#tile [CH] [ch]\n#tile [LL] [ll]\n#tile [RR] [rr]\n#lexicon FISE2\n"
            ">ana: EL[LL]NOOS 8D [LL]ENOS +40 40\n>eva: [ch]AO?DES H8 .[ch]AO +3 3\n")
    game = read_gcg(text)
    assert game.events[0].rack == es.encode("EL[LL]NOOS") == "ELĿNOOS" and game.events[0].word == "ĿENOS"
    assert game.events[1].word == ".çAO"  # a blank standing for CH: 0 points
    report = game.verify(game.rules())
    assert report.ok, [str(m) for m in report.mismatches]  # [LL] 8 on the double letter = 16, +4, x2 = 40
    written = write_gcg(game)
    assert ">ana: EL[LL]NOOS 8D [LL]ENOS +40 40" in written and "#tile [RR] [rr]" in written
    macondo_kinds(written)
    lint_with_shared_tool(tmp_path, written)
    assert read_gcg(written) == game


def test_spanish_game_written_from_play_spells_its_tiles():
    g = Game(["Ana", "Eva"], Rules(tileset="spanish"))
    g.play(Placement.from_gcg("8G", "ÇEa"))
    text = write_gcg(g)
    assert ">Ana: [CH]E? 8G [CH]Ea +12 12" in text and "#tile [CH] [ch]" in text
    assert read_gcg(text).replay(Rules(tileset="spanish")).history == g.history


def test_super_scrabble_coordinates_run_to_u_and_21(tmp_path):
    rules = Rules(layout="super21", tileset="english-super")
    g = Game(["Ann", "Ben"], rules)
    for coord, word in [("11J", "QI"), ("K11", ".NKS"), ("15K", "ABCDEFG"), ("Q15", ".HIJKLM"), ("21Q", ".NOPT")]:
        g.play(Placement.from_gcg(coord, word, board=g.board))
    text = write_gcg(g)
    assert "#board-layout SuperCrosswordGame" in text and "#tile-distribution english_super" in text
    assert "#game-type classic_super" in text and " 21Q .NOPT " in text
    macondo_kinds(text)
    lint_with_shared_tool(tmp_path, text)
    again = read_gcg(text)
    assert again.rules().layout == "super21" and g.board.rows()[20].endswith("MNOPT")
    assert again.replay(again.rules()).history == g.history


def test_a_letter_not_in_the_tile_set_is_named_with_its_line(tmp_path, capsys):
    record = "#character-encoding UTF-8\n#player1 a A\n#player2 b B\n>a: ŁABCDEF 8G ŁAB +14 14\n"
    report = read_gcg(record).verify()
    assert not report.ok and report.mismatches[0].line_no == 4
    assert "the letter Ł is not in the english tile set" in str(report.mismatches[0])
    path = tmp_path / "polish.gcg"
    path.write_text(record.replace("#player2 b B\n", "#player2 b B\n#tile-distribution polish\n#lexicon OSPS\n"),
                    encoding="utf-8")
    assert cli.main(["gcg", "verify", str(path)]) == 0  # no flags: the pragmas say which game it is
    assert "polish tiles" in capsys.readouterr().out


def test_names_other_programs_use_pick_the_rules():
    head = "#player1 a A\n#player2 b B\n"
    assert read_gcg(head + "#game-type nine-tile\n").rules().rack_size == 9
    assert read_gcg(head + "#game-type wordsmog\n").rules().word_rule == "anagram"
    assert read_gcg(head + "#lexicon SOME_LIST_NOBODY_HAS\n>a: AQNTUXY 8D QUANT +48 48\n").verify().ok
    with pytest.raises(GcgSyntaxError, match="unknown #tile-distribution 'klingon'"):
        read_gcg(head + "#tile-distribution klingon\n").rules()
    with pytest.raises(GcgSyntaxError, match=r"line 3: .*#tile-distribution"):
        read_gcg(head + ">a: [CH]E 8G [CH]E +10 10\n")
    nine = write_gcg(Game(["a", "b"], Rules.nine_tile()))
    assert "#game-type nine-tile" in nine and "#note nine-tile is not a macondo game type" in nine
    macondo_kinds(nine)


CROSS_TABLES = """#character-encoding UTF-8
#player1 Joel_Sherman Joel Sherman
#player2 David_Gibson David Gibson
#title 2003 National Championship
#description Created with Quackle
#id io.xtables 1234
>Joel_Sherman: AEINQST 8G QI +22 22
>David_Gibson: ADEEMNR H4 MEAN.DER +64 64
#note a bingo through the I
>Joel_Sherman: AENSTTU 12B TAUTENS +79 101
>David_Gibson: EO - +0 64
>Joel_Sherman: ?ABCDEF -ABC +0 101
"""


def test_a_cross_tables_record_opens_and_replays():
    game = read_gcg(CROSS_TABLES)
    assert game.pragmas["id"] == "io.xtables 1234" and game.events[1].note == "a bingo through the I"
    assert game.verify().ok  # QI 22; MEAN.DER 14 + 50; TAUTENS 16 + 50 with MEANDERS 13 = 79 (checked by hand)
    item = parse_gcg_upload(CROSS_TABLES)  # the web's review import
    assert item["names"] == ["Joel Sherman", "David Gibson"] and item["review"]["frames"][-1]["totals"] == [101, 64]
    assert read_gcg(write_gcg(game)) == game
    macondo_kinds(write_gcg(game))


def test_a_camera_game_written_here_opens_in_review():
    item = parse_gcg_upload(write_gcg(camera_game()))
    assert item["names"] == ["Ann Lee", "Ben"] and len(item["review"]["frames"]) == len(camera_game().history) + 1


def test_every_real_game_written_again_reads_in_macondo_and_back(shared_dir, tmp_path):
    files = sorted((shared_dir / "data" / "gcg").glob("*.gcg"))
    assert len(files) >= 75
    for path in files:  # Woogles (liwords) and macondo records
        record = load_gcg(path)
        rules = record.rules()
        for text in (write_gcg(record.rescored(rules)), write_gcg(record.replay(rules))):
            macondo_kinds(text)
        assert read_gcg(write_gcg(record)) == record, path.name
        game = record.replay(rules)
        assert read_gcg(write_gcg(game)).replay(rules).history == game.history, path.name
