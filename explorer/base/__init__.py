"""The engine's base: the few helpers two wings share, imported downward by all of them.

Argument checks at the door of every public function (`arguments`), pausing the garbage
collector around allocation-heavy loops (`collector`), whether this process may fork
(`forking`), GPT-2's byte-to-character map (`byte_map`, used by file formats and by
rendering), and the token bytes a vocabulary may hold (`vocab_budget`: training stops
there, files are read under it). Imports nothing from the rest of `explorer`.
"""
