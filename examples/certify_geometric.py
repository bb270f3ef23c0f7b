"""Certify the range-restricted geometric mechanism exactly, three ways."""

from exactdp import certify_all_eps, certify_privacy, geometric, path

# rational alpha: exact rational arithmetic
c = certify_privacy(geometric(10, "1/2"), path(11), alpha="1/2")
assert c.holds is True and c.evidence.epsilon == "log(2)"

# transcendental alpha = e^(-1/2): Lindemann-Weierstrass zero test + balls
c = certify_privacy(geometric(10), path(11), eps="1/2")
assert c.holds is True and c.evidence.epsilon == "1/2"

# a level below the mechanism's: an exact witness
c = certify_privacy(geometric(10, "1/2"), path(11), eps="2/3")
assert c.holds is False and c.recheck().ok is True
w = c.evidence.violation
print(w.x, w.x_prime, w.output, w.lhs, ">", w.rhs)

# every eps at once
assert certify_all_eps(geometric(10), path(11)).holds is True
print("ok")
