"""Write the sample lesson file, docs/lesson_aaabdaaabac.html (the classic example).

    python -m scripts.make_lesson

It is the lesson the Animate page offers for the worked example "aaabdaaabac" (trained
with no pre-tokenizer to vocab size 259: three merges) on its own text. A test checks
the committed file is what this writes, so it cannot go stale.
"""

from __future__ import annotations

from pathlib import Path

from explorer import train
from explorer.corpus import count_chunks
from ui.lesson_html import lesson_html
from ui.run_spec import run_name

ROOT = Path(__file__).resolve().parents[1]
SAMPLE_LESSON = ROOT / "docs" / "lesson_aaabdaaabac.html"
TEXT, VOCAB_SIZE, PATTERN = "aaabdaaabac", 259, "none"


def sample_lesson() -> str:
    """The sample lesson's HTML, as the Animate page would build it."""
    result = train(TEXT, VOCAB_SIZE, pattern=PATTERN)
    return lesson_html(
        result.history,
        result.tokenizer,
        TEXT,
        chunk_counts=count_chunks([TEXT], PATTERN),
        title=run_name(TEXT, PATTERN, VOCAB_SIZE),
    )


def main() -> None:
    SAMPLE_LESSON.write_text(sample_lesson(), encoding="utf-8", newline="\n")
    print(f"wrote {SAMPLE_LESSON.relative_to(ROOT)} ({SAMPLE_LESSON.stat().st_size:,} bytes)")


if __name__ == "__main__":
    main()
