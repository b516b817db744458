"""The classes on disk: one small JSON file beside the runs, so a restart keeps a lesson.

Written whole under a temporary name and renamed (a reader sees the old file or the new,
never half of one). It holds what a class needs to come back — its run's key, the step,
the open question, the answers and scores — and the digest of the teacher's secret, never
the secret. A file that cannot be read is set aside with a log line; the app goes on.

    >>> from ui.classroom.model import ClassRecord, Place
    >>> room = ClassRecord("ABCDE", "d" * 64, "0123456789abcdef", "Shakespeare", 5.0,
    ...                    place=Place(step=4))
    >>> back = from_json(to_json({"ABCDE": room}))
    >>> back["ABCDE"] == room
    True
"""

from __future__ import annotations

import json
import logging
import os
import threading
from dataclasses import asdict
from pathlib import Path
from typing import Any

from ui.classroom.model import ClassRecord, Place, QuestionRecord, StudentRecord

FILE_NAME = "classes.json"
FORMAT = "bpe-merge-explorer-classes"
VERSION = 1

log = logging.getLogger(__name__)


def to_json(classes: dict[str, ClassRecord]) -> str:
    rooms = [asdict(room) for room in classes.values()]
    return json.dumps({"format": FORMAT, "version": VERSION, "classes": rooms}, ensure_ascii=False)


def from_json(text: str) -> dict[str, ClassRecord]:
    """Classes from a snapshot's text; ValueError when it is not one this app wrote."""
    data = json.loads(text)
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ValueError("it is not a snapshot of classes")
    if data.get("version") != VERSION:
        raise ValueError(f"it is version {data.get('version')!r}; this app reads {VERSION}")
    classes = {}
    for raw in data["classes"]:
        room = _room(raw)
        classes[room.code] = room
    return classes


def _room(raw: dict[str, Any]) -> ClassRecord:
    question = raw.get("question")
    return ClassRecord(
        code=str(raw["code"]),
        secret_digest=str(raw["secret_digest"]),
        run_key=str(raw["run_key"]),
        run_name=str(raw["run_name"]),
        last_active=float(raw["last_active"]),
        version=int(raw["version"]),
        place=Place(**raw["place"]),
        question=None if question is None else _question(question),
        asked=int(raw["asked"]),
        scores_shown=bool(raw["scores_shown"]),
        students={s["seat"]: StudentRecord(**s) for s in raw["students"].values()},
        anonymous=int(raw["anonymous"]),
        client=str(raw.get("client", "")),
        taught=float(raw.get("taught", raw["last_active"])),
    )


def _question(raw: dict[str, Any]) -> QuestionRecord:
    return QuestionRecord(
        number=int(raw["number"]),
        step=int(raw["step"]),
        labels=tuple(str(label) for label in raw["labels"]),
        winner=int(raw["winner"]),
        detail=dict(raw["detail"]),
        answers={str(seat): int(option) for seat, option in raw["answers"].items()},
        revealed=bool(raw["revealed"]),
    )


def save(path: Path, classes: dict[str, ClassRecord]) -> None:
    """Replace the snapshot at path with these classes (an empty dict removes it)."""
    if not classes:
        path.unlink(missing_ok=True)
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    # subtle: a .tmp suffix, so the run store's eviction clears one a dead writer left
    temporary = path.with_name(f".{path.stem}.{os.getpid()}-{threading.get_ident()}.tmp")
    try:
        temporary.write_text(to_json(classes), encoding="utf-8")
        os.replace(temporary, path)
    finally:
        temporary.unlink(missing_ok=True)


def load(path: Path) -> dict[str, ClassRecord]:
    """The classes kept at path ({} when there is no file, or when it cannot be read)."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    except OSError as exc:
        log.warning("the classes snapshot %s cannot be read: %s", path, exc)
        return {}
    try:
        return from_json(text)
    except (ValueError, KeyError, TypeError) as exc:
        log.warning("set aside the unreadable classes snapshot %s: %s", path, exc)
        path.replace(path.with_suffix(".unreadable"))
        return {}
