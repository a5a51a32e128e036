"""One estimation spec: an entry point's design, method, level and repeated items, resolved once.

Every entry point (:func:`judgestats.correct`, :func:`judgestats.evaluate`,
:func:`judgestats.correct_stratified`, :func:`judgestats.correct_distribution`,
``js.compare.*``, :func:`judgestats.pairwise`, ``js.sequential``, ``js.plan.*``) turns its
arguments into one frozen :class:`EstimationSpec` with :func:`resolve_spec`, which validates
them there, once, with the package's named errors; the layers below take the spec and never
re-check a string. The spec names its row of the capability table
(:mod:`judgestats.designs.capabilities`), so an error quotes the methods available on the path,
and a result records ``spec.design`` (a :class:`~judgestats.designs.Design`, which is its name).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any

from ._validation import (
    ArgumentTypeError,
    check_choice,
    check_confidence_level,
)
from .designs import Design, as_design
from .designs.capabilities import Capability, capability, check_method

__all__ = ["AUTO", "ESTIMANDS", "EstimationSpec", "resolve_spec"]

#: The method name that asks for a choice per data set (:mod:`judgestats.auto`).
AUTO = "auto"
#: What a correction of repeated items estimates: the rate over rows or over items.
ESTIMANDS = ("rows", "items")


@dataclass(frozen=True, slots=True)
class EstimationSpec:
    """What an entry point was asked to estimate, and how, validated.

    Attributes
    ----------
    judge : str
        What the judge says (``"letter"``, ``"categories"``, ``"alphabet"``, ``"pairs"``).
    target : str
        What is estimated (``"rate"``, ``"pooled-rate"``, ``"distribution"``, …).
    design : Design
        The calibration design (:mod:`judgestats.designs`).
    method : str
        The interval method: a method of the path's row, or ``"auto"`` where the row has it
        (resolved per data set by :mod:`judgestats.auto`).
    confidence_level : float
        Two-sided level, strictly inside (0, 1).
    repeated : bool
        The counts carry repeated items (built with ``cluster=``).
    estimand : str
        ``"rows"`` or ``"items"`` (the same without repeated items).
    options : Mapping
        The method's options (read-only), checked against what the method takes.
    """

    judge: str
    target: str
    design: Design
    method: str
    confidence_level: float
    repeated: bool = False
    estimand: str = "rows"
    options: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))

    @property
    def capability(self) -> Capability:
        """The row of the capability table this spec resolved against."""
        return capability(self.judge, self.target, self.design, self.repeated)

    @property
    def methods(self) -> tuple[str, ...]:
        """The interval methods available on this path."""
        return self.capability.methods

    @property
    def is_auto(self) -> bool:
        """True when the method is chosen per data set."""
        return self.method == AUTO

    def with_method(self, method: str, **options: Any) -> EstimationSpec:
        """Return the same spec with another (already resolved) method and its options."""
        return replace(self, method=method, options=MappingProxyType(dict(options)))

    def with_level(self, confidence_level: float) -> EstimationSpec:
        """Return the same spec at another (validated) level."""
        return replace(self, confidence_level=check_confidence_level(confidence_level))


def resolve_spec(
    *,
    judge: str,
    target: str,
    design: Any,
    method: Any,
    confidence_level: Any,
    repeated: bool = False,
    estimand: Any = "rows",
    options: Mapping[str, Any] | None = None,
    options_of: Callable[[Design, str], tuple[str, ...]] | None = None,
    method_optional: bool = False,
) -> EstimationSpec:
    """Validate an entry point's arguments into an :class:`EstimationSpec`.

    Parameters
    ----------
    judge, target : str
        The path (a row of the capability table).
    design : str or Design
        Validated against the registered designs.
    method : str or None
        Validated against the path's row; None gives the row's default where
        ``method_optional`` (an entry point whose own default is None), else is an error.
    confidence_level : float
        Two-sided level, strictly inside (0, 1).
    repeated : bool
        The counts carry repeated items.
    estimand : {"rows", "items"}
        The mean over rows or over items.
    options : mapping, optional
        The method's options.
    options_of : callable, optional
        ``options_of(design, method)`` returns the option names the method takes; given, every
        option is checked against it (``"auto"`` takes none).
    method_optional : bool, default False
        Whether ``method=None`` asks for the row's default.

    Raises
    ------
    MethodError, ClusteredCountsError, ConfidenceLevelError, ArgumentTypeError
        The named errors of an unknown design or method, a method that does not account for
        repeated items, a bad level, or an option the method does not take.
    """
    design = as_design(design)
    repeated = bool(repeated)
    if method is None and not method_optional:
        raise ArgumentTypeError("method must be a string, got None")
    method = check_method(method, judge=judge, target=target, design=design, repeated=repeated)
    level = check_confidence_level(confidence_level)
    estimand = check_choice("estimand", estimand, ESTIMANDS)
    opts = dict(options or {})
    if opts and method == AUTO:
        raise ArgumentTypeError(f"method='auto' takes no method options, got {sorted(opts)}")
    if opts and options_of is not None:
        takes = options_of(design, method)
        unknown = sorted(set(opts) - set(takes))
        if unknown:
            listed = ", ".join(takes) if takes else "no options"
            raise ArgumentTypeError(
                f"method {method!r} got unexpected option(s) {unknown}; it takes {listed}"
            )
    return EstimationSpec(
        judge=judge, target=target, design=design, method=method, confidence_level=level,
        repeated=repeated, estimand=estimand, options=MappingProxyType(opts),
    )  # fmt: skip
