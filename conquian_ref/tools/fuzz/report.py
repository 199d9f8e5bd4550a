"""`conquian-ref fuzz --json`: a campaign as data, for a CI job to read its causes, counts and seeds."""

from __future__ import annotations

from .campaign import FuzzRun


def fuzz_json(run: FuzzRun) -> dict:
    """The campaign: what was played (seed, games, shard), each new cause with its game, draft and
    reproduce line, every cause counted (new and known), and whether it found nothing new; the
    version and the bundled corpus's fingerprint (its ids are the ones a draft avoids) say what
    it ran with."""
    from ... import __version__
    from ...spec.fingerprint import corpus_fingerprint
    from ...spec.scenario import corpus_dir

    return {
        "tool": "fuzz",
        "version": __version__,
        "corpus_fingerprint": corpus_fingerprint(corpus_dir()),
        "impl": run.impl,
        "seed": run.seed,
        "profiles": run.profiles,
        "first_game": run.first_game,
        "games_per_profile": run.games_per_profile,
        "shard": list(run.shard),
        "games": run.games,
        "actions": run.actions,
        "replays": run.replays,
        "seconds": round(run.seconds, 3),
        "divergences": run.divergences,
        # A cause as check's report gives it: the rule broken, the house rule that explains it (or null).
        "new_causes": [
            {"cause": str(f.cause), "rule": f.cause.rule, "house_rule": f.cause.house_rule, "profile": f.profile_id, "game": f.game,
             "seen_past_first_divergence": f.later, "scenario": str(f.scenario) if f.scenario else None,
             "reproduce": f.reproduce, "shrunk": f.shrunk.note if f.shrunk else None}
            for f in run.found
        ],
        "counts": [
            {"cause": str(cause), "rule": cause.rule, "house_rule": cause.house_rule, "divergences": n, "known": run.known.get(cause)}
            for cause, n in sorted(run.counts.items(), key=lambda item: (-item[1], str(item[0])))
        ],
        "ok": not run.found,
        "summary": run.summary_line(),
    }
