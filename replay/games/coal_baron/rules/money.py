"""Money spaces (rules 6.5): ``bank_3``..``bank_6`` and the 1-franc bank."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..components import SPACES

if TYPE_CHECKING:
    from ..state import CoalBaronState


def take_money(st: CoalBaronState, player: str, space: str) -> None:
    """Gain the francs printed on the space."""
    st.pits[player].francs += SPACES[space].value
