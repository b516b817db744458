"""HTML: tokens as people see them, every user byte escaped.

Display text and colours (`render`), coloured token spans (`token_html`) with hover
cards (`token_cards`) and a passage with two tokenizations' differences marked
(`split_html`).
May import `explorer.training`, `explorer.encoding` and `explorer.base`.
"""
