"""Subcommands of ``uth``: one module each, every module exposing ``register(subparsers)``."""
