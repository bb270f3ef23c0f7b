"""HLM15 Example 6: randomized response is eps-private exactly at p = 1/(m + e^eps)."""

from exactdp import certify_all_eps, certify_privacy, discrete, randomized_response

m = 3
fair = randomized_response(m + 1, p=f"1/({m} + exp(1))")
c = certify_privacy(fair, discrete(m + 1), eps="1")
assert c.holds is True and c.evidence.epsilon == "1"

stingy = randomized_response(m + 1, p=f"9/10/({m} + exp(1))")
c = certify_privacy(stingy, discrete(m + 1), eps="1")
assert c.holds is False
print("smallest eps for the smaller p:", c.evidence.epsilon, c.evidence.enclosure)

# a fixed p = 1/5 is private exactly for alpha <= 1/2, i.e. eps >= log 2
c = certify_all_eps(randomized_response(m + 1, p="1/5"), discrete(m + 1))
print("fails for alpha in", c.evidence.failure_set_text)
