"""Tests of explorer/models: real models' tokenizer files held to their own libraries."""
