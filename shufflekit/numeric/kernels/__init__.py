"""Certified numerical kernels: directed rounding, exact binomial sums, the radix-2 FFT,
lattice laws, GPARV laws and the exhaustive references.  Nothing here imports the
accountant."""
