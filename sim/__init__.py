"""Canasta Lab: Monte Carlo strategy analysis for the Canasta family."""

__version__ = "0.1.0"
