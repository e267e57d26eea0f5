"""GCG: reading every event kind, errors with line numbers, encodings, orientations, writing, replay, verify."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tilecam.engine.errors import GcgReplayError, GcgSyntaxError
from tilecam.engine.game import Game
from tilecam.engine.gcg import ORIENTATION_NOTE, load_gcg, parse_gcg, read_gcg, write_gcg
from tilecam.engine.move import Placement
from tilecam.engine.rules import Rules
from tilecam.firmware import cli

GOLDEN = Path(__file__).parent / "golden"
HEAD = "#player1 ann Ann\n#player2 ben Ben\n"


def test_golden_game_reads_every_event_kind():
    game = load_gcg(GOLDEN / "worked_example.gcg")
    assert [p.nick for p in game.players] == ["ann", "ben"] and game.players[0].name == "Ann Example"
    assert game.pragmas["lexicon"] == "ENABLE" and game.pragmas["character-encoding"] == "UTF-8"
    kinds = [e.kind for e in game.events]
    assert kinds == ["play", "play", "play", "exchange", "pass", "play", "withdraw", "play", "challenge_bonus",
                     "end_rack", "time_penalty"]
    assert game.events[0].note == "(2 x 10 + 1 + 1 + 1 + 1) x 2"
    assert game.events[3].letters == "VW" and game.events[9].letters == "EV"
    assert game.event_lines[0] == (6, ">ann: AQNTUXY 8D QUANT +48 48")


def test_golden_game_replays_to_the_hand_worked_scores():
    expected = json.loads((GOLDEN / "worked_example.json").read_text(encoding="utf-8"))
    game = load_gcg(GOLDEN / "worked_example.gcg").replay()
    assert game.players == expected["players"]
    assert len(game.history) == len(expected["events"])
    for event, want in zip(game.history, expected["events"]):
        got = {k: getattr(event, k) for k in want}
        if "words" in want:
            got["words"] = list(event.words)
        assert got == want
    assert game.scores == [146, 41] and game.is_over


def test_write_then_read_gives_the_same_game():
    game = load_gcg(GOLDEN / "worked_example.gcg")
    again = read_gcg(write_gcg(game))
    assert again == game
    replayed = game.replay()
    assert read_gcg(write_gcg(replayed)).replay().history == replayed.history


def test_game_written_as_gcg():
    g = Game(["Ann Lee", "Ben"])
    g.play(Placement.from_gcg("8D", "QUAnT"), rack="QUA?TXY")
    g.exchange(3)
    text = write_gcg(g)
    assert "#player1 Ann_Lee Ann Lee" in text and ">Ann_Lee: QUA?TXY 8D QUAnT +46 46" in text
    assert ">Ben: - -3 +0 0" in text  # "-": a rack nobody saw, as RACKS_UNSEEN_NOTE says
    assert read_gcg(text).replay().history == g.history


@pytest.mark.parametrize("line,message", [
    (">ann: 8D QUANT +48", "score"),  # the total is missing: 8D QUANT +48 reads QUANT as the score
    (">ann: AQNTUXY 8D QUANT +4x 48", "score '+4x'"),
    (">ann: AQNTUXY 8D QUANT +48 4x", "cumulative total"),
    (">zed: AQNTUXY 8D QUANT +48 48", "unknown player 'zed'"),
    (">ann AQNTUXY 8D QUANT +48 48", "no ':'"),
    (">ann: AQNTUXY 8D QU4NT +48 48", "word 'QU4NT'"),
    (">ann: AQNTUXY EXTRA 8D QUANT +48 48", "too many fields"),
    (">ann: AQNTUXY 8D QUANT extra +48 48", "cannot read the move"),
    (">ann: AQNTUXY *8 QUANT +48 48", "cannot read the move"),
    (">ann: +48 48", "expected a move"),
    ("hello", "expected a pragma"),
    ("#orientation sideways", "unknown #orientation"),
])
def test_syntax_errors_name_the_line(line, message):
    with pytest.raises(GcgSyntaxError, match=re.escape(message)) as info:
        read_gcg(HEAD + line + "\n")
    assert info.value.line_no == 3


def test_whole_file_reader_collects_every_problem():
    text = HEAD + ">ann: AQNTUXY 8D QUANT +48 48\nnonsense\n>ben: A 8Z +1 1\n>zed: - +0 0\n"
    game, problems = parse_gcg(text)
    assert [p.line_no for p in problems] == [4, 5, 6]
    assert len(game.events) == 1
    with pytest.raises(GcgSyntaxError, match=r"line 4: .* \(and 2 more problems\)") as info:
        read_gcg(text)
    assert len(info.value.problems) == 3


def test_events_need_players():
    with pytest.raises(GcgSyntaxError, match="before any #player"):
        read_gcg(">ann: AQNTUXY 8D QUANT +48 48\n")
    with pytest.raises(GcgSyntaxError, match="at least two"):
        read_gcg("#player1 ann Ann\n")


def test_crlf_bom_and_latin1():
    text = HEAD.replace("ben Ben", "jörg Jörg") + ">ann: AQNTUXY 8D QUANT +48 48\n>jörg: ABC - +0 0\n"
    crlf = ("\ufeff" + text).replace("\n", "\r\n").encode("utf-8")
    latin1 = text.encode("iso-8859-1")
    pragma = ("#character-encoding ISO-8859-1\n" + text).encode("iso-8859-1")
    for data in (crlf, latin1, pragma):
        game = read_gcg(data)
        assert game.players[1].nick == "jörg" and [e.kind for e in game.events] == ["play", "pass"]
    with pytest.raises(GcgSyntaxError, match="cannot decode the file as UTF-8"):
        read_gcg(("#character-encoding UTF-8\n" + text).encode("iso-8859-1"))


def test_both_spacings_of_end_rack_lines_and_six_zero_penalty():
    for line in (">ann:  (EV) +10 10", ">ann: (EV) +10 10"):
        event = read_gcg(HEAD + line + "\n").events[0]
        assert (event.kind, event.rack, event.letters, event.score) == ("end_rack", "", "EV", 10)
    event = read_gcg(HEAD + ">ann: ?AEEOTT (?AEEOTT) -6 -6\n").events[0]
    assert (event.kind, event.rack, event.letters) == ("end_penalty", "?AEEOTT", "?AEEOTT")


def test_exchange_forms_pass_withdraw_and_multiline_note():
    text = HEAD + ">ann: IIIU -4 +0 0\n#note one\nand two\n>ben: - +0 0\n>ann: X -- -5 0\n"
    events = read_gcg(text).events
    assert (events[0].kind, events[0].count, events[0].letters, events[0].note) == ("exchange", 4, "", "one\nand two")
    assert events[1].kind == "pass" and events[1].rack == "" and events[2].kind == "withdraw"


def test_lettered_rows_orientation_and_spelled_out_letters():
    # ScrabScrap: H4 = across along row H from column 4, 5G = down column 5 from row G
    text = HEAD + "#orientation lettered-rows\n>ann: FINRSSW H4 FIRNS +24 24\n>ben: EGKNRTV 5G VITEN +20 20\n"
    game = read_gcg(text)
    assert game.orientation == "lettered-rows"
    assert [(e.position, e.word) for e in game.events] == [("8D", "FIRNS"), ("E7", "VITEN")]
    played = game.replay(Rules(tileset="german"))
    assert played.history[1].word == "V.TEN"  # the written-out I is read as played through
    assert played.board.rows()[7][3:8] == "FIRNS"
    written = write_gcg(game)
    assert f"#note {ORIENTATION_NOTE}" in written and ">ann: FINRSSW H4 FIRNS +24 24" in written
    assert "#orientation" not in written  # no pragma of macondo's: the note says it
    again = read_gcg(written)
    assert again == game and again.orientation == "lettered-rows" and "note" not in again.pragmas
    standard = read_gcg(text, orientation="standard")
    assert standard.events[0].position == "H4"


def test_replay_error_names_the_line():
    with pytest.raises(GcgReplayError, match="line 3: .*centre"):
        read_gcg(HEAD + ">ann: AQNTUXY 1A QUANT +48 48\n").replay()


def test_verify_reports_a_wrong_score_and_the_totals_it_carries():
    text = HEAD + ">ann: AQNTUXY 8D QUANT +50 50\n>ben: ABC - +0 0\n>ann: ABC - +0 50\n"
    report = read_gcg(text).verify()
    assert [(m.line_no, m.field, m.recorded, m.computed) for m in report.mismatches] == [
        (3, "score", 50, 48), (3, "total", 50, 48), (5, "total", 50, 48)]
    assert "carried from line 3" in str(report.mismatches[-1])


def test_verify_diagnoses_a_blank_scored_at_face_value():
    report = read_gcg(HEAD + ">ann: AQNT?XY 8D QUAnT +48 48\n").verify()
    assert "blank as a natural tile" in report.mismatches[0].reason


def _known_bad():
    return json.loads((GOLDEN / "known_bad_records.json").read_text(encoding="utf-8"))


def test_every_shared_record_verifies_except_the_known_bad(shared_dir):
    files = sorted((shared_dir / "data" / "gcg").glob("*.gcg"))
    assert len(files) == 75
    found = {}
    for path in files:
        report = load_gcg(path).verify()
        assert report.checked == report.events, path.name
        if report.mismatches:
            found[path.name] = [[m.line_no, m.field, m.recorded, m.computed] for m in report.mismatches]
    assert found == _known_bad()["gcg"]


def test_scrabscrap_german_records(shared_dir):
    root = shared_dir / "data" / "real-boards" / "scrabscrap"
    for name, expected in _known_bad()["scrabscrap_german"].items():
        game = load_gcg(root / name, orientation="lettered-rows")
        assert game.guess_tileset() == "german"
        report = game.verify(Rules(tileset="german"))
        assert [[m.line_no, m.field, m.recorded, m.computed] for m in report.mismatches] == expected, name


def test_cli_verify_and_rescore(shared_dir, capsys):
    bad = shared_dir / "data" / "gcg" / "liwords_puzzles_r20_peter.gcg"
    good = shared_dir / "data" / "gcg" / "macondo_vs_andy.gcg"
    assert cli.main(["gcg", "verify", str(good)]) == 0
    assert cli.main(["gcg", "verify", str(good), str(bad)]) == 1
    out = capsys.readouterr().out
    assert "MISMATCH" in out and "score recorded +115, computed +113" in out
    assert out.strip().splitlines()[-1] == "2 file(s): 1 match, 1 with mismatches (liwords_puzzles_r20_peter.gcg)"
    folder = shared_dir / "data" / "gcg"                 # a folder: every .gcg file in it
    assert cli.main(["gcg", "verify", "-q", str(folder)]) == 1
    n = len(list(folder.glob("*.gcg")))
    assert capsys.readouterr().out.strip().splitlines()[-1] == \
        f"{n} file(s): {n - 1} match, 1 with mismatches (liwords_puzzles_r20_peter.gcg)"
    assert cli.main(["gcg", "rescore", str(bad)]) == 0
    text = capsys.readouterr().out
    assert ">Peter: ?BCHRUY N1 BRUnCH..Y +113 390" in text
    assert read_gcg(text).verify().ok


def test_cli_rescore_golden_and_unreadable_file(tmp_path, capsys):
    assert cli.main(["gcg", "rescore", str(GOLDEN / "worked_example.gcg")]) == 0
    assert read_gcg(capsys.readouterr().out) == load_gcg(GOLDEN / "worked_example.gcg")
    broken = tmp_path / "broken.gcg"
    broken.write_text(HEAD + "garbage\n", encoding="utf-8")
    assert cli.main(["gcg", "verify", str(broken)]) == 2
    assert "UNREADABLE" in capsys.readouterr().out
