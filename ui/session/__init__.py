"""What every page shares about a session: its runs, where they are kept, and its links.

Session-state and widget keys (`state`), what a run is (`run_spec`), the session's runs
(`runs`), the caches that train, load and restore them (`run_cache`, `lru`), the run store
on disk (`run_store`), a new session's first run (`opening`), what a URL says (`links`),
the bundled samples (`samples`), a run's held-out split (`holdout_split`), training inputs
read into a run (`train_inputs`) and garbage-collector tuning (`gc_tuning`).
May import `explorer` only (and Streamlit).
"""
