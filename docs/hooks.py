"""MkDocs hooks for the documentation site (mkdocs.yml: ``hooks``).

The package's docstrings cross-reference in Sphinx's roles (``:func:`solve```,
``:class:`~spider_cli.rules.goals.Goal```), which Markdown leaves as ":func:" before the
code. On the rendered page the role is dropped and a ``~`` keeps only the last part of the
name, as Sphinx shows it.
"""

from __future__ import annotations

import re
from typing import Any

ROLE = re.compile(r":(?:func|class|meth|data|attr|mod|exc|obj):<code>(~?)([\w.]+)</code>")


def _name(match: re.Match[str]) -> str:
    short, name = match[1], match[2]
    return f"<code>{name.rsplit('.', 1)[-1] if short else name}</code>"


def on_page_content(html: str, **_: Any) -> str:
    """The page's HTML with the docstrings' Sphinx roles written as plain code."""
    return ROLE.sub(_name, html)
