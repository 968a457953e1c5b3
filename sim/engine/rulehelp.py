"""Rule helpers a strategy may call: the engine's own answers to the questions of the rules that a
strategy asks about its observation, so that a strategy never writes a rule again and never drifts
from it. Strategies import `sim.engine.contract`, this module and `sim.engine.planning`, nothing else
of the engine (docs/strategies.md; tests/strategies/test_strategy_imports.py checks it).

Every name is the engine's own function or constant, re-exported unchanged, so the strategy compiles
the very code the engine plays. Why each is here:

* card classes (`cards.py`): a wild rank, a black or red three, a rank a rank meld can be of: the
  heuristic scores discards and openings by them;
* the going-out search on a work area loaded from the observation (`gosearch.py`, `gorules.py`): the heuristic plans
  its going out with the engine's exact search, so `go_out=asap` never misses a legal going out. The
  work area's layout (`W_*`, `W_LEN` words) is the search's input; `close_at_cap_nb` closes a meld at
  its cap in it (Pennies, Railroad) and `kinds_to_go_out_nb` gives the canasta kinds going out needs;
* meld composition (`meldtable.py`): the room a rank meld has for wilds, the kind of canasta a meld
  completes, the kinds whose canasta brings a player's foot;
* the most value a hand can meld (`opening.py`): the heuristic's opening plan.
"""

from .cards import is_black3_nb, is_natural_meld_rank_nb, is_red3_nb, is_wild_rank_nb
from .gorules import kinds_to_go_out_nb
from .gosearch import (
    W_BAN,
    W_FORBID,
    W_HAVE,
    W_LEN,
    W_MEX,
    W_MN,
    W_MW,
    W_TH,
    can_go_out_w_nb,
    close_at_cap_nb,
)
from .meldtable import completed_kind_nb, foot_kinds_nb, wild_room_nb
from .opening import max_meld_value_nb

__all__ = [
    "W_BAN", "W_FORBID", "W_HAVE", "W_LEN", "W_MEX", "W_MN", "W_MW", "W_TH",
    "can_go_out_w_nb", "close_at_cap_nb", "completed_kind_nb", "foot_kinds_nb", "is_black3_nb",
    "is_natural_meld_rank_nb", "is_red3_nb", "is_wild_rank_nb", "kinds_to_go_out_nb", "max_meld_value_nb",
    "wild_room_nb",
]
