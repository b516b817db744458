"""What the server process shares across sessions, below every page: heavy work in a child
Python (`heavy_work`, `child_jobs`, `job_child`), a small LRU shared by every session's
thread (`lru`), the garbage collector's tuning (`gc_tuning`), and the one module that
reaches into Streamlit's private internals (`streamlit_internals`, the door), which
`run_events` and `heavy_work` go through.
May import `explorer` only (and Streamlit).
"""
