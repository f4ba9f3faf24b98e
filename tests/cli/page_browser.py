#!/usr/bin/env python3
"""page_browser.py: the match page (`cardbot render`) in a real browser: Debian's
chromium, headless, driven over the DevTools protocol (tests/lib/cdplib.py).

For recorded matches of every game (304 with face-down plays and the trumper's
inspections; Trump304 with 2, 3 and 4 players; Rook), the page is stepped
through card by card with the keyboard, and at each step what it shows (each
hand, the trick on the table, which cards are face down) is compared with what
`cardbot replay --view SEAT` says for every seat, worked out here from the
replay's JSON lines and never from the page's own data. Also: no console
error or exception; the trick and deal keys; every control reachable by Tab
and operable by keyboard; every card and the plot with a text alternative;
buttons of at least 44 px on a phone; a hostile player name shown as text;
no line of the score plot runs over another (Trump304's two opponents of
three are paid alike: their lines were one on the other);
and the checker itself must catch a page whose story had two cards swapped.

chromium missing is a failure, not a skip (deploy/deps.sh installs it).
Environment: CARDBOT (default bin/cardbot). Prints "page_browser: N passed, M failed".
"""
import glob
import json
import os
import re
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import cdplib  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RECORDS = os.path.join(ROOT, "tests", "records")


def record_path(name):
    """tests/records/GAME/NAME.json (record names are unique across games)."""
    found = glob.glob(os.path.join(RECORDS, "*", name + ".json"))
    return found[0] if len(found) == 1 else os.path.join(RECORDS, name + ".json")
# (record, what it covers)
CASES = [
    ("closed_cut_success", "304: face-down plays, an inspection that finds a trump"),
    ("closed_cut_fail", "304: face-down plays, an inspection that finds none"),
    ("match_end", "304: a whole match of three deals"),
    ("t304_two_players", "Trump304, two players (draws)"),
    ("t304_three_players", "Trump304, three players (exchange)"),
    ("t304_tokens_four_players", "Trump304, four players, three deals"),
    ("rook_match", "Rook: a whole match"),
    ("six_play_inspection", "304 for six: six seats, face-down plays, an inspection"),
    ("six_spoilt_caps_pcc", "304 for six: spoilt trumps, caps, partner close caps"),
]
BUTTONS = ["deal-back", "trick-back", "step-back", "step-fwd", "trick-fwd", "deal-fwd", "help-toggle"]

passed = failed = 0


def check(ok, what):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print("FAIL: " + what)
    return ok


def cardbot():
    path = os.environ.get("CARDBOT", "bin/cardbot")
    if not os.path.isabs(path) and os.sep in path:
        path = os.path.join(ROOT, path)
    return path


def replay_lines(record, view=None):
    args = [cardbot(), "replay"] + (["--view", str(view)] if view is not None else []) + [record]
    out = subprocess.run(args, capture_output=True, text=True, timeout=60, check=True).stdout
    return [json.loads(line) for line in out.splitlines()]


def trick_of(views):
    """The trick on the table as all seats together see it: a list of (seat,
    card, still face down, played face down), and whether it has been taken."""
    v0 = views[0]
    if "tricks" in v0:  # 304: every trick of the deal; the last one with a card is on the table
        idx = max([i for i, t in enumerate(v0["tricks"]) if t["cards"]], default=None)
        if idx is None:
            return [], False
        out = []
        for i, c in enumerate(v0["tricks"][idx]["cards"]):
            code = c["card"]
            if code == "down":  # the seat that played it knows it
                code = views[c["seat"]]["tricks"][idx]["cards"][i]["card"]
            out.append((c["seat"], code, c["down"] and not c["shown"], c["down"]))
        return out, v0["tricks"][idx]["winner"] is not None
    t = v0.get("trick") or v0.get("last_trick")
    if not t:
        return [], False
    return [(c["seat"], c["card"], False) for c in t["cards"]], t["winner"] is not None


def aside_of(views):
    """Cards set aside face down, each as the seat that laid it knows it: the
    trump card (304, Trump304), the two put down (Trump304 of three), the
    discard (Rook). A sorted list of (seat, card)."""
    out = []
    for s, v in enumerate(views):
        if v.get("trump_card") and v.get("trumper") == s and (v.get("trump_down") or v.get("trump_aside")):
            out.append((s, v["trump_card"]))
        out += [(s, c) for c in v.get("put_down") or []]
        if v.get("discard"):
            out.append((s, v["discard"]))
    return sorted(out)


def expected_steps(record):
    """Every accepted action in order: {deal, action, hands, trick, ended, play}."""
    nseats = len(json.load(open(record))["players"])
    main = replay_lines(record)
    per_seat = []
    for s in range(nseats):
        views = {}
        for line in replay_lines(record, s):
            if "view" in line:
                views[(line["deal"], line["action"])] = line["view"]
        per_seat.append(views)
    rec = json.load(open(record))
    out = []
    for i, line in enumerate(main):
        if line.get("ok") is not True:
            continue
        key = (line["deal"], line["action"])
        ended = i + 1 < len(main) and "end" in main[i + 1] and main[i + 1]["deal"] == line["deal"]
        act = rec["deals"][key[0]]["actions"][key[1]]
        step = {"deal": key[0], "action": key[1], "ended": ended, "act": act}
        if not ended:
            views = [per_seat[s][key] for s in range(nseats)]
            step["hands"] = [sorted(v["hand"]) for v in views]
            step["trick"], step["taken"] = trick_of(views)
            step["aside"] = aside_of(views)
        else:
            # The views have moved on to the next deal: the state is the
            # previous action's with this action's card moved onto the trick.
            # A deal ended by its first accepted action (a redeal) has no
            # earlier view: its hands are not told (None), only the deal step's.
            prev = out[-1] if out and out[-1]["deal"] == key[0] else None
            hands = [list(h) for h in prev["hands"]] if prev and prev["hands"] is not None else None
            trick = list(prev["trick"]) if prev else []
            if act["do"] == "play":
                card = act["card"].upper()
                if hands is not None and card in hands[act["seat"]]:
                    hands[act["seat"]].remove(card)
                if not prev or prev["taken"]:
                    trick = []
                trick.append((act["seat"], card, None))  # None: face up or down, not told
            step["hands"], step["trick"], step["taken"] = hands, trick, True
        out.append(step)
    return out


SNAPSHOT = r"""(() => {
  const w = document.getElementById('where').dataset;
  const seats = [...document.querySelectorAll('.seat')].filter(s => !s.hidden);
  const card = c => ({seat: c.dataset.seat === undefined ? null : +c.dataset.seat, card: c.dataset.card || null,
    down: c.classList.contains('down'), label: c.getAttribute('aria-label') || '',
    role: c.getAttribute('role'), face: (c.querySelector('.face') || {}).textContent || ''});
  return {step: +w.step, deal: +w.deal, action: +w.action, kind: w.kind,
    hands: seats.map(s => [...s.querySelectorAll('.hand .card')].map(card)),
    trick: [...document.querySelectorAll('#trick .card')].map(card),
    aside: [...document.querySelectorAll('#aside .card')].map(card),
    dealTricks: document.querySelectorAll('#tricks > li').length,
    text: document.getElementById('text').textContent,
    inspect: document.querySelectorAll('#notes li.inspect').length};
})()"""


def words_of(code):
    """How the page names a card aloud, to make sure a face-down card is not named."""
    if code == "ROOK":
        return "the rook"
    if re.match(r"^\d+[RGYB]$", code):
        return {"R": "red", "G": "green", "Y": "yellow", "B": "black"}[code[-1]] + " " + code[:-1]
    rank = {"J": "jack", "Q": "queen", "K": "king", "A": "ace", "T": "10"}.get(code[0], code[0])
    suit = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}[code[1]]
    return rank + " of " + suit


def compare(name, snap, exp, problems):
    """Differences between a step shown and the one expected, into problems."""
    where = "%s deal %d action %d" % (name, exp["deal"], exp["action"])
    if (snap["kind"], snap["deal"], snap["action"]) != ("action", exp["deal"], exp["action"]):
        problems.append("%s: the page shows %s %d/%d" % (where, snap["kind"], snap["deal"], snap["action"]))
        return
    shown = [sorted(c["card"] for c in h) for h in snap["hands"]]
    if exp["hands"] is not None and shown != [sorted(h) for h in exp["hands"]]:
        problems.append("%s: hands %s, expected %s" % (where, shown, exp["hands"]))
    got = [(c["seat"], c["card"], c["down"]) for c in snap["trick"]]
    want = [w[:3] for w in exp["trick"]]
    if len(got) != len(want) or any(g[0] != w[0] or g[1] != w[1] or (w[2] is not None and g[2] != w[2])
                                    for g, w in zip(got, want)):
        problems.append("%s: trick %s, expected %s" % (where, got, want))
    if "aside" in exp:
        got_aside = sorted((c["seat"], c["card"]) for c in snap["aside"])
        if got_aside != exp["aside"] or not all(c["down"] for c in snap["aside"]):
            problems.append("%s: set aside %s, expected face down %s" % (where, snap["aside"], exp["aside"]))
    for c in snap["trick"] + snap["aside"] + [c for h in snap["hands"] for c in h]:
        if not c["label"] or c["role"] != "img":
            problems.append("%s: card %s has no text alternative" % (where, c["card"]))
        if c["down"]:
            if c["face"].strip() or "face-down" not in c["label"] or words_of(c["card"]) in c["label"].lower():
                problems.append("%s: face-down card %s shows or names its face (%r, %r)"
                                % (where, c["card"], c["face"], c["label"]))
        elif "face-down" in c["label"] or words_of(c["card"]) not in c["label"].lower():
            problems.append("%s: card %s labelled %r" % (where, c["card"], c["label"]))


def walk(page, name, expected):
    """Steps through the whole page with the Right key, checking each step;
    then back with the Left key. Returns (problems, snapshots, steps)."""
    problems = []
    page.key("Home")
    snaps = [page.eval(SNAPSHOT)]
    while True:
        page.key("ArrowRight")
        s = page.eval(SNAPSHOT)
        if s["step"] == snaps[-1]["step"]:
            break
        if s["step"] != snaps[-1]["step"] + 1:
            problems.append("%s: Right went from step %d to %d" % (name, snaps[-1]["step"], s["step"]))
            break
        snaps.append(s)
    actions = [s for s in snaps if s["kind"] == "action"]
    if len(actions) != len(expected):
        problems.append("%s: %d action steps shown, %d accepted actions replayed"
                        % (name, len(actions), len(expected)))
    for snap, exp in zip(actions, expected):
        compare(name, snap, exp, problems)
    for i, s in enumerate(snaps):
        if s["kind"] == "deal":
            nxt = next((t for t in snaps[i + 1:] if t["kind"] != "deal"), None)
            if nxt and nxt["kind"] == "action":
                for seat, (dealt, after) in enumerate(zip(s["hands"], nxt["hands"])):
                    if not {c["card"] for c in after} <= {c["card"] for c in dealt}:
                        problems.append("%s deal %d: %s's hand as dealt lacks cards held next"
                                        % (name, s["deal"], seat))
        if s["kind"] == "end":
            if any(c["down"] for c in s["trick"] + s["aside"]):
                problems.append("%s deal %d: a card still face down at the deal's end" % (name, s["deal"]))
    # And back again: every step shows what it showed on the way forward.
    for want in reversed(snaps[:-1]):
        page.key("ArrowLeft")
        got = page.eval(SNAPSHOT)
        if got != want:
            problems.append("%s: step %d differs when reached backwards" % (name, want["step"]))
            break
    return problems, snaps


def story_of(html):
    m = re.search(r'<script type="application/json" id="story">(.*?)</script>', html, re.S)
    return m


def render(record, out):
    r = subprocess.run([cardbot(), "render", "-o", out, record], capture_output=True, text=True, timeout=60)
    return r.returncode == 0 and os.path.exists(out), r.stderr


def nav_checks(page, name, snaps):
    """The trick and deal keys, Home and End."""
    def trick_end(s):
        return s["kind"] != "action" or any(c for c in s["trick"]) and s["step"] > 0
    page.key("Home")
    page.key("ArrowDown")
    s = page.eval(SNAPSHOT)
    marks = [t["step"] for t in snaps if t["step"] > 0 and (
        t["kind"] != "action" or snaps[t["step"] - 1]["deal"] == t["deal"] and
        page.eval("JSON.parse(document.getElementById('story').textContent).steps[%d].ntricks" % t["step"]) !=
        page.eval("JSON.parse(document.getElementById('story').textContent).steps[%d].ntricks" % (t["step"] - 1)))]
    check(marks and s["step"] == marks[0] and trick_end(s), "%s: Down goes to the first trick's end (at %d, marks %s)"
          % (name, s["step"], marks[:3]))
    page.key("ArrowUp")
    check(page.eval(SNAPSHOT)["step"] == 0, "%s: Up goes back to the start" % name)
    deals = [t["step"] for t in snaps if t["kind"] == "deal"]
    page.key("PageDown")
    s = page.eval(SNAPSHOT)
    want = deals[1] if len(deals) > 1 else snaps[-1]["step"]
    check(s["step"] == want, "%s: Page Down goes to the next deal (%d, expected %d)" % (name, s["step"], want))
    page.key("PageUp")
    check(page.eval(SNAPSHOT)["step"] == 0, "%s: Page Up goes back to the first deal" % name)
    page.key("End")
    s = page.eval(SNAPSHOT)
    check(s["step"] == snaps[-1]["step"], "%s: End goes to the last step" % name)


def a11y_checks(browser, url, name):
    page = browser.new_page(390, 844, mobile=True)
    page.navigate(url)
    # Every control reachable by Tab.
    page.eval("document.activeElement && document.activeElement.blur()")
    seen = []
    for _ in range(len(BUTTONS) + 4):
        page.key("Tab")
        seen.append(page.eval("document.activeElement.id"))
    check(all(b in seen for b in BUTTONS), "%s: Tab reaches every control (saw %s)" % (name, seen))
    # Operable by keyboard: Enter and Space on the focused buttons.
    page.eval("document.getElementById('step-fwd').focus()")
    page.key("Enter")
    check(page.eval(SNAPSHOT)["step"] == 1, "%s: Enter on 'Card' steps forward" % name)
    page.key(" ")
    check(page.eval(SNAPSHOT)["step"] == 2, "%s: Space on 'Card' steps forward" % name)
    page.eval("document.getElementById('help-toggle').focus()")
    page.key("Enter")
    check(page.eval("!document.getElementById('help').hidden && "
                    "document.getElementById('help-toggle').getAttribute('aria-expanded') === 'true'"),
          "%s: Enter on 'Keys' shows the keys" % name)
    page.key("?")
    check(page.eval("document.getElementById('help').hidden"), "%s: ? hides the keys again" % name)
    # Names and sizes on a phone.
    small = page.eval("[...document.querySelectorAll('nav button')].filter(b => {"
                      "const r = b.getBoundingClientRect(); return r.width < 44 || r.height < 44;"
                      "}).map(b => b.id)")
    check(small == [], "%s: buttons at least 44 px on a phone (too small: %s)" % (name, small))
    check(page.eval("[...document.querySelectorAll('button')].every(b => b.textContent.trim().length > 0)"),
          "%s: every button has a name" % name)
    check(page.eval("document.documentElement.scrollWidth <= window.innerWidth + 1"),
          "%s: nothing wider than a phone's screen" % name)
    check(page.eval("(() => { const s = document.querySelector('#plot svg');"
                    " return !!s && s.getAttribute('role') === 'img' && s.getAttribute('aria-label').length > 10; })()"),
          "%s: the plot has a text alternative" % name)
    # A swipe to the left is the next card, to the right the one before.
    before = page.eval(SNAPSHOT)["step"]
    for kind, x in (("touchStart", 300), ("touchMove", 200), ("touchMove", 100)):
        page.call("Input.dispatchTouchEvent", type=kind, touchPoints=[{"x": x, "y": 400}])
    page.call("Input.dispatchTouchEvent", type="touchEnd", touchPoints=[])
    # The page's touch listeners are passive, so chromium answers the call
    # before the page has run them: wait for the step to move (a busy
    # machine read it too soon), bounded only against a page that never does.
    after, end = before, time.time() + 10
    while after == before and time.time() < end:
        after = page.eval(SNAPSHOT)["step"]
        if after == before:
            time.sleep(0.05)
    check(after == before + 1, "%s: a swipe to the left steps forward (%d to %d)" % (name, before, after))
    check(page.errors == [], "%s: no console error on a phone: %s" % (name, page.errors))


def rendered_page(browser, tmp, rec_name):
    """The record rec_name rendered (`cardbot render`) and opened in a new
    page, or None (a failed check) when it does not render."""
    out = os.path.join(tmp, rec_name + ".html")
    ok, err = render(record_path(rec_name), out)
    if not check(ok, "%s: cardbot render: %s" % (rec_name, err)):
        return None
    page = browser.new_page()
    page.navigate("file://" + out)
    return page


def plot_apart(browser, tmp):
    """Sides with equal scores are drawn side by side: no two lines of the
    plot share a segment (nor a point), so none hides another."""
    rec_name = "t304_tokens_three_players"
    page = rendered_page(browser, tmp, rec_name)
    if not page:
        return
    label = page.eval("document.querySelector('#plot svg').getAttribute('aria-label')")
    scores = [tuple(int(v) for v in m.split(" to ")) for m in re.findall(r"after deal \d+: ([-\d]+(?: to [-\d]+)+)", label or "")]
    check(any(len(set(s)) < len(s) for s in scores[1:]),
          "%s: two sides have the same score after a deal (the case the check is for): %s" % (rec_name, scores))
    lines = page.eval("[...document.querySelectorAll('#plot svg polyline')].map(l => l.getAttribute('points'))")
    pts = [[tuple(float(v) for v in p.split(",")) for p in ln.split()] for ln in lines or []]
    shared = [(a, b, i) for a in range(len(pts)) for b in range(a + 1, len(pts)) for i in range(len(pts[a]))
              if pts[a][i] == pts[b][i]]
    check(len(pts) == 3 and not shared, "%s: no two lines of the plot meet at a point (%s)" % (rec_name, shared[:3]))
    check(page.errors == [], "%s: no console error or exception: %s" % (rec_name, page.errors))


def main():
    start = time.time()
    if not check(cdplib.find_chromium() is not None, "chromium is installed (deploy/deps.sh installs it)"):
        print("page_browser: %d passed, %d failed" % (passed, failed))
        return 1
    tmp = tempfile.mkdtemp(prefix="cardbot-page-")
    with cdplib.Browser() as browser:
        for rec_name, what in CASES:
            record = record_path(rec_name)
            out = os.path.join(tmp, rec_name + ".html")
            ok, err = render(record, out)
            if not check(ok, "%s: cardbot render: %s" % (rec_name, err)):
                continue
            html = open(out, encoding="utf-8").read()
            check(not re.search(r"\b(?:src|href)\s*=", html) and "@import" not in html,
                  "%s: the page loads nothing from elsewhere" % rec_name)
            page = browser.new_page()
            page.navigate("file://" + out)
            expected = expected_steps(record)
            problems, snaps = walk(page, rec_name, expected)
            for p in problems[:10]:
                print("  " + p)
            check(not problems, "%s (%s): %d steps shown as replayed" % (rec_name, what, len(snaps)))
            check(any(s["kind"] == "end" for s in snaps), "%s: the deal's end is shown" % rec_name)
            if rec_name == "six_play_inspection":
                check(any(c["down"] for s in snaps for c in s["trick"]), "%s: face-down cards shown face down" % rec_name)
            if rec_name.startswith("six_"):
                # Six seats laid out round the table, none on top of another.
                boxes = page.eval("[...document.querySelectorAll('.seat')].filter(s => !s.hidden).map(s => {"
                                  "const r = s.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; })")
                apart = all(a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]
                            for i, a in enumerate(boxes) for b in boxes[i + 1:])
                check(len(boxes) == 6 and apart and all(b[2] > b[0] and b[3] > b[1] for b in boxes),
                      "%s: six seats shown, apart: %s" % (rec_name, boxes))
            if rec_name.startswith("closed_cut"):
                check(any(c["down"] for s in snaps for c in s["trick"]), "%s: face-down cards shown face down" % rec_name)
                marked = [s for s in snaps if s["inspect"]]
                # An inspection is marked where a trick with face-down cards
                # has just been taken (the replay: its winner is set).
                exp_at = {(e["deal"], e["action"]) for e in expected if e.get("taken") and e["trick"] and
                          any(len(c) > 3 and c[3] for c in e["trick"])}
                check(marked and all((s["deal"], s["action"]) in exp_at for s in marked),
                      "%s: the trumper's inspections are marked, after tricks with face-down cards (%s; %s)"
                      % (rec_name, [(s["deal"], s["action"]) for s in marked], sorted(exp_at)))
            nav_checks(page, rec_name, snaps)
            check(page.errors == [], "%s: no console error or exception: %s" % (rec_name, page.errors))
            if rec_name == "closed_cut_success":
                a11y_checks(browser, "file://" + out, rec_name)
        plot_apart(browser, tmp)

        # A passed-out deal has no tricks: its end shows no empty "The deal's
        # tricks" heading (a played deal's end shows it).
        for rec_name, want_hidden in (("audit_bid_ask_pass_passout", True), ("audit_bid_ask_first", False)):
            page = rendered_page(browser, tmp, rec_name)
            if not page:
                continue
            page.key("Home")
            s = page.eval(SNAPSHOT)
            while s["kind"] != "end":
                page.key("ArrowRight")
                t = page.eval(SNAPSHOT)
                if t["step"] == s["step"]:
                    break
                s = t
            hidden = page.eval("document.getElementById('deal-tricks').hidden")
            if rec_name == "audit_bid_ask_first":  # ben asks dev, who bids 160 for him
                bidding = page.eval("document.getElementById('bidding').textContent")
                check(bidding.startswith("ben asks partner, dev 160"), "%s: the bidding keeps the ask: %s" % (rec_name, bidding))
            check(s["kind"] == "end" and hidden == want_hidden,
                  "%s: at the deal's end the tricks heading is %s" % (rec_name, "hidden" if want_hidden else "shown"))

        # The checker must catch a card out of place: swap two cards between
        # two hands in one step of the embedded story.
        record = record_path("closed_cut_success")
        html = open(os.path.join(tmp, "closed_cut_success.html"), encoding="utf-8").read()
        m = story_of(html)
        story = json.loads(m.group(1))
        k = next(i for i, s in enumerate(story["steps"]) if s["kind"] == "action" and i > 20)
        h = story["steps"][k]["hands"]
        h[0][0], h[1][0] = h[1][0], h[0][0]
        text = json.dumps(story).replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
        bad = os.path.join(tmp, "corrupt.html")
        open(bad, "w", encoding="utf-8").write(html[:m.start(1)] + text + html[m.end(1):])
        page = browser.new_page()
        page.navigate("file://" + bad)
        problems, _ = walk(page, "corrupt", expected_steps(record))
        check(len(problems) >= 1 and any("hands" in p for p in problems),
              "a page with two cards swapped is caught (%d problems)" % len(problems))

        # ... and a face-down card shown face up.
        story = json.loads(m.group(1))
        k = next(i for i, s in enumerate(story["steps"]) if s["kind"] == "action" and s["trick"]
                 and any(c["down"] for c in s["trick"]["cards"]))
        next(c for c in story["steps"][k]["trick"]["cards"] if c["down"])["down"] = False
        text = json.dumps(story).replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
        open(bad, "w", encoding="utf-8").write(html[:m.start(1)] + text + html[m.end(1):])
        page = browser.new_page()
        page.navigate("file://" + bad)
        problems, _ = walk(page, "corrupt", expected_steps(record))
        check(len(problems) >= 1 and any("trick" in p for p in problems),
              "a page with a face-down card shown face up is caught (%d problems)" % len(problems))

        # A hostile player name is text, never markup.
        rec = json.load(open(record))
        hostile = '</script><b id="inj">ann</b>&amp;'
        rec["players"][0] = hostile
        path = os.path.join(tmp, "hostile.json")
        json.dump(rec, open(path, "w"))
        out = os.path.join(tmp, "hostile.html")
        ok, err = render(path, out)
        if check(ok, "hostile name: render: %s" % err):
            page = browser.new_page()
            page.navigate("file://" + out)
            check(page.eval("document.getElementById('inj') === null"), "hostile name: no element injected")
            check(page.eval("document.title") == "304: %s, ben, cat, dev" % hostile, "hostile name: the title is the text")
            check(page.eval("document.querySelector('.seat[data-seat=\"0\"] h3').firstChild.textContent") == hostile,
                  "hostile name: shown as text at its seat")
            check(page.errors == [], "hostile name: no console error: %s" % page.errors)
        # A record with no deal: a page that says so, without an error.
        rec = json.load(open(record))
        rec["deals"] = []
        path = os.path.join(tmp, "nodeal.json")
        json.dump(rec, open(path, "w"))
        out = os.path.join(tmp, "nodeal.html")
        ok, err = render(path, out)
        if check(ok, "no deal: render: %s" % err):
            page = browser.new_page()
            page.navigate("file://" + out)
            check("no deal" in page.eval("document.getElementById('text').textContent") and page.errors == [],
                  "no deal: the page says so, without an error: %s" % page.errors)
    print("page_browser: %.1f s" % (time.time() - start))
    print("page_browser: %d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
