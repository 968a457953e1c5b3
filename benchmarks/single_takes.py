"""Where `learned` takes a pile of one card at Buraco, against where `expert` does, and how useful the card is.

    python benchmarks/single_takes.py [--variant buraco-2p] [--games 100] [--seed 7]

Plays `learned` at its installed setting on every seat and, at each draw with a pile of one card it may take, asks
the same network what it would play with `single=net` (every such take open to it) and what `expert` plays. Counts
the four cases, and the takes only the network makes by the card's use to the hand: a wild; a card that fits a
meld of the side (strategies.buraco.fits_side_nb); a card with some use by expert's discard scorer's measure
(strategies.buraco.hand_use_nb above 0); no use. A take of a card of no use is a pass in effect: the card, or
another of no use, goes back on the pile (docs/strategies.md, "Labels by the network itself").
"""

from __future__ import annotations

import argparse
import collections

from sim.analysis import selfplay as SP
from sim.engine import contract as C
from sim.engine import layout as L
from sim.rules import get_variant, pack
from strategies import REGISTRY
from strategies import learned as LN
from strategies.buraco import fits_side_nb, hand_use_nb


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variant", default="buraco-2p")
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args()
    v = get_variant(args.variant)
    if v.name not in LN.NET_SCOPES or not SP.single_acts(v.name):
        accepted = [n for n in LN.NET_SCOPES if SP.single_acts(n)]
        raise SystemExit(f"{v.name}: not a Buraco preset with a network of its own; accepted: {', '.join(accepted)}")
    R = pack(v)
    W = LN.NETS[LN.NET_SCOPES.index(v.name)]
    prm_net = REGISTRY["learned"].choice(single="net").at(v).params
    cases: collections.Counter = collections.Counter()
    uses: collections.Counter = collections.Counter()
    for tr, tro, _, _, _ in SP.traced_chunks(v, REGISTRY["learned"].choice(), args.games, args.seed):
        for j in range(tr.shape[0]):
            obs = tr[j, L.T_OBS:].copy()
            if obs[C.OB_DP] != C.DP_DRAW or obs[C.OB_PILE_N] != 1:
                continue
            n, o0 = int(tr[j, L.T_N]), int(tr[j, L.T_OPT0])
            opts = tro[o0:o0 + n].copy()
            takes = [i for i in range(n) if C.option_kind(opts, i) == C.O_TAKE]
            if not takes:
                continue
            t = int(LN.teacher_choice_nb(R, obs, opts, n, prm_net))
            a = int(LN.learned_choice_nb(R, obs, opts, n, prm_net, W))
            cases[(t in takes, a in takes)] += 1
            if a in takes and t not in takes:
                k = obs[C.OB_PILE_TOP]
                if C.card_rank(k) in (C.RK_2, C.RK_JK):
                    uses["wild"] += 1
                elif fits_side_nb(obs, obs[C.OB_SIDE], k):
                    uses["fits a meld of the side"] += 1
                else:
                    uses["some use" if hand_use_nb(obs, k) > 0 else "no use"] += 1
    total = sum(cases.values())
    print(f"{v.name}, {args.games} games of learned (seed {args.seed}): {total:,} draws at a pile of one card")
    for (t, a), c in sorted(cases.items()):
        print(f"  expert {'takes' if t else 'draws'}, the network (single=net) {'takes' if a else 'draws'}: {c:,}")
    print("  the network's takes that expert does not make, by the card: "
          + ", ".join(f"{k} {c:,}" for k, c in uses.most_common()))


if __name__ == "__main__":
    main()
