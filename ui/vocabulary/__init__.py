"""The Vocabulary page's own parts: the token table, search, lineage and length charts.

May import `ui.views`, `ui.session` and `explorer`; never another page's folder.
"""
