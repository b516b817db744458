"""The Vocabulary page's own parts: the overview, the token table and its search, a token's
lineage (in words, a graph and chips), a typed text's tokens, the published vocabularies'
buttons, the length charts.

May import `ui.views`, `ui.session` and `explorer`; never another page's folder.
"""
