"""The class's widgets: the sidebar's "Class" expander (join with a code, start a class,
take one back), the teacher's card (code, link, QR), a student's banner (follow, step
away, back), and the notices. Keys are in ui/session/state.py (CLASS_*).

The teacher's card is drawn above the page, so it is on the projector in the presenter
view too; a student's banner is at the top of the page (on a phone the sidebar is folded).
"""

from __future__ import annotations

import html

import streamlit as st

from ui.classroom import address, codes, following, teaching
from ui.classroom import session as room
from ui.classroom.rules import ClassesUnavailable
from ui.server.streamlit_internals import option_set_by_user
from ui.session import state as keys
from ui.session.runs import current_run
from ui.views.formatting import RawHtml, markdown_text, plural
from ui.views.section import say_once

LOOPBACK_NOTE = (
    "Only this computer can open this link: the server listens on this computer alone. "
    "See *Serving a class* in the README to let the room's devices in."
)


def class_sidebar() -> None:
    """The sidebar's part: what this session is in the class, and its buttons."""
    held = room.teacher()
    taken = room.seat()
    if held is not None:
        code, secret = held
        view = room.class_store().view(code)
        students = view.students if view is not None else 0
        st.markdown(f"**Teaching class {markdown_text(code)}** · {students:,} joined")
        st.toggle(
            "Show the class's scores",
            key=keys.CLASS_SCORES,
            on_change=_show_scores,
            help="Everyone in the class sees the scores while this is on.",
        )
        with st.popover("Who is in the class", icon=":material/group:"):
            class_list(code, secret)
        with st.popover("Teacher key", icon=":material/key:"):
            st.caption(
                "Keep this to yourself. If the server restarts, type it under *Take back "
                "a class* to teach this class again (the code alone lets students join, "
                "never teach)."
            )
            st.code(teaching.teacher_key(code, secret), language=None)
        st.button("End the class", key=keys.CLASS_END, on_click=teaching.end_class)
        return
    if taken is not None:
        st.markdown(f"**In class {markdown_text(taken.code)}** as {markdown_text(taken.name)}")
        st.button("Leave the class", key=keys.CLASS_LEAVE, on_click=following.leave)
        return
    with st.expander("Class: join with a code, or teach", icon=":material/groups:"):
        st.text_input(
            "Class code",
            key=keys.CLASS_CODE,
            max_chars=12,
            placeholder="e.g. K7MQ3",
            help="The letters the teacher shows: the class's step comes to this page.",
        )
        st.text_input(
            "Nickname (optional)",
            key=keys.CLASS_NICKNAME,
            max_chars=codes.MAX_NICKNAME,
            help="Shown with your score when the teacher shows the scores.",
        )
        st.button("Join the class", key=keys.CLASS_JOIN, on_click=following.join_typed)
        st.divider()
        st.button(
            "Start a class on this tokenizer",
            key=keys.CLASS_START,
            on_click=_start_here,
            icon=":material/co_present:",
            help="Students join with a code or a QR code and follow your step on Animate.",
        )
        st.text_input(
            "Take back a class (teacher key)",
            key=keys.CLASS_TAKE_BACK,
            type="password",
            help="After a server restart: the teacher key shown while you taught.",
        )
        st.button("Take it back", key=keys.CLASS_TAKE_BACK_GO, on_click=teaching.take_back)


def class_list(code: str, secret: str) -> None:
    """Every seat: here now or gone, right answers of answered; and a seat to remove."""
    rows = room.class_store().roster(code, secret)
    if not rows:
        st.caption("Nobody has joined yet.")
        return
    st.dataframe(
        {
            "Student": [row.name for row in rows],
            "Here": ["here" if row.present else "gone" for row in rows],
            "Right": [row.right for row in rows],
            "Answered": [row.answered for row in rows],
        },
        hide_index=True,
        width="content",
    )
    names = {row.seat: row.name for row in rows}
    if st.session_state.get(keys.CLASS_REMOVE_PICK) not in names:
        st.session_state.pop(keys.CLASS_REMOVE_PICK, None)
    st.selectbox(
        "A seat to remove",
        options=list(names),
        format_func=lambda seat: names.get(seat, "gone"),
        index=None,
        key=keys.CLASS_REMOVE_PICK,
        placeholder="Choose a student",
    )
    st.button(
        "Remove this seat, its answers and score",
        key=keys.CLASS_REMOVE,
        on_click=teaching.remove_seat,
        disabled=st.session_state.get(keys.CLASS_REMOVE_PICK) is None,
        help="The student's page says they were taken out; they may join again as new.",
    )


@room.reachable
def _start_here() -> None:
    state = st.session_state
    step = int(state.get(keys.ANIMATE_STEP, 0) or 0)
    teaching.start_class(current_run(), step, str(state.get(keys.ANIMATE_PASSAGE) or ""))


@room.reachable
def _show_scores() -> None:
    held = room.teacher()
    if held is not None:
        shown = bool(st.session_state.get(keys.CLASS_SCORES))
        room.class_store().show_scores(*held, shown)


def class_notice() -> None:
    """Why joining, teaching or following stopped: once, at the top of the page."""
    text = st.session_state.pop(keys.CLASS_NOTICE, None)
    if text:  # once: a class out of reach may be said by a section of this run too
        say_once(markdown_text(str(text)), icon=":material/groups:")


def class_top(page_path: str) -> None:
    """Above the page: the teacher's card, or a student's banner."""
    class_notice()
    held = room.teacher()
    if held is not None:
        teacher_card(held[0], page_path)
        return
    if room.seat() is not None:
        student_banner(page_path)


def join_link(page_path: str, code: str) -> tuple[str, bool]:
    """This server's join link for the page, and whether the room's devices reach it."""
    server_address = (
        str(st.get_option("browser.serverAddress") or "")
        if option_set_by_user("browser.serverAddress")
        else ""
    )
    host, reachable = address.join_host(str(st.get_option("server.address") or ""), server_address)
    scheme = "https" if st.get_option("server.sslCertFile") else "http"
    port = int(st.get_option("server.port") or 8501)
    base = str(st.get_option("server.baseUrlPath") or "")
    return address.join_url(scheme, host, port, base, page_path, code), reachable


def teacher_card(code: str, page_path: str) -> None:
    """The code and the link in large type, with a QR code of the link."""
    link, reachable = join_link(page_path or "animate", code)
    with (
        st.expander(
            f"Join the class: code {markdown_text(code)}", expanded=True, icon=":material/qr_code:"
        ),
        st.container(key=keys.CLASS_CARD, horizontal=True, gap="large"),
    ):
        st.html(RawHtml(address.qr_img_html(link)), width="content")
        words = st.container()
        words.html(
            RawHtml(
                '<p style="margin:0">Open this link or scan the code, or type the code on '
                'any page (sidebar, <i>Class</i>):</p><p class="class-code" style="font-size:'
                '3.2rem;font-weight:700;letter-spacing:.3rem;margin:.2rem 0">'
                f"{html.escape(code)}</p>"
                f'<p style="font-size:1.4rem;word-break:break-all;margin:0">'
                f'<a href="{html.escape(link)}">{html.escape(link)}</a></p>'
            )
        )
        if not reachable:
            words.warning(LOOPBACK_NOTE, icon=":material/lan:")
        with words:
            st.fragment(joined_count, run_every=JOINED_POLL_SECONDS)(code)


JOINED_POLL_SECONDS = 2.0  # the teacher's card counts the students who joined, live


def joined_count(code: str) -> None:
    """How many have joined (a fragment on a timer, in the teacher's session only)."""
    try:
        room.teacher()  # the teacher's page is open: the class stays taught (UNTAUGHT_SECONDS)
        view = room.class_store().view(code)
    except ClassesUnavailable:
        return  # the page's last run said so
    if view is not None:
        st.markdown(f"**{plural(view.students, 'student')} joined** · {view.present:,} here now")


PAGES = {"animate": "Animate merges", "tokens": "Tokens"}  # the pages a class follows on


def student_banner(page_path: str) -> None:
    """Following or stepped away, and the button to switch; the teacher's page when it is
    another; the student's nickname."""
    state = st.session_state
    taken = room.seat()
    assert taken is not None  # subtle: class_top checks first
    row = st.container(horizontal=True, vertical_alignment="center", gap="small")
    who = f"class {markdown_text(taken.code)} as {markdown_text(taken.name)}"
    if state.get(keys.CLASS_AWAY):
        row.markdown(f"**You stepped away** from {who}: your own step.")
        row.button(
            "Back to the class",
            key=keys.CLASS_BACK,
            on_click=following.back_to_class,
            type="primary",
            icon=":material/groups:",
        )
    else:
        row.markdown(f"**Following the teacher** · {who}")
        row.button(
            "Step away",
            key=keys.CLASS_STEP_AWAY,
            on_click=following.step_away,
            help="Explore on your own; Back to the class follows the teacher again.",
        )
    place = state.get(keys.CLASS_PLACE)
    teacher_page = getattr(place, "page", "")
    if teacher_page in PAGES and teacher_page != page_path:
        row.page_link(
            f"pages/{teacher_page}.py",
            label=f"The teacher is on {PAGES[teacher_page]}",
            icon=":material/arrow_forward:",
        )
    with row.popover("Nickname", icon=":material/badge:"):
        st.text_input(
            "Your nickname in the class",
            key=keys.CLASS_RENAME,
            max_chars=codes.MAX_NICKNAME,
            on_change=following.rename,
            placeholder=taken.name,
            help="Shown with your score when the teacher shows the scores.",
        )
