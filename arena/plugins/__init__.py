"""Plugins: the hook specifications and the registry that loads built-ins, entry points and bot directories.

It may import :mod:`arena.core` only.
"""
