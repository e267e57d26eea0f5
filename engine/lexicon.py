"""Word lists: a compact sorted array of words with fast membership and prefix queries.

The words are kept upper case, sorted, in one string with an array of offsets (about 2.6 MB for ENABLE's
172,823 words, against ~12 MB as a set of str). Membership and prefix queries are binary searches.
Compiling a list (decode, check every character, sort) is done once; the compiled form is cached next to the
word list (``NAME.SHA16.v1.lexcache``) or, where that folder is not writable, in ``$XDG_CACHE_HOME/tilecam``
(``~/.cache/tilecam``). The cache is keyed by the SHA-256 of the source, so an edited list is recompiled.

>>> lex = Lexicon.from_words(["qi", "za", "quant", "quanta"])
>>> "QI" in lex, "quant" in lex, "QU" in lex, lex.has_prefix("QU"), lex.has_prefix("QX"), len(lex)
(True, True, False, True, False, 4)
>>> sorted(lex.next_letters("QUANT")), sorted(lex.next_letters("")), list(lex.words_with_prefix("QUA"))
(['A'], ['Q', 'Z'], ['QUANT', 'QUANTA'])
>>> lex.has_anagram("TNAUQ"), lex.has_anagram("IQ"), lex.has_anagram("QQ")
(True, True, False)

A word list for another language is read against its tile set (``Lexicon.load(path, tileset=TileSet.load(…))``):
its letters are the alphabet, a word is spelt in the set's tiles (Spanish ``CHICO`` is the CH tile + ``ICO``, see
:meth:`TileSet.spell <tilecam.engine.tiles.TileSet.spell>`), and an accented letter the set does not have is
played as its plain letter (French ``ÉTÉ`` is ``ETE``, Romanian ``ȘI`` is ``SI``).
"""

from __future__ import annotations

import hashlib
import os
import struct
import sys
import tempfile
import unicodedata
from array import array
from bisect import bisect_left
from pathlib import Path
from typing import TYPE_CHECKING, Iterable, Iterator

from .errors import LexiconError

if TYPE_CHECKING:
    from .tiles import TileSet

DEFAULT_PATH = Path(__file__).resolve().parent / "data" / "lexicon" / "enable1.txt"
DEFAULT_ALPHABET = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÜ")
CACHE_VERSION = 1
_MAGIC = b"TILECAM-LEXICON\x00"
_END = "\U0010ffff"  # sorts after every letter: prefix + _END bounds all words with that prefix


class _Words:
    """A read-only sequence view of the packed words, for ``bisect``."""

    __slots__ = ("_text", "_offsets")

    def __init__(self, text: str, offsets: array):
        self._text, self._offsets = text, offsets

    def __len__(self) -> int:
        return len(self._offsets) - 1

    def __getitem__(self, i: int) -> str:
        return self._text[self._offsets[i]:self._offsets[i + 1]]


class Lexicon:
    """A word list. ``word in lex`` (any case), ``lex.has_prefix(p)``, ``len(lex)``, iteration in sorted order."""

    __slots__ = ("_text", "_offsets", "_words", "source", "sha256", "_anagrams")

    def __init__(self, text: str, offsets: array, source: str = "", sha256: str = ""):
        self._text, self._offsets = text, offsets
        self._words = _Words(text, offsets)
        self.source, self.sha256 = source, sha256
        self._anagrams: frozenset[str] | None = None

    def __len__(self) -> int:
        return len(self._words)

    def __contains__(self, word: object) -> bool:
        if not isinstance(word, str):
            return False
        word = word.upper()
        words = self._words
        i = bisect_left(words, word)
        return i < len(words) and words[i] == word

    def __iter__(self) -> Iterator[str]:
        words = self._words
        return (words[i] for i in range(len(words)))

    def __repr__(self) -> str:
        return f"<Lexicon {self.source or 'from words'}: {len(self)} words>"

    def has_prefix(self, prefix: str) -> bool:
        """True when some word starts with ``prefix`` (a whole word counts as its own prefix)."""
        prefix = prefix.upper()
        words = self._words
        i = bisect_left(words, prefix)
        return i < len(words) and words[i].startswith(prefix)

    def has_anagram(self, letters: str) -> bool:
        """True when some word uses exactly ``letters`` in any order (Clabbers). The first call sorts every word's
        letters once (about a second for ENABLE)."""
        if self._anagrams is None:
            self._anagrams = frozenset("".join(sorted(w)) for w in self)
        return "".join(sorted(letters.upper())) in self._anagrams

    def words_with_prefix(self, prefix: str) -> Iterator[str]:
        prefix = prefix.upper()
        words = self._words
        i, end = bisect_left(words, prefix), bisect_left(words, prefix + _END)
        return (words[k] for k in range(i, end))

    def next_letters(self, prefix: str) -> set[str]:
        """Letters ``c`` such that ``prefix + c`` starts some word (the move generator's walk step)."""
        prefix = prefix.upper()
        words, n, letters = self._words, len(prefix), set()
        i, end = bisect_left(words, prefix), bisect_left(words, prefix + _END)
        while i < end:
            word = words[i]
            if len(word) == n:
                i += 1
                continue
            letter = word[n]
            letters.add(letter)
            i = bisect_left(words, prefix + letter + _END, i, end)
        return letters

    @classmethod
    def from_words(cls, words: Iterable[str], alphabet: Iterable[str] | None = None,
                   tileset: "TileSet | None" = None) -> "Lexicon":
        """A lexicon of the given words (for tests and small lists); checks characters like :meth:`load`."""
        words = (str(w) for w in words)
        if tileset is not None:
            alphabet, words = tileset.letters, (_in_tiles(w, tileset) for w in words)
        return _compile(words, "from words", frozenset(alphabet or DEFAULT_ALPHABET), "", "")

    @classmethod
    def load(cls, path: str | os.PathLike | None = None, alphabet: Iterable[str] | None = None,
             cache: bool = True, tileset: "TileSet | None" = None) -> "Lexicon":
        """Load a plain word list (one word a line; None = the bundled ENABLE), through the compiled cache.
        With ``tileset`` the words are read in that set's tiles (see the module docstring)."""
        path = Path(path) if path is not None else DEFAULT_PATH
        try:
            data = path.read_bytes()
        except OSError as exc:
            raise LexiconError(f"cannot read word list {path}: {exc.strerror}") from None
        digest = hashlib.sha256(data).hexdigest()
        alpha = frozenset(tileset.letters if tileset is not None else alphabet or DEFAULT_ALPHABET)
        spelling = "" if tileset is None else "|".join(f"{f}={s}" for f, s in zip(tileset.faces, tileset.letters))
        key = hashlib.sha256((digest + "".join(sorted(alpha)) + spelling).encode()).hexdigest()[:16]
        if cache:
            for candidate in cache_paths(path, key):
                lex = _read_cache(candidate, key)
                if lex is not None:
                    lex.source = str(path)
                    lex.sha256 = digest
                    return lex
        lines = _decode(data, path).splitlines()
        if tileset is not None:
            lines = [_in_tiles(line, tileset) for line in lines]
        lex = _compile(lines, str(path), alpha, str(path), digest)
        if cache:
            for candidate in cache_paths(path, key):
                if _write_cache(candidate, key, lex):
                    break
        return lex


def cache_paths(path: Path, key: str) -> list[Path]:
    """Where the compiled form of ``path`` is looked for and written: beside it, then the user cache folder."""
    name = f"{path.stem}.{key}.v{CACHE_VERSION}.lexcache"
    user = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "tilecam"
    return [path.parent / name, user / name]


def _in_tiles(word: str, tileset: "TileSet") -> str:
    """A word of a list in the tiles of ``tileset``: upper case, spelt in its tiles, accents it lacks dropped."""
    word = tileset.spell(word.strip().upper())
    letters = set(tileset.letters)
    out = []
    for ch in word:
        if ch not in letters:
            base = unicodedata.normalize("NFD", ch)[0]
            ch = base if base in letters else ch
        out.append(ch)
    return "".join(out)


def _decode(data: bytes, path: Path) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("iso-8859-1")


def _compile(lines: Iterable[str], name: str, alphabet: frozenset[str], source: str, digest: str) -> Lexicon:
    words = set()
    for n, line in enumerate(lines, 1):
        word = line.strip().upper()
        if not word:
            continue
        for ch in word:
            if ch not in alphabet:
                raise LexiconError(f"{name}: line {n}: unknown character {ch!r} in {line.strip()!r} "
                                   f"(the alphabet is {''.join(sorted(alphabet))})")
        words.add(word)
    if not words:
        raise LexiconError(f"{name}: no words (an empty word list)")
    ordered = sorted(words)
    offsets = array("I", [0])
    total = 0
    for w in ordered:
        total += len(w)
        offsets.append(total)
    return Lexicon("".join(ordered), offsets, source, digest)


def _read_cache(path: Path, key: str) -> Lexicon | None:
    try:
        data = path.read_bytes()
    except OSError:
        return None
    head = len(_MAGIC) + 16 + 12
    if len(data) < head or not data.startswith(_MAGIC) or data[len(_MAGIC):len(_MAGIC) + 16] != key.encode():
        return None
    count, text_bytes, version = struct.unpack_from("<IIi", data, len(_MAGIC) + 16)
    if version != CACHE_VERSION:
        return None
    offsets = array("I")
    end = head + 4 * (count + 1)
    offsets.frombytes(data[head:end])
    if sys.byteorder != "little":
        offsets.byteswap()
    try:
        text = data[end:end + text_bytes].decode("utf-8")
    except UnicodeDecodeError:
        return None
    if len(offsets) != count + 1 or offsets[-1] != len(text):
        return None  # a truncated or foreign file: recompile
    return Lexicon(text, offsets)


def _write_cache(path: Path, key: str, lex: Lexicon) -> bool:
    """Write the compiled form atomically; False when the folder cannot be written."""
    text = lex._text.encode("utf-8")
    offsets = array("I", lex._offsets)
    if sys.byteorder != "little":
        offsets.byteswap()
    payload = (_MAGIC + key.encode() + struct.pack("<IIi", len(lex), len(text), CACHE_VERSION)
               + offsets.tobytes() + text)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".lexcache-", dir=path.parent)
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(payload)
            os.replace(tmp, path)
        except BaseException:
            os.unlink(tmp)
            raise
    except OSError:
        return False
    return True
