"""Figures drawn from exact data (optional extra: ``pip install 'exactdp[plot]'``).

Every function here first computes its data **exactly** with exactdp (rationals,
or exact exponential expressions), and only then converts the exact values to
floats for drawing -- floats never decide anything in a figure.  Each function
also returns that exact data, so a figure can be checked against it:

* :func:`plot_mechanism` -- a mechanism as a heat map of its exact entries;
* :func:`plot_regular_region` -- ECP14 Fig. 2/3: the region of ``d``-regular
  priors on the simplex of three secrets, the convex hull of the corner priors
  (ECP14 Def. 5, Prop. 3);
* :func:`plot_utility` -- ECP14 Fig. 6: uniform-prior utility with optimal remaps
  of the tight-constraints and geometric mechanisms against eps, with the
  certified threshold eps of ECP14 sec. 7 marked;
* :func:`plot_geo_utility` -- ECP14 Fig. 7: the same for the tight-constraints and the discretised planar
  Laplace mechanisms on a Euclidean grid (the paper's 100 x 100), certified enclosures;
* :func:`plot_geometric_vs_laplace` -- GRS12 sec. 6.1: the optimal expected loss
  of the geometric and the Laplace mechanisms for one count and two results;
* :func:`plot_profile` -- HLM15 Def. 1: the exact privacy profile ``delta(eps)``
  with its breakpoints, optionally the exact ``k``-fold composition and the basic
  and advanced composition bounds;
* :func:`plot_extension` -- BCSZ18 Prop. 2.1: the extension of a private mechanism
  from ``H`` to ``M``, its worst privacy loss per pair against ``eps d`` and ``2 eps d``;
* :func:`plot_fdp` -- DRS22 Def. 2.3: the exact trade-off function (f-DP) of a mechanism and of its
  ``k``-fold composition, with ``G_mu`` at the certified Gaussian-DP ``mu``.

matplotlib is imported only when a function is called, so ``import exactdp``
never imports it; without matplotlib the functions raise :class:`MissingDependency`.

>>> from exactdp.plot import corner_points
>>> from exactdp import path, Level
>>> corner_points(path(3), Level.from_alpha("1/2"))[0]
[4/7, 2/7, 1/7]
"""

from __future__ import annotations

from ._base import MissingDependency, to_float
from .mechanism import plot_mechanism
from .priors import corner_points, plot_regular_region, utility_data, plot_utility, geo_utility_data, plot_geo_utility
from .losses import loss_data, plot_geometric_vs_laplace
from .profile import profile_data, plot_profile
from .extension import extension_pairs, plot_extension
from .fdp import fdp_data, plot_fdp

__all__ = [
           "MissingDependency",
           "corner_points",
           "extension_pairs",
           "fdp_data",
           "geo_utility_data",
           "loss_data",
           "plot_extension",
           "plot_fdp",
           "plot_geo_utility",
           "plot_geometric_vs_laplace",
           "plot_mechanism",
           "plot_profile",
           "plot_regular_region",
           "plot_utility",
           "profile_data",
           "to_float",
           "utility_data",
]
