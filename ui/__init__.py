"""The app's support: the only place that knows both Streamlit and the engine.

Imports point down: `shell` (navigation, sidebar) → one folder per page (`train`,
`animate`, `tokens`, `vocabulary`, `compare`; none imports another) → `views` (display
pieces pages share) → `session` (runs, caches, links) → `server`
(heavy work in a child, shared caches, Streamlit's internals) → `explorer`. pyproject.toml's
import-linter contracts check it.
"""
