"""The test suite as a package: its folders mirror the package's (docs/architecture.md, "Tests"), and its
helpers are imported by name (`from tests.support import Table`), never put on sys.path."""
