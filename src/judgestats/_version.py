"""The version of judgestats, written once (the build reads it here; ``judgestats.__version__``)."""

__version__ = "0.1.0"
