"""A tampering used by the certificate tests of tests/lp/test_optimum.py and tests/papers/test_certified_claims.py:
a deep copy of a certificate's JSON with one evidence field (at a path of keys and indices) replaced."""

import copy


def _tamper(j, path, value):
    bad = copy.deepcopy(j)
    d = bad["evidence"]
    for k in path[:-1]:
        d = d[k]
    d[path[-1]] = value(d[path[-1]]) if callable(value) else value
    return bad
