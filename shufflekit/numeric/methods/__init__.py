"""The registered accounting methods, one module per family: the formula, its certified
evaluation and its accountant.  Importing this package registers every method."""

from shufflekit.numeric.methods import (
    baselines,  # noqa: F401
    blanket,  # noqa: F401
    blanket_fft,  # noqa: F401
    bmg_blanket,  # noqa: F401
    gaussian,  # noqa: F401
    lower,  # noqa: F401
    multi_message,  # noqa: F401
    shuffle_template,  # noqa: F401
    stronger_clone_numeric,  # noqa: F401
    variation_ratio,  # noqa: F401
)
