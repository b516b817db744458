"""HTML: tokens as people see them, every user byte escaped.

Display text and colours (`render`), coloured token spans with hover cards
(`token_html`) and a passage with two tokenizations' differences marked (`split_html`).
May import `explorer.training`, `explorer.encoding` and `explorer.base`.
"""
