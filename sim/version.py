"""The package's version: its own module at the bottom of every layer, so that any module can stamp
its records with it without importing the public API (sim/__init__.py)."""

__version__ = "0.1.0"
