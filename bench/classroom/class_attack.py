"""Holding a class, tried as a hostile visitor would (issue 35 §3): bounded scripts on
127.0.0.1, each session speaking Streamlit's websocket protocol (harness/ws_client.py).

Not a test: it reports what the server let happen, and how long it took.

- slots: one script (one address, 127.0.0.1) opens `--classes` sessions one after another;
  each starts a class on Animate and a bot session joins it. Then a real teacher, from
  another address (127.0.0.2), starts one.
- seats: a teacher (127.0.0.3) starts a class; one script with its join code opens the
  link `--seats` times from one address. Before it, a student (127.0.0.5) who pressed
  Leave opens the link again; after it, a real student (127.0.0.4) joins.

    python -m bench.classroom.class_attack            # 20 classes, 120 seats

Last lines: `slots: N of 20 classes started in T s; a real teacher: ...` and
`seats: N seats held by one address after 120 joins in T s (...); a real student: ...;
the link again after Leave: ...` (a closed page's seat is given back to the same address
after 30 s, so later joins of the script may sit in its earlier seats: held counts names).
"""

from __future__ import annotations

import argparse
import asyncio
import re
import tempfile
import time
from pathlib import Path

from harness import app_server
from harness.ws_client import ScriptRun, connected

ATTACK_SECONDS = 300  # each attack stops after this, whatever it reached
TEACHING = re.compile(r"Teaching class (\w{5})")
SEATED = re.compile(r"Following the teacher\W*class \w{5} as (.+)")
ESCAPED = re.compile(r"\\(.)")  # Markdown's backslash escapes in the app's sentences


def code_of(run: ScriptRun) -> str | None:
    found = (TEACHING.search(text) for text in run.texts)
    return next((match.group(1) for match in found if match), None)


def said(run: ScriptRun, *starts: str) -> str:
    """The first text of the run that starts with one of `starts` ('' for none)."""
    texts = (ESCAPED.sub(r"\1", text) for text in run.texts)
    return next((text for text in texts if text.startswith(starts)), "")


async def start_class(port: int, source: str | None) -> tuple[str | None, str]:
    """A session that starts a class on Animate: its code, or why it could not."""
    async with connected(port, source=source) as teacher:
        await teacher.rerun(page="animate")
        run = await teacher.rerun(trigger="class_start")
        return code_of(run), said(run, "The class could not start")


async def join(port: int, code: str, source: str | None, *, leave: bool = False) -> str:
    """A session that opens the join link: the name it sits as, or why it could not."""
    async with connected(port, source=source) as student:
        run = await student.rerun(page="animate", query=f"class={code}")
        names = (SEATED.search(text) for text in run.texts)
        name = next((match.group(1).strip() for match in names if match), None)
        if name is None:
            return said(run, "Could not join") or "no seat and no sentence"
        if leave:
            await student.rerun(trigger="class_leave")
        return f"seated as {name}"


async def slots(port: int, classes: int) -> str:
    started, refusal, t0 = 0, "", time.monotonic()
    for _ in range(classes):
        if time.monotonic() - t0 > ATTACK_SECONDS:
            break
        code, why = await start_class(port, None)
        if code is None:
            refusal = refusal or why
            continue
        started += 1
        await join(port, code, None)  # the bot that keeps a class from looking empty
    spent = time.monotonic() - t0
    code, why = await start_class(port, "127.0.0.2")
    teacher = f"started {code}" if code else f"refused ({why})"
    refused = f" (the script was told: {refusal})" if refusal else ""
    return (
        f"slots: {started} of {classes} classes started from one address in {spent:.1f} s"
        f"{refused}; a real teacher from another address: {teacher}"
    )


async def seats(port: int, wanted: int) -> str:
    code, why = await start_class(port, "127.0.0.3")
    if code is None:
        return f"seats: no class to join ({why})"
    first = await join(port, code, "127.0.0.5", leave=True)  # a student leaves, then
    again = await join(port, code, "127.0.0.5")  # scans the QR code again
    if not first.startswith("seated"):
        back = f"could not join ({first})"
    else:
        back = "the same seat" if again == first else f"another seat ({first} -> {again})"
    seated, held, refusal, t0 = 0, set(), "", time.monotonic()
    for _ in range(wanted):
        if time.monotonic() - t0 > ATTACK_SECONDS:
            break
        result = await join(port, code, None)
        if result.startswith("seated"):
            seated += 1
            held.add(result)  # a seat given back is the same name again
        else:
            refusal = refusal or result
    spent = time.monotonic() - t0
    real = await join(port, code, "127.0.0.4")
    refused = f" (the script was told: {refusal})" if refusal else ""
    return (
        f"seats: {len(held)} seats held by one address after {wanted} joins in {spent:.1f} s "
        f"({seated} joins seated, {wanted - seated} refused){refused}; "
        f"a real student from another address: {real}; the link again after Leave: {back}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--classes", type=int, default=20, help="classes the script starts")
    parser.add_argument("--seats", type=int, default=120, help="joins the script makes")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:  # a server and runs folder each
        env = {"BPE_EXPLORER_RUNS_DIR": str(Path(folder) / "slots")}
        with app_server.running_server(Path(folder) / "slots.log", env) as server:
            print(asyncio.run(slots(server.port, args.classes)), flush=True)
        env = {"BPE_EXPLORER_RUNS_DIR": str(Path(folder) / "seats")}
        with app_server.running_server(Path(folder) / "seats.log", env) as server:
            print(asyncio.run(seats(server.port, args.seats)), flush=True)


if __name__ == "__main__":
    main()
