"""The front door: what BPE is, the classic example playing, and three ways in."""

from __future__ import annotations

from ui.front.door import front_door
from ui.shell import run_page

run_page(front_door)  # inside the app's shell, even as a fresh server's first request
