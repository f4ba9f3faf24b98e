#!/usr/bin/env python3
"""replay_errors.py: drives `cardbot replay` with malformed and well-formed records.

Malformed records must exit 2 with nothing on stdout and one stderr line
naming the field; an unreadable file exits 1; bad usage exits 64; a record
with refused actions replays (exit 0) with "ok": false lines. The binary is
$CARDBOT (default bin/cardbot). The last line is "replay_errors: N passed,
M failed", and the exit status is 1 if any check failed.
"""
import copy
import json
import os
import random
import re
import subprocess
import sys
import tempfile

CARDBOT = os.environ.get("CARDBOT", "bin/cardbot")
RANKS = "789TJQKA"
SUITS = "SHDC"
DECK = [r + s for s in SUITS for r in RANKS]
CODE = re.compile(r"^(?:[789TJQKA]|10)[SHDC]$")

passed = 0
failed = 0


def check(cond, name, detail=""):
    global passed, failed
    if cond:
        passed += 1
    else:
        failed += 1
        print("FAIL %s%s" % (name, (": " + detail) if detail else ""))


def run(args, stdin=None):
    p = subprocess.run([CARDBOT] + args, input=stdin, capture_output=True, timeout=60)
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")


def base_record():
    """A well-formed record: dealer 0, so seat 1 (ben) bids first."""
    return {
        "format": "cardbot-record/1",
        "game": "304",
        "players": ["ann", "ben", "cat", "dev"],
        "dealer": 0,
        "deals": [
            {"deck": list(DECK), "actions": [
                {"seat": 1, "do": "bid", "value": 160},
                {"seat": 2, "do": "pass"},
                {"seat": 3, "do": "pass"},
                {"seat": 0, "do": "pass"},
            ]},
            {"deck": list(reversed(DECK)), "actions": []},
        ],
    }


def six_deck():
    """The 36 cards of six-player 304 in a fixed order."""
    return [r + s for s in "SHDC" for r in "678QKTA9J"]


def write(tmp, name, data):
    path = os.path.join(tmp, name)
    mode = "wb" if isinstance(data, bytes) else "w"
    with open(path, mode) as f:
        if isinstance(data, (bytes, str)):
            f.write(data)
        else:
            json.dump(data, f)
    return path


def lines(out):
    return [json.loads(l) for l in out.splitlines() if l.strip()]


def malformed_cases():
    """(name, record as object or raw text/bytes, text stderr must contain)."""
    cases = []

    def mod(name, fn, expect):
        r = base_record()
        fn(r)
        cases.append((name, r, expect))

    cases.append(("bad json", "{\"format\": ", "bad JSON"))
    cases.append(("bad json position", "{\n  \"format\": x\n}", "line 2"))
    cases.append(("empty file", "", "bad JSON"))
    cases.append(("text after record", json.dumps(base_record()) + " {}", "text after the record"))
    cases.append(("nul byte", b"{\"format\": \"cardbot-record/1\"\x00}", "NUL"))
    cases.append(("invalid utf-8", b"{\"format\": \"\xff\xfe\"}", "bad JSON"))
    cases.append(("too deep", "[" * 100 + "]" * 100, "bad JSON"))
    cases.append(("top-level list", "[]", "record: expected an object"))
    mod("format missing", lambda r: r.pop("format"), "format: missing")
    mod("format wrong", lambda r: r.update(format="cardbot-record/2"), "format: \"cardbot-record/2\"")
    mod("format not a string", lambda r: r.update(format=1), "format: expected")
    mod("game unknown", lambda r: r.update(game="bridge"), "game: \"bridge\" is not a game")
    mod("game rook with a 304 deck", lambda r: r.update(game="rook"),
        "deals[0].deck: expected 57 cards, found 32")
    mod("trump304 with five players", lambda r: r.update(game="trump304", players=list("abcde")),
        "players: expected a list of 2 to 4 names, found 5")
    mod("trump304 option", lambda r: r.update(game="trump304", rules={"caps": "off"}),
        "rules: unknown option \"caps\"; trump304 has no options")
    mod("trump304 seat past the players", lambda r: r.update(game="trump304", players=["a", "b"]),
        "deals[0].actions[1].seat: 2 is not a seat (0-1)")
    mod("game missing", lambda r: r.pop("game"), "game: missing")
    # Six-player 304 ("304six"): six names, 36-card decks, 304's options and action forms.
    mod("304six with four players", lambda r: r.update(game="304six"),
        "players: expected a list of 6 names, found 4")
    mod("304six with a 32-card deck", lambda r: r.update(game="304six", players=list("abcdef")),
        "deals[0].deck: expected 36 cards, found 32")
    mod("304six unknown option",
        lambda r: r.update(game="304six", players=list("abcdef"), rules={"timer": 30}),
        "rules: unknown option \"timer\"")
    mod("304six bad card", lambda r: r.update(game="304six", players=list("abcdef"),
                                              deals=[{"deck": ["5S"] + six_deck()[1:], "actions": []}]),
        "deals[0].deck[0]: unknown card \"5S\"")
    mod("304six seat past the players", lambda r: r.update(game="304six", players=list("abcdef"),
                                                           deals=[{"deck": six_deck(), "actions": [{"seat": 6, "do": "pass"}]}]),
        "deals[0].actions[0].seat: 6 is not a seat (0-5)")
    mod("304six caps order too long", lambda r: r.update(game="304six", players=list("abcdef"),
                                                         deals=[{"deck": six_deck(), "actions": [{"seat": 1, "do": "caps", "order": six_deck()[:9]}]}]),
        "deals[0].actions[0].order: expected 1 to 8 cards, found 9")
    mod("304six bid value word", lambda r: r.update(game="304six", players=list("abcdef"),
                                                    deals=[{"deck": six_deck(), "actions": [{"seat": 1, "do": "bid", "value": "lots"}]}]),
        "deals[0].actions[0].value: \"lots\" is not a bid")
    mod("unknown card", lambda r: r["deals"][1]["deck"].__setitem__(5, "XZ"),
        "deals[1].deck[5]: unknown card \"XZ\"")
    mod("card with trailing text", lambda r: r["deals"][0]["deck"].__setitem__(3, "JSS"),
        "deals[0].deck[3]: unknown card \"JSS\"")
    mod("card not a string", lambda r: r["deals"][0]["deck"].__setitem__(3, 7),
        "deals[0].deck[3]: expected a card code")
    mod("deck of 31", lambda r: r["deals"][0]["deck"].pop(), "deals[0].deck: expected 32 cards, found 31")
    mod("deck of 33", lambda r: r["deals"][0]["deck"].append("JS"), "deals[0].deck: expected 32 cards, found 33")
    mod("duplicate card", lambda r: r["deals"][0]["deck"].__setitem__(9, r["deals"][0]["deck"][2]),
        "deals[0].deck[9]: duplicate card \"9S\" (also at deals[0].deck[2])")
    mod("deck missing", lambda r: r["deals"][0].pop("deck"), "deals[0].deck: missing")
    mod("actions missing", lambda r: r["deals"][0].pop("actions"), "deals[0].actions: missing")
    mod("deal not an object", lambda r: r["deals"].__setitem__(1, []), "deals[1]: expected a deal object")
    mod("deals not a list", lambda r: r.update(deals={}), "deals: expected a list")
    mod("deals missing", lambda r: r.pop("deals"), "deals: missing")
    mod("unknown option", lambda r: r.update(rules={"timer": 30}), "rules: unknown option \"timer\"")
    mod("unknown option value", lambda r: r.update(rules={"caps": "maybe"}), "rules.caps: unknown value \"maybe\"")
    mod("option wrong type", lambda r: r.update(rules={"bidding": True}), "rules.bidding: expected")
    mod("rules not an object", lambda r: r.update(rules=[]), "rules: expected an object")
    mod("seat out of range",
        lambda r: r["deals"][0]["actions"][3].update(seat=7),
        "deals[0].actions[3].seat: 7 is not a seat (0-3)")
    mod("negative seat", lambda r: r["deals"][0]["actions"][0].update(seat=-1),
        "deals[0].actions[0].seat: -1 is not a seat (0-3)")
    mod("seat as string", lambda r: r["deals"][0]["actions"][0].update(seat="1"),
        "deals[0].actions[0].seat: expected a seat number")
    mod("seat fractional", lambda r: r["deals"][0]["actions"][0].update(seat=1.5),
        "deals[0].actions[0].seat: expected a seat number")
    mod("seat missing", lambda r: r["deals"][0]["actions"][1].pop("seat"), "deals[0].actions[1].seat: missing")
    mod("unknown action", lambda r: r["deals"][0]["actions"][2].update({"do": "shout"}),
        "deals[0].actions[2].do: unknown action \"shout\"")
    mod("do missing", lambda r: r["deals"][0]["actions"][2].pop("do"), "deals[0].actions[2].do: missing")
    mod("bid without value", lambda r: r["deals"][0]["actions"][0].pop("value"),
        "deals[0].actions[0].value: missing")
    # (at or above pcc's number, 1000 since 904's bids reach 900, a number
    # is not a bid; below it the engine says why a bid is too high: the
    # records bid_limits and bids_904)
    mod("bid value 1000", lambda r: r["deals"][0]["actions"][0].update(value=1000),
        "deals[0].actions[0].value: 1000 is not a bid")
    mod("bid value word", lambda r: r["deals"][0]["actions"][0].update(value="lots"),
        "deals[0].actions[0].value: \"lots\" is not a bid")
    mod("play without card", lambda r: r["deals"][0]["actions"].append({"seat": 1, "do": "play"}),
        "deals[0].actions[4].card: missing")
    mod("trump with bad card", lambda r: r["deals"][0]["actions"].append({"seat": 1, "do": "trump", "card": "1S"}),
        "deals[0].actions[4].card: unknown card \"1S\"")
    mod("caps without order", lambda r: r["deals"][0]["actions"].append({"seat": 1, "do": "caps"}),
        "deals[0].actions[4].order: missing")
    mod("caps bad order card",
        lambda r: r["deals"][0]["actions"].append({"seat": 1, "do": "caps", "order": ["JS", "ZZ"]}),
        "deals[0].actions[4].order[1]: unknown card \"ZZ\"")
    mod("action not an object", lambda r: r["deals"][0]["actions"].append("pass"),
        "deals[0].actions[4]: expected an action object")
    mod("players three", lambda r: r["players"].pop(), "players: expected a list of 4 names, found 3")
    mod("players not strings", lambda r: r["players"].__setitem__(2, 5), "players[2]: expected a name")
    mod("player empty", lambda r: r["players"].__setitem__(0, ""), "players[0]: empty name")
    mod("players not a list", lambda r: r.update(players="ann,ben"), "players: expected a list")
    mod("dealer out of range", lambda r: r.update(dealer=4), "dealer: 4 is not a seat (0-3)")
    mod("dealer missing", lambda r: r.pop("dealer"), "dealer: missing")
    mod("too many actions",
        lambda r: r["deals"][0].update(actions=[{"seat": 1, "do": "pass"}] * 1001),
        "deals[0].actions: 1001 actions")
    mod("control characters quoted",
        lambda r: r["deals"][0]["deck"].__setitem__(0, "J\nS"),
        "deals[0].deck[0]: unknown card \"J\\x0aS\"")
    mod("card with a NUL inside", lambda r: r["deals"][0]["deck"].__setitem__(0, "J\u0000S"),
        "deals[0].deck[0]: unknown card \"J\\x00S\"")
    mod("action name with a NUL inside", lambda r: r["deals"][0]["actions"][1].update({"do": "pass\u0000"}),
        "deals[0].actions[1].do: unknown action")
    mod("long bad card cut short", lambda r: r["deals"][0]["deck"].__setitem__(0, "x" * 1000),
        "deals[0].deck[0]: unknown card \"xxxxxxxxxxxxxxxxxxxxxxxx...\"")
    return cases


def test_malformed(tmp):
    for name, rec, expect in malformed_cases():
        path = write(tmp, "bad.json", rec)
        rc, out, err = run(["replay", path])
        check(rc == 2, name, "exit %d, stderr %r" % (rc, err))
        check(out == "", name + " (stdout empty)", repr(out[:200]))
        check(expect in err, name + " (stderr names the field)", "expected %r in %r" % (expect, err))
        check(err.count("\n") == 1, name + " (one line)", repr(err))


def test_too_big(tmp):
    path = write(tmp, "big.json", " " * (16 * 1024 * 1024 + 1))
    rc, out, err = run(["replay", path])
    check(rc == 2 and out == "" and "larger than the limit" in err, "file over 16 MiB", "%d %r" % (rc, err))


def test_unreadable(tmp):
    missing = os.path.join(tmp, "no-such-record.json")
    rc, out, err = run(["replay", missing])
    check(rc == 1, "missing file exits 1", "exit %d" % rc)
    check(missing in err and "No such file" in err, "missing file named", repr(err))
    check(out == "", "missing file: stdout empty", repr(out))
    rc, out, err = run(["replay", tmp])
    check(rc == 1 and tmp in err, "directory exits 1", "exit %d %r" % (rc, err))


def test_usage():
    rc, out, err = run(["--help"])
    check(rc == 0 and "replay" in out and "version" in out, "--help lists commands", repr(out))
    rc, out2, _ = run(["help"])
    check(rc == 0 and out2 == out, "help is --help")
    rc, out, _ = run(["--version"])
    check(rc == 0 and out.startswith("cardbot "), "--version", repr(out))
    rc, out, _ = run(["version"])
    check(rc == 0 and out.startswith("cardbot "), "version", repr(out))
    rc, out, err = run(["replay", "--help"])
    check(rc == 0 and "--view" in out and "usage: cardbot replay" in out, "replay --help", repr(out))
    rc, out2, err = run(["help", "replay"])
    check(rc == 0 and out2 == out, "help replay is replay --help", repr(out2))
    rc, out, err = run(["frobnicate"])
    check(rc == 64 and "frobnicate" in err and "usage" in err and out == "", "unknown command exits 64",
          "%d %r" % (rc, err))
    rc, out, err = run([])
    check(rc == 64 and "usage" in err, "no command exits 64", "%d %r" % (rc, err))
    rc, out, err = run(["replay"])
    check(rc == 64 and "FILE" in err, "replay without FILE exits 64", "%d %r" % (rc, err))
    rc, out, err = run(["replay", "--view", "9", "-"])
    check(rc == 64 and "--view" in err, "replay --view 9 exits 64", "%d %r" % (rc, err))
    # Seats 4 and 5 exist only in six-player records.
    four = json.dumps(base_record()).encode()
    rc, out, err = run(["replay", "--view", "5", "-"], stdin=four)
    check(rc == 64 and "no such seat" in err, "replay --view 5 of a four-player record exits 64",
          "%d %r" % (rc, err))
    six = json.dumps({"format": "cardbot-record/1", "game": "304six", "players": list("abcdef"), "dealer": 0,
                      "deals": [{"deck": six_deck(), "actions": [{"seat": 1, "do": "pass"}]}]}).encode()
    rc, out, err = run(["replay", "--view", "5", "-"], stdin=six)
    views = [l["view"] for l in lines(out) if "view" in l]
    check(rc == 0 and len(views) == 1 and views[0]["seat"] == 5 and len(views[0]["hand"]) == 4
          and views[0]["phase"] == "bid4", "replay --view 5 of a six-player record", "%d %r %r" % (rc, out, err))
    rc, out, err = run(["replay", "--frob", "-"])
    check(rc == 64 and "--frob" in err, "replay unknown option exits 64", "%d %r" % (rc, err))


def test_refused(tmp):
    rec = base_record()
    rec["deals"][0]["actions"].insert(0, {"seat": 2, "do": "bid", "value": 170})
    rec["unknown_future_key"] = {"anything": [1, 2]}
    path = write(tmp, "refused.json", rec)
    rc, out, err = run(["replay", path])
    check(rc == 0, "refused action: exit 0", "exit %d %r" % (rc, err))
    got = lines(out)
    first = got[0] if got else {}
    check(first.get("deal") == 0 and first.get("action") == 0 and first.get("ok") is False,
          "refused action: ok false line", repr(first))
    check(first.get("code") == "not_your_turn", "refused action: code", repr(first))
    check("waiting for ben" in first.get("error", ""), "refused action: words", repr(first))
    check(all(l.get("ok") is True for l in got[1:5]), "later actions go on", repr(got[1:5]))
    # The second deal cannot start: the first one never ended.
    d1 = [l for l in got if l.get("deal") == 1]
    check(len(d1) == 1 and d1[0].get("ok") is False and d1[0].get("code") == "wrong_phase"
          and "action" not in d1[0], "deal refused while one is in progress", repr(d1))
    last = got[-1] if got else {}
    check(last == {"match": {"tokens": [11, 11], "winner": None, "complete": False}},
          "match line last", repr(last))
    # The same record read from standard input gives the same lines.
    rc2, out2, _ = run(["replay", "-"], stdin=json.dumps(rec).encode())
    check(rc2 == 0 and out2 == out, "- reads standard input", repr(out2[:200]))


def test_rules_accepted(tmp):
    rec = base_record()
    rec["rules"] = {"bidding": "single", "fives": True, "scoring": "transfer", "caps": "off",
                    "external_caps": "on"}
    rc, out, err = run(["replay", write(tmp, "rules.json", rec)])
    check(rc == 0, "every rule option accepted", "%d %r" % (rc, err))
    rec["rules"] = {"bidding": "pagat", "fives": "off", "scoring": "bank", "caps": "lenient",
                    "external_caps": False}
    rc, out, err = run(["replay", write(tmp, "rules.json", rec)])
    check(rc == 0, "every rule option accepted (2)", "%d %r" % (rc, err))
    rec["deals"][0]["deck"] = [c.lower().replace("t", "10") for c in DECK]
    rc, out, err = run(["replay", write(tmp, "rules.json", rec)])
    check(rc == 0, "lower-case cards and 10 accepted", "%d %r" % (rc, err))


def seat_cards(deck, dealer, seat):
    """The eight cards dealt to seat from a deck."""
    k = (seat - dealer - 1) % 4
    return set(deck[4 * k:4 * k + 4]) | set(deck[16 + 4 * k:16 + 4 * k + 4])


def codes_in(obj):
    """Every card code anywhere in a JSON value."""
    if isinstance(obj, str):
        return {obj} if CODE.match(obj) else set()
    if isinstance(obj, list):
        return set().union(*[codes_in(x) for x in obj]) if obj else set()
    if isinstance(obj, dict):
        return set().union(*[codes_in(v) for k, v in obj.items()]) if obj else set()
    return set()


def test_views(tmp, seed):
    """Drives a whole deal by legal actions read from views, checking that each
    is accepted and that no view names a card its seat was not dealt, unless
    it has been played or is the trump card of an open game."""
    rng = random.Random(seed)
    deck = list(DECK)
    rng.shuffle(deck)
    dealer = seed % 4
    rec = base_record()
    rec["dealer"] = dealer
    rec["deals"] = [{"deck": deck, "actions": []}]
    actions = rec["deals"][0]["actions"]
    path = os.path.join(tmp, "drive.json")

    def replay_as(seat):
        write(tmp, "drive.json", rec)
        rc, out, err = run(["replay", "--view", str(seat), path])
        if rc != 0:
            check(False, "drive %d: " % seed + "replay", "%d %r" % (rc, err))
            return None
        got = lines(out)
        played = {a["card"] for a in actions if a["do"] == "play"}
        played |= {c for a in actions if a["do"] == "caps" for c in a["order"]}
        trump = [a["card"] for a in actions if a["do"] == "trump"][-1:]
        for l in got:
            if "view" in l:
                # Once the trump is open, the trump card has been shown to all.
                public = played | (set(trump) if l["view"]["trump_open"] else set())
                extra = codes_in(l["view"]) - seat_cards(deck, dealer, seat) - public
                if extra:
                    check(False, "drive %d: " % seed + "view leaks", "seat %d sees %s after action %d"
                          % (seat, sorted(extra), l["action"]))
                    return None
        return got

    ended = None
    for _ in range(200):
        if not actions:
            turn, legal = (dealer + 1) % 4, {"actions": ["bid", "pass"], "bid_min": 160, "cards": []}
        else:
            got = replay_as(0)
            if got is None:
                return
            last = [l for l in got if l.get("action") == len(actions) - 1 and "ok" in l]
            if not (last and last[0]["ok"]):
                check(False, "drive %d: " % seed + "legal action accepted", repr(last))
                return
            ends = [l for l in got if "end" in l]
            if ends:
                ended = ends[0]["end"]
                break
            turn = [l for l in got if "view" in l][-1]["view"]["turn"]
            if turn is None:
                check(False, "drive %d: " % seed + "a deal in progress has a seat to move")
                return
            got = replay_as(turn)
            if got is None:
                return
            view = [l for l in got if "view" in l][-1]["view"]
            legal = view["legal"]
        acts = [a for a in legal["actions"] if a != "redeal"]
        for rare, p in (("open", 0.7), ("spoilt", 0.99), ("caps", 0.9)):
            if rare in acts and len(acts) > 1 and rng.random() < p:
                acts.remove(rare)
        if not acts:
            check(False, "drive %d: " % seed + "seat to move has an action", repr(legal))
            return
        act = rng.choice(acts)
        a = {"seat": turn, "do": act}
        if act == "bid":
            if legal["bid_min"] is None:
                a["value"] = "pcc"
            else:
                a["value"] = min(300, legal["bid_min"] + rng.choice((0, 0, 10, 50)))
        elif act in ("trump", "play"):
            a["card"] = rng.choice(legal["cards"])
        elif act == "caps":
            order = list(view["hand"])
            if view["trump_down"] and view["trumper"] == turn and view["trump_card"]:
                order.append(view["trump_card"])
            rng.shuffle(order)
            a["order"] = order
        actions.append(a)
    check(ended is not None, "drive %d: the deal ends" % seed, "after %d actions" % len(actions))
    if ended:
        check(set(ended) == {"outcome", "trumper", "bid", "points", "made", "tokens", "caps",
                             "caps_seat", "spoilt_seat", "spoilt_right", "paid"},
              "drive: end keys", repr(ended))
        check(ended["outcome"] in ("scored", "passed_out", "spoilt"), "drive: outcome", repr(ended))
        if ended["outcome"] == "scored":
            check(sum(ended["points"]) == 304, "drive: points add up to 304", repr(ended))
            check(sum(ended["tokens"]) == 22, "drive: tokens conserved", repr(ended))


def main():
    if not os.access(CARDBOT, os.X_OK):
        print("replay_errors: no binary at %s" % CARDBOT)
        print("replay_errors: 0 passed, 1 failed")
        return 1
    with tempfile.TemporaryDirectory() as tmp:
        test_malformed(tmp)
        test_too_big(tmp)
        test_unreadable(tmp)
        test_usage()
        test_refused(tmp)
        test_rules_accepted(tmp)
        for seed in range(20):
            test_views(tmp, seed)
    print("replay_errors: %d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
