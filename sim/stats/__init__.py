"""Statistics, split by concern, none of which knows how games are played:

* `intervals`: win rates with Wilson intervals, t intervals, moments summed block by block, and the one
  confidence level (CONFIDENCE) every command reports;
* `pairs`: head to head over duplicate deals (the per-deal score and margin, Elo, p value);
* `sequential`: the batched sequential probability ratio test and its bias-corrected estimate;
* `ranking`: a round robin's Elo ranking and Holm's correction.

Everything public is importable from `sim.stats` itself."""

from .intervals import (  # noqa: F401
    CONFIDENCE,
    TWO_SIDED,
    Moments,
    fmt_interval,
    long_form,
    mean_interval,
    wilson,
    win_rates,
)
from .pairs import (  # noqa: F401
    ELO_SCALE,
    HALF,
    DealStats,
    PairValues,
    elo_from_score,
    head_to_head,
    pair_values,
    paired_difference,
    score_from_elo,
    summarize_pairs,
)
from .ranking import (  # noqa: F401
    ALPHA_HOLM,
    ELO_CAP,
    ELO_PER_LOGIT,
    RANK_TOLERANCE,
    TIE_SE,
    elo_ranking,
    holm,
)
from .sequential import (  # noqa: F401
    BRACKET_TRIES,
    CONTINUE_CODE,
    CORRECTION_CHUNK,
    CORRECTION_PATHS,
    CORRECTION_SEED,
    CORRECTION_XTOL,
    DEFAULT_ERROR_RATE,
    H0_CODE,
    H1_CODE,
    MAX_ERROR_RATE,
    NO_BUDGET_FACTOR,
    SPRT_FORMS,
    SPRT_KINDS,
    VAR_FLOOR,
    SprtSpec,
    parse_sprt,
    sprt_batches,
    sprt_bounds,
    sprt_estimate,
    sprt_llr,
    sprt_run,
    sprt_status,
    sprt_values,
)
