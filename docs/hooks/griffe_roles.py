"""Griffe extension: reST roles in arena's docstrings (``:class:`arena.Game```) become Markdown code spans.

The docstrings are written for ``help()`` and Sphinx-style readers; mkdocstrings renders Markdown, where a role
would show as literal text. ``:func:`~arena.stats.elo``` becomes `` `elo` ``, as Sphinx shows it.
"""

import re

import griffe

ROLE = re.compile(r":(?:class|meth|func|mod|data|attr|exc|obj|const):`(~?)([^`]+)`")


def _code_span(match: re.Match) -> str:
    tilde, target = match.groups()
    return f"`{target.rsplit('.', 1)[-1] if tilde else target}`"


class ReSTRoles(griffe.Extension):
    """Rewrite every docstring's roles as code spans once its object is loaded."""

    def on_object(self, *, obj: griffe.Object, **kwargs) -> None:
        """Rewrite ``obj``'s docstring in place."""
        if obj.docstring is not None:
            obj.docstring.value = ROLE.sub(_code_span, obj.docstring.value)
