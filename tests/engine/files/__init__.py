"""Tests of explorer/files/."""
