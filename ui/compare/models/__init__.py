"""Compare real models: two to six tokenizers — the session's, the bundled ones and models
named on the Hub — on 26 languages, one passage side by side, and their vocabularies' overlap."""
