#!/usr/bin/env python3
"""rules_model.py: checks the 304 engine against an independent model of the
rules (tests/lib/rules_modellib.py, written from ../shared/RULES.md, the
seeds 000 and 001 and docs/RECORD.md, never from the engine's code).

Random records are built from the model and replayed through `cardbot
replay`; the engine must agree with the model on:

- play matches (several deals each, so the dealer's rotation and the token
  totals carry from deal to deal; half of them with trump-heavy trumpers, so
  exhausted trumps, only-trump hands and spoilt trumps come up): whether
  every action is accepted (about one play in ten is an illegal card or a
  seat out of turn; some deals are ended by a random spoilt call, right or
  wrong), every deal's end line (points, made, spoilt_right, tokens) and
  the match line; and, replayed from each of the four seats, every view:
  the dealer, the seat to move, the hand, the legal cards, every trick as
  that seat may see it (face-down cards it has not seen are "down") and its
  winner, the trump card and suit only once the seat may know them, whether
  the trump card lies face down and whether the game is open, the pcc
  partner sitting out, exhausted trumps in the trumper's view only, and no
  card anywhere that the seat may not know;
- bidding records (pagat and single style, fives on and off): whether every
  bid, pass, ask, rejection and trump card is accepted, how the deal ends,
  and in one seat's views the phase, the seat to act and no unknown card.

Environment: CARDBOT (binary under test; default bin/cardbot, relative to
the repository root), RULES_MODEL_SEED (default 304), RULES_MODEL_DEALS
(play deals, default 160), RULES_MODEL_BIDS (bidding records, default 400).
A disagreement is printed with the record written to a temporary file, so
`cardbot replay [--view SEAT] FILE` shows it again.

Ends with "rules_model: N passed, M failed" (one count per record).
"""
import collections
import json
import os
import random
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from rules_modellib import (DECK, Bidding, Play, deck_from_hands,  # noqa: E402
                            hands_from_deck, make_record, scripted_bidding,
                            stakes, suit, team)
from replay_records import cardbot_path  # noqa: E402  (CARDBOT, as every replay test reads it)

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TIMEOUT = 60
SHOW_AT_MOST = 5
CARD_RE = re.compile(r"^[789TJQKA][SHDC]$")
COVERAGE = collections.Counter()  # how often the rare situations came up


def env_int(name, default):
    try:
        return int(os.environ.get(name, default))
    except ValueError:
        return default


class Replayer:
    def __init__(self, binary):
        self.binary = binary

    def run(self, rec, view=None):
        """Output lines (parsed), or raises RuntimeError."""
        args = [self.binary, "replay"]
        if view is not None:
            args += ["--view", str(view)]
        try:
            p = subprocess.run(args + ["-"], input=json.dumps(rec), cwd=ROOT,
                               capture_output=True, text=True, timeout=TIMEOUT)
        except (OSError, subprocess.TimeoutExpired) as e:
            raise RuntimeError("cannot replay: %s" % e)
        if p.returncode < 0:
            raise RuntimeError("replay killed by signal %d" % -p.returncode)
        try:
            out = [json.loads(x) for x in p.stdout.splitlines() if x.strip()]
        except ValueError:
            raise RuntimeError("replay printed something not JSON")
        if not out:
            raise RuntimeError("no output (exit %d): %s" % (p.returncode, p.stderr[:300]))
        return out


def cards_named(obj, acc=None):
    acc = set() if acc is None else acc
    if isinstance(obj, dict):
        for v in obj.values():
            cards_named(v, acc)
    elif isinstance(obj, list):
        for v in obj:
            cards_named(v, acc)
    elif isinstance(obj, str):
        for word in re.split(r"[^0-9A-Za-z]+", obj.upper()):
            if CARD_RE.match(word):
                acc.add(word)
    return acc


def short(act):
    return json.dumps(act, separators=(",", ":"))


# ------------------------------------------------------------ play deals

def random_hands(rng, skew):
    hands = hands_from_deck(0, rng.sample(DECK, 32))
    trumper = rng.randrange(4)
    if skew:
        # Give the trumper 3 to 8 cards of the suit of its first card, and
        # sometimes the partner the rest: spoilt trumps, exhausted trumps
        # and only-trump hands come up often.
        want = suit(hands[trumper][0])
        target = rng.randrange(3, 9)
        theirs = [(o, i) for o in range(4) if o != trumper
                  for i in range(8) if suit(hands[o][i]) == want]
        mine = [i for i in range(1, 8) if suit(hands[trumper][i]) != want]
        rng.shuffle(theirs)
        rng.shuffle(mine)
        have = 8 - len(mine)
        while have < target and theirs and mine:
            (o, i), j = theirs.pop(), mine.pop()
            hands[o][i], hands[trumper][j] = hands[trumper][j], hands[o][i]
            have += 1
        if rng.random() < 0.3:
            p = (trumper + 2) % 4
            for o in ((trumper + 1) % 4, (trumper + 3) % 4):
                for i in range(8):
                    spare = [j for j in range(8) if suit(hands[p][j]) != want]
                    if suit(hands[o][i]) == want and spare:
                        hands[o][i], hands[p][spare[0]] = hands[p][spare[0]], hands[o][i]
    return hands, trumper


def play_deal(rng, dealer, skew):
    """A random deal dealt by `dealer`: actions, expected accept/refuse,
    and the facts needed to check it. Plays follow the model."""
    hands, trumper = random_hands(rng, skew)
    bid = rng.choice([160, 160, 170, 200, 230, 250, 280, "pcc"])
    if bid == "pcc" or bid >= 250:
        pool = hands[trumper]
        if skew:
            pool = [c for c in pool if suit(c) == suit(pool[0])]
        card = rng.choice(pool)
        first = rng.randrange(4)
        acts = scripted_bidding(dealer, hands, trumper, bid, card, first,
                                rng.choice(hands[first][:4]))
    else:
        card = hands[trumper][0] if skew else rng.choice(hands[trumper][:4])
        acts = scripted_bidding(dealer, hands, trumper, bid, card)
    n_bidding = len(acts)
    ok = [True] * len(acts)
    opened = rng.random() < 0.25
    if opened:
        acts.append({"seat": trumper, "do": "open"})
        ok.append(True)
    model = Play(dealer, hands, trumper, bid, card, opened)
    spoilt_at = rng.randrange(33) if rng.random() < 0.2 else None
    spoilt = None
    played = 0
    while not model.done:
        if played == spoilt_at:
            caller = rng.randrange(4)
            acts.append({"seat": caller, "do": "spoilt"})
            ok.append(True)
            spoilt = (caller, model.spoilt_right())
            break
        seat = model.to_move()
        legal = model.legal(seat)
        if rng.random() < 0.1:
            wrong = [c for c in model.holds(seat) if c not in legal]
            if wrong:
                acts.append({"seat": seat, "do": "play", "card": rng.choice(wrong)})
                ok.append(False)
        if rng.random() < 0.03:
            other = rng.choice([s for s in range(4) if s != seat])
            if model.holds(other):
                acts.append({"seat": other, "do": "play",
                             "card": rng.choice(model.holds(other))})
                ok.append(False)
        c = rng.choice(legal)
        if model.only_trumps_first_lead(seat):
            COVERAGE["only trumps at first lead"] += 1
        if c == card and model.card_on_table and not model.hands[seat]:
            COVERAGE["trump card as last card"] += 1
        acts.append({"seat": seat, "do": "play", "card": c})
        ok.append(True)
        model.play(seat, c)
        played += 1
        if model.exhausted and len(model.trick) == 1:
            COVERAGE["exhausted-trump leads"] += 1
    COVERAGE["bid " + ("pcc" if bid == "pcc" else "250+" if bid >= 250 else "under 250")] += 1
    COVERAGE["opened"] += opened
    COVERAGE["reveals"] += sum(t["revealed"] for t in model.tricks)
    if spoilt:
        COVERAGE["spoilt " + ("right" if spoilt[1] else "wrong")] += 1
    return {"dealer": dealer, "hands": hands, "trumper": trumper, "bid": bid,
            "card": card, "opened": opened, "acts": acts, "ok": ok, "model": model,
            "spoilt": spoilt, "bidding": n_bidding}


def play_match(rng, n_deals, skew):
    """Deals of one match, with the model's token totals after each."""
    dealer = rng.randrange(4)
    first_dealer = dealer
    tokens = [11, 11]
    deals = []
    while len(deals) < n_deals and 0 not in tokens:
        d = play_deal(rng, dealer, skew and rng.random() < 0.7)
        m = d["model"]
        win, lose = stakes(d["bid"])
        mine = team(d["trumper"])
        if d["spoilt"] and d["spoilt"][1]:
            payer, amount = None, 0               # void: same dealer again
        elif d["spoilt"]:
            gainer = 1 - team(d["spoilt"][0])     # paid as if it had won
            amount = (win if gainer == mine else lose) + 2
            payer = 1 - gainer
        elif m.made:
            payer, amount = 1 - mine, win
        else:
            payer, amount = mine, lose
        if payer is not None:
            amount = min(amount, tokens[payer])
            tokens[payer] -= amount
            tokens[1 - payer] += amount
            dealer = (dealer + 1) % 4
        d["tokens"] = list(tokens)
        d["next_dealer"] = dealer
        deals.append(d)
    COVERAGE["completed matches"] += 0 in tokens
    rec = make_record(first_dealer,
                      [{"deck": deck_from_hands(d["dealer"], d["hands"]),
                        "actions": d["acts"]} for d in deals],
                      rules={"caps": "off"})
    return rec, deals, tokens


def check_actions(out, rec, expected_ok):
    """Accept/refuse of every action of every deal."""
    got = {(x["deal"], x["action"]): x for x in out
           if isinstance(x, dict) and "action" in x and "ok" in x}
    for d, oks in enumerate(expected_ok):
        for i, want in enumerate(oks):
            line = got.get((d, i))
            act = rec["deals"][d]["actions"][i]
            if line is None:
                return "deal %d action %d %s: no ok line" % (d, i, short(act))
            if line["ok"] != want:
                said = "accepts" if line["ok"] else "refuses (%s)" % line.get("error")
                return "deal %d action %d %s: engine %s, model %s" % (
                    d, i, short(act), said, "accepts" if want else "refuses")
    return None


def check_play_ends(out, deals, tokens):
    ends = {x["deal"]: x["end"] for x in out if isinstance(x, dict) and "end" in x}
    for n, d in enumerate(deals):
        e = ends.get(n)
        if e is None:
            return "deal %d: no end line" % n
        if d["spoilt"]:
            want = {"outcome": "spoilt", "spoilt_seat": d["spoilt"][0],
                    "spoilt_right": d["spoilt"][1], "tokens": d["tokens"]}
        else:
            m = d["model"]
            want = {"outcome": "scored", "trumper": d["trumper"], "bid": d["bid"],
                    "points": m.points, "made": m.made, "tokens": d["tokens"]}
        diff = {k: (e.get(k), v) for k, v in want.items() if e.get(k) != v}
        if diff:
            return "deal %d end: %s" % (n, ", ".join(
                "%s engine %s model %s" % (k, g, w) for k, (g, w) in sorted(diff.items())))
    match = out[-1].get("match") if isinstance(out[-1], dict) else None
    complete = 0 in tokens
    want = {"tokens": tokens, "complete": complete,
            "winner": (0 if tokens[1] == 0 else 1) if complete else None}
    if match != want:
        return "match line: engine %s, model %s" % (match, want)
    return None


def compare_play_view(m, d, v, vw):
    """A play-phase view of seat v against the model state m."""
    trumper = d["trumper"]
    want_tricks = m.rendered_tricks(v)
    got_tricks = [[(c["seat"], c["card"]) for c in t["cards"]]
                  for t in vw.get("tricks") or [] if t["cards"]]
    if got_tricks != want_tricks:
        return "tricks %s, model %s" % (got_tricks, want_tricks)
    facts = [
        ("turn", vw.get("turn"), m.to_move()),
        ("hand", sorted(vw.get("hand") or []), m.hand_of(v)),
        ("trump_card", vw.get("trump_card"), m.trump_card if m.knows_trump(v) else None),
        ("trump_suit", vw.get("trump_suit"), m.trump if m.knows_trump(v) else None),
        ("tricks_won", vw.get("tricks_won"), m.tricks_won),
        ("trick winners", [t.get("winner") for t in vw.get("tricks") or [] if t["cards"]],
         [t["winner"] for t in m.tricks]),
        ("trump_down", vw.get("trump_down"), m.card_on_table),
        ("trump_open", vw.get("trump_open"), not m.closed),
        ("sitting_out", vw.get("sitting_out"), m.out),
    ]
    # Exhausted trumps shows in the trumper's view only. Within a trick the
    # texts leave open when it lapses, so it is compared between tricks.
    if v != trumper or not m.trick:
        facts.append(("exhausted", bool(vw.get("exhausted")),
                      m.exhausted if v == trumper else False))
    if m.to_move() == v:
        legal = (vw.get("legal") or {}).get("cards") or []
        facts.append(("legal cards of seat %d" % v, sorted(legal), sorted(m.legal(v))))
    for name, got, want in facts:
        if got != want:
            return "%s %s, model %s" % (name, got, want)
    return None


def check_play_views(views, rec, deals):
    """views[v]: replay output with --view v. Walks each deal with a fresh
    model and compares every view line with it."""
    index = [{(x["deal"], x["action"]): x["view"] for x in out
              if isinstance(x, dict) and "view" in x} for out in views]
    for n, d in enumerate(deals):
        acts = d["acts"]
        nb = d["bidding"]
        trump4 = next(i for i, a in enumerate(acts) if a["do"] == "trump")
        m = None
        for i, act in enumerate(acts):
            accepted = d["ok"][i]
            if i == nb - 1:
                m = Play(d["dealer"], d["hands"], d["trumper"], d["bid"], d["card"])
            elif accepted and act["do"] == "open":
                m.open_game()
            elif accepted and act["do"] == "play":
                m.play(act["seat"], act["card"])
            ended = i == len(acts) - 1
            for v in range(4):
                vw = index[v].get((n, i))
                where = "deal %d view of seat %d after action %d %s" % (n, v, i, short(act))
                if vw is None:
                    if accepted:
                        return where + ": no view line"
                    continue
                if not accepted:
                    return where + ": a view line after a refused action"
                if ended:
                    known, dealer = set(), d["next_dealer"]
                elif m is None:
                    known = set(d["hands"][v][:4] if i < trump4 else d["hands"][v])
                    dealer = d["dealer"]
                else:
                    known, dealer = m.knowable(v), d["dealer"]
                if vw.get("phase") == "over":
                    known = m.knowable(v)
                elif vw.get("dealer") != dealer:
                    return where + ": dealer %s, model %s" % (vw.get("dealer"), dealer)
                bad = cards_named(vw) - known
                if bad:
                    return where + ": names %s, which it may not know" % sorted(bad)
                if m is not None and not ended:
                    if vw.get("phase") != "play":
                        return where + ": phase %s, model play" % vw.get("phase")
                    problem = compare_play_view(m, d, v, vw)
                    if problem:
                        return where + ": " + problem
    return None


def check_play_match(rp, rng, n_deals, skew):
    rec, deals, tokens = play_match(rng, n_deals, skew)
    try:
        out = rp.run(rec)
        problem = check_actions(out, rec, [d["ok"] for d in deals]) or \
            check_play_ends(out, deals, tokens)
        if not problem:
            problem = check_play_views([rp.run(rec, v) for v in range(4)], rec, deals)
    except RuntimeError as e:
        problem = str(e)
    at = re.match(r"deal (\d+)", problem or "")
    if at:
        d = deals[int(at.group(1))]
        problem += "\n    (that deal: dealer %d, seat %d bids %s, trump card %s%s%s)" % (
            d["dealer"], d["trumper"], d["bid"], d["card"],
            ", opened" if d["opened"] else "",
            ", seat %d calls spoilt" % d["spoilt"][0] if d["spoilt"] else "")
    return rec, len(deals), problem


# ------------------------------------------------------------ bidding

BID_VALUES = [150, 155, 160, 165, 170, 180, 190, 195, 200, 205, 210, 220,
              245, 250, 255, 260, 270, 300, 310, "pcc"]


def bidding_record(rng):
    """A random bidding sequence (mostly by the seat to act, some out of
    turn or wrong) with the model's answer and state after each action."""
    dealer = rng.randrange(4)
    deck = rng.sample(DECK, 32)
    single, fives = rng.random() < 0.5, rng.random() < 0.5
    m = Bidding(dealer, deck, single, fives)
    acts, answers, states = [], [], []
    for _ in range(40):
        if m.phase in ("over", "play"):
            break
        choosing = m.phase.startswith("trump")
        if rng.random() < 0.8:
            seat = m.trumper if choosing else m.turn
        else:
            seat = rng.randrange(4)
        if choosing:
            do = "trump" if rng.random() < 0.9 else rng.choice(["pass", "bid", "redeal"])
        else:
            do = rng.choices(["bid", "pass", "partner", "redeal", "trump"],
                             [5, 5, 2, 1, 0.3])[0]
        act = {"seat": seat, "do": do}
        if do == "bid":
            act["value"] = rng.choice(BID_VALUES)
        elif do == "trump":
            wide = rng.random() < 0.3 or m.phase == "trump8"
            act["card"] = rng.choice(m.hands[seat] if wide else m.first4(seat))
        answers.append(m.apply(act))
        acts.append(act)
        states.append((m.phase, m.turn if m.phase in ("bid4", "bid8") else m.trumper,
                       m.phase not in ("bid4", "trump4")))
    COVERAGE["bidding ends in " + m.phase] += 1
    rules = {"bidding": "single" if single else "pagat",
             "fives": "on" if fives else "off"}
    rec = make_record(dealer, [{"deck": deck, "actions": acts}], rules)
    return rec, m, answers, states


def check_bidding(rp, rng, view_seat):
    rec, m, answers, states = bidding_record(rng)
    try:
        problem = bidding_problem(rp, rec, m, answers, states, view_seat)
    except RuntimeError as e:
        problem = str(e)
    if problem:
        problem += "\n    (dealer %d, rules %s)" % (rec["dealer"], json.dumps(rec["rules"]))
    return rec, problem


def bidding_problem(rp, rec, m, answers, states, view_seat):
    out = rp.run(rec)
    problem = check_actions(out, rec, [[a != "refused" for a in answers]])
    ends = [x["end"] for x in out if isinstance(x, dict) and "end" in x]
    if not problem:
        ending = answers[-1] if answers and answers[-1] not in ("ok", "refused") else None
        if ending is None and ends:
            problem = "the engine ends the deal (%s), the model does not" % ends[0].get("outcome")
        elif ending and (not ends or ends[0].get("outcome") != ending
                         or ends[0].get("tokens") != [11, 11]):
            problem = "end: engine %s, model outcome %s, tokens [11, 11]" % (
                ends[0] if ends else None, ending)
    if not problem:
        problem = check_bidding_views(rp.run(rec, view_seat), rec, m, answers,
                                      states, view_seat)
    return problem


def check_bidding_views(out, rec, m, answers, states, v):
    acts = rec["deals"][0]["actions"]
    views = {x["action"]: x["view"] for x in out if isinstance(x, dict) and "view" in x}
    for i, act in enumerate(acts):
        vw = views.get(i)
        where = "view of seat %d after action %d %s" % (v, i, short(act))
        if answers[i] == "refused":
            if vw is not None:
                return where + ": a view line after a refused action"
            continue
        if vw is None:
            return where + ": no view line"
        phase, turn, all8 = states[i]
        known = set(m.hands[v] if all8 else m.first4(v))
        dealer = rec["dealer"]
        if phase == "over":
            # the deal has ended: nothing shown yet of the next one, dealt
            # again by the same dealer after a rejected hand
            known, phase = set(), "deal"
            if answers[i] == "passed_out":
                dealer = (dealer + 1) % 4
        if vw.get("dealer") != dealer:
            return where + ": dealer %s, model %s" % (vw.get("dealer"), dealer)
        bad = cards_named(vw) - known
        if bad:
            return where + ": names %s, which it may not know" % sorted(bad)
        if vw.get("phase") != phase:
            return where + ": phase %s, model %s" % (vw.get("phase"), phase)
        if phase in ("bid4", "trump4", "bid8", "trump8") and vw.get("turn") != turn:
            return where + ": turn %s, model %s" % (vw.get("turn"), turn)
    return None


# ------------------------------------------------------------ main

def main():
    binary = cardbot_path()
    if not os.path.exists(binary):
        print("binary not found: %s" % binary)
        print("rules_model: 0 passed, 1 failed")
        return 1
    seed = env_int("RULES_MODEL_SEED", 304)
    want_deals = env_int("RULES_MODEL_DEALS", 160)
    n_bids = env_int("RULES_MODEL_BIDS", 400)
    rng = random.Random(seed)
    rp = Replayer(binary)
    passed = failed = 0
    shown = 0
    stats = {"matches": 0, "deals": 0, "skewed matches": 0, "bidding records": 0}

    def report(kind, rec, problem):
        nonlocal failed, shown
        failed += 1
        if shown >= SHOW_AT_MOST:
            return
        shown += 1
        fd, path = tempfile.mkstemp(prefix="rules_model_", suffix=".json")
        with os.fdopen(fd, "w") as f:
            json.dump(rec, f)
        print("DISAGREE (%s): %s" % (kind, problem))
        print("    record: %s  (cardbot replay [--view SEAT] %s)" % (path, path))

    COVERAGE.clear()
    deals = 0
    while deals < want_deals:
        skew = stats["matches"] % 2 == 1
        rec, n, problem = check_play_match(rp, rng, rng.randrange(2, 9), skew)
        deals += n
        stats["matches"] += 1
        stats["skewed matches"] += skew
        if problem:
            report("play match%s" % (", trump-heavy" if skew else ""), rec, problem)
        else:
            passed += 1
    stats["deals"] = deals
    stats["completed matches"] = COVERAGE.pop("completed matches", 0)
    for k in range(n_bids):
        rec, problem = check_bidding(rp, rng, k % 4)
        stats["bidding records"] += 1
        if problem:
            report("bidding", rec, problem)
        else:
            passed += 1
    if failed > shown:
        print("(%d more disagreements not shown)" % (failed - shown))
    print("seed %d: %s" % (seed, ", ".join("%s %d" % kv for kv in stats.items())))
    print("came up: %s" % ", ".join("%s %d" % kv for kv in sorted(COVERAGE.items())))
    print("rules_model: %d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
