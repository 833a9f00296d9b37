"""The shipped paytables, one TOML file each, installed with the package as data.

:data:`engine.uth.paytable.PAYTABLE_DIR` is this folder, found through
:mod:`importlib.resources` in a checkout and in an installed wheel alike.
"""
