"""Claims of Wang et al. 2024 (variation-ratio reduction): its parameter table and its bounds."""
