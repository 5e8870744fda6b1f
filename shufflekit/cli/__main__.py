"""Run the command line as ``python -m shufflekit.cli``."""

import sys

from shufflekit.cli import main

sys.exit(main())
