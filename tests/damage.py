"""Damaged files for the tests of issue 36: a Parquet file whose data pages are overwritten while its header and
footer stay intact (what a bad disk sector or a botched copy leaves), every output folder a command writes, and a
snapshot of a folder's bytes to show that a refusal changed nothing."""

from __future__ import annotations

import random
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from sim.cli import main
from sim.run.store import HANDS_DIR, PART_RE, RUN_FILE

PAGE_BYTES = 64  # overwritten with random bytes, from the start of the column's first data page


def damage_pages(path: Path, column: str | None = None) -> None:
    """Overwrite PAGE_BYTES of `column`'s data page (the middle column by default) with random bytes, keeping the
    file's header and its footer: the footer still reads (its schema, row count and statistics), and only decoding
    that column fails, with OSError or ArrowInvalid."""
    md = pq.read_metadata(path)
    names = [md.schema.column(i).path for i in range(md.num_columns)]
    chunk = md.row_group(0).column(names.index(column) if column else md.num_columns // 2)
    data = bytearray(path.read_bytes())
    start = chunk.data_page_offset
    footer = len(data) - 8 - md.serialized_size
    assert 4 <= start and start + PAGE_BYTES <= footer, (start, footer)
    data[start:start + PAGE_BYTES] = random.Random(36).randbytes(PAGE_BYTES)
    path.write_bytes(bytes(data))
    assert pq.read_metadata(path).num_rows == md.num_rows  # the footer is intact
    with pytest.raises((OSError, pa.ArrowException)):  # the data is not
        pq.read_table(path)


def snapshot(folder: Path) -> dict[str, bytes]:
    """Every file under `folder`, by relative path, with its bytes."""
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def command_line(command: str, out: Path, games: int) -> list[str]:
    """`command` writing `out` with `games` games (per pair, per row); play records the hands."""
    tail = ["--games", str(games), "--seed", "1", "--out", str(out), "--quiet"]
    return {
        "play": ["play", "classic-2p", "-s", "baseline", "-s", "random", "--hands", *tail],
        "compare": ["compare", "classic-2p", "-s", "baseline", "-s", "random", *tail],
        "tournament": ["tournament", "classic-2p", "baseline", "random", *tail],
        "sweep": ["sweep", "classic-2p", "-s", "baseline", "--vs", "random", "--grid", "min_pile=1,2", *tail],
        "profile": ["profile", "classic-2p", "-s", "baseline", "-s", "random", *tail],
    }[command]


COMMANDS = ("play", "compare", "tournament", "sweep", "profile")
GAMES = 20  # each folder is written with GAMES games, then extended to twice as many: two parts a run folder


def write_folders(root: Path) -> dict[str, Path]:
    """Each command's folder, written by the command itself (played in this process, in moments)."""
    out = {}
    for command in COMMANDS:
        out[command] = root / command
        for games in (GAMES, 2 * GAMES):
            assert main(command_line(command, out[command], games)) == 0, command
    return out


def run_folder(folder: Path) -> Path:
    """The run folder of a command's output folder: play's is the folder itself, the others' its first one."""
    if (folder / RUN_FILE).exists():
        return folder
    return sorted(e for e in folder.iterdir() if (e / RUN_FILE).exists())[0]


def parts(run: Path, hands: bool = False) -> list[Path]:
    d = run / HANDS_DIR if hands else run
    return sorted(p for p in d.iterdir() if PART_RE.match(p.name))
