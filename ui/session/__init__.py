"""What every page shares about a session: its runs, where they are kept, and its links.

Session-state and widget keys (`state`), what a run is (`run_spec`), the session's runs
(`runs`), the caches that train, load and restore them (`run_cache`), the run store on
disk (`run_store`), a new session's first run (`opening`), what a URL says (`links`), what
a link may train (`link_budget`), the bundled samples (`samples`), a run's held-out split
(`holdout_split`), training inputs read into a run (`train_inputs`), a user's text in
Markdown (`markdown`) and a fresh server's warm-up (`warm_up`).
May import `ui.server` and `explorer` (and Streamlit).
"""
