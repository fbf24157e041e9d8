"""Confidence intervals of a share: how sure a count of wins out of deals is."""

from __future__ import annotations

import math


def wilson(won: int, played: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval (95% for z = 1.96) of the share won, as fractions."""
    if not played:
        return (0.0, 1.0)
    p = won / played
    centre = p + z * z / (2 * played)
    spread = z * math.sqrt(p * (1 - p) / played + z * z / (4 * played * played))
    scale = 1 + z * z / played
    return (max(0.0, (centre - spread) / scale), min(1.0, (centre + spread) / scale))
