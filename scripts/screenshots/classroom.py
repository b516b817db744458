"""The README's pictures of a class: the teacher's projector with the code and QR code, a
phone following, and the class's answers as the teacher sees them before the reveal.

    .venv/bin/python -m scripts.screenshots classroom [--out docs/screenshots]

One teacher (presenter view, 1280 x 720) and three students (phones, 390 x 844) in
headless Chromium, against a fresh server on a loopback port (so the card says that
only this computer can open the link: that is what it says on such a server).
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

from playwright.sync_api import Page

from harness.app_server import ROOT, app_in_chromium
from scripts.screenshots.pages import wait_until_idle

PHONE = {"width": 390, "height": 844}
STEPS = 3  # the teacher's step in the pictures
PICKS = (0, 1, 1)  # each student's option: a distribution worth a picture


def start_class(teacher: Page, url: str) -> str:
    """The teacher starts a class in the presenter view; its code."""
    teacher.goto(f"{url}animate?present=1")
    wait_until_idle(teacher)
    teacher.get_by_text("Class: join with a code, or teach").click()
    teacher.get_by_role("button", name="Start a class on this tokenizer").click()
    teacher.locator(".class-code").wait_for()
    for _ in range(STEPS):
        teacher.locator(".st-key-animate_next button").first.click()
        wait_until_idle(teacher)
    return teacher.locator(".class-code").inner_text().strip()


def join(student: Page, url: str, code: str) -> None:
    student.goto(f"{url}animate?class={code}")
    student.get_by_text("Following the teacher").wait_for()
    student.get_by_text(f"After step {STEPS}").first.wait_for()
    wait_until_idle(student)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    with app_in_chromium(1280, 720) as (server, teacher):
        code = start_class(teacher, server.url)
        teacher.mouse.move(700, 20)  # off the buttons: no tooltip of the last one pressed
        teacher.wait_for_timeout(300)
        teacher.screenshot(path=str(args.out / "class-projector.png"))
        students = [teacher.context.browser.new_page(viewport=PHONE) for _ in PICKS]
        for student in students:
            join(student, server.url, code)
        students[0].screenshot(path=str(args.out / "class-phone.png"))
        teacher.get_by_role("button", name=re.compile("Ask the class")).click()
        for student, pick in zip(students, PICKS, strict=True):
            student.locator('.st-key-class_answer [role="radiogroup"] label').nth(pick).click()
            student.get_by_role("button", name="Send my answer").click()
            student.get_by_text("Your answer is in").wait_for()
        teacher.get_by_text("Show the answers so far").click()
        teacher.get_by_text(f"Answered: {len(PICKS)} of {len(PICKS)} students").wait_for()
        wait_until_idle(teacher)
        chart = teacher.locator('[data-testid="stVegaLiteChart"]').first
        chart.scroll_into_view_if_needed()
        teacher.wait_for_timeout(800)
        box = chart.bounding_box()
        assert box is not None
        teacher.screenshot(
            path=str(args.out / "class-answers.png"),
            clip={
                "x": box["x"],
                "y": max(0, box["y"] - 90),
                "width": box["width"],
                "height": box["height"] + 150,
            },
        )
        for name in ("class-projector", "class-phone", "class-answers"):
            print(args.out / f"{name}.png")


if __name__ == "__main__":
    main()
