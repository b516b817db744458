"""Tests of explorer/base/."""
