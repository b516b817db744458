"""The engine's base: the few helpers two wings share, imported downward by all of them.

Argument checks at the door of every public function (`arguments`), pausing the garbage
collector around allocation-heavy loops (`collector`), whether this process may fork
(`forking`), and GPT-2's byte-to-character map (`byte_map`, used by file formats and by
rendering). Imports nothing from the rest of `explorer`.
"""
