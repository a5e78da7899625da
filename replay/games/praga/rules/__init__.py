"""Praga's rules, one module per part of the rulebook; importing this package registers every step."""

from __future__ import annotations

from . import (
           actions,
           bridge,
           crane,
           effects,
           free_actions,
           grids,
           placement,
           plazas,
           production,
           setup,
           technologies,
           turn_end,
)

__all__ = ["actions", "bridge", "crane", "effects", "free_actions", "grids", "placement", "plazas", "production",
           "setup", "technologies", "turn_end"]
