"""Display pieces several pages share: numbers and messages, coloured tokens, the presenter view.

May import `ui.session` and `explorer`; never a page's folder.
"""
