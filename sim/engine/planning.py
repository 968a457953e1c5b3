"""What a strategy that plans by playing ahead needs of the engine (`search`, docs/strategies.md "The
search player"): a full state rebuilt from its observation with the hidden cards dealt at random, the
hand played on from a decision and scored, a state to do it in, and the strategy functions of the
rollouts as values compiled code can hold. Strategies import `sim.engine.contract`, this module and
`sim.engine.rulehelp`, nothing else of the engine (tests/strategies/test_strategy_imports.py).

Every name is the engine's own, re-exported unchanged, so a rollout plays exactly as the game does. Why
each is here:

* `sample_nb(R, obs, S, seed)`: a determinization of `obs` into S (`sample.py`); S.st[S_ERR] is set when
  no state matches;
* `resume_hand_nb(R, S, F, seat, dp, i)`: the hand played on from option i of S.opts at decision point dp
  and scored (`game.py`), with the function table F;
* `new_state(R)`: a state sized for the variant (`state.py`), allocated in compiled code as in Python;
* `function_value(fn)`: a strategy function as a value a cached kernel can put in F (`jit.py`);
* the layout a rollout reads and writes: `MAXF` functions in F, a seat's function and base slots
  (`HC_FN`, `HC_FNB` in S.hand), the error flag `S_ERR` in S.st, and a side's hand score
  (`SD_COMP + C_TOTAL` in S.side).
"""

from .game import resume_hand_nb
from .jit import function_value
from .layout import C_TOTAL, HC_FN, HC_FNB, MAXF, S_ERR, SD_COMP
from .sample import sample_nb
from .state import new_state

__all__ = ["C_TOTAL", "HC_FN", "HC_FNB", "MAXF", "SD_COMP", "S_ERR", "function_value", "new_state",
           "resume_hand_nb", "sample_nb"]
