"""Several raters per item, the judge as one more rater.

* :func:`dawid_skene` — the latent-class (Dawid–Skene) model fitted by EM: the latent
  prevalence, each rater's confusion matrix, item posteriors (:class:`LatentClassFit`).
"""

from .latent_class import LatentClassFit, dawid_skene

__all__ = ["LatentClassFit", "dawid_skene"]
