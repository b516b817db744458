"""Benchmarks: not tests. Each module is run as `python -m bench.GROUP.NAME` from the
project's root (`.venv/bin/python -m bench.engine.benchmark`), and prints or writes figures.

By what it measures:
- `engine`: the engine against its anchors, tiktoken and HF tokenizers (ratios in one
  run), long runs, metrics, check-ups, pair tables, rank files;
- `browser`: the app in headless Chromium: click to visible, a step's browser cost;
- `load`: many sessions against one real server, heavy neighbours, hostile links;
- `classroom`: a room of sixty following one teacher;
- `common`: what the groups share (BENCHMARKS.md's named blocks).

What benchmarks share with the tests (the app on a free port, Chromium, Streamlit's
websocket session) lives in `harness`, never here: tests import nothing from `bench`.
"""
