"""Classic stays exactly the same: game rows, hand rows and a transcript of every Classic preset,
recorded before the engine was reshaped (tests/golden/generate.py), compared bit for bit.

Columns added to the results later are not in the golden files; every golden column must match.
"""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

from tests.golden.generate import SCENARIOS, frames, transcript_lines

GOLDEN = Path(__file__).parent / "golden"
CASES = [(p, *s) for p, scenarios in SCENARIOS.items() for s in scenarios]


@pytest.mark.parametrize("preset,name,strategies,seed,games", CASES, ids=[f"{c[0]}-{c[1]}" for c in CASES])
def test_golden_game_and_hand_rows_are_unchanged(preset, name, strategies, seed, games):
    g, h = frames(preset, strategies, seed, games)
    for got, kind in ((g, "games"), (h, "hands")):
        want = pd.read_parquet(GOLDEN / f"{preset}-{name}-{kind}.parquet")
        assert len(got) == len(want)
        for col in want.columns:
            assert col in got.columns, f"{kind} column {col} is gone"
            assert (got[col].astype(str).to_numpy() == want[col].astype(str).to_numpy()).all(), \
                f"{preset} {name}: {kind} column {col} differs"


@pytest.mark.parametrize("preset", list(SCENARIOS))
def test_golden_transcript_is_unchanged(preset):
    want = [json.loads(x) for x in (GOLDEN / f"{preset}-transcript.jsonl").read_text().splitlines()]
    got = [json.loads(x) for x in transcript_lines(preset)]
    assert len(got) == len(want)
    for i, (a, b) in enumerate(zip(got, want, strict=True)):
        # fields may be added to events (never renamed): every golden field must be there, equal
        for k, v in b.items():
            if k == "rules":  # the rules record may gain keys; every golden rule keeps its value
                assert all(a["rules"].get(rk) == rv for rk, rv in v.items()), f"event {i}: rules differ"
            else:
                assert a.get(k) == v, f"event {i} ({b['event']}): field {k} differs"
