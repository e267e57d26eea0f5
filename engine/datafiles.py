"""Rules data files: a bundled file by name (``engine/data/KIND/NAME.SUFFIX``) or any file by path."""

from __future__ import annotations

from pathlib import Path

from .errors import DataFileError

DATA_ROOT = Path(__file__).resolve().parent / "data"


def read_data_file(name: str, folder: Path, suffix: str, what: str) -> tuple[str, str]:
    """``(text, stem)`` of the bundled ``folder/name.suffix``, or of ``name`` itself when it is a path.

    A missing file is a ``DataFileError`` that lists the bundled names, so a typo says what exists.
    """
    path = Path(name) if ("/" in name or name.endswith(suffix)) else folder / f"{name}{suffix}"
    try:
        return path.read_text(encoding="utf-8"), path.stem
    except OSError as exc:
        known = ", ".join(sorted(p.stem for p in folder.glob(f"*{suffix}")))
        raise DataFileError(f"no {what} {name!r} ({exc.strerror}); bundled: {known}") from exc
