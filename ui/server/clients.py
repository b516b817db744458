"""Who is asking: the one place that says what a visitor's session and address are.

The heavy-work queue shares its places by client (ui/server/job_queue.py). The address is
the one the browser's websocket comes from, as `st.context.ip_address` gives it: None on
this computer (loopback), where only the session counts. Behind a reverse proxy every
visitor would come from the proxy's address; `client_address` is then the one function
to change (to read the proxy's `X-Forwarded-For` from `st.context.headers`, trusting it
only from that proxy).

A class counts devices, not sessions: `device_address` includes this computer's loopback
addresses (127.0.0.5 is one device of a room run on one machine), which the queue leaves
out so that every local tab stays a visitor of its own.

    >>> current_client()  # outside a script run: nobody in particular
    Client(session=None, address=None)
"""

from __future__ import annotations

import streamlit as st

from ui.server.job_queue import Client
from ui.server.streamlit_internals import client_remote_ip, run_session_id


def current_client() -> Client:
    """This script run's session and the address its browser connects from."""
    session = run_session_id()
    return Client(session, None if session is None else client_address())


def client_address() -> str | None:
    """The visitor's address (None when it connects from this computer, or is unknown)."""
    try:
        address = st.context.ip_address
    except Exception:  # no runtime to ask (a bare script): unknown
        return None
    return address or None


def device_address() -> str:
    """The address a class's per-client bounds count: the websocket's, loopback included
    ("" when not known, as in AppTest: no per-client bound then)."""
    return client_remote_ip() or ""
