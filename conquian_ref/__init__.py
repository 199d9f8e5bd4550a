"""conquian-ref: the executable specification of the card game Conquian.

The public face for a Python engine author (see docs/architecture.md for the whole house):

    >>> import conquian_ref
    >>> # PROFILE_IDS: the ids of the files in conquian_ref/spec/profiles/
    >>> profile = conquian_ref.load_profile(conquian_ref.PROFILE_IDS[0])
    >>> game = conquian_ref.Game.from_seed(profile, seed=1)
    >>> print(game.phase, game.to_act)
    play (1,)
    >>> try:
    ...     game.apply(game.dealer, {"type": "reject"})
    ... except conquian_ref.IllegalAction as refusal:
    ...     print(refusal.reason)
    not_your_turn

Everything here comes from the engine (`conquian_ref.engine`, standard library only), except
`load_profile` and `PROFILE_IDS`, which read the profile files (conquian_ref.spec.profiles) and
are imported on first use, so that importing the engine never needs PyYAML or jsonschema.
"""

from .engine.actions import Action, parse_action
from .engine.errors import ConquianError, IllegalAction, MalformedInput
from .engine.game import Game
from .engine.match import Match
from .engine.outcome import How, Outcome
from .engine.partition import partition
from .engine.phases import Phase
from .engine.profile import Profile, profile_from_data
from .engine.refusals import REASONS

__all__ = [
    "Action",
    "ConquianError",
    "Game",
    "How",
    "IllegalAction",
    "MalformedInput",
    "Match",
    "Outcome",
    "PROFILE_IDS",
    "Phase",
    "Profile",
    "REASONS",
    "load_profile",
    "parse_action",
    "partition",
    "profile_from_data",
]

_FROM_SPEC = ("load_profile", "PROFILE_IDS")


def __getattr__(name: str):
    if name == "__version__":
        # The one version is pyproject.toml's, as installed (CHANGELOG.md says what a version
        # means); read when asked, from the installed metadata's folder name (spec/installed.py
        # says why not importlib.metadata).
        from .spec.installed import version_of

        return version_of("conquian-ref") or "0+unknown"  # unknown: a source tree put on sys.path by hand
    # The profile files are read by the spec floor; import it only when asked (PEP 562).
    if name in _FROM_SPEC:
        from .spec import profiles

        return getattr(profiles, name)
    raise AttributeError(f"module 'conquian_ref' has no attribute {name!r}")
