"""The claim catalog: one subpackage per paper (seed000 ... seed003), one module per section or
table, and the printed values as data (``seedNNN/printed.py``).  Every module found here,
recursively, is imported by :func:`shufflekit.verify.claims.load_catalog`."""
