"""A pasted text trained under Streamlit's AppTest, the session left on Animate: the start
that the Animate-step timings share (bench/browser/app_timing.py,
bench/browser/step_browser_cost.py).

AppTest cannot upload, so the text goes through the Train page's Paste source, as a
person pastes it:

    app = trained_on_animate("low lower lowest " * 20, 260)
    app.button(key="animate_next").click().run()  # one step, timed by the caller

(bench/ is not under pytest's doctests: an AppTest session takes seconds.)
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


def trained_on_animate(text: str, vocab_size: int, timeout_seconds: float = 120) -> Any:
    """A new AppTest session that pasted `text`, trained it to `vocab_size` with the Train
    page's defaults, and opened Animate merges (its first run done)."""
    from streamlit.testing.v1 import AppTest  # a bench's need, imported where it is used

    app = AppTest.from_file(str(ROOT / "streamlit_app.py"), default_timeout=timeout_seconds)
    app.run()
    app.radio(key="train_source").set_value("paste").run()
    app.text_area(key="train_paste").set_value(text)
    app.number_input(key="train_vocab").set_value(vocab_size)
    app.run()
    app.button(key="train_go").click().run()
    app.switch_page("pages/animate.py").run()
    return app
