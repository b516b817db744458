"""Tests of explorer/html/."""
