"""Files: every tokenizer format in and out, and the vocabularies bundled with the app.

minbpe's `.model`/`.vocab` and merges JSON (`formats`), the merge history as JSON
(`history_file`), GPT-2, tiktoken and Hugging Face files in (`imports`, `imports_hf`) and
out (`exports`), telling formats apart (`file_kinds`), loading any of them (`loading`) and
the sha256-checked OpenAI vocabularies (`bundled`). May import `explorer.html`,
`explorer.training`, `explorer.encoding` and `explorer.base`; never `explorer.analysis`.
"""
