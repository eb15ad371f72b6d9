"""The web page's errors: what stops the page from being served, in words a user understands.

ArbiterError (rules.errors)
└── WebError    the page cannot be served (a port in use, an address not known), or a
                request to it cannot be honoured
"""

from __future__ import annotations

from rules.errors import ArbiterError


class WebError(ArbiterError):
    """The web page cannot be served (a port in use, an unknown address)."""


__all__ = ["WebError"]
