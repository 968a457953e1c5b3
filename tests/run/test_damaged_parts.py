"""Issue 36: a part file whose data pages are damaged under an intact footer is refused in one line, exit status 2,
when its run is resumed or extended, by every command that writes run folders: before any game is played, and with
nothing in the folder removed or changed. The footer alone does not show such damage (nor the columns a resumption
sums), so the parts are decoded whole when a run is opened to be written into."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from sim.cli import main
from sim.run.store import HANDS_DIR
from tests.damage import COMMANDS, GAMES, command_line, damage_pages, parts, run_folder, snapshot, write_folders

Capture = pytest.CaptureFixture[str]


@pytest.fixture(scope="module")
def written(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    return write_folders(tmp_path_factory.mktemp("damaged"))


@pytest.fixture
def no_game(monkeypatch: pytest.MonkeyPatch) -> None:
    """Playing a single game fails the test."""

    def play(*args: object, **kwargs: object) -> None:
        raise AssertionError("a game was played")

    monkeypatch.setattr("sim.run.experiment.iter_chunks", play)


def copy(written: dict[str, Path], command: str, tmp_path: Path) -> tuple[Path, Path]:
    """A copy of `command`'s output folder, and its run folder."""
    folder = tmp_path / command
    shutil.copytree(written[command], folder)
    return folder, run_folder(folder)


def refused(argv: list[str], folder: Path, part: Path, capsys: Capture) -> str:
    """`argv` refused in one line naming `part`, exit status 2, nothing printed on standard output, and every file
    of `folder` as it was."""
    before = snapshot(folder)
    capsys.readouterr()
    assert main(argv) == 2
    out, err = capsys.readouterr()
    lines = [x for x in err.splitlines() if x.strip()]
    assert len(lines) == 1 and out == "", (out, err)
    line = lines[0]
    assert line.startswith("canasta-lab: error: ") and f"{str(part)!r} is damaged (its data cannot be read)" in line
    assert "run the same command again to play" in line, line
    assert snapshot(folder) == before  # nothing removed, nothing written
    return line


CASES = [*((command, False) for command in COMMANDS), ("play", True), ("profile", True)]


@pytest.mark.parametrize("command,hands", CASES, ids=[f"{c}{'-hands' if h else ''}" for c, h in CASES])
def test_a_part_with_damaged_pages_is_refused_in_one_line_on_resume(command: str, hands: bool,
                                                                   written: dict[str, Path], tmp_path: Path,
                                                                   capsys: Capture, no_game: None) -> None:
    folder, run = copy(written, command, tmp_path)
    parts(run)[-1].unlink()  # stopped before its last chunk's games part (play and profile keep its hands part)
    part = parts(run, hands)[0]
    damage_pages(part, None if hands else "decisions")  # a column the resumption's sums do not read
    line = refused(command_line(command, folder, 2 * GAMES), folder, part, capsys)
    if hands:  # a hands part goes with its games part
        assert str(run / part.name) in line and HANDS_DIR not in str(run / part.name)


@pytest.mark.parametrize("command", ["play", "compare"])
def test_a_part_with_damaged_pages_is_refused_in_one_line_when_the_run_is_extended(command: str,
                                                                                  written: dict[str, Path],
                                                                                  tmp_path: Path, capsys: Capture,
                                                                                  no_game: None) -> None:
    folder, run = copy(written, command, tmp_path)
    part = parts(run)[-1]
    damage_pages(part, "winner_side")
    refused(command_line(command, folder, 4 * GAMES), folder, part, capsys)
