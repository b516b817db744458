"""Real models' tokenizers as their files define them: ids, merge ranks and normalizers kept.

See `explorer.models.model` for the protocol every loaded model follows.
"""
