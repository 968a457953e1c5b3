"""Issue 9: the same job on a Dask cluster gives the same games as on this machine."""

from __future__ import annotations

import subprocess
import sys

import pandas as pd
import pytest

from tests.conftest import HANG_SECONDS

distributed = pytest.importorskip("distributed")


@pytest.fixture(scope="module")
def cluster():
    from distributed import LocalCluster

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as c:
        yield c


def test_a_run_on_a_dask_cluster_gives_the_games_of_a_local_run(cluster, tmp_path):
    from sim import play

    local = play("classic-4p", ["baseline", "random"], 600, 11, workers=1)
    remote = play("classic-4p", ["baseline", "random"], 600, 11, scheduler=cluster.scheduler_address,
                  out=tmp_path / "r")
    pd.testing.assert_frame_equal(local.games, remote.games, check_categorical=False)
    assert remote.meta["sessions"][0]["workers"] == "dask"


def test_compare_on_a_cluster_from_the_command_line(cluster, tmp_path):
    args = ["compare", "classic-2p", "-s", "baseline", "-s", "freezer", "--games", "400", "--seed", "2", "--quiet"]
    run = [sys.executable, "-m", "sim.cli", *args]
    here = subprocess.run(run, capture_output=True, text=True)
    there = subprocess.run([*run, "--scheduler", cluster.scheduler_address], capture_output=True, text=True)
    assert here.returncode == there.returncode == 0, there.stderr
    assert here.stdout == there.stdout


def test_a_tuned_strategy_registered_only_here_plays_on_the_cluster(cluster):
    """Issue 10: a saved tuned strategy (a relative of a built-in) carries its knobs to workers that
    never ran its file, so it plays there the games it plays here."""
    from sim import play
    from strategies import REGISTRY, register

    name = "tuned-for-dask-test"
    if name not in REGISTRY:
        register(REGISTRY["baseline"].with_defaults(name, "a test relative", freeze=15, hold_black3="throw"))
    try:
        local = play("classic-4p", [name, "baseline"], 200, 12, workers=1)
        remote = play("classic-4p", [name, "baseline"], 200, 12, scheduler=cluster.scheduler_address)
    finally:
        REGISTRY.pop(name, None)  # other tests see the library as shipped
    pd.testing.assert_frame_equal(local.games, remote.games, check_categorical=False)
    assert (local.games["strategy_0"].astype(str) + local.games["strategy_1"].astype(str)).str.contains(name).all()


def test_workers_running_other_engine_sources_are_refused(cluster, monkeypatch):
    from sim.engine import sources
    from sim.run.runner import SchedulerError, dask_client

    monkeypatch.setattr(sources, "source_hash", lambda root=None: "0123456789abcdef")
    with pytest.raises(SchedulerError, match="runs other engine sources"):
        dask_client(cluster.scheduler_address)


def test_an_unreachable_scheduler_is_one_line_before_any_game(tmp_path):
    r = subprocess.run([sys.executable, "-m", "sim.cli", "compare", "classic-2p", "-s", "baseline", "-s", "random",
                        "--games", "10", "--seed", "1", "--scheduler", "tcp://127.0.0.1:9", "--out",
                        str(tmp_path / "c" / "r"), "--quiet"], capture_output=True, text=True,
                       timeout=HANG_SECONDS)
    lines = [x for x in r.stderr.splitlines() if x.strip()]
    assert r.returncode == 2 and len(lines) == 1 and "cannot reach the Dask scheduler" in lines[0], r.stderr
    assert not (tmp_path / "c").exists()  # nothing made, nothing written
