"""How a class is laid out in Redis (redis_store.py keeps classes there): its keys, the
Lua scripts that do a poll or an answer in one step, and a class's record to and from its
hashes. Only a code that `codes.is_code` accepts becomes part of a key; the scripts are
these constants, and user text reaches them only as arguments.

    >>> class_keys("bpe:", "ABC23")[:2]
    ('bpe:class:ABC23:version', 'bpe:class:ABC23:room')
    >>> from ui.classroom.model import ClassRecord, StudentRecord
    >>> room = ClassRecord("ABC23", "d" * 64, "0123456789abcdef", "run", 5.0)
    >>> room.students = {"s1": StudentRecord("s1", "Ada", 1, 2, "10.0.0.7", 4.0)}
    >>> kept = fields_of(room)
    >>> flat = [[k for pair in h.items() for k in pair] for h in kept.hashes()]
    >>> record_of("ABC23", [kept.version, *flat]) == room
    True
    >>> redacted("redis://:hunter2@127.0.0.1:6390/0")
    'redis://:***@127.0.0.1:6390/0'
    >>> redacted("unix:///run/redis.sock?db=0&password=hunter2")
    'unix:///run/redis.sock?db=0&password=***'
"""

from __future__ import annotations

import json
import re
from dataclasses import asdict
from typing import Any
from urllib.parse import parse_qsl, urlsplit

from ui.classroom.model import ClassRecord, Place, QuestionRecord, StudentRecord

# KEYS: version, room, students, answers, seen -> nil, or the class's parts and its TTL
READ = """
local version = redis.call('GET', KEYS[1])
if not version then return false end
return {version, redis.call('HGETALL', KEYS[2]), redis.call('HGETALL', KEYS[3]),
        redis.call('HGETALL', KEYS[4]), redis.call('HGETALL', KEYS[5]),
        redis.call('PTTL', KEYS[1])}
"""
# KEYS: version, students, seen; ARGV: seat, when (0: left), how stale `seen` may get
# -> the version, or nil (no class, no seat). A poll writes only when the seat's `seen` is
# older than that: most polls are reads, which the AOF never logs nor fsyncs
SEEN = """
local version = redis.call('GET', KEYS[1])
if not version or redis.call('HEXISTS', KEYS[2], ARGV[1]) == 0 then return false end
local when = tonumber(ARGV[2])
local seen = tonumber(redis.call('HGET', KEYS[3], ARGV[1]) or '0') or 0
if when == 0 or when - seen >= tonumber(ARGV[3]) then
    redis.call('HSET', KEYS[3], ARGV[1], ARGV[2])
    local ttl = redis.call('PTTL', KEYS[1])
    if ttl > 0 then redis.call('PEXPIRE', KEYS[3], ttl) end
end
return version
"""
# KEYS: version, room, students, answers, seen; ARGV: seat, option, now, ttl ms -> 1: counted
ANSWER = """
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
local question = redis.call('HMGET', KEYS[2], 'options', 'revealed')
local options = tonumber(question[1])
if not options or options < 2 or question[2] ~= '0' then return 0 end
if redis.call('HEXISTS', KEYS[3], ARGV[1]) == 0 then return 0 end
local option = tonumber(ARGV[2])
if not option or option < 0 or option >= options then return 0 end
if redis.call('HSETNX', KEYS[4], ARGV[1], ARGV[2]) == 0 then return 0 end
redis.call('HSET', KEYS[2], 'last_active', ARGV[3])
for i = 1, #KEYS do redis.call('PEXPIRE', KEYS[i], ARGV[4]) end
return 1
"""
# KEYS: version, room; ARGV: field, value -> set only while the class lives
SET_IF_LIVE = """
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
return 1
"""


def class_keys(prefix: str, code: str) -> tuple[str, str, str, str, str]:
    """A class's keys: version, room, students, answers, seen (`code` already checked)."""
    base = f"{prefix}class:{code}:"
    return (f"{base}version", f"{base}room", f"{base}students", f"{base}answers", f"{base}seen")


def redacted(url: str) -> str:
    """The Redis URL as a log line may show it: never its password (in the address or,
    for a unix socket, in the query)."""
    url = re.sub(r"(//[^/@:]*:)[^/]*@", r"\1***@", url)
    return re.sub(r"(?i)([?&]password=)[^&#]*", r"\1***", url)


def has_password(url: str) -> bool:
    """
    >>> has_password("redis://:pw@127.0.0.1:6379/0"), has_password("redis://127.0.0.1/0")
    (True, False)
    """
    parts = urlsplit(url)
    in_query = any(name.lower() == "password" for name, _ in parse_qsl(parts.query))
    return bool(parts.password) or in_query


class Fields:
    """A class as Redis keeps it: the version, and its four hashes' fields."""

    def __init__(
        self,
        version: str,
        room: dict[str, str],
        students: dict[str, str],
        answers: dict[str, str],
        seen: dict[str, str],
    ) -> None:
        self.version, self.room, self.students = version, room, students
        self.answers, self.seen = answers, seen

    def hashes(self) -> tuple[dict[str, str], ...]:
        return (self.room, self.students, self.answers, self.seen)


def fields_of(room: ClassRecord) -> Fields:
    question = room.question
    fields = {
        "digest": room.secret_digest,
        "run_key": room.run_key,
        "run_name": room.run_name,
        "last_active": repr(room.last_active),
        "place": json.dumps(asdict(room.place), ensure_ascii=False),
        "asked": str(room.asked),
        "scores_shown": "1" if room.scores_shown else "0",
        "anonymous": str(room.anonymous),
        "client": room.client,
        "taught": repr(room.taught),
        "question": "" if question is None else question_json(question),
        "options": "0" if question is None else str(len(question.labels)),
        "revealed": "1" if question is None or question.revealed else "0",
    }
    students = {
        seat: json.dumps([s.name, s.right, s.answered, s.client], ensure_ascii=False)
        for seat, s in room.students.items()
    }
    answers = {} if question is None else {s: str(o) for s, o in question.answers.items()}
    seen = {seat: repr(s.seen) for seat, s in room.students.items()}
    return Fields(str(room.version), fields, students, answers, seen)


def question_json(question: QuestionRecord) -> str:
    kept = [question.number, question.step, list(question.labels), question.winner]
    return json.dumps([*kept, question.detail], ensure_ascii=False)


def question_of(
    text: str | None, revealed: str | None, answers: dict[str, int]
) -> QuestionRecord | None:
    if not text:
        return None
    number, step, labels, winner, detail = json.loads(text)
    return QuestionRecord(
        int(number), int(step), tuple(labels), int(winner), dict(detail), answers, revealed == "1"
    )


def pairs(flat: list[str]) -> dict[str, str]:
    return dict(zip(flat[::2], flat[1::2], strict=True))


def record_of(code: str, raw: list[Any]) -> ClassRecord:
    version, room_flat, students_flat, answers_flat, seen_flat = raw[:5]
    fields, seen = pairs(room_flat), pairs(seen_flat)
    students = {}
    for seat, text in pairs(students_flat).items():
        name, right, answered, client = json.loads(text)
        students[seat] = StudentRecord(
            seat, name, int(right), int(answered), client, float(seen.get(seat, 0.0))
        )
    answers = {seat: int(option) for seat, option in pairs(answers_flat).items()}
    return ClassRecord(
        code=code,
        secret_digest=fields["digest"],
        run_key=fields["run_key"],
        run_name=fields["run_name"],
        last_active=float(fields["last_active"]),
        version=int(version),
        place=Place(**json.loads(fields["place"])),
        question=question_of(fields.get("question"), fields.get("revealed"), answers),
        asked=int(fields["asked"]),
        scores_shown=fields["scores_shown"] == "1",
        students=students,
        anonymous=int(fields["anonymous"]),
        client=fields.get("client", ""),
        taught=float(fields.get("taught", 0.0)),
    )
