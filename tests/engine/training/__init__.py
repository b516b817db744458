"""Tests of explorer/training/."""
