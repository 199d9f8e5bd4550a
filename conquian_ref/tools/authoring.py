"""The authoring workflow: `conquian-ref new`, and the command-line set-up of new, record, fmt.

`new` turns an idea into a draft scenario file in one command (docs/authoring.md walks the whole
path: new -> edit -> record -> lint -> fmt -> pre-commit):

    conquian-ref new --profile torno-cisneros-v1 --area opening --rules TC-OPEN-1,C-SET-1 \\
        --title "The non-dealer sets the opening card with two fours" \\
        --hand1 "4O 4E" --stock-top 4C

It validates the rule ids against the profile (conquian_ref.spec.rulebook.rules_for), takes the next
free id of the profile, completes each hand with harmless cards and the stock with every card
left (each card exactly once), and writes scenarios/<profile>/<area>/<id>-<slug>.yaml: the
modeline, the fields, a TODO annotation, and a steps section holding a first check to record
and commented examples. Options left out are asked for when stdin is a terminal, and are an
error (one line) otherwise.

Ids. The next free id is one more than the highest id of the profile found anywhere: in the
bundled corpus, in each --corpus folder, in the output folder, in file names and in `id:`
fields, and in a RETIRED file at the top of any of those folders (any text; every id in it
counts). A gap is never filled: it may be the id of a withdrawn scenario, and ids are not
reused.

Harmless cards. Two cards are *linked* when one more card could make a meld of them: the same
rank, or the same suit and at most run_min - 1 ranks apart in sequence order (so 7 and 10 are
linked in the Spanish deck, 7 and J in the French). Any two cards of a meld are linked, so cards
that are not linked make no meld together. Each hand, seat 0's then seat 1's, is completed from
the cards nobody holds yet:

* first choice: cards linked to no other card of the same hand (given or picked) and completing
  no meld with the --stock-top cards. The search tries the candidates in order of their links
  to the --stock-top cards (weight 10: they are offered first) and to the rival's hand (weight
  1: cards change hands in the exchange and by discards), then in deck order, and takes the
  first set that works (so it prefers, without proving it minimal, the fewest such links);
* if the given cards leave no such set (rare: with ten ranks, a hand of 9 or 10 has room for
  one card a rank, same-suit cards at least three ranks apart), the cheapest card one at a time:
  100 for a link within the hand, 10 to the stock top, 1 to the rival; never a card completing
  a meld with the hand or the stock top.

Links across the two hands cannot all be avoided (together they hold 18 or 20 of 40 cards):
that is why an author names every card that matters. The rest of the stock follows the
--stock-top cards in deck order.
"""

from __future__ import annotations

import argparse
import re
import sys
import unicodedata
from pathlib import Path

from ..engine.errors import ConquianError, MalformedInput

AREAS = ("deck", "deal", "exchange", "opening", "melds", "turn", "force", "end", "match", "examples", "golden", "perft")
MODELINE = "# yaml-language-server: $schema=../../../schema/scenario.schema.json"
ID = re.compile(r"\b(tc|aa)-([0-9]{4})\b")
PLACEHOLDER_ANNOTATION = "TODO: why each expectation follows from the rules"


# -- command-line set-up (registered by cli.py) ---------------------------------------------------
def configure_new(parser: argparse.ArgumentParser):
    """Options of `conquian-ref new`; returns its runner (args -> exit status)."""
    parser.add_argument("--profile", metavar="P", help="the profile id (torno-cisneros-v1, anglo-american-v1)")
    parser.add_argument("--rules", metavar="IDS", help="the rule ids exercised, separated by commas or spaces (e.g. 'TC-OPEN-1,C-SET-1')")
    parser.add_argument("--title", metavar="TEXT", help="one line, 8 to 120 characters; also gives the file name")
    parser.add_argument("--area", choices=AREAS, metavar="AREA", help=f"the rule area, the folder: {', '.join(AREAS)}")
    parser.add_argument("--dealer", type=int, choices=(0, 1), metavar="SEAT", help="the dealing seat, 0 or 1 (default 0; the other seat plays first)")
    parser.add_argument("--hand0", metavar="CARDS", help="seat 0's cards as dealt, all or some ('4O 4E'); the rest are harmless cards")
    parser.add_argument("--hand1", metavar="CARDS", help="seat 1's cards as dealt, all or some")
    parser.add_argument("--stock-top", metavar="CARDS", help="the first stock cards, top first: the opening card, then what rejects reveal")
    parser.add_argument("--corpus", action="append", default=[], metavar="DIR", help="another scenario folder whose ids are taken (repeatable)")
    parser.add_argument("--out", default="scenarios", metavar="DIR", help="the scenario folder to write into (default: ./scenarios)")

    def run(args: argparse.Namespace) -> int:
        return run_new(args)

    return run


def configure_record(parser: argparse.ArgumentParser):
    """Options of `conquian-ref record`; returns its runner."""
    parser.add_argument("file", metavar="FILE", help="a draft scenario with values written as `record`")
    parser.add_argument("--write", action="store_true", help="write the recorded file (otherwise only the diff is shown; on a terminal you are asked)")

    def run(args: argparse.Namespace) -> int:
        from .record import run

        return run(args.file, args.write)

    return run


def configure_fmt(parser: argparse.ArgumentParser):
    """Options of `conquian-ref fmt`; returns its runner."""
    parser.add_argument("paths", nargs="*", metavar="PATH", help="scenario files or folders (default: ./scenarios)")
    parser.add_argument("--check", action="store_true", help="change nothing; list the files that would change and exit 1 if any")
    parser.add_argument("--diff", action="store_true", help="also print the changes as a unified diff")

    def run(args: argparse.Namespace) -> int:
        from .fmt import run

        return run(args.paths, check=args.check, diff=args.diff)

    return run


# -- asking -----------------------------------------------------------------------------------------
def _ask(question: str, default: str | None = None) -> str:
    from .yamltext import interactive

    if not interactive():
        return ""
    hint = f" [{default}]" if default else ""
    print(f"{question}{hint}: ", end="", file=sys.stderr, flush=True)
    answer = sys.stdin.readline().strip()
    return answer or (default or "")


def _complete_args(args: argparse.Namespace) -> None:
    """Ask for what the command line left out, on a terminal only; else name what is missing."""
    from ..spec.profiles import PROFILE_IDS
    from .yamltext import interactive

    asking = interactive()
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
    if args.dealer not in (0, 1):
        raise ConquianError(f"--dealer: a seat is 0 or 1, got {args.dealer}")


# -- validation -------------------------------------------------------------------------------------
def parse_rules(profile_id: str, text: str) -> list[str]:
    from ..spec.rulebook import load_rules, rules_for

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


def slug_of(title: str, limit: int = 60) -> str:
    text = unicodedata.normalize("NFKD", title).encode("ascii", "ignore").decode().lower()
    words = [w for w in re.split(r"[^a-z0-9]+", text) if w]
    slug = ""
    for word in words:
        if slug and len(slug) + 1 + len(word) > limit:
            break
        slug = f"{slug}-{word}" if slug else word[:limit]
    return slug or "scenario"


# -- ids --------------------------------------------------------------------------------------------
def used_ids(folders: list[Path]) -> set[str]:
    """Every scenario id named in these folders: file names, `id:` fields, RETIRED files."""
    found: set[str] = set()
    for folder in folders:
        if not folder.is_dir():
            continue
        retired = folder / "RETIRED"
        if retired.is_file():
            found |= {f"{p}-{n}" for p, n in ID.findall(retired.read_text(encoding="utf-8", errors="replace"))}
        for file in folder.rglob("*.y*ml"):
            if file.suffix not in (".yaml", ".yml"):
                continue
            found |= {f"{p}-{n}" for p, n in ID.findall(file.name)}
            try:
                head = file.read_text(encoding="utf-8", errors="replace")[:4000]
            except OSError:
                continue
            match = re.search(r"^id:\s*['\"]?([a-z]{2}-[0-9]{4})", head, flags=re.M)
            if match:
                found.add(match.group(1))
    return found


def next_id(prefix: str, folders: list[Path]) -> str:
    numbers = [int(i[len(prefix) + 1 :]) for i in used_ids(folders) if i.startswith(prefix + "-")]
    number = max(numbers, default=0) + 1
    if number > 9999:
        raise ConquianError(f"new: no {prefix} id left (ids have four digits)")
    return f"{prefix}-{number:04d}"


# -- harmless cards ----------------------------------------------------------------------------------
def linked(profile, a: int, b: int) -> bool:
    """One more card could make a meld of a and b."""
    deck = profile.deck
    if a == b:
        return False
    if deck.rank_of(a) == deck.rank_of(b):
        return True
    return deck.suit_of(a) == deck.suit_of(b) and abs(deck.rank_of(a) - deck.rank_of(b)) <= profile.run_min - 1


def completes_meld(profile, card: int, others: set[int]) -> bool:
    """`card` and some of `others` make a meld (a set or a run of the profile's least size)."""
    deck = profile.deck
    rank, suit = deck.rank_of(card), deck.suit_of(card)
    if sum(1 for o in others if deck.rank_of(o) == rank and o != card) >= min(profile.set_sizes) - 1:
        return True
    ranks = {deck.rank_of(o) for o in others if deck.suit_of(o) == suit} | {rank}
    n = profile.run_min
    return any(all(r in ranks for r in range(low, low + n)) for low in range(max(0, rank - n + 1), rank + 1))


def _links(profile, card: int, others) -> int:
    return sum(linked(profile, card, o) for o in others)


def complete_hands(profile, given: list[list[int]], top: list[int]) -> list[list[int]]:
    """The two hands, each completed to the hand size with harmless cards (module docstring)."""
    hands = [list(g) for g in given]
    taken = set(hands[0]) | set(hands[1]) | set(top)
    for seat in (0, 1):
        need = profile.hand_size - len(hands[seat])
        pool = [c for c in profile.deck.ordered() if c not in taken]
        chosen = _unlinked_fillers(profile, hands[seat], need, pool, top, hands[1 - seat])
        if chosen is None:
            chosen = _cheapest_fillers(profile, hands[seat], need, pool, top, hands[1 - seat], seat)
        hands[seat] += chosen
        taken |= set(chosen)
    return hands


def _unlinked_fillers(profile, hand, need, pool, top, rival, budget: int = 20000) -> list[int] | None:
    """`need` cards linked to no card of the hand nor to each other (so they complete no meld:
    any two cards of a meld are linked), the fewest links to the stock top and the rival first;
    None if there are none (or the search budget runs out)."""
    candidates = [
        c for c in pool
        if not completes_meld(profile, c, set(hand) | set(top)) and not any(linked(profile, c, h) for h in hand)
    ]
    candidates.sort(key=lambda c: (10 * _links(profile, c, top) + _links(profile, c, rival), c))
    chosen: list[int] = []
    left = [budget]

    def search(start: int) -> bool:
        if len(chosen) == need:
            return True
        left[0] -= 1
        if left[0] <= 0:
            return False
        for i in range(start, len(candidates)):
            if len(candidates) - i < need - len(chosen):
                return False
            card = candidates[i]
            if any(linked(profile, card, c) for c in chosen):
                continue
            chosen.append(card)
            if search(i + 1):
                return True
            chosen.pop()
        return False

    return chosen if search(0) else None


def _cheapest_fillers(profile, hand, need, pool, top, rival, seat) -> list[int]:
    """The fallback when every choice links two cards of the hand: one card at a time, the
    cheapest (100 a link in hand, 10 a link to the stock top, 1 a link to the rival), never one
    completing a meld."""
    hand, pool, chosen = list(hand), list(pool), []
    for _ in range(need):
        best = None
        for card in pool:
            if completes_meld(profile, card, set(hand) | set(top)):
                continue
            cost = 100 * _links(profile, card, hand) + 10 * _links(profile, card, top) + _links(profile, card, rival)
            if best is None or cost < best[0]:
                best = (cost, card)
        if best is None:
            raise ConquianError(f"new: cannot complete seat {seat}'s hand without making a meld; name more of its cards with --hand{seat}")
        hand.append(best[1])
        chosen.append(best[1])
        pool.remove(best[1])
    return chosen


def exchange_pick(profile, hands: list[list[int]], seat: int, fillers: set[int], top: list[int]) -> int:
    """A card for `seat` to give in the exchange: the one least useful to the rival, a harmless
    filler rather than a card the author chose."""
    rival = set(hands[1 - seat])

    def cost(card: int) -> tuple:
        return (
            completes_meld(profile, card, rival | set(top)),
            card not in fillers,
            sum(linked(profile, card, o) for o in rival | set(top)),
            card,
        )

    return min(hands[seat], key=cost)


# -- the draft ----------------------------------------------------------------------------------------
def _flow(names: list[str]) -> str:
    return "[" + ", ".join(names) + "]"


def _commented(line: str, comment: str, column: int = 34) -> str:
    return f"{line.ljust(column - 1)} # {comment}" if len(line) < column - 1 else f"{line}  # {comment}"


def draft_text(profile, scenario_id: str, title: str, rules: list[str], area: str, dealer: int,
               given: list[list[int]], top: list[int]) -> str:
    """The text of a new draft scenario."""
    import textwrap

    import yaml

    from .yamltext import scalar

    deck = profile.deck
    names = deck.names
    try:
        plain = "#" not in title and yaml.safe_load(f"title: {title}") == {"title": title}
    except yaml.YAMLError:
        plain = False
    todo = f"{PLACEHOLDER_ANNOTATION}, citing the rule ids ({', '.join(rules)})."
    head = [
        MODELINE,
        f"id: {scenario_id}",
        f"title: {title if plain else scalar(title)}",
        f"profile: {profile.id}",
        f"rules: {_flow(rules)}",
        "tags: []",
        "annotation: >",
        *textwrap.wrap(todo, width=96, initial_indent="  ", subsequent_indent="  "),
    ]
    if area == "match":
        body = [
            "match:",
            f"  first_dealer: {dealer}",
            _commented("  deals:", "the outcome of each deal, in order"),
            "    - {result: win, winner: 0, how: target_reached}",
            "    - {result: draw, winner: null, how: stock_exhausted}",
            _commented("  expect: record", "points, next_dealer, winner: conquian-ref record FILE"),
        ]
        return "\n".join(head + body) + "\n"

    hands = complete_hands(profile, given, top)
    fillers = [set(hands[s]) - set(given[s]) for s in (0, 1)]
    stock = list(top) + [c for c in deck.ordered() if c not in set(hands[0]) | set(hands[1]) | set(top)]
    first = 1 - dealer

    def hand_comment(seat: int) -> str:
        if not given[seat]:
            return "all harmless cards (docs/authoring.md)"
        if not fillers[seat]:
            return "as given"
        return f"given {' '.join(deck.name(c) for c in given[seat])}; the rest harmless"

    opening = deck.name(stock[0])
    body = [
        "setup:",
        _commented(f"  dealer: {dealer}", f"so seat {first}, the non-dealer, plays first"),
        _commented("  hands:", "as dealt, before any exchange; hands[0] is seat 0's"),
        _commented(f"    - {_flow(names(hands[0]))}", hand_comment(0)),
        _commented(f"    - {_flow(names(hands[1]))}", hand_comment(1)),
        _commented(f"  stock: {_flow([deck.name(c) for c in stock])}", f"top first: {opening} is the opening card"),
        "steps:",
    ]
    hold = [set(h) for h in hands]
    if profile.exchange_cards:
        picks = [exchange_pick(profile, hands, s, fillers[s], top) for s in (0, 1)]
        body += [
            f"  # {profile.id}: BOTH seats exchange first (TC-XCH-1), one card each, in either order,",
            "  # and only then is the opening card revealed. These picks are suggestions (harmless cards):",
            "  # change them if the exchange matters to your case.",
            "  - seat: 0",
            f"    action: {{type: exchange, card: {deck.name(picks[0])}}}",
            "  - seat: 1",
            f"    action: {{type: exchange, card: {deck.name(picks[1])}}}",
        ]
        hold = [hold[0] - {picks[0]} | {picks[1]}, hold[1] - {picks[1]} | {picks[0]}]
    else:
        body.append(f"  # {profile.id}: no exchange; the opening card {opening} is offered to seat {first} at once.")
    example_cards = [c for c in given[first] if c in hold[first]][:2]
    example = f"{{type: use, cards: {_flow(names(example_cards))}}}" if example_cards else "{type: pass}"
    body += [
        "  # Write each expectation from the rule text. Where the reference engine should fill a value",
        "  # in, write `record`, then run `conquian-ref record FILE` and read the diff against the rules.",
        _commented("  - check:", f"what may seat {first} do with the opening card {opening}?"),
        f"      legal: {{seat: {first}, actions: record}}",
        "  # More steps, for example:",
        f"  # - seat: {first}",
        f"  #   action: {example}",
        "  #   expect: record                # accepted, or {refused: CODE}",
        "  #   check: {state: record}        # phase, to_act, available, hands, exposed, ...",
        f"  # - seat: {first}",
        "  #   action: {type: reject}",
        "  #   expect: {refused: cannot_reject_revealed}",
        "  #   check: {perft: [record, record]}",
        _commented("outcome: record", "null while the deal goes on, else its result"),
    ]
    return "\n".join(head + body) + "\n"


def run_new(args: argparse.Namespace) -> int:
    from ..spec.profiles import PROFILE_IDS, load_profile
    from ..spec.scenario import corpus_dir

    _complete_args(args)
    if args.profile not in PROFILE_IDS:
        raise ConquianError(f"--profile: unknown profile {args.profile!r} (known: {', '.join(PROFILE_IDS)})")
    profile = load_profile(args.profile)
    rules = parse_rules(profile.id, args.rules)
    title = check_title(args.title)
    deck = profile.deck
    given = [parse_cards(deck, args.hand0, "--hand0"), parse_cards(deck, args.hand1, "--hand1")]
    top = parse_cards(deck, args.stock_top, "--stock-top")
    if args.area == "match":
        named = [o for o, v in (("--hand0", given[0]), ("--hand1", given[1]), ("--stock-top", top)) if v]
        if named:
            raise ConquianError(f"{named[0]}: a match scenario has no deal (area match)")
    seen: dict[int, str] = {}
    for option, cards in (("--hand0", given[0]), ("--hand1", given[1]), ("--stock-top", top)):
        for card in cards:
            if card in seen:
                raise ConquianError(f"{option}: {deck.name(card)} is already in {seen[card]}")
            seen[card] = option
    for seat in (0, 1):
        if len(given[seat]) > profile.hand_size:
            raise ConquianError(f"--hand{seat}: a hand is dealt {profile.hand_size} cards, got {len(given[seat])}")
    if len(top) > profile.stock_size:
        raise ConquianError(f"--stock-top: the stock holds {profile.stock_size} cards, got {len(top)}")

    out = Path(args.out)
    folders = [corpus_dir(), out, *map(Path, args.corpus)]
    for folder in args.corpus:
        if not Path(folder).is_dir():
            raise ConquianError(f"--corpus: {folder}: no such folder")
    scenario_id = next_id(profile.rule_prefix.lower(), folders)
    text = draft_text(profile, scenario_id, title, rules, args.area, args.dealer, given, top)
    path = out / profile.id / args.area / f"{scenario_id}-{slug_of(title)}.yaml"
    if path.exists():
        raise ConquianError(f"{path}: already exists")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    print(path)
    print(f"new: wrote the draft {scenario_id}; next: edit its steps, then `conquian-ref record {path}`", file=sys.stderr)
    return 0
