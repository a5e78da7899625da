"""What a win-chance analysis costs per title, for ``gamerec bench``.

For a title with a value model (``analyse``'s default method then), one whole analysis of a
simulated game (greedy agents, the smallest player count) at ``analyse``'s default settings is
timed in CPU seconds of this process (:func:`bench_value`); loading the model (once per process)
is timed apart.

Rollouts (the method of titles without a model, and ``--method rollouts``) are measured by their
throughput:

For each title one typical game is simulated (greedy agents, the smallest
player count), its turn starts are taken as ``gamerec analyse`` takes them,
and every few of them ``rollouts`` rollouts are timed in CPU seconds of this
process (``time.process_time``: robust to a machine shared with other work).
Rollouts from early positions are long and from late ones short, so the
sampled positions spread over the whole game and the rate is their total.

The estimated time of a whole analysis is the number of positions times 64
rollouts, plus the alternatives at three turning points (six moves, 64
rollouts each), at that rate, on one core.
"""

from __future__ import annotations

import time
from typing import Any

from replay.analysis import ROLLOUTS, Settings, analyse, positions, rollout_seed, rollouts
from replay.evaluator import load_model
from replay.games import available, get_game
from replay.simulate import simulate_one

ANALYSE_ROLLOUTS = 64
EXPLAIN_ROLLOUTS = 3 * 6 * ANALYSE_ROLLOUTS


def bench_rollouts(game_id: str, agent: str = "greedy", samples: int = 8, per_position: int = 8,
                   seed: int = 1) -> dict[str, Any]:
    """Rollouts/s (CPU) of ``agent`` over ``samples`` positions spread over one simulated game."""
    game = get_game(game_id)
    n = game.min_players
    record = simulate_one(game, n, seed, 0, observe_every=0, agents=["greedy"] * n)
    chart, _ = positions(record, "turns")
    chart = [p for p in chart if p.mover is not None]
    step = max(1, len(chart) // samples)
    picked = chart[::step][:samples]
    settings = Settings(rollouts=per_position, agent=agent, method=ROLLOUTS)
    done = 0
    t0 = time.process_time()
    for pos in picked:
        seeds = [rollout_seed(record.id, pos.seq, i, settings.agent, "bench") for i in range(per_position)]
        rollouts(pos.state, seeds, settings.agent)
        done += per_position
    cpu = time.process_time() - t0
    rate = done / cpu if cpu else 0.0
    whole = (len(chart) * ANALYSE_ROLLOUTS + EXPLAIN_ROLLOUTS) / rate if rate else 0.0
    return {"game": game_id, "agent": agent, "players": n, "positions": len(chart), "rollouts": done,
            "cpu_s": cpu, "rollouts_per_s": rate, "analyse_s": whole}


def bench_value(game_id: str, seed: int = 1) -> dict[str, Any]:
    """CPU seconds of one whole ``analyse`` (default settings: the value model) of a simulated game."""
    game = get_game(game_id)
    n = game.min_players
    record = simulate_one(game, n, seed, 0, observe_every=0, agents=["greedy"] * n)
    t0 = time.process_time()
    load_model(game_id)  # once per process (LightGBM's import, the model's parse): timed apart
    t1 = time.process_time()
    a = analyse(record, Settings())
    cpu = time.process_time() - t1
    return {"game": game_id, "players": n, "positions": len(a.positions), "cpu_s": cpu, "load_s": t1 - t0,
            "method": a.settings.method, "turning_points": len(a.turning_points)}


def run(quick: bool, titles: list[str] | None = None) -> list[dict[str, Any]]:
    """Rows for ``gamerec bench``'s table (metric, value, unit, detail)."""
    samples, per = (4, 4) if quick else (8, 8)
    out = []
    for gid in titles or available():
        if load_model(gid) is not None:
            v = bench_value(gid)
            out.append({"metric": f"analyse {gid} (value model)", "value": v["cpu_s"], "unit": "s CPU",
                        "detail": f"a whole game at analyse's defaults: {v['players']} players, {v['positions']} "
                                  f"turn starts, {v['turning_points']} turning points, on one core (target ≤ 10 s; "
                                  f"loading the model, once per process: {v['load_s']:.1f} s)"})
        for agent in ("greedy", "random"):
            r = bench_rollouts(gid, agent, samples, per)
            out.append({"metric": f"analyse {gid} ({agent} rollouts)", "value": r["rollouts_per_s"],
                        "unit": "rollouts/s",
                        "detail": f"{r['players']} players, {r['positions']} turn starts: a whole game at "
                                  f"{ANALYSE_ROLLOUTS} rollouts + alternatives ≈ {r['analyse_s']:.0f} s on one core"})
    return out
