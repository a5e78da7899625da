"""Hand-made Pax Pamir BGA logs for tests (the project's own fixtures, in BGA's notification shapes).

:class:`PaxLog` writes packets the way BGA's ``paxpamir`` module sends them
(see ``../shared/rules/pax-pamir-bga-log.md``); :func:`opening_game` is a
short two-player game: loyalties, one turn each, the cleanups' shifts and
draws.  Every card of the opening market is named somewhere in it.
"""

from __future__ import annotations

from typing import Any

ANN, BOB = 91000001, 91000002
TABLE = 5550001
NAMES = {ANN: "Ann", BOB: "Bob"}

OPENING = {(0, 0): 5, (0, 1): 16, (0, 2): 90, (0, 3): 44, (0, 4): 60, (0, 5): 17,
           (1, 0): 24, (1, 1): 26, (1, 2): 43, (1, 3): 45, (1, 4): 56, (1, 5): 57}
"""The opening market of :func:`opening_game` (all court cards: piles 1 and 2 can give them)."""


class PaxLog:
    """Builds a log: ``packet(...)`` of notifications made with ``n(...)``."""

    def __init__(self) -> None:
        self.packets: list[dict[str, Any]] = []
        self._uid = 0
        self.courts: dict[int, list[int]] = {}
        """Player -> BGA's numbers (``state``) of the cards played to their court."""

    def n(self, type_: str, log: str = "", player: int | None = None, **args: Any) -> dict[str, Any]:
        self._uid += 1
        if player is not None:
            args.update(player_name=NAMES[player], tkn_playerName=NAMES[player], playerId=player)
        return {"uid": f"u{self._uid:05d}", "type": type_, "log": log, "args": args}

    def state(self, sid: int, active: int, **args: Any) -> dict[str, Any]:
        return self.n("gameStateChange", id=sid, active_player=str(active), type="activeplayer",
                      args=args or None, reflexion={"total": {str(ANN): None, str(BOB): None}})

    def packet(self, *notifs: dict[str, Any]) -> dict[str, Any]:
        k = len(self.packets) + 1
        p = {"channel": f"/table/t{TABLE}", "table_id": TABLE, "packet_id": str(k), "packet_type": "resend",
             "move_id": str(k), "time": str(1790000000 + 30 * k), "data": list(notifs)}
        self.packets.append(p)
        return p

    def envelope(self) -> dict[str, Any]:
        return {"status": 1, "data": {"players": [{"id": str(p), "name": NAMES[p], "color": "000000"}
                                                  for p in (ANN, BOB)], "logs": self.packets}}

    # ---- notifications in BGA's shapes -----------------------------------------------

    def loyalty(self, player: int, coalition: str) -> dict[str, Any]:
        return self.n("changeLoyalty", "${tkn_playerName} sets loyalty to ${tkn_coalitionName} ${tkn_coalition}",
                      player, coalition=coalition, tkn_coalition=coalition, tkn_coalitionName=coalition)

    def purchase(self, player: int, card: int, row: int, col: int, received: int = 0,
                 paid: list[tuple[int, int, int]] = ()) -> dict[str, Any]:  # type: ignore[assignment]
        return self.n("purchaseCard", "${tkn_playerName} purchases ${tkn_cardName} from the market", player,
                      receivedRupees=received, card={"id": f"card_{card}", "location": f"market_{row}_{col}"},
                      marketLocation=f"market_{row}_{col}", newLocation=f"hand_{player}",
                      tkn_largeCard=f"card_{card}",
                      rupeesOnCards=[{"row": r, "column": c, "cardId": f"card_{k}", "rupeeId": f"rupee_{i + 1}"}
                                     for i, (r, c, k) in enumerate(paid)])

    def play(self, player: int, card: int, side: str = "left") -> dict[str, Any]:
        """BGA numbers the first card of a court 0, a card played to the left end one below the
        lowest, one played to the right end one above the highest."""
        court = self.courts.setdefault(player, [])
        state = 0 if not court else min(court) - 1 if side == "left" else max(court) + 1
        court.append(state)
        return self.n("playCard", "${tkn_playerName} plays ${tkn_cardName}", player,
                      card={"id": f"card_{card}", "location": f"court_{player}", "state": state},
                      side=side, bribe=False, i18n=["side"])

    def tribe(self, player: int, region: str, cylinder: int) -> dict[str, Any]:
        return self.n("placeCylinder", "${tkn_playerName} places ${tkn_cylinder} in ${tkn_regionName}", player,
                      move={"from": f"cylinders_{player}", "to": f"tribes_{region}",
                            "tokenId": f"cylinder_{player}_{cylinder}"})

    def ruler(self, player: int, region: str, old: int | None, new: int | None) -> dict[str, Any]:
        return self.n("changeRuler", "${tkn_playerName} becomes ruler of ${tkn_regionName}", player,
                      region=region, oldRuler=old, newRuler=new)

    def pass_(self, player: int) -> dict[str, Any]:
        return self.n("pass", "${tkn_playerName} passes", player)

    def shift(self, card: int, frm: tuple[int, int], to: tuple[int, int]) -> dict[str, Any]:
        return self.n("shiftMarket", move={"cardId": f"card_{card}", "from": f"market_{frm[0]}_{frm[1]}",
                                           "to": f"market_{to[0]}_{to[1]}"})

    def draw(self, player: int, card: int, row: int, col: int) -> dict[str, Any]:
        return self.n("drawMarketCard", "${tkn_playerName} draws a new card for the market", player,
                      cardId=f"card_{card}", to=f"market_{row}_{col}", tkn_largeCard=f"card_{card}")


def setup(log: PaxLog) -> None:
    """Seats choose loyalty 1, 2; the last chooser (Bob) starts."""
    log.packet(log.state(2, ANN))
    log.packet(log.loyalty(ANN, "russian"), log.state(2, BOB))
    log.packet(log.loyalty(BOB, "afghan"), log.state(20, BOB, remainingActions=2, usedCards=[]))


def opening_game() -> PaxLog:
    """Bob buys and plays Shah Shujah Durrani (a tribe in Kabul: he rules it) and passes; Ann buys
    Ranjit Singh and passes.  Each cleanup shifts a row and draws one card (unfinished table)."""
    log = PaxLog()
    setup(log)
    log.packet(log.purchase(BOB, 5, 0, 0), log.state(20, BOB, remainingActions=1, usedCards=[]))
    log.packet(log.play(BOB, 5, side="right"), log.tribe(BOB, "kabul", 3), log.ruler(BOB, "kabul", None, BOB),
               log.state(20, BOB, remainingActions=0, usedCards=[]))
    log.packet(log.pass_(BOB), log.n("shiftMarketMessage", "${tkn_playerName} moves cards in the market left", BOB),
               *(log.shift(OPENING[(0, c)], (0, c), (0, c - 1)) for c in range(1, 6)),
               log.draw(BOB, 32, 0, 5), log.state(20, ANN, remainingActions=2, usedCards=[]))
    log.packet(log.purchase(ANN, 24, 1, 0), log.state(20, ANN, remainingActions=1, usedCards=[]))
    log.packet(log.pass_(ANN), log.n("shiftMarketMessage", "${tkn_playerName} moves cards in the market left", ANN),
               *(log.shift(OPENING[(1, c)], (1, c), (1, c - 1)) for c in range(1, 6)),
               log.draw(ANN, 33, 1, 5), log.state(20, BOB, remainingActions=2, usedCards=[]))
    return log
