"""Tests of the Asesino en Serie social mode."""
