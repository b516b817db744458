"""The students of bench/classroom/class_load.py: each a websocket session (harness/ws_client.py)
that joins by the class's link, drives the follow fragment's timer as a browser does, and
answers each question once; what it saw, and when, is kept in its `Student` record.

A browser's timer: the fragment's rerun at the interval the server's `auto_rerun` message
gives (ui/classroom/session.py's FOLLOW_SECONDS; bench/classroom/class_poll.py), never sooner than
the last answer came back, and no burst to catch up after a slow one.

When its server process dies (bench/classroom/class_processes.py kills one), a student's
socket closes and it reconnects as the browser's page does, to the same address with the
query its URL holds (`class=CODE&seat=TOKEN`): the proxy sends it to a live process, and
it is back when its banner says "Following the teacher" under the same name.
"""

from __future__ import annotations

import asyncio
import random
import re
import time
from dataclasses import dataclass, field
from typing import Any

from websockets.exceptions import ConnectionClosed

from bench.classroom.class_poll import FragmentSpy
from harness import class_figures as figures
from harness.ws_client import ScriptRun, StreamlitClient, connected, device_address

FOLLOWING = "Following the teacher"  # the student's banner: in the class


@dataclass
class Student:
    """One student's figures: when they joined, when each step showed, answers sent."""

    index: int
    join_s: float | None = None
    seen: dict[int, float] = field(default_factory=dict)  # step -> first shown (monotonic)
    sent: int = 0  # Send my answer clicks
    confirmed: int = 0  # of them, answered with "Your answer is in"
    polls: int = 0
    interval: float = 0.0  # the follow fragment's timer, as the server set it
    page_follows: int = 0  # polls that reran the whole page (the class moved)
    fragment_follows: int = 0  # polls that reran only a fragment of it (the step moved)
    problem: str = ""
    name: str = ""  # as the banner named the seat: "... class CODE as NAME"
    dropped: float | None = None  # when its socket closed mid-lesson (monotonic)
    back_s: float | None = None  # from then to following again
    same_seat: bool = False  # back under the same name, from the same seat token
    query: str = ""  # the page's URL query, as the server set it (class= and seat=)
    away: int = 0  # polls whose page said "You stepped away" (the page no longer follows)
    lately: list[str] = field(default_factory=list)  # the last runs drawn, until away


@dataclass
class Lesson:
    code: str
    ends: float  # monotonic time when every student stops polling
    idle_cores: float = 0.0  # the server's CPU while nobody steps, in cores
    accepted: dict[int, float] = field(default_factory=dict)  # teacher's step -> when


class Follower(StreamlitClient):
    """A student's session that notes when each step's stage arrives (as a browser shows
    it then, before the rest of the page), and keeps its URL's step as a browser does.

    subtle: Animate's step slider is bound to the URL (`animate_step=`); a browser's page
    writes the slider's value into its URL whenever the value changes, a follow of the
    step's fragment included, and every rerun it sends carries that URL. This client
    otherwise keeps only the query the server sent last, which a follow of the fragment
    alone can leave one step behind: a whole-page rerun (an answer) then carried the older
    step and the page stepped away from the class (seen at load 25-39 on three processes).
    A following student's slider is no longer bound (ui/animate/controls.py `url_binding`:
    Streamlit let an address behind the class override its step), so the server sends
    such a page no step to keep; one that stepped away gets its own step again.
    """

    seen: dict[int, float]

    def read_delta(self, message: Any, run: ScriptRun, until: str | None, t0: float) -> None:
        drawn = len(run.texts)
        super().read_delta(message, run, until, t0)
        step = figures.shown_step(run.texts[-1]) if len(run.texts) > drawn else None
        if step is not None:
            self.seen.setdefault(step, time.monotonic())
            self.query_string = with_step(self.query_string, step)


def with_step(query: str, step: int) -> str:
    """A URL's query with the step slider's parameter at `step`, when it holds one.

    >>> with_step("class=K7MQ3&animate_step=16", 17), with_step("class=K7MQ3", 17)
    ('class=K7MQ3&animate_step=17', 'class=K7MQ3')
    """
    return SLIDER_PARAM.sub(f"animate_step={step}", query)


async def poll(client: StreamlitClient, fragment: str) -> ScriptRun:
    """One tick of the follow fragment's timer, as the browser sends it."""
    message = client.request(None)
    message.rerun_script.fragment_id = fragment
    await client.socket.send(message.SerializeToString())
    return await asyncio.wait_for(client.read_run(time.monotonic(), None), 120)


async def answer(client: StreamlitClient, run: ScriptRun, student: Student) -> None:
    """Pick an option (a rerun, as a click on the radio is) and send it."""
    options = list(run.widgets["class_answer"].options)  # as shown: the radio's values
    pick = random.Random(student.index * 7919 + student.sent).choice(options)
    await client.rerun(values={"class_answer": ("string_value", pick)})
    student.sent += 1
    sent = await client.rerun(trigger="class_send")
    client.values.pop("class_answer", None)  # the next question starts with no pick
    student.confirmed += bool(sent.text_with("Your answer is in"))


RECONNECT_SECONDS = 60  # a dropped student's tries to come back, then it gives up
AS_NAME = re.compile(r"class \w+ as (.+)$")
SLIDER_PARAM = re.compile(r"(?<![^&?])animate_step=\d+")


async def attend(port: int, lesson: Lesson, student: Student) -> None:
    """A student's lesson; what went wrong, if anything, in `student.problem`. A socket
    closed mid-lesson (its process killed) is opened again with the URL's query."""
    try:
        await follow(port, lesson, student, f"class={lesson.code}")
    except ConnectionClosed:
        student.dropped = time.monotonic()
    except Exception as exc:  # one student's failure is a figure, not the bench's end
        student.problem = f"{type(exc).__name__}: {exc}"[:300]
    if student.dropped is None or student.join_s is None:
        return
    while time.monotonic() < min(lesson.ends, student.dropped + RECONNECT_SECONDS):
        try:
            await follow(port, lesson, student, student_query(lesson, student), back=True)
            return
        except (ConnectionClosed, OSError, TimeoutError) as exc:
            student.problem = f"reconnecting: {type(exc).__name__}: {exc}"[:300]
            await asyncio.sleep(0.5)  # the page's own retry, a moment later
        except Exception as exc:  # as above: a figure
            student.problem = f"back, then {type(exc).__name__}: {exc}"[:300]
            return


def student_query(lesson: Lesson, student: Student) -> str:
    """The query a browser's page reconnects with: its URL's, the step slider's parameter
    as the page shows it (a browser keeps the URL of a widget bound to it in step with the
    widget; this client keeps only the query the server sent, which a follow of the step's
    fragment alone leaves at an older step).

    >>> lesson, student = Lesson("K7MQ3", 0.0), Student(0)
    >>> student_query(lesson, student)
    'class=K7MQ3'
    >>> student.query, student.seen = "class=K7MQ3&seat=s1&animate_step=1", {1: 0.0, 4: 1.0}
    >>> student_query(lesson, student)
    'class=K7MQ3&seat=s1&animate_step=4'
    """
    if not student.query:
        return f"class={lesson.code}"
    shown = max(student.seen, default=None)
    return student.query if shown is None else with_step(student.query, shown)


async def follow(
    port: int, lesson: Lesson, student: Student, query: str, *, back: bool = False
) -> str:
    """Join by the link (or come back by the URL's query), then follow until the lesson
    ends, answering each question; the query the page's URL holds last."""
    opened = time.monotonic()
    async with connected(port, Follower, source=device_address(student.index)) as client:
        client.seen = student.seen
        spy = FragmentSpy(client.socket)
        client.socket = spy  # type: ignore[assignment]
        run = await client.rerun(page="animate", query=query, until=FOLLOWING)
        if run.shown_s is None or spy.fragment is None:
            student.problem = "never shown as following: " + " | ".join(run.texts[:5])[:300]
            return client.query_string
        name = seat_name(run.text_with(FOLLOWING))
        if back and student.dropped is not None:
            student.back_s = time.monotonic() - student.dropped - (run.finished_s - run.shown_s)
            student.same_seat = name == student.name and "seat=" in query
            student.problem = ""
        else:
            student.join_s = time.monotonic() - opened - (run.finished_s - run.shown_s)
            student.name = name
        student.query = client.query_string  # class= and seat=, as the URL holds them
        student.interval = spy.interval
        tick = time.monotonic()
        while time.monotonic() < lesson.ends:
            tick = max(tick + spy.interval, time.monotonic())  # a timer: no burst to catch up
            await asyncio.sleep(tick - time.monotonic())
            run = await poll(client, spy.fragment)
            student.polls += 1
            student.query = client.query_string
            if run.texts and not student.away:  # what led to a step away, for the report
                url = SLIDER_PARAM.search(client.query_string)
                summary = drawn_summary(run) + (f"; URL {url.group(0)}" if url else "")
                student.lately = [*student.lately[-5:], summary]
            student.away += bool(run.text_with("You stepped away"))
            if run.texts:  # the class moved: the page, or its step's fragment alone, drawn
                student.fragment_follows += bool(run.fragment_ids)
                student.page_follows += not run.fragment_ids
            if "class_answer" in run.widgets:
                await answer(client, run, student)
        return client.query_string


def drawn_summary(run: ScriptRun) -> str:
    """One run a poll drew, in a few words: the fragment or the page, its steps, its notes.

    >>> drawn_summary(ScriptRun(texts=["**After step 4**", "You stepped away"]))
    'page: steps [4]; You stepped away'
    """
    steps = [step for step in map(figures.shown_step, run.texts) if step is not None]
    notes = [t[:60] for t in run.texts if "stepped away" in t or "question" in t.lower()][:2]
    where = "fragment" if run.fragment_ids else "page"
    return f"{where}: steps {steps}" + "".join(f"; {note}" for note in notes)


def seat_name(banner: str) -> str:
    """The name a student's banner gives their seat.

    >>> seat_name("**Following the teacher** · class K7MQ3 as anonymous 4")
    'anonymous 4'
    """
    found = AS_NAME.search(banner.strip())
    return found.group(1) if found else ""
