"""The smallest sweep specification the command-line tests write to disk."""

#: a one-point sweep (k-RR, n = 10, blanket): well under a second
ONE_POINT_SWEEP = """title = "probe"
[[grid]]
mechanism = "krr"
k = 2
eps0 = 1.0
n = 10
method = "blanket"
delta = 1e-3
"""
