"""The command `conquian-ref new`: its options, asking for those left out, checking the values,
and writing the draft.

It validates the rule ids against the profile (conquian_ref.spec.rulebook.rules_for), takes the
next free id of the profile (ids.py), completes each hand with harmless cards and the stock
with every card left, each card exactly once (harmless.py), and writes
<out>/<profile>/<area>/<id>-<slug>.yaml (draft.py). Options left out are asked for when stdin
is a terminal, and are an error (one line) otherwise.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

from ...engine.errors import ConquianError, MalformedInput
from .. import yamltext
from ..options import add_corpus_option, existing_folder
from .draft import draft_text
from .modeline import modeline, provide_schema
from .ids import id_prefix, next_id, slug_of

# The folders of a profile's scenarios, one a rule area (scenarios/README.md).
AREAS = ("deck", "deal", "exchange", "opening", "melds", "turn", "force", "end", "match", "examples", "golden", "perft")


def configure(parser: argparse.ArgumentParser):
    """Options of `conquian-ref new`; returns its runner (args -> exit status)."""
    from ...spec.profiles import PROFILE_IDS

    parser.add_argument("--profile", metavar="P", help=f"the profile id ({', '.join(PROFILE_IDS)})")
    parser.add_argument("--rules", metavar="IDS", help="the rule ids exercised, separated by commas or spaces (e.g. 'C-SET-1,C-TURN-5')")
    parser.add_argument("--title", metavar="TEXT", help="one line, 8 to 120 characters; also gives the file name")
    parser.add_argument("--area", choices=AREAS, metavar="AREA", help=f"the rule area, the folder: {', '.join(AREAS)}")
    parser.add_argument("--dealer", type=int, metavar="SEAT", help="the dealing seat, 0 or 1, or 0 to 3 with four seats (default 0; the next seat plays first)")
    parser.add_argument("--hand0", metavar="CARDS", help="seat 0's cards as dealt, all or some ('4O 4E'); the rest are harmless cards")
    parser.add_argument("--hand1", metavar="CARDS", help="seat 1's cards as dealt, all or some")
    parser.add_argument("--hand2", metavar="CARDS", help="seat 2's cards, in a profile with four seats")
    parser.add_argument("--hand3", metavar="CARDS", help="seat 3's cards, in a profile with four seats")
    parser.add_argument("--stock-top", metavar="CARDS", help="the first stock cards, top first: the opening card, then what rejects reveal")
    add_corpus_option(parser, "the scenario folder the draft is written into, whose ids are taken")
    parser.add_argument("--ids-from", action="append", default=[], type=existing_folder, metavar="DIR",
                        help="another scenario folder whose ids are taken too (repeatable)")
    return run


def run(args: argparse.Namespace) -> int:
    """Write the draft the options describe; print its path."""
    from ...spec.profiles import PROFILE_IDS, load_profile, unknown_profile
    from ...spec.scenario import corpus_dir

    _complete_args(args)
    if args.profile not in PROFILE_IDS:
        raise ConquianError(f"--profile: {unknown_profile(args.profile)}")
    profile = load_profile(args.profile)
    if args.dealer not in profile.seats:
        raise ConquianError(f"--dealer: {profile.id} has seats {', '.join(map(str, profile.seats))}, got {args.dealer}")
    rules = parse_rules(profile.id, args.rules)
    title = check_title(args.title)
    given, top = _given_cards(profile, args)
    out = Path(args.corpus) if args.corpus else corpus_dir()
    folders = [corpus_dir(), out, *map(Path, args.ids_from)]
    scenario_id = next_id(id_prefix(profile), folders)
    path = out / profile.id / args.area / f"{scenario_id}-{slug_of(title)}.yaml"
    if path.exists():
        raise ConquianError(f"{path}: already exists")
    path.parent.mkdir(parents=True, exist_ok=True)
    copied = provide_schema(path, out)
    if copied is not None:
        print(f"new: wrote {copied}, the schema the draft's modeline names (keep it with the corpus)", file=sys.stderr)
    text = draft_text(profile, scenario_id, title, rules, args.area, args.dealer, given, top, modeline(path))
    path.write_text(text, encoding="utf-8")
    print(path)
    print(f"new: wrote the draft {scenario_id}; next: edit its steps, then `conquian-ref record {path}`", file=sys.stderr)
    return 0


# -- asking -----------------------------------------------------------------------------------------
def _ask(question: str, default: str | None = None) -> str:
    if not yamltext.interactive():
        return ""
    hint = f" [{default}]" if default else ""
    print(f"{question}{hint}: ", end="", file=sys.stderr, flush=True)
    answer = sys.stdin.readline().strip()
    return answer or (default or "")


def _complete_args(args: argparse.Namespace) -> None:
    """Ask for what the command line left out, on a terminal only; else name what is missing."""
    from ...spec.profiles import PROFILE_IDS

    asking = yamltext.interactive()
    if args.profile is None and asking:
        args.profile = _ask(f"profile ({', '.join(PROFILE_IDS)})", PROFILE_IDS[0])
    if args.area is None and asking:
        args.area = _ask(f"area ({', '.join(AREAS)})")
    if args.rules is None and asking:
        args.rules = _ask("rule ids (e.g. C-TURN-2, RUL-16)")
    if args.title is None and asking:
        args.title = _ask("title (one line)")
    missing = [f"--{name}" for name in ("profile", "area", "rules", "title") if not getattr(args, name)]
    if missing:
        raise ConquianError(f"new: missing {', '.join(missing)} (no terminal to ask on)" if not asking else f"new: missing {', '.join(missing)}")
    if args.area not in AREAS:
        raise ConquianError(f"--area: {args.area!r} is not an area ({', '.join(AREAS)})")
    if args.area != "match" and asking:
        if args.dealer is None:
            args.dealer = _ask("dealer seat", "0")
        for name, question in (("hand0", "seat 0's cards (empty: all harmless)"), ("hand1", "seat 1's cards (empty: all harmless)"),
                               ("stock_top", "first stock cards, top first (empty: none)")):
            if getattr(args, name) is None:
                setattr(args, name, _ask(question))
    if args.dealer is None or args.dealer == "":
        args.dealer = 0
    try:
        args.dealer = int(args.dealer)
    except (TypeError, ValueError):
        raise ConquianError(f"--dealer: a seat is 0 or 1, got {args.dealer!r}") from None
    if args.dealer not in (0, 1, 2, 3):
        raise ConquianError(f"--dealer: a seat is 0 to 3 at most, got {args.dealer}")


# -- checking the values ----------------------------------------------------------------------------
def parse_rules(profile_id: str, text: str) -> list[str]:
    """The rule ids of --rules, each defined in docs/rules and applying to the profile."""
    from ...spec.rulebook import load_rules, rules_for

    ids = [r for r in re.split(r"[\s,]+", text.strip().strip("[]")) if r]
    if not ids:
        raise ConquianError("--rules: name at least one rule id")
    known, applicable = load_rules(), rules_for(profile_id)
    out: list[str] = []
    for rid in ids:
        if rid not in known:
            raise ConquianError(f"--rules: no rule {rid} in docs/rules")
        if rid not in applicable:
            raise ConquianError(f"--rules: rule {rid} does not apply to {profile_id} (or is deprecated)")
        if rid not in out:
            out.append(rid)
    return out


def parse_cards(deck, text: str | None, option: str) -> list[int]:
    """Cards written with spaces or commas (brackets allowed), in letter or glyph notation."""
    if not text:
        return []
    items = [t for t in re.split(r"[\s,\[\]]+", text) if t]
    try:
        return deck.parse_list(items, option)
    except MalformedInput as exc:
        raise ConquianError(f"{exc.field}: {exc.message}") from None


def check_title(title: str) -> str:
    title = " ".join(title.split())
    if not 8 <= len(title) <= 120:
        raise ConquianError(f"--title: 8 to 120 characters, got {len(title)}")
    return title


def _given_cards(profile, args: argparse.Namespace) -> tuple[list[list[int]], list[int]]:
    """The cards of --hand0.. and --stock-top: each card at most as often as the deck has it (once,
    or twice with two decks), no more than a hand or the stock holds, none for a match scenario."""
    deck = profile.deck
    options = [f"--hand{seat}" for seat in range(4)]
    for seat in range(len(profile.seats), 4):
        if getattr(args, f"hand{seat}", None):
            raise ConquianError(f"--hand{seat}: {profile.id} has {len(profile.seats)} seats")
    given = [parse_cards(deck, getattr(args, f"hand{seat}", None), options[seat]) for seat in profile.seats]
    top = parse_cards(deck, args.stock_top, "--stock-top")
    named = (*zip(options, given), ("--stock-top", top))
    if args.area == "match":
        options = [option for option, cards in named if cards]
        if options:
            raise ConquianError(f"{options[0]}: a match scenario has no deal (area match)")
    # Each list was parsed alone (with two decks its first 7H is copy 0): count copies across them.
    seen: dict[str, list[str]] = {}
    for option, cards in named:
        for i, card in enumerate(cards):
            places = seen.setdefault(deck.name(card), [])
            if len(places) == deck.copies:
                raise ConquianError(f"{option}: {deck.name(card)} is already in {' and '.join(places)}")
            places.append(option)
            cards[i] = deck.same_card(card) + len(places) - 1 if deck.copies > 1 else card
    for seat in profile.seats:
        if len(given[seat]) > profile.hand_size:
            raise ConquianError(f"--hand{seat}: a hand is dealt {profile.hand_size} cards, got {len(given[seat])}")
    if len(top) > profile.stock_size:
        raise ConquianError(f"--stock-top: the stock holds {profile.stock_size} cards, got {len(top)}")
    return given, top
