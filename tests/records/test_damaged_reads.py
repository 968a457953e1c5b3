"""Issue 36: reading back a run or a command's output (sim.read, sim.load) with a file whose data pages are damaged
under an intact footer raises ResultsError, one line naming the file and what to do, and changes nothing."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from sim import ResultsError, load, read
from tests.damage import damage_pages, parts, run_folder, snapshot, write_folders


@pytest.fixture(scope="module")
def written(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    return write_folders(tmp_path_factory.mktemp("damaged"))


def refused(reader: Callable[[Path], object], path: Path, folder: Path, damaged: Path, remedy: str) -> None:
    """`reader(path)` refused with one line naming `damaged` and saying `remedy`; every file of `folder` as it was."""
    before = snapshot(folder)
    with pytest.raises(ResultsError) as exc:
        reader(path)
    line = str(exc.value)
    assert "\n" not in line and f"{str(damaged)!r} is damaged (its data cannot be read)" in line, line
    assert remedy in line, line
    assert snapshot(folder) == before


PLAY_AGAIN = "run the same command again to play"


READS = [("play", False), ("play", True), ("compare", False), ("sweep", False)]  # play records the hands


@pytest.mark.parametrize("command,hands", READS, ids=[f"{c}-{'hands' if h else 'games'}" for c, h in READS])
def test_a_part_with_damaged_pages_is_refused_in_one_line_by_read(command: str, hands: bool,
                                                                  written: dict[str, Path], tmp_path: Path) -> None:
    folder = tmp_path / command
    shutil.copytree(written[command], folder)
    run = run_folder(folder)
    part = parts(run, hands)[-1]
    damage_pages(part)
    # a compare folder reads as its one run; a sweep's rows are read one by one
    refused(read, run if command == "sweep" else folder, folder, part, PLAY_AGAIN)


def test_a_results_file_with_damaged_pages_is_refused_in_one_line_by_read(written: dict[str, Path],
                                                                          tmp_path: Path) -> None:
    folder = tmp_path / "compare"
    shutil.copytree(written["compare"], folder)
    table = folder / "pairs.parquet"
    damage_pages(table, "win_rate")
    refused(read, table, folder, table, "run the command that wrote it again to write it anew")


TABLES = [("play", None), ("compare", "pairs.parquet"), ("tournament", "pairs.parquet"),
          ("tournament", "matrix.parquet"), ("tournament", "ranking.parquet"), ("sweep", "sweep.parquet"),
          ("profile", "profile.parquet")]


@pytest.mark.parametrize("command,table", TABLES, ids=[f"{c}-{t or 'part'}" for c, t in TABLES])
def test_an_output_folder_with_damaged_pages_is_refused_in_one_line_by_load(command: str, table: str | None,
                                                                           written: dict[str, Path],
                                                                           tmp_path: Path) -> None:
    folder = tmp_path / command
    shutil.copytree(written[command], folder)
    damaged = folder / table if table else parts(folder)[0]
    damage_pages(damaged)
    remedy = "run the same command again to write it anew" if table else PLAY_AGAIN
    refused(load, folder, folder, damaged, remedy)
