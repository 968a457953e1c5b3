"""Canasta Lab: Monte Carlo strategy analysis for the Canasta family.

The public API, documented in docs/api.md: everything a notebook or a script needs, importable from
`sim` itself. The names load on first use (PEP 562), so `import sim` stays cheap and a worker process
that only plays games never imports pandas' analysis layers or matplotlib through it. The layers below
(docs/architecture.md) are free to move; these names are the stable surface.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

from sim.version import __version__

# name -> (module, attribute); None as attribute: the module itself
API: dict[str, tuple[str, str | None]] = {
    # rules
    "Variant": ("sim.rules", "Variant"),
    "PRESETS": ("sim.rules", "PRESETS"),
    "get_variant": ("sim.rules", "get_variant"),
    "with_rules": ("sim.rules", "with_rules"),
    # playing and reading games
    "play": ("sim.records.results", "play"),
    "read": ("sim.records.results", "read"),
    "load": ("sim.records.outputs", "load"),
    "Results": ("sim.records.results", "Results"),
    "ResultsError": ("sim.run.store", "ResultsError"),
    "Experiment": ("sim.run.experiment", "Experiment"),
    "write_transcript": ("sim.records.transcript", "write_transcript"),
    # comparing strategies
    "compare": ("sim.analysis.compare", "compare"),
    "tournament": ("sim.analysis.compare", "tournament"),
    "Comparison": ("sim.records.outputs", "Comparison"),
    "Tournament": ("sim.records.outputs", "Tournament"),
    "sweep": ("sim.analysis.sweep", "sweep"),
    "profile": ("sim.analysis.profile", "profile"),
    "trace_decisions": ("sim.analysis.trace", "trace_decisions"),
    "overrides": ("sim.analysis.overrides", "overrides"),
    "analyse": ("sim.analysis.analyse", "analyse"),
    "list_decisions": ("sim.analysis.analyse", "list_decisions"),
    "learn_discards": ("sim.analysis.learn", "learn_discards"),
    "tune": ("sim.analysis.tune", "tune"),
    # statistics on a games table
    "win_rates": ("sim.stats", "win_rates"),
    "head_to_head": ("sim.stats", "head_to_head"),
    # modules used as namespaces
    "stats": ("sim.stats", None),
    "tidy": ("sim.records.tidy", None),
    "plots": ("sim.plots", None),
    "studies": ("sim.report.studies", None),
    # answers: one record per question and preset, every report's source
    "answers": ("sim.report.answer", "answers"),
    "Answer": ("sim.report.answer", "Answer"),
    "changed_decisions": ("sim.analysis.changes", "changed_decisions"),
    "try_strategy": ("sim.analysis.trial", "try_strategy"),
}

__all__ = ["__version__", *API]


def __getattr__(name: str) -> Any:
    try:
        module, attr = API[name]
    except KeyError:
        raise AttributeError(f"module 'sim' has no attribute {name!r}") from None
    value = import_module(module) if attr is None else getattr(import_module(module), attr)
    globals()[name] = value  # the next access is a plain attribute
    return value


def __dir__() -> list[str]:
    return sorted(__all__)


if TYPE_CHECKING:  # what static tools see: the same names, imported eagerly
    from sim import plots, stats  # noqa: F401
    from sim.analysis.analyse import analyse, list_decisions  # noqa: F401
    from sim.analysis.changes import changed_decisions  # noqa: F401
    from sim.analysis.compare import compare, tournament  # noqa: F401
    from sim.analysis.learn import learn_discards  # noqa: F401
    from sim.analysis.overrides import overrides  # noqa: F401
    from sim.analysis.profile import profile  # noqa: F401
    from sim.analysis.sweep import sweep  # noqa: F401
    from sim.analysis.trace import trace_decisions  # noqa: F401
    from sim.analysis.trial import try_strategy  # noqa: F401
    from sim.analysis.tune import tune  # noqa: F401
    from sim.records import tidy  # noqa: F401
    from sim.records.outputs import Comparison, Tournament, load  # noqa: F401
    from sim.records.results import Results, play, read  # noqa: F401
    from sim.records.transcript import write_transcript  # noqa: F401
    from sim.report import studies  # noqa: F401
    from sim.report.answer import Answer, answers  # noqa: F401
    from sim.rules import PRESETS, Variant, get_variant, with_rules  # noqa: F401
    from sim.run.experiment import Experiment  # noqa: F401
    from sim.run.store import ResultsError  # noqa: F401
    from sim.stats import head_to_head, win_rates  # noqa: F401
