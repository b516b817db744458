"""A room of sixty, measured (issue 22 §5): one teacher and N students in one lesson.

Not a test: nothing here asserts a time. It starts the app on a free loopback port
(harness/app_server.py), a teacher who opens Animate and starts a class, and N students
who all open the join link (`/animate?class=CODE`) at once, each a session speaking
Streamlit's websocket protocol (harness/ws_client.py). A student's client drives the
follow fragment as a browser does: at its interval it sends the fragment's rerun (the
server's `auto_rerun` names it and gives the interval; bench/classroom/class_poll.py), never
sooner than the last answer came back. Then, with nobody stepping, the server's CPU
over --idle seconds; then the teacher steps --steps times, --gap seconds apart, and
asks --questions questions along the way (Ask the class; every student picks and sends;
Reveal).

- join: from a student's open (before the socket connects) to their page's banner
  "Following the teacher";
- follow lag: from the teacher's page showing step k (the server took it) to a
  student's page showing "After step k", per student per step of the teacher (the
  reveal's step forward included);
- answers counted: the store's counts at each reveal ("R of N answers") against the
  answers students sent; the teacher's live count is checked against them too;
- server CPU idle: the server process's CPU time (/proc) over --idle seconds while every
  student polls and nobody steps, as % of one core; peak RSS: its VmHWM at the end.

Lines before the last say what the server's CPU went to (a join, a follow: a student's
rerun at a step, of the step's fragment alone), the steadier figures on a busy machine,
where wall times stretch with the load. The students' side is bench/classroom/class_students.py.

    python -m bench.classroom.class_load --students 60
    python -m bench.classroom.class_load --quick          # 5 students, 3 steps, 1 question

Last line: `class of 60: joined 60/60, join p95 X s, follow lag p95 Y s, answers counted
A/B, server CPU idle Z %, peak RSS M MiB` (figures: harness/class_figures.py).

On several processes (issue 37 §5): `--processes 3` runs the lesson through the stack as
`bash scripts/run.sh --processes 3` starts it (nginx, three Streamlit processes, its own
Redis), every page through the proxy; `--kill-one` kills (`kill -9`), after the middle
step, the process other than the teacher's that holds the most students; they come back by
their URL (bench/classroom/class_processes.py). Last line then:

    python -m bench.classroom.class_load --students 60 --processes 3 --kill-one

`class of 60 on 3 processes: joined J/60, join p95 X s, follow lag p95 Y s, answers counted
A/B, after killing one process: back R/S within Z s, answers kept K/A`
"""

from __future__ import annotations

import argparse
import asyncio
import math
import re
import statistics
import tempfile
import time
from pathlib import Path

from bench.classroom import class_processes as processes
from bench.classroom.class_students import Lesson, Student, attend
from harness import app_server
from harness import class_figures as figures
from harness.stack import running_stack
from harness.ws_client import ScriptRun, StreamlitClient, connected

HERE = Path(__file__).resolve().parents[2]

JOIN_SECONDS = 90  # every student joined within this, or the lesson goes on without them
ANSWER_SECONDS = 30  # every student answered a question within this, or the teacher reveals
CATCH_UP_SECONDS = 10  # after the last step, the students' time to show it
LESSON_SECONDS = 900  # the whole lesson, after which every client stops


def teacher_step(run: ScriptRun) -> int | None:
    steps = [figures.shown_step(text) for text in run.texts]
    return next((step for step in reversed(steps) if step is not None), None)


async def ask_and_reveal(teacher: StreamlitClient, lesson: Lesson, students: list[Student]) -> int:
    """Ask the class, wait for every joined student's answer, reveal; the store's count."""
    before = sum(student.confirmed for student in students)
    expected = sum(student.join_s is not None for student in students)
    await teacher.rerun(trigger="class_ask")
    deadline = time.monotonic() + ANSWER_SECONDS
    while sum(s.confirmed for s in students) - before < expected and time.monotonic() < deadline:
        await asyncio.sleep(0.2)
    live = figures.answered_count((await teacher.rerun()).text_with("Answered: "))
    started = time.monotonic()
    run = await teacher.rerun(trigger="class_reveal", until="After step")
    step = teacher_step(run)
    if step is not None:
        lesson.accepted[step] = started + (run.shown_s or run.finished_s or 0)
    counted = figures.revealed_count(run.text_with("picked the merge"))
    print(f"  question: live count {live}, counted {counted}, sent {expected}", flush=True)
    return counted or 0


async def teach(server: processes.Measured, args: argparse.Namespace) -> str:
    """The lesson; `server` is one app_server.Server, or a StackMeter over the stack's."""
    before = args.stack.established(args.stack.app_ports()) if args.stack else {}
    async with connected(server.port, processes.Scorer) as teacher:
        teacher.tables = []
        await teacher.rerun(page="animate")
        args.teacher_port = processes.teacher_port(args.stack, before) if args.stack else None
        run = await teacher.rerun(trigger="class_start")
        found = (re.search(r"Teaching class (\w{5})", text) for text in run.texts)
        lesson = Lesson(next(match.group(1) for match in found if match), 0.0)
        lesson.ends = time.monotonic() + LESSON_SECONDS
        students = [Student(index) for index in range(args.students)]
        tasks = await join_all(server, lesson, students)
        await asyncio.sleep(2)  # the joins' last reruns settle
        idle_percent = await idle_cpu(server, lesson, students, args.idle)
        counted = await lesson_steps(server, teacher, lesson, students, args)
        kept = await processes.answers_kept(teacher) if args.kill_one else None
        await asyncio.gather(*tasks, return_exceptions=True)
    line = report(server, args, lesson, students, counted, idle_percent)
    if args.processes:
        line = on_processes(args, students, counted, kept, line)
    return line


def on_processes(
    args: argparse.Namespace, students: list[Student], counted: int, kept: int | None, line: str
) -> str:
    """The last line on several processes: the class's figures, then the kill's."""
    shape = f"class of {args.students}: "
    head = line.split(", server CPU idle")[0].replace(
        shape, f"class of {args.students} on {args.processes} processes: "
    )
    if not args.kill_one:
        return head + ", server CPU idle" + line.split(", server CPU idle")[1]
    kill: processes.Kill | None = args.kill
    dropped = [s for s in students if s.dropped is not None and kill and s.dropped >= kill.at]
    back = [s for s in dropped if s.back_s is not None and s.same_seat]
    print(
        f"  the kill: {len(dropped)} students dropped, {len(back)} back in the same seat; "
        f"back after (s): {sorted(round(s.back_s or 0, 1) for s in back)[-5:]} (the slowest)",
        flush=True,
    )
    within = max((s.back_s or 0.0 for s in back), default=math.nan)
    return (
        f"{head}, after killing one process: back {len(back)}/{len(dropped)} within "
        f"{within:.1f} s, answers kept {'?' if kept is None else kept}/{counted}"
    )


async def join_all(
    server: processes.Measured, lesson: Lesson, students: list[Student]
) -> list[asyncio.Task[None]]:
    """Every student opens the join link at once; back when all are in (or JOIN_SECONDS)."""
    cpu, started = server.cpu_seconds(), time.monotonic()
    tasks = [asyncio.create_task(attend(server.port, lesson, s)) for s in students]
    deadline = started + JOIN_SECONDS
    while time.monotonic() < deadline and any(s.join_s is None and not s.problem for s in students):
        await asyncio.sleep(0.2)
    joined = sum(s.join_s is not None for s in students)
    used = server.cpu_seconds() - cpu
    print(
        f"  joined {joined}/{len(students)} in {time.monotonic() - started:.1f} s: server "
        f"CPU {used:.1f} s, {1000 * used / max(1, joined):.0f} ms a student",
        flush=True,
    )
    return tasks


async def idle_cpu(
    server: processes.Measured, lesson: Lesson, students: list[Student], seconds: float
) -> float:
    """The server's CPU (% of one core) while every student polls and nobody steps; and
    whether the clients kept the browser's pace (if not, the figure is too low)."""
    polls, cpu, started = sum(s.polls for s in students), server.cpu_seconds(), time.monotonic()
    await asyncio.sleep(seconds)
    wall = time.monotonic() - started
    rate = (sum(s.polls for s in students) - polls) / wall
    percent = 100 * (server.cpu_seconds() - cpu) / wall
    polling = sum(1 / s.interval for s in students if s.join_s is not None and s.interval)
    print(f"  idle: {rate:.0f} polls a second (a browser's pace: {polling:.0f})", flush=True)
    lesson.idle_cores = percent / 100
    return percent


async def lesson_steps(
    server: processes.Measured,
    teacher: StreamlitClient,
    lesson: Lesson,
    students: list[Student],
    args: argparse.Namespace,
) -> int:
    """The teacher's steps and questions; the answers the store counted."""
    asked, counted = figures.question_steps(args.steps, args.questions), 0
    cpu, started, mine = server.cpu_seconds(), time.monotonic(), time.process_time()
    following = [s for s in students if s.join_s is not None]
    follow_ms: list[float] = []  # per step: the server's CPU a student's follow took
    for number in range(1, args.steps + 1):
        sent, step_cpu = time.monotonic(), server.cpu_seconds()
        run = await teacher.rerun(trigger="animate_next", until="After step")
        step = teacher_step(run)
        if step is not None:
            lesson.accepted[step] = sent + (run.shown_s or run.finished_s or 0)
            if await all_shown(following, step, sent + args.gap):
                window = time.monotonic() - sent  # less what the polls cost meanwhile
                used = server.cpu_seconds() - step_cpu - lesson.idle_cores * window
                follow_ms.append(1000 * used / max(1, len(following)))
        if number in asked:
            counted += await ask_and_reveal(teacher, lesson, students)
            sent = time.monotonic()
        if args.kill_one and number == args.steps // 2:
            args.kill = processes.kill_one(args.stack, args.teacher_port)
        await asyncio.sleep(max(0.0, sent + args.gap - time.monotonic()))
    await all_shown(following, max(lesson.accepted, default=0), time.monotonic() + CATCH_UP_SECONDS)
    lesson.ends = time.monotonic()
    used, wall = server.cpu_seconds() - cpu, time.monotonic() - started
    print(
        f"  the lesson: server CPU {used:.1f} s in {wall:.0f} s ({100 * used / wall:.0f} % of "
        f"one core; {1000 * used / max(1, len(lesson.accepted) * len(following)):.1f} ms a "
        f"student a step, polls and answers included); this bench's own CPU "
        f"{time.process_time() - mine:.1f} s",
        flush=True,
    )
    if follow_ms:
        print(
            f"  a follow (a student's rerun at a step of the teacher: the step's fragment "
            f"alone; idle polling subtracted): "
            f"{statistics.median(follow_ms):.1f} ms of server CPU, the median of "
            f"{len(follow_ms)} steps",
            flush=True,
        )
    return counted


async def all_shown(students: list[Student], step: int, deadline: float) -> bool:
    """Wait until every student's page has shown `step` (or a later one), or the deadline."""
    while any(max(s.seen, default=-1) < step for s in students):
        if time.monotonic() >= deadline:
            return False
        await asyncio.sleep(0.05)
    return True


def report(
    server: processes.Measured,
    args: argparse.Namespace,
    lesson: Lesson,
    students: list[Student],
    counted: int,
    idle_percent: float,
) -> str:
    joined = [s for s in students if s.join_s is not None]
    lags = [lag for s in joined for lag in figures.follow_lags(lesson.accepted, s.seen)]
    problems = {s.problem for s in students if s.problem}
    for problem in sorted(problems)[:3]:
        print(f"  problem: {problem}")
    missed = sum(lag == math.inf for lag in lags)
    for s in [s for s in joined if math.inf in figures.follow_lags(lesson.accepted, s.seen)][:3]:
        print(
            f"  student {s.index} missed steps: the teacher's {sorted(lesson.accepted)}, "
            f"shown {sorted(s.seen)}{', dropped and back' if s.back_s is not None else ''}"
            f"{'; its page said it stepped away' if s.away else ''}"
        )
        if s.away:
            print(f"    its last runs before: {' | '.join(s.lately)}")
    median = statistics.median(lags) if lags else math.nan
    print(
        f"  {len(lesson.accepted)} steps of the teacher x {len(joined)} students: lag median "
        f"{median:.2f} s, max {max(lags, default=math.nan):.2f} s, {missed} never shown; "
        f"polls {sum(s.polls for s in students):,}, of which follows "
        f"{sum(s.fragment_follows for s in students):,} of the step's fragment alone and "
        f"{sum(s.page_follows for s in students):,} of the whole page; "
        f"answers confirmed {sum(s.confirmed for s in students)}",
        flush=True,
    )
    return figures.summary_line(
        args.students,
        len(joined),
        figures.p95([s.join_s for s in joined]),
        figures.p95(lags),
        (counted, sum(s.sent for s in students)),
        idle_percent,
        server.peak_rss_bytes() / 2**20,
    )


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--students", type=int, default=60)
    parser.add_argument("--steps", type=int, default=20, help="the teacher's steps")
    parser.add_argument("--gap", type=float, default=3.0, help="seconds between steps")
    parser.add_argument("--questions", type=int, default=3)
    parser.add_argument("--idle", type=float, default=10.0, help="seconds of idle CPU taken")
    parser.add_argument("--quick", action="store_true", help="5 students, 3 steps, 1 question")
    parser.add_argument(
        "--processes", type=int, default=0, help="N Streamlit processes behind the stack's nginx"
    )
    parser.add_argument(
        "--kill-one", action="store_true", help="kill -9 a student's process after the middle step"
    )
    args = parser.parse_args()
    args.kill, args.teacher_port, args.stack = None, None, None
    if args.quick:
        args.students, args.steps, args.gap, args.questions, args.idle = 5, 3, 1.5, 1, 3.0
    if not 1 <= args.students <= 120 or not 1 <= args.steps <= 200 or args.questions > args.steps:
        parser.error("students 1-120 (a class's cap), steps 1-200, no more questions than steps")
    if args.kill_one and args.processes < 2:
        parser.error("--kill-one needs --processes 2 or more: someone must be left to go to")
    return args


def main() -> None:
    args = parse_args()
    with tempfile.TemporaryDirectory() as folder:
        env = {"BPE_EXPLORER_RUNS_DIR": str(Path(folder) / "runs")}
        if args.processes:
            env["BPE_EXPLORER_REDIS_URL"] = ""  # the stack's own Redis, as run.sh starts it
            with running_stack(Path(folder) / "stack", args.processes, env) as stack:
                args.stack = stack
                print(asyncio.run(teach(processes.StackMeter(stack), args)))
            return
        with app_server.running_server(Path(folder) / "server.log", env) as server:
            print(asyncio.run(teach(server, args)))


if __name__ == "__main__":
    main()
