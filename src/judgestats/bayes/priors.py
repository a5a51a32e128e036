"""The prior classes, re-exported from the core module :mod:`judgestats.priors`."""

from ..priors import Beta, Dirichlet, HyperPriors, Priors

__all__ = ["Beta", "Dirichlet", "HyperPriors", "Priors"]
