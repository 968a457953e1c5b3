"""A run on disk: a folder of Parquet part files that grows as chunks of games finish.

Memory stays flat however many games a run plays (a finished chunk is written and let go), a run
stopped by Ctrl-C or a kill keeps every chunk it finished, and the same command again plays only the
games that are missing. A folder remembers what it is a run of (its identity: variant and rules,
strategies with every knob, master seed, engine source version): a folder of another run, a damaged
part or a file that is not ours is refused, so results never mix.

Layout (readers such as `pandas.read_parquet(folder)` see the games table directly, because names
starting with `_` or `.` are skipped by Parquet dataset readers)::

    RUN/_canasta_lab.json              identity, the command that wrote it, games asked for, sessions
    RUN/part-000000000-000004096.parquet   games 0..4095, one row per game
    RUN/_hands/part-....parquet        one row per hand, when the run records hands
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import tempfile
import time
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

RUN_FILE = "_canasta_lab.json"
OUTPUT_FILE = "_canasta_lab_output.json"  # which command's output a folder of tables and run folders holds
# the tables and report a command writes beside its run folders (replaced on every run)
DERIVED = ("report.md", "win_rates.png", "pairs.parquet", "ranking.parquet", "matrix.parquet", "sweep.parquet",
           "profile.parquet")
REPORT_MARK = "<!-- written by canasta-lab report -->"  # the first line of a study's report (STUDY.md)
PLAY = "play"  # the command whose --out is a run folder itself (every other one holds run folders inside)
HANDS_DIR = "_hands"
FORMAT = 1  # the folder layout's version, in the run file
PART_RE = re.compile(r"^part-(\d{9})-(\d{9})\.parquet$")
META_KEY = b"canasta_lab"


class ResultsError(ValueError):
    """A results file or folder that is missing, corrupt, or not written by this run."""


class OtherRunError(ResultsError):
    """The output folder holds the results of another run or command: refused unless `force`
    replaces them (a cache, sim.report.studies.cached, replaces them on purpose)."""


def folder_owner(p: Path) -> str | None:
    """The command whose output folder `p` is (play, compare, tournament, sweep, profile, report), or
    None for a folder no command claims: its output record (OUTPUT_FILE, written when a command
    ends), a run folder's own record, a run folder inside it (a command stopped before its end), or
    a study's report (written before reports recorded their folder)."""
    record = p / OUTPUT_FILE
    if record.is_file():
        try:
            return str(json.loads(record.read_text())["command"])
        except (ValueError, KeyError, TypeError):
            return "a command (its record is damaged)"
    if (p / RUN_FILE).is_file():
        return run_command(p) or PLAY  # a run folder from before runs named their command: play's
    if not p.is_dir():
        return None
    for e in sorted(p.iterdir()):
        if (e / RUN_FILE).is_file() and run_command(e) not in (None, PLAY):  # play's runs stand anywhere
            return run_command(e)
        if e.suffix == ".md" and _is_report(e):
            return "report"
    return None


def run_command(p: Path) -> str | None:
    """The command a run folder's record names (None: damaged, or older than the field)."""
    try:
        command = json.loads((p / RUN_FILE).read_text()).get("command")
    except (OSError, ValueError, AttributeError):
        return None
    return str(command) if command is not None else None


def _is_report(p: Path) -> bool:
    try:
        with open(p, errors="replace") as f:
            return f.readline().rstrip("\n") == REPORT_MARK
    except OSError:
        return False


def other_command(p: Path, owner: str) -> OtherRunError:
    """The one line refusing a folder another command wrote."""
    return OtherRunError(f"{str(p)!r} holds the output of canasta-lab {owner}; give another folder, or --force to "
                         "replace that output")


def claim(p: Path, command: str, force: bool) -> str | None:
    """Check, before any work, that `command` may write its output folder `p`: a folder inside a run
    folder never (a run folder holds only its own files), one that another command wrote only with
    `force`. Returns the other command whose output `force` is to replace (the caller clears it with
    clear_output once its own checks pass), or None."""
    outside_runs(p)
    owner = folder_owner(p) if p.is_dir() else None
    if owner is None or owner == command:
        return None
    if not force:
        raise other_command(p, owner)
    return owner


def outside_runs(p: Path) -> None:
    """Refuse a path inside a run folder, --force or not: a run folder holds only its own files
    (sim.records.results.read refuses one with anything else in it)."""
    for q in Path(os.path.abspath(p)).parents:
        if (q / RUN_FILE).is_file():
            raise ResultsError(f"{str(p)!r} lies inside run folder {str(q)!r} (of canasta-lab "
                               f"{run_command(q) or PLAY}), which holds only its own files; give a path outside it")


def written_by(p: Path, owner: str) -> list[Path]:
    """What canasta-lab wrote in the output folder `p` of `owner`: what --force replaces (nothing else
    is ever removed: another command's run folder nested in it, a file of the user's)."""
    out = []
    for e in p.iterdir():
        if e.name == OUTPUT_FILE or (e.name in DERIVED and e.is_file()):
            out.append(e)
        elif (p / RUN_FILE).is_file() and (_own_names(e) or e.name == HANDS_DIR):
            out.append(e)  # p is a run folder (play's)
        elif (e / RUN_FILE).is_file() and run_command(e) in (owner, None):
            out.append(e)
        elif e.suffix == ".md" and _is_report(e):
            out.append(e)  # a study's report; its charts are in the folder of its name
            charts = p / e.stem
            if charts.is_dir():
                out.append(charts)
    return out


def clear_output(p: Path, owner: str) -> None:
    """Remove what canasta-lab wrote in `owner`'s output folder `p` (written_by), nothing else."""
    for e in written_by(p, owner):
        if e.name == HANDS_DIR and e.is_dir():
            shutil.rmtree(e)
        elif (e / RUN_FILE).is_file():
            remove_run(e)
        elif e.is_dir():  # a report's charts: its images go, anything else stays
            for png in e.glob("*.png"):
                png.unlink()
            try:
                e.rmdir()
            except OSError:
                pass
        elif e.exists():
            e.unlink()


def part_name(g0: int, g1: int) -> str:
    return f"part-{g0:09d}-{g1:09d}.parquet"


def identity_key(identity: dict[str, Any]) -> str:
    """Short hash of a run's identity, stamped into every part so a part from another run is seen."""
    return hashlib.sha256(json.dumps(identity, sort_keys=True).encode()).hexdigest()[:16]


def publish(tmp: str, path: Path) -> None:
    """Give a finished temporary file the usual permissions and rename it into place atomically."""
    umask = os.umask(0)
    os.umask(umask)
    os.chmod(tmp, 0o666 & ~umask)
    os.replace(tmp, path)


@contextmanager
def atomic_file(path: Path) -> Iterator[str]:
    """A temporary name beside `path` to write to; renamed into place when the block ends without an
    error, removed otherwise. A kill leaves the whole file or none of it (a stopped run's leftover
    temporary names start with `.tmp-` and are tidied on resumption)."""
    fd, tmp = tempfile.mkstemp(prefix=".tmp-", suffix=path.suffix, dir=path.parent)
    os.close(fd)
    try:
        yield tmp
        publish(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def write_text_atomic(path: Path, text: str) -> None:
    with atomic_file(path) as tmp, open(tmp, "w") as f:
        f.write(text)


def write_json_atomic(path: Path, data: dict[str, Any]) -> None:
    write_text_atomic(path, json.dumps(data, indent=1, sort_keys=True))


def write_table(df: pd.DataFrame, meta: dict[str, Any], path: Path) -> None:
    """One Parquet file with our metadata record, written atomically."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    table = pa.Table.from_pandas(df, preserve_index=False)
    table = table.replace_schema_metadata({**(table.schema.metadata or {}),
                                          META_KEY: json.dumps(meta, default=str).encode()})
    with atomic_file(path) as tmp:
        pq.write_table(table, tmp)


def arrow_errors() -> tuple[type[Exception], ...]:
    """What pyarrow raises reading a damaged Parquet file. A cut file, or a footer that does not parse, gives
    ArrowInvalid (`Parquet magic bytes not found`) or OSError; a data page overwritten under an intact footer
    gives OSError (`Corrupt snappy compressed data`, `Unexpected end of stream`, `Couldn't deserialize thrift`
    for its page header) or ArrowInvalid (`Output buffer size ... must be ... or larger`), and only when that
    page's column is decoded: reading the footer, or other columns, does not see it."""
    import pyarrow as pa

    return (OSError, pa.ArrowException)


def damaged(path: Path, what: str) -> ResultsError:
    """The one line for a damaged part (`what`: how it shows). Its games are played again once it is gone; a
    hands part goes with its games part, the chunk's completion mark (a hands part alone is tidied away)."""
    if path.parent.name == HANDS_DIR:
        games = path.parent.parent / path.name
        return ResultsError(f"{str(path)!r} is damaged ({what}): delete it and {str(games)!r}, and run the same "
                            "command again to play their games anew")
    return ResultsError(f"{str(path)!r} is damaged ({what}): delete it and run the same command again to play its "
                        "games anew")


def release_arrow() -> None:
    """Hand back to the system what Arrow's memory pool kept from writing or reading parts (about 10 MB)."""
    import pyarrow as pa

    pa.default_memory_pool().release_unused()


def part_meta(path: Path, decode: bool = False) -> tuple[dict[str, Any], int]:
    """(our metadata record, row count) of a part, from its footer; one line if it is damaged. With `decode`,
    every page is decoded too and let go, a row group at a time: a damaged page under an intact footer shows
    only when its column is decoded (_load: about 0.3 s for the 245 parts of a million games, 4 s more for the
    1,954 hands parts of a million games with hands, docs/results.md)."""
    import pyarrow.parquet as pq

    try:
        f = pq.ParquetFile(path)
    except arrow_errors():
        raise damaged(path, "its footer cannot be read") from None
    with f:
        md = f.metadata
        raw = (md.metadata or {}).get(META_KEY)
        if raw is None:
            raise ResultsError(f"{str(path)!r} was not written by canasta-lab; a run folder holds only its own files")
        try:
            meta = json.loads(raw)
        except ValueError:  # bytes of the footer changed where our record is, the footer still parsing
            raise damaged(path, "its record cannot be read") from None
        try:
            for i in range(f.num_row_groups if decode else 0):
                f.read_row_group(i)
        except arrow_errors():
            raise damaged(path, "its data cannot be read") from None
    return meta, md.num_rows


@dataclass
class RunFolder:
    """An open run folder: the parts it holds (`done`), and `write` to add a chunk."""

    path: Path
    identity: dict[str, Any]
    record: dict[str, Any]
    done: list[tuple[int, int]]  # (first game, end) of every part, sorted
    hands: bool
    created: bool = False  # made by this process: removed again if it ends without a single part
    made_parents: list[Path] = field(default_factory=list)  # folders made for it, innermost first

    @property
    def key(self) -> str:
        return identity_key(self.identity)

    @property
    def games_done(self) -> int:
        return sum(b - a for a, b in self.done)

    def write(self, g0: int, games: pd.DataFrame, hands: pd.DataFrame | None, meta: dict[str, Any]) -> None:
        """Add one finished chunk. The hands part is written first: a games part is the chunk's
        completion mark, so a kill between the two replays the chunk rather than losing its hands."""
        g1 = g0 + len(games)
        stamp = {**meta, "run": self.key, "first_game": g0, "end_game": g1}
        if self.hands and hands is not None:
            write_table(hands, stamp, self.path / HANDS_DIR / part_name(g0, g1))
        write_table(games, stamp, self.path / part_name(g0, g1))
        self.done.append((g0, g1))
        self.done.sort()

    def start_session(self, n_games: int, session: dict[str, Any], meta: dict[str, Any]) -> None:
        """Record a session's start (machine, code version, workers) and the run's metadata record."""
        self.record["games"] = max(n_games, int(self.record.get("games", 0)))
        self.record["meta"] = meta
        self.record.setdefault("sessions", []).append({**session, "started": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
                                                       "wall_seconds": 0.0, "games_played": 0})
        write_json_atomic(self.path / RUN_FILE, self.record)

    def end_session(self, wall: float, played: int) -> None:
        s = self.record["sessions"][-1]
        s["wall_seconds"] = round(wall, 3)
        s["games_played"] = played
        total = round(sum(x["wall_seconds"] for x in self.record["sessions"]), 3)
        self.record["wall_seconds"] = total
        self.record["meta"]["wall_seconds"] = total
        self.record["meta"]["games"] = contiguous(self.done)
        write_json_atomic(self.path / RUN_FILE, self.record)

    def discard_if_empty(self) -> None:
        """A folder this process created and never wrote a part into (the first chunk failed): gone,
        so a failed command leaves nothing behind. A part on disk counts though `done` does not list it yet:
        Ctrl-C or a SIGTERM can land between a part's publishing and its listing, and that part is kept."""
        if not self.created or self.done or self._has_part():
            return
        _wipe(self.path)
        for d in [self.path, *self.made_parents]:
            try:
                d.rmdir()
            except OSError:  # something else is there (another run's folder, a report): leave it
                break

    def _has_part(self) -> bool:
        return self.path.is_dir() and any(PART_RE.match(e.name) for e in self.path.iterdir())

    def parts(self, hands: bool = False) -> list[Path]:
        d = self.path / HANDS_DIR if hands else self.path
        return [d / part_name(a, b) for a, b in self.done]

    def read(self, n_games: int | None = None, columns: Sequence[str] | None = None,
             hands: bool = False) -> pd.DataFrame:
        """Games (or hands) of games 0..n_games-1, in game order."""
        return read_parts(self.parts(hands), columns, n_games)


def read_parts(paths: Sequence[Path], columns: Sequence[str] | None, n_games: int | None = None) -> pd.DataFrame:
    import pyarrow as pa
    import pyarrow.parquet as pq

    tables = []
    for p in paths:
        try:
            t = pq.read_table(p, columns=list(columns) if columns else None)
        except arrow_errors():
            raise damaged(p, "its data cannot be read") from None
        tables.append(t.replace_schema_metadata(None))
    if not tables:
        return pd.DataFrame(columns=list(columns) if columns else None)
    df = pa.concat_tables(tables, promote_options="permissive").to_pandas()
    if n_games is not None and "game" in df:
        df = df[df["game"] < n_games].reset_index(drop=True)
    return df


def _own_names(entry: Path) -> bool:
    return entry.name == RUN_FILE or entry.name.startswith(".tmp-") or bool(PART_RE.match(entry.name))


def open_run(path: str | os.PathLike[str], identity: dict[str, Any], hands: bool, force: bool = False,
             describe: str = "", parents: bool = False, command: str = PLAY) -> RunFolder:
    """Open (or create) the run folder for `identity`, written by `command`, checking everything
    before any game is played.

    A new or empty folder starts a run; a folder of this same run resumes it. A folder of another
    run or command, a damaged part or a file that is not ours is refused with one line; `force`
    starts the run anew, removing only the files canasta-lab wrote there (never anything else)."""
    p = Path(path)
    identity = json.loads(json.dumps(identity))  # as it reads back from the run file (tuples are lists)
    other = None if (p / RUN_FILE).is_file() else claim(p, command, force)
    if other is not None:  # --force over another command's output folder: emptied of what it wrote, if all is ours
        foreign = sorted(set(p.iterdir()) - set(written_by(p, other)))
        if foreign:
            raise ResultsError(f"{str(foreign[0])!r} in {str(p)!r} was not written by canasta-lab {other}; give a "
                               "new or empty folder")
        clear_output(p, other)
    if p.exists() and not p.is_dir():
        if not (force and _is_our_file(p)):
            raise ResultsError(f"output {str(p)!r} is a file; give a folder path for the run (it is created), "
                               "or another name" + (" (--force replaces only a results file of canasta-lab)"
                                                    if force else ""))
        p.unlink()  # a single results file of an earlier version, replaced on request by its run folder
    if not p.exists():
        parent = p.parent if str(p.parent) else Path(".")
        while parents and not parent.exists() and parent != parent.parent:
            parent = parent.parent  # a command's output folder, made with its first run folder
        if not parent.is_dir():
            raise ResultsError(f"cannot create run folder {str(p)!r}: folder {str(parent)!r} does not exist")
        if not can_write_in(parent):
            raise ResultsError(f"cannot create run folder {str(p)!r}: folder {str(parent)!r} is not writable")
        return _new(p, identity, hands, command)
    if not can_write_in(p):
        raise ResultsError(f"cannot write into run folder {str(p)!r}: it is not writable")
    entries = [e for e in p.iterdir()]
    run_file = p / RUN_FILE
    foreign = [e for e in entries if e.name != HANDS_DIR and not _own_names(e)]
    if not run_file.exists():
        if foreign or any(e.name == HANDS_DIR for e in entries):
            raise ResultsError(f"{str(p)!r} already exists and is not a canasta-lab run folder; give a new or "
                               "empty folder")
        return _new(p, identity, hands, command)
    try:
        record = json.loads(run_file.read_text())
        theirs = record["identity"]
    except (ValueError, KeyError, TypeError):
        raise ResultsError(f"{str(run_file)!r} is damaged; give another folder (or --force to start the run "
                           "anew)") from None
    if record.get("command", command) != command:
        if force:
            _wipe(p)
            return _new(p, identity, hands, command)
        raise other_command(p, record["command"])
    if theirs != identity or record.get("hands", False) != hands:
        if force:
            _wipe(p)
            return _new(p, identity, hands, command)
        what = describe or "this run"
        raise OtherRunError(f"{str(p)!r} holds another run ({_difference(theirs, identity, record, hands)}) than "
                           f"{what}; give another folder, or --force to replace it")
    if foreign:
        raise ResultsError(f"{str(foreign[0])!r} in run folder {str(p)!r} is not part of the run; remove it or "
                           "give another folder")
    if force:
        _wipe(p)
        return _new(p, identity, hands, command)
    record.setdefault("command", command)  # a run from before runs named their command: this one's now
    return _load(p, identity, record, hands)


def _is_our_file(p: Path) -> bool:
    try:
        part_meta(p)
    except ResultsError:
        return False
    return True


def _difference(theirs: dict[str, Any], mine: dict[str, Any], record: dict[str, Any], hands: bool) -> str:
    for k in sorted(set(theirs) | set(mine)):
        if theirs.get(k) != mine.get(k):
            return f"different {k}"
    return "it records hands" if record.get("hands", False) else "it does not record hands"


def _new(p: Path, identity: dict[str, Any], hands: bool, command: str) -> RunFolder:
    created = not p.exists()
    made_parents = []
    q = p.parent
    while not q.exists() and q != q.parent:
        made_parents.append(q)
        q = q.parent
    p.mkdir(parents=True, exist_ok=True)
    if hands:
        (p / HANDS_DIR).mkdir(exist_ok=True)
    record = {"format": FORMAT, "identity": identity, "command": command, "hands": hands, "games": 0,
              "sessions": []}
    write_json_atomic(p / RUN_FILE, record)
    return RunFolder(p, identity, record, [], hands, created, made_parents)


def _load(p: Path, identity: dict[str, Any], record: dict[str, Any], hands: bool,
          writing: bool = True) -> RunFolder:
    """Check every part against the run (its stamp, its row count, its hands part). A run opened to be
    written into (`writing`: resumed or extended) also has every page of every part decoded, since a damaged
    page under an intact footer shows only then, and only once all is checked has what a stopped run left
    half-written removed (temporary files, hands of a chunk whose games part was never written): those games
    are simply played again. A refusal leaves the folder as it was."""
    key = identity_key(identity)
    done = []
    entries = sorted(p.iterdir())
    for e in entries:
        m = PART_RE.match(e.name)
        if not m:
            continue
        g0, g1 = int(m.group(1)), int(m.group(2))
        meta, rows = part_meta(e, decode=writing)
        if meta.get("run") != key or meta.get("first_game") != g0 or meta.get("end_game") != g1:
            raise ResultsError(f"{str(e)!r} belongs to another run; remove it or give another folder")
        if rows != g1 - g0:
            raise damaged(e, f"{rows} rows for {g1 - g0} games")
        if hands:
            h = p / HANDS_DIR / e.name
            if not h.exists():
                raise ResultsError(f"{str(e)!r} has no hands part in {HANDS_DIR}/: delete it and run the same "
                                   "command again to play its games anew")
            hmeta, _ = part_meta(h, decode=writing)  # damaged: one line naming it
            if hmeta.get("run") != key or hmeta.get("first_game") != g0 or hmeta.get("end_game") != g1:
                raise ResultsError(f"{str(h)!r} belongs to another run; remove it or give another folder")
        done.append((g0, g1))
    for (_, b), (a, _) in zip(done, done[1:], strict=False):
        if a < b:
            raise ResultsError(f"parts of {str(p)!r} overlap at game {a}; the folder was edited by hand")
    if writing:
        release_arrow()  # what decoding the parts left in Arrow's pool
        for e in entries:
            if e.name.startswith(".tmp-"):
                e.unlink()
        if hands:
            for e in (p / HANDS_DIR).iterdir():
                if e.name.startswith(".tmp-") or (PART_RE.match(e.name) and not (p / e.name).exists()):
                    e.unlink()
    return RunFolder(p, identity, record, done, hands)


def remove_run(p: Path) -> None:
    """A run folder of ours, gone; anything else in it stays (and so does the folder then)."""
    _wipe(p)
    try:
        p.rmdir()
    except OSError:
        pass


def _wipe(p: Path) -> None:
    """Remove what a run folder of ours holds (parts, hands, run file), nothing else."""
    for e in p.iterdir():
        if e.name == HANDS_DIR and e.is_dir():
            shutil.rmtree(e)
        elif _own_names(e):
            e.unlink()


def can_write_in(folder: Path) -> bool:
    """Try it: os.access says yes to root everywhere, even on read-only file systems."""
    try:
        with tempfile.TemporaryFile(dir=folder):
            return True
    except OSError:
        return False


def read_record(path: Path) -> dict[str, Any]:
    """The run file of a run folder, or one line saying why it is not one."""
    run_file = path / RUN_FILE
    if not run_file.exists():
        raise ResultsError(f"{str(path)!r} is not a canasta-lab run folder (no {RUN_FILE})")
    try:
        record = json.loads(run_file.read_text())
        record["identity"]
    except (ValueError, KeyError, TypeError):
        raise ResultsError(f"{str(run_file)!r} is damaged") from None
    return record


def load_folder(path: Path) -> RunFolder:
    """A run folder as it is on disk, checked part by part, for reading."""
    record = read_record(path)
    foreign = [e for e in path.iterdir() if e.name != HANDS_DIR and not _own_names(e)]
    if foreign:
        raise ResultsError(f"{str(foreign[0])!r} in run folder {str(path)!r} is not part of the run")
    return _load(path, record["identity"], record, bool(record.get("hands", False)), writing=False)


def contiguous(done: Iterable[tuple[int, int]]) -> int:
    """Games 0..k-1 all present: k."""
    at = 0
    for a, b in sorted(done):
        if a > at:
            break
        at = max(at, b)
    return at
