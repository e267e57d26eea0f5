"""Lexicon: membership and prefixes, loading a word list, the compiled cache and its fallback, clear errors."""

from __future__ import annotations

import os

import pytest

from tilecam.engine.errors import LexiconError
from tilecam.engine.lexicon import Lexicon, cache_paths


def test_membership_prefix_and_walk():
    lex = Lexicon.from_words(["cat", "cats", "cab", "dog", "CAT"])
    assert len(lex) == 4 and list(lex) == ["CAB", "CAT", "CATS", "DOG"]
    assert "cat" in lex and "CATS" in lex and "CA" not in lex and "DOGS" not in lex and 3 not in lex
    assert lex.has_prefix("CA") and lex.has_prefix("dog") and not lex.has_prefix("E") and lex.has_prefix("")
    assert lex.next_letters("CA") == {"B", "T"} and lex.next_letters("CAT") == {"S"} and lex.next_letters("X") == set()
    assert list(lex.words_with_prefix("cat")) == ["CAT", "CATS"]


def test_german_letters():
    lex = Lexicon.from_words(["Bär", "ÖL", "über"])
    assert "BÄR" in lex and "öl" in lex and lex.has_prefix("Ü")


def test_bundled_enable(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    lex = Lexicon.load()
    assert len(lex) == 172823
    assert "QUANT" in lex and "OIDIUM" in lex and "ALIQUANT" in lex and "OIDIOID" not in lex
    assert "QI" not in lex and "ZA" not in lex  # ENABLE is not a tournament list


def write_list(path, words):
    path.write_text("\n".join(words) + "\n", encoding="utf-8")
    return path


def test_compiled_form_is_cached_beside_the_list_and_reused(tmp_path):
    source = write_list(tmp_path / "mine.txt", ["zebra", "apple", "mango"])
    first = Lexicon.load(source)
    caches = list(tmp_path.glob("mine.*.v1.lexcache"))
    assert len(caches) == 1
    stamp = caches[0].stat().st_mtime_ns
    again = Lexicon.load(source)
    assert list(again) == list(first) == ["APPLE", "MANGO", "ZEBRA"]
    assert caches[0].stat().st_mtime_ns == stamp  # read, not rewritten
    write_list(source, ["kiwi"])  # an edited list gets a new cache
    assert list(Lexicon.load(source)) == ["KIWI"]
    assert len(list(tmp_path.glob("mine.*.v1.lexcache"))) == 2


def test_a_corrupt_cache_is_recompiled(tmp_path):
    source = write_list(tmp_path / "mine.txt", ["zebra", "apple"])
    Lexicon.load(source)
    cache = next(tmp_path.glob("mine.*.lexcache"))
    cache.write_bytes(cache.read_bytes()[:40])
    assert list(Lexicon.load(source)) == ["APPLE", "ZEBRA"]


@pytest.mark.skipif(os.geteuid() == 0, reason="root can write into a read-only folder")
def test_cache_falls_back_to_the_user_cache_dir(tmp_path, monkeypatch):
    folder = tmp_path / "ro"
    folder.mkdir()
    source = write_list(folder / "mine.txt", ["zebra"])
    folder.chmod(0o555)
    user = tmp_path / "cache"
    monkeypatch.setenv("XDG_CACHE_HOME", str(user))
    try:
        assert "ZEBRA" in Lexicon.load(source)
    finally:
        folder.chmod(0o755)
    assert list((user / "tilecam").glob("mine.*.lexcache"))


def test_cache_paths_prefer_the_folder_of_the_list(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "c"))
    beside, user = cache_paths(tmp_path / "w.txt", "abc")
    assert beside.parent == tmp_path and user.parent == tmp_path / "c" / "tilecam"


def test_unknown_character_is_a_clear_error(tmp_path):
    source = write_list(tmp_path / "bad.txt", ["good", "café"])
    with pytest.raises(LexiconError, match=r"line 2: unknown character 'É' in 'café'"):
        Lexicon.load(source)
    with pytest.raises(LexiconError, match="unknown character '-'"):
        Lexicon.from_words(["e-mail"])


def test_empty_or_missing_list_is_a_clear_error(tmp_path):
    empty = tmp_path / "empty.txt"
    empty.write_text("\n\n", encoding="utf-8")
    with pytest.raises(LexiconError, match="no words"):
        Lexicon.load(empty)
    with pytest.raises(LexiconError, match="cannot read"):
        Lexicon.load(tmp_path / "missing.txt")


def test_latin1_word_list(tmp_path):
    source = tmp_path / "de.txt"
    source.write_bytes("bär\nöl\n".encode("iso-8859-1"))
    assert "BÄR" in Lexicon.load(source, cache=False)


def test_cache_falls_back_when_the_first_folder_refuses_writes(tmp_path, monkeypatch):
    # works as root too: nobody can create files under /proc
    from tilecam.engine import lexicon as lexicon_module

    real = lexicon_module.cache_paths
    monkeypatch.setattr(lexicon_module, "cache_paths",
                        lambda path, key: [lexicon_module.Path("/proc/tilecam-no") / real(path, key)[0].name,
                                           tmp_path / "user" / real(path, key)[0].name])
    source = write_list(tmp_path / "mine.txt", ["zebra"])
    assert "ZEBRA" in Lexicon.load(source)
    assert list((tmp_path / "user").glob("mine.*.lexcache"))
    assert not list(tmp_path.glob("mine.*.lexcache"))
