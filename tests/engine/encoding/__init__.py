"""Tests of explorer/encoding/."""
