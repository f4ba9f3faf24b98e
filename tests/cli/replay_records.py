#!/usr/bin/env python3
"""replay_records.py: replays every game record in tests/records (a folder
per game) through `cardbot replay` and checks the output against the
record's .expect file.

Environment: CARDBOT, the binary under test (default bin/cardbot, relative to
the repository root unless absolute).

A record is tests/records/GAME/NAME.json; it is run only when NAME.expect lies
beside it. The .expect file holds one item a line:

  {"deal": 0, "action": 3, "ok": false, "code": "follow_suit"}
      An output line must match: every key named here must be in the output
      object with an equal value (objects compared the same way, recursively;
      lists compared exactly). Expected lines must match output lines in the
      order given; other output lines may come between.
  !{"deal": 0, "end": {"outcome": "spoilt"}}
      No output line at all may match this.
  #args --view 1
      (first line only) extra arguments for the main run.
  #noview SEAT CARD [DEAL [FROM [TO]]]
      Replayed with --view SEAT, no view line (of deal DEAL, actions FROM to
      TO inclusive, when given) names CARD.
  #hasview SEAT CARD DEAL ACTION
      Replayed with --view SEAT, the view line after that action names CARD.
  # anything else     a comment; blank lines are ignored.

Every record is also checked for this: the points of each scored deal add up
to 304, or 200 in Rook (deals ended by a spoilt call are left out).

Prints one line per record and ends with "replay_records: N passed, M failed".
"""
import glob
import json
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RECORDS = os.path.join(ROOT, "tests", "records")
TIMEOUT = 20


def cardbot_path():
    path = os.environ.get("CARDBOT", "bin/cardbot")
    if not os.path.isabs(path) and os.sep in path:
        path = os.path.join(ROOT, path)
    return path


def matches(want, got):
    """True when got has every key of want with an equal value."""
    if isinstance(want, dict):
        if not isinstance(got, dict):
            return False
        return all(k in got and matches(v, got[k]) for k, v in want.items())
    if isinstance(want, bool) or isinstance(got, bool):
        return type(want) is type(got) and want == got
    return want == got


CARD_RE = re.compile(r"^[789TJQKA][SHDC]$")


def names_card(obj, card):
    """True when a card code appears anywhere in a view, as a string value or
    as a word of one."""
    if isinstance(obj, dict):
        return any(names_card(v, card) for v in obj.values())
    if isinstance(obj, list):
        return any(names_card(v, card) for v in obj)
    if isinstance(obj, str):
        if obj.upper() == card:
            return True
        return card in re.split(r"[^0-9A-Za-z]+", obj.upper())
    return False


def parse_expect(path):
    items = []  # (kind, data, text)
    args = []
    with open(path, encoding="utf-8") as f:
        for n, raw in enumerate(f, 1):
            line = raw.strip()
            if not line:
                continue
            if line.startswith("#args"):
                args += line.split()[1:]
            elif line.startswith("#noview") or line.startswith("#hasview"):
                parts = line.split()
                kind = parts[0][1:]
                nums = [int(x) for x in parts[3:]]
                items.append((kind, (int(parts[1]), parts[2].upper(), nums), line))
            elif line.startswith("#"):
                continue
            elif line.startswith("!"):
                items.append(("not", json.loads(line[1:]), line))
            else:
                items.append(("line", json.loads(line), line))
    return args, items


def run(binary, args, record):
    try:
        p = subprocess.run([binary, "replay"] + args + [record], cwd=ROOT,
                           capture_output=True, text=True, timeout=TIMEOUT)
    except FileNotFoundError:
        return None, "binary not found: %s" % binary
    except subprocess.TimeoutExpired:
        return None, "timed out after %ds" % TIMEOUT
    out = []
    for raw in p.stdout.splitlines():
        try:
            out.append(json.loads(raw))
        except ValueError:
            out.append(raw)
    err = None
    if p.returncode < 0:
        err = "killed by signal %d" % -p.returncode
    elif not out:
        err = "no output (exit %d): %s" % (p.returncode, p.stderr.strip()[:300])
    return out, err


def show(line):
    return line if isinstance(line, str) else json.dumps(line, separators=(",", ":"))


def nearby(out, pos, want):
    """Output lines worth showing next to an unmatched expectation."""
    picked = []
    if isinstance(want, dict) and "deal" in want:
        for line in out:
            if isinstance(line, dict) and line.get("deal") == want["deal"] and \
                    ("action" not in want or line.get("action") == want["action"]) and \
                    ("end" not in want or "end" in line):
                picked.append(line)
    if not picked:
        picked = out[pos:pos + 4]
    return "\n".join("      " + show(x)[:400] for x in picked[:4]) or "      (no output)"


def check_record(binary, record, expect):
    args, items = parse_expect(expect)
    out, err = run(binary, args, record)
    if out is None or err:
        return err
    with open(record, encoding="utf-8") as f:
        rec = json.load(f)

    # Expected lines in order.
    pos = 0
    for kind, data, text in items:
        if kind == "line":
            for i in range(pos, len(out)):
                if matches(data, out[i]):
                    pos = i + 1
                    break
            else:
                return "unmatched: %s\n    output near it:\n%s" % (text, nearby(out, pos, data))
        elif kind == "not":
            for line in out:
                if matches(data, line):
                    return "matched a forbidden line: %s\n      %s" % (text, show(line)[:400])

    # Points of scored deals add up to 304 (Rook: 180 counters and 20 for cards).
    total = 200 if rec.get("game") == "rook" else 304
    spoilt_deals = set()
    for line in out:
        if isinstance(line, dict) and line.get("ok") is True and "action" in line:
            d, a = line.get("deal"), line.get("action")
            try:
                if rec["deals"][d]["actions"][a].get("do") == "spoilt":
                    spoilt_deals.add(d)
            except (IndexError, KeyError, TypeError):
                pass
    for line in out:
        if isinstance(line, dict) and isinstance(line.get("end"), dict):
            end = line["end"]
            if end.get("outcome") != "scored" or line.get("deal") in spoilt_deals:
                continue
            p = end.get("points")
            if not (isinstance(p, list) and len(p) == 2 and sum(p) == total):
                return "points of a scored deal do not add up to %d: %s" % (total, show(line)[:400])

    # Views.
    views = {}
    for kind, data, text in items:
        if kind not in ("noview", "hasview"):
            continue
        seat, card, nums = data
        if seat not in views:
            vout, verr = run(binary, ["--view", str(seat)], record)
            if vout is None or verr:
                return "with --view %d: %s" % (seat, verr)
            views[seat] = [x for x in vout if isinstance(x, dict) and "view" in x]
            if not views[seat]:
                return "with --view %d: no view lines" % seat
        if kind == "noview":
            for v in views[seat]:
                if len(nums) > 0 and v.get("deal") != nums[0]:
                    continue
                if len(nums) > 1 and v.get("action", -1) < nums[1]:
                    continue
                if len(nums) > 2 and v.get("action", -1) > nums[2]:
                    continue
                if names_card(v["view"], card):
                    return "%s: seat %d sees %s after deal %s action %s:\n      %s" % (
                        text, seat, card, v.get("deal"), v.get("action"), show(v)[:600])
        else:
            d, a = nums[0], nums[1]
            found = [v for v in views[seat] if v.get("deal") == d and v.get("action") == a]
            if not found:
                return "%s: no view line for deal %d action %d" % (text, d, a)
            if not any(names_card(v["view"], card) for v in found):
                return "%s: seat %d does not see %s:\n      %s" % (text, seat, card, show(found[0])[:600])
    return None


def main():
    binary = cardbot_path()
    passed = failed = 0
    for record in sorted(glob.glob(os.path.join(RECORDS, "*", "*.json"))):
        expect = record[:-5] + ".expect"
        if not os.path.exists(expect):
            continue
        name = os.path.basename(record)[:-5]
        try:
            problem = check_record(binary, record, expect)
        except Exception as e:  # a malformed .expect or record is a failure too
            problem = "checker error: %r" % (e,)
        if problem:
            failed += 1
            print("FAIL %s: %s" % (name, problem))
        else:
            passed += 1
            print("ok   %s" % name)
    print("replay_records: %d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
