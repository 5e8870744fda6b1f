"""Fixed composition of shuffled rounds: dominating pairs on a privacy-loss grid and their
certified convolution."""
