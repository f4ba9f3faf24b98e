"""sixlib.py: shared by irc_six.py and matrix_six.py: 304 at the table sizes
beyond four, six players ("304six") and eight ("304eight"); SIZES says what
each changes (seats, the pack, the cards of the first batch and of a hand,
the first bidding's words, a second round or not). The six-player words
below say what holds at every size.

What both transports need and irc_game.py does not give as it stands: the
36-card pack (the sixes: "6♠" in colour, "6S" in ascii), the hand line read
with either, a scripted player's choices (taken only from what the bot said:
its turn prompt and the private hand line with its "you may play" list),
and the checks over a whole match's transcripts:

  - privacy: no private line to a player names a card dealt to another
    player unless the channel had already shown it (the trumper's
    inspection line excepted; it goes to the trumper alone); no channel
    line names a card before it is played or revealed (a face-down card
    stays unnamed unless turned up, the trump card unnamed until opened or
    revealed); the hands shown to the players are disjoint;
  - every human saw a hand of 4 cards, then 6 in every deal that went past
    the four-card bidding;
  - tricks 1..6 in order, six cards each from six different seats (four in
    a partner-close-caps deal), 36 cards a deal;
  - the deal's end line agrees with the bid; tokens move as the token table
    says (scoring = bank: the losing side pays, a side never pays more than
    it has); the match-end line names the side that still has tokens, and
    comes once, after the last deal;
  - no move a scripted player took from the bot's own lists was refused.

A transcript is a list of Line (time, channel?, text) per player in the
order received, and the observer's channel lines. Python 3 standard library.
"""
import re

import play304lib
from irclib import strip_colours

SEP = play304lib.SEP
SYM = {"\u2660": "S", "\u2665": "H", "\u2666": "D", "\u2663": "C"}
TO_SYM = {v: k for k, v in SYM.items()}
RANKS = ("6", "7", "8", "Q", "K", "10", "A", "9", "J")
ALL36 = [r + s for s in "SHDC" for r in RANKS]
TN_RANKS = ("7", "8", "Q", "K", "10", "A", "9", "J", "3", "2")   # 504's (no 2) and 904's

# A whole match at each size beyond six, as irc_six.py and matrix_six.py
# (and so matrix_synapse_six.py) run it: three humans and computer players.
# Kept to one match: the sizes share every check, only the numbers differ.
SIZE_SCENARIOS = [
    {"num": 3, "title": "eight players: three humans and five computer players (304eight)", "new": "!new 304 8",
     "size": "eight",
     "humans": [("ann", 1, False, True), ("bob", 2, False, False), ("cat", 8, True, False)],
     "bots": [("ann", 3), ("ann", 4), ("bob", 5), ("bob", 6), ("ann", 7)], "asks": ("bob",)},
    {"num": 4, "title": "six players with 24 cards: three humans and three computer players (304six24)",
     "new": "!new 304six24", "size": "six24",
     "humans": [("ann", 1, False, False), ("bob", 2, False, True), ("cat", 6, True, False)],
     "bots": [("ann", 3), ("ann", 4), ("bob", 5)], "asks": ("ann",)},
    {"num": 5, "title": "504: three humans and three computer players", "new": "!new 504", "size": "504",
     "humans": [("ann", 1, False, False), ("bob", 2, True, True), ("cat", 5, False, False)],
     "bots": [("ann", 3), ("bob", 4), ("cat", 6)], "asks": ("bob",)},
    {"num": 6, "title": "904: three humans and five computer players", "new": "!new 904", "size": "904",
     "humans": [("ann", 1, False, True), ("bob", 4, False, False), ("cat", 7, True, False)],
     "bots": [("ann", 2), ("ann", 3), ("bob", 5), ("bob", 6), ("cat", 8)], "asks": ("ann",)},
]

# What each table size changes (docs/GAMES.md): the checks read these.
SIZES = {
    "six": {"seats": 6, "first": 4, "hand": 6, "pack": ALL36, "bid1": "four-card bidding", "second": True,
            "name": "304 for six", "open_min": 0},
    "eight": {"seats": 8, "first": 3, "hand": 4, "pack": [r + s for s in "SHDC" for r in RANKS[1:]],
              "bid1": "three-card bidding", "second": False, "name": "304 for eight", "open_min": 200},
    "six24": {"seats": 6, "first": 3, "hand": 4, "pack": [r + s for s in "SHDC" for r in RANKS[3:]],
              "bid1": "three-card bidding", "second": False, "name": "short 304 for six", "open_min": 200},
    # Tamil Nadu's games (docs/GAMES.md S20-S21): their own bid thresholds.
    "504": {"seats": 6, "first": 4, "hand": 6, "pack": [r + s for s in "SHDC" for r in TN_RANKS[:-1]],
            "bid1": "four-card bidding", "second": True, "name": "504", "open_min": 0, "bids": (260, 330, 410)},
    "904": {"seats": 8, "first": 4, "hand": 5, "pack": [r + s for s in "SHDC" for r in TN_RANKS],
            "bid1": "four-card bidding", "second": True, "name": "904", "open_min": 0, "bids": (460, 590, 740)},
}
BIDS_304 = (160, 200, 250)   # the lowest bid, the limit, the second round's lowest
POINTS = {"2": 100, "3": 50, "J": 30, "9": 20, "A": 11, "10": 10, "K": 3, "Q": 2}


def pack_points(pack):
    """The points of a pack's cards ('JS', '10H'): 304, or 504 and 904."""
    return sum(POINTS.get(c[:-1], 0) for c in pack)
C6 = r"(?:10|[2-9JQKA])[\u2660\u2665\u2666\u2663]"
CARD_RE = re.compile(r"(?<![0-9A-Za-z])(10|[2-9JQKA])([\u2660\u2665\u2666\u2663])")
ASCII_RE = re.compile(r"(?<![0-9A-Za-z])(10|[2-9JQKA])([SHDC])(?![0-9A-Za-z])")

HAND_RE = play304lib.HAND_RE
INSP_RE = play304lib.INSP_RE
KEY_RE = play304lib.KEY_RE
REFUSAL_RE = play304lib.REFUSAL_RE
END_RE = play304lib.END_RE
OTHER_END_RE = play304lib.OTHER_END_RE
TOKENS_RE = play304lib.TOKENS_RE
DOWN_RE = play304lib.DOWN_RE
TCARD_RE = play304lib.TCARD_RE
TRICK_RE = play304lib.TRICK_RE
PLAYED_RE = re.compile(r"^(?P<name>\S+) (?P<card>%s)$" % C6)
OPENED_RE = re.compile(r"^(?P<name>\S+) opens the game: trumps are \S+; the card laid face down was (?P<card>%s)$" % C6)
REVEALED_RE = re.compile(r"^trumps are (?P<suit>\S+)! the trump card is (?P<card>%s)$" % C6)
TURNED_RE = re.compile(r"^(?P<name>\S+) had played (?P<card>%s)$" % C6)
CAPS_RE = re.compile(r"^(?P<name>\S+) calls CAPS and will play: (?P<order>.*)$")
CAPS_RESULT_RE = re.compile(r"^caps: (?P<verdict>\S+) \((?P<who>.*)\)$")   # "late (nobody called it)"
TRICK_ALL_RE = re.compile(r"^trick (?P<n>\d+):(?P<plays>.*); (?P<name>\S+) wins it$")
WON_RE = re.compile(r"^(?P<name>\S+) wins the (?:\S+-card )?bidding at (?P<bid>\S+)$")
PROMPT_RE = re.compile(r"^(?P<name>\S+): your turn to (?P<what>bid|play)\b(?: \((?P<opts>[^)]*)\))?")
MATCH_WON_RE = re.compile(r"^the match is over: (?P<team>.+) win!$")
SIT_RE = re.compile(r"^(?P<name>\S+) sits in seat (?P<n>\d)$")
BOT_SIT_RE = re.compile(r"^(?P<name>\S+) \(a computer player\) sits in seat (?P<n>\d)$")
ASK_RE = re.compile(r"^(?P<a>\S+) asks (?P<b>\S+) to bid$")
PCC_OUT_RE = re.compile(r"sits out this deal|sit out this deal")
PCC_LOST = "so the pcc is lost"
SLOW = play304lib.SLOW
RESUMED = play304lib.RESUMED
# the fixed examples in the bot's help and error texts name no one's card
EXAMPLES = play304lib.EXAMPLES
SUIT_NAMES = {"spades": "S", "hearts": "H", "diamonds": "D", "clubs": "C"}


class Line:
    """One line a player (or the observer) received."""
    __slots__ = ("t", "chan", "text")

    def __init__(self, t, chan, text):
        self.t, self.chan, self.text = t, chan, strip_colours(text)

    def __repr__(self):
        return "%.3f %s %s" % (self.t, "chan" if self.chan else "priv", self.text)


def segs(text):
    return strip_colours(text).split(SEP)


def cards(text, ascii=False):
    """Cards named in text as codes ('6S', '10H'); with ascii also in letters."""
    t = strip_colours(text)
    for e in EXAMPLES:
        t = t.replace(e, "")
    out = [r + SYM[s] for r, s in CARD_RE.findall(t)]
    if ascii:
        out += [r + s for r, s in ASCII_RE.findall(t)]
    return out


def sym(card):
    return card[:-1] + TO_SYM[card[-1]]


def parse_hand(text, ascii=False):
    """The private hand line (as play304lib.parse_hand reads 304's) or None:
    state, hand, table (the trump card on the table), may, may_trump,
    choose_trump, turn, led, trump_open, my_trump, phase (bid4, bid6,
    trump, play, other) and raw."""
    t = strip_colours(text)
    m = HAND_RE.match(t)
    if not m:
        return None
    state = m.group("state")
    parts = m.group("rest").split(" | ")
    h = {"state": state, "hand": cards(parts[0], ascii), "table": None, "may": None, "may_trump": False,
         "choose_trump": False, "turn": state.endswith(", your turn"), "led": None, "trump_open": None,
         "my_trump": None, "raw": t}
    for p in parts[1:]:
        if p.startswith("trump card on the table: "):
            cs = cards(p, ascii)
            h["table"] = cs[0] if cs else None
        elif p.startswith("you may play: "):
            h["may"] = cards(p, ascii)
            h["may_trump"] = "or the trump card (play trump)" in p
        elif p.startswith("your only card to play is the trump card on the table"):
            cs = cards(p, ascii)
            h["table"] = cs[0] if cs else None
            h["may"] = []
            h["may_trump"] = True
        elif p.startswith("choose your trump card"):
            h["choose_trump"] = True
    lm = re.search(r", (spades|hearts|diamonds|clubs) led", state)
    if lm:
        h["led"] = SUIT_NAMES[lm.group(1)]
    om = re.search(r", trumps (spades|hearts|diamonds|clubs)", state)
    if om:
        h["trump_open"] = SUIT_NAMES[om.group(1)]
    cm = re.search(r", your trump (spades|hearts|diamonds|clubs) \(closed\)", state)
    if cm:
        h["my_trump"] = SUIT_NAMES[cm.group(1)]
    h["phase"] = ("bid4" if state.startswith("four-card bidding") or state.startswith("three-card bidding") else
                  "bid6" if re.match(r"^\S+-card bidding", state) else
                  "trump" if "is choosing a trump card" in state else
                  "play" if state.startswith("trick ") else "other")
    return h


def deal_ended(text):
    return any(END_RE.match(s) or OTHER_END_RE.search(s) for s in segs(text))


# ---------------------------------------------------------------- the player's choices


def prompt_fits(h, opts):
    """Whether a bid prompt's options ("250 or more, pcc, or pass") can be
    those of the turn this hand line is for: a minimum above the bid the
    hand line names. (On Matrix the room's prompt and the direct room's
    hand are not ordered, so a player waits for the prompt that fits.)"""
    if opts is None:
        return False
    m = re.match(r"^(\d+) or more", opts)
    if not m:
        return True
    b = re.search(r"(?:four|three)-card bidding, (\d+) by |-card bidding, (\d+) to beat", h["state"])
    beat = int(b.group(1) or b.group(2)) if b else 0
    return int(m.group(1)) > beat


def decide(h, prompt, ask=False, z=None):
    """A scripted player's move for a hand line that says "your turn":
    (text to send, kind, card, face down?). prompt is the options of the
    player's last turn prompt ("250 or more, or pass"), or None.
    Four-card bidding: with ask, "partner" when the bot offers it; else
    160 when nobody has bid and the bot offers a bid, else pass. Six-card
    bidding: 250 when the bot offers 250 or less, else
    pass. The trump card: the first card. Play: the first card of "you may
    play" (or the trump card when it is the only one). z: the table size
    (SIZES), whose "bids" replace 304's 160 and 250 (504 and 904 have no
    "60 means 160" shorthand)."""
    low, _, second = (z or {}).get("bids", BIDS_304)
    if h["phase"] in ("bid4", "bid6") and not prompt_fits(h, prompt):
        prompt = None
    opts = prompt or ""
    offered = re.match(r"^(\d+) or more", opts)
    if h["phase"] == "bid4":
        if offered and not re.search(r"\bpass\b", opts):
            # the first speaker must open (eight players: 200 or more)
            return "bid %s" % offered.group(1), "bid", None, False
        if ask and re.search(r"\bpartner\b", opts):
            return "partner", "partner", None, False
        has_bid = re.search(r"(?:four|three)-card bidding, \d+ by ", h["state"])
        if not has_bid and (prompt is None or (offered and int(offered.group(1)) <= low)):
            return ("bid 60" if low == 160 else "bid %d" % low), "bid", None, False
        return "pass", "pass", None, False
    if h["phase"] == "bid6":
        if offered and int(offered.group(1)) <= second:
            return "bid %d" % second, "bid", None, False
        return "pass", "pass", None, False
    if h["phase"] == "trump":
        c = h["hand"][0] if h["hand"] else None
        return "trump 1", "trump", c, False
    if h["phase"] == "play":
        may = h["may"] or []
        closed = h["trump_open"] is None
        if may:
            c = may[0]
            return "play " + c, "play", c, bool(h["led"] and closed and c[-1] != h["led"])
        if h["may_trump"]:
            c = h["table"]
            return "play trump", "tcard", c, bool(h["led"] and closed and c and c[-1] != h["led"])
        return None, "none", None, False
    return None, "unknown", None, False


# ---------------------------------------------------------------- the checks

def payoff(bid, bids=BIDS_304):
    """(win, lose) tokens for a bid: bands at the size's limit and second
    round's lowest (bids as SIZES give them)."""
    if bid == "pcc":
        return 4, 5
    b = int(bid)
    return (1, 2) if b < bids[1] else (2, 3) if b < bids[2] else (3, 4)


class MatchCheck:
    """Checks one whole match. streams: {human: [Line]} (channel and
    private lines in the order received); observer: [Line] (channel lines
    of someone who is not seated); ascii: humans reading letters; actions:
    {human: [(deal, kind, card, facedown)]} as the scripted players made
    them (deal counts the deal-end lines they had seen); scoring "bank" or
    "standard"."""

    def __init__(self, streams, observer, ascii=(), actions=None, scoring="bank", tokens=11, split="channel",
                 watchers=None, size="six"):
        self.streams, self.observer = streams, observer
        self.z = SIZES[size]
        self.watchers = watchers or {}   # name -> [Line]: someone not seated, who asks about the table
        self.split_mode = split
        self.ascii = set(ascii)
        self.actions = actions or {}
        self.scoring = scoring
        self.start_tokens = tokens
        self.failures = []
        self.stats = {"deals": 0, "tricks": 0, "cards_played": 0, "facedown": 0, "private_lines": 0,
                      "channel_lines": 0, "bid6_won": 0, "pcc": 0, "caps": 0, "hands4": 0, "hands6": 0}

    def fail(self, text):
        self.failures.append(text)

    # -- splitting --
    def split(self, lines, who=None):
        """Lines grouped by deal. Channel lines: a deal ends with its end
        line. Private lines: the same on IRC (one connection keeps the
        bot's order), or with split="hands" (Matrix: the room and each
        direct room are apart, and the next deal's hand may be stored
        before the room's end line) a deal starts at a four-card hand
        after a hand of another phase or other cards."""
        if self.split_mode != "hands" or who is None:
            deals = [[]]
            for m in lines:
                deals[-1].append(m)
                if m.chan and deal_ended(m.text):
                    deals.append([])
            return deals
        nc = np = 0
        last = None
        out = {}
        self.early = getattr(self, "early", 0)
        for m in lines:
            if m.chan:
                out.setdefault(nc, []).append(m)
                if deal_ended(m.text):
                    nc += 1
                continue
            h = parse_hand(m.text, who in self.ascii)
            if h:
                if last is not None and h["phase"] == "bid4" and (
                        last["phase"] != "bid4" or set(last["hand"]) != set(h["hand"])):
                    np += 1
                    if np > nc:
                        self.early += 1   # this hand came before the room's end line
                last = h
            out.setdefault(np, []).append(m)
        return [out.get(d, []) for d in range(max(out) + 1 if out else 1)]

    def run(self):
        obs = [m for m in self.observer if m.chan]
        self.stats["channel_lines"] = len(obs)
        self.stats["longest"] = max((len(m.text) for m in obs), default=0)
        self.seats = self.read_seats(obs)
        odeals = self.split(obs)
        pdeals = {n: self.split(ls, n) for n, ls in self.streams.items()}
        tokens = None
        for d in range(len(odeals)):
            complete = d < len(odeals) - 1
            priv = {n: (pdeals[n][d] if d < len(pdeals[n]) else []) for n in self.streams}
            tokens = self.check_deal(d, priv, odeals[d], complete, tokens)
        self.check_end(obs, tokens)
        for n, ls in self.watchers.items():
            # Not seated: every card named to them privately was already
            # named in the channel in this deal.
            for d, lines in enumerate(self.split(ls)):
                public = set()
                for m in lines:
                    if m.chan:
                        public.update(cards(m.text))
                        continue
                    self.stats["watcher_lines"] = self.stats.get("watcher_lines", 0) + 1
                    for c in cards(m.text):
                        if c not in public:
                            self.fail("deal %d: private line to %s, who is not seated, names %s: %r" % (
                                d + 1, n, c, m.text[:200]))
        for n, ls in self.streams.items():
            self.stats["private_lines"] += sum(1 for m in ls if not m.chan)
        return self.failures

    def read_seats(self, obs):
        seats = {}
        for m in obs:
            for s in segs(m.text):
                x = BOT_SIT_RE.match(s) or SIT_RE.match(s)
                if x:
                    seats[int(x.group("n"))] = x.group("name")
        ns = self.z["seats"]
        names = [seats.get(k) for k in range(1, ns + 1)]
        if None in names:
            self.fail("seats: not all %d were taken: %r" % (ns, seats))
        elif len(set(n.lower() for n in names)) != ns:
            self.fail("seats: %d seats but not %d different names: %r" % (ns, ns, names))
        return names

    def team_of(self, name):
        if name in self.seats:
            return self.seats.index(name) % 2
        return None

    # -- one deal --
    def check_deal(self, d, priv, chan, complete, tokens):
        tag = "deal %d" % (d + 1)
        z = self.z
        ns, first_n, hand_n, pack = z["seats"], z["first"], z["hand"], z["pack"]
        chan_segs = [(m, s) for m in chan for s in segs(m.text)]
        # a channel line ends at a trick's end: the next trick's cards start a line of their own
        for m in chan:
            ss = segs(m.text)
            ends = [i for i, s in enumerate(ss) if TRICK_RE.match(s) or TRICK_ALL_RE.match(s)]
            if ends and any(PLAYED_RE.match(s) or DOWN_RE.match(s) or TCARD_RE.match(s) for s in ss[ends[0] + 1:]):
                self.fail("%s: one channel line holds a trick's end and the next trick's cards (%d characters): %r"
                          % (tag, len(m.text), m.text[:200]))
        # hands shown to each human, and their sizes
        dealt, owner = {}, {}
        reached_six = any(s.startswith("play begins") or WON_RE.match(s) and "-card" in s
                          for _, s in chan_segs) or any(
            parse_hand(m.text) and parse_hand(m.text)["phase"] in ("bid6", "play")
            for ls in priv.values() for m in ls if not m.chan)
        for n, ls in priv.items():
            s, sizes, first = set(), [], None
            for m in ls:
                if m.chan:
                    continue
                h = parse_hand(m.text, n in self.ascii)
                if not h:
                    continue
                s.update(h["hand"])
                if h["table"]:
                    s.add(h["table"])
                size = len(h["hand"]) + (1 if h["table"] else 0)
                if first is None:
                    first = (size, h["phase"], h["raw"])
                sizes.append((h["phase"], size))
            dealt[n] = s
            if not ls:
                continue
            if first is None:
                if complete:
                    self.fail("%s: %s was sent no hand" % (tag, n))
                continue
            if first[0] != first_n or first[1] != "bid4":
                self.fail("%s: %s's first hand line is not %d cards in the first bidding: %r" % (
                    tag, n, first_n, first[2][:160]))
            else:
                self.stats["hands4"] += 1
            b6 = [sz for ph, sz in sizes if ph == "bid6"]
            if b6:
                if b6[0] != hand_n or not z["second"]:
                    self.fail("%s: %s's first second-round hand holds %d cards" % (tag, n, b6[0]))
                else:
                    self.stats["hands6"] += 1
            elif complete and reached_six and not any(ph == "play" for ph, _ in sizes):
                self.fail("%s: %s never saw a whole hand" % (tag, n))
            if len(s) > hand_n:
                self.fail("%s: %s was shown %d cards as their own: %s" % (tag, n, len(s), sorted(s)))
            if complete and reached_six and len(s) != hand_n:
                self.fail("%s: %s was shown %d cards in a deal that reached six (%s)" % (tag, n, len(s), sorted(s)))
            if complete and not reached_six and len(s) != first_n:
                self.fail("%s: %s was shown %d cards in a deal that ended in the first bidding" % (
                    tag, n, len(s)))
            for c in s:
                if c not in pack:
                    self.fail("%s: %s was shown a card not in the pack: %s" % (tag, n, c))
                if c in owner:
                    self.fail("%s: %s was shown to both %s and %s as their own" % (tag, c, owner[c], n))
                owner[c] = n
        if complete and reached_six and len(self.streams) == ns and len(owner) != len(pack):
            self.fail("%s: %d humans were shown %d distinct cards, not %d" % (tag, ns, len(owner), len(pack)))
        trumper = None
        for _, s in chan_segs:
            w = WON_RE.match(s)
            if w:
                trumper = w.group("name")
        # (a) private lines
        for n, ls in priv.items():
            public = set()
            for m in ls:
                if m.chan:
                    public.update(cards(m.text))
                    continue
                insp = INSP_RE.match(m.text)
                if insp and n != trumper:
                    self.fail("%s: an inspection line went to %s, not the trumper %s: %r" % (tag, n, trumper, m.text))
                if insp:
                    self.stats["inspections"] = self.stats.get("inspections", 0) + 1
                    for nm, c in re.findall(r" (\S+) (%s)" % C6, insp.group("rest")):
                        c = cards(c)[0]
                        if owner.get(c, nm) != nm:
                            self.fail("%s: inspection says %s played %s face down, but it was dealt to %s" % (
                                tag, nm, c, owner[c]))
                    continue
                for c in cards(m.text, n in self.ascii):
                    if c not in dealt[n] and c not in public:
                        self.fail("%s: private line to %s names %s (%s): %r" % (
                            tag, n, c, "dealt to " + owner[c] if c in owner else "a computer's or unseen",
                            m.text[:200]))
        # (b) channel lines, (c) tricks, (d) the end
        played, public = set(), set()
        downs = {}
        trick_plays, tricks = [], []
        end, tok, pcc, caps, pcc_lost, verdict = None, None, False, False, False, None
        for m, s in chan_segs:
            p = PLAYED_RE.match(s)
            if p:
                nm, c = p.group("name"), cards(p.group("card"))[0]
                o = owner.get(c)
                if o is not None and o != nm:
                    self.fail("%s: the channel says %s played %s, but it was dealt to %s" % (tag, nm, c, o))
                if nm in self.streams and o is None:
                    self.fail("%s: the channel says %s played %s, never in their hand" % (tag, nm, c))
                if c in played:
                    self.fail("%s: %s announced as played twice" % (tag, c))
                played.add(c)
                public.add(c)
                trick_plays.append((nm, c))
                continue
            x = DOWN_RE.match(s) or TCARD_RE.match(s)
            if x:
                downs[x.group("name")] = downs.get(x.group("name"), 0) + 1
                trick_plays.append((x.group("name"), None))
                self.stats["facedown"] += 1
                continue
            x = OPENED_RE.match(s) or REVEALED_RE.match(s) or TURNED_RE.match(s)
            if x:
                c = cards(x.group("card"))[0]
                o = owner.get(c)
                holder = x.groupdict().get("name") if TURNED_RE.match(s) else trumper
                if o is not None and holder is not None and o != holder:
                    self.fail("%s: %r shows %s as %s's, but it was dealt to %s" % (tag, s, c, holder, o))
                public.add(c)
                continue
            x = CAPS_RE.match(s)
            if x:
                caps = True
                public.update(cards(x.group("order")))
                continue
            x = TRICK_ALL_RE.match(s)
            if x:
                public.update(cards(x.group("plays")))
                tp = re.findall(r" (\S+) (%s)" % C6, x.group("plays"))
                tricks.append((int(x.group("n")), [(a, cards(b)[0]) for a, b in tp], True))
                trick_plays = []
                continue
            x = ASK_RE.match(s)
            if x:
                self.stats["asks"] = self.stats.get("asks", 0) + 1
                a, b = x.group("a"), x.group("b")
                if a in self.seats and self.seats[(self.seats.index(a) + 2) % ns] != b:
                    self.fail("%s: %s (seat %d) asked %s, not the next partner in turn order %s" % (
                        tag, a, self.seats.index(a) + 1, b, self.seats[(self.seats.index(a) + 2) % ns]))
            if CAPS_RESULT_RE.match(s):
                verdict = CAPS_RESULT_RE.match(s).group(0)   # caps judged (a late or missed call costs)
            if PCC_OUT_RE.search(s):
                pcc = True
            if PCC_LOST in s:
                pcc_lost = True
            x = TRICK_RE.match(s)
            if x:
                tricks.append((int(x.group("n")), trick_plays, False))
                trick_plays = []
            x = END_RE.match(s)
            if x:
                end = x
            x = TOKENS_RE.match(s)
            if x and end is not None and tok is None:
                tok = x
            for c in cards(s):
                if c not in public:
                    self.fail("%s: channel line names %s (%s) before it was played or shown: %r" % (
                        tag, c, "dealt to " + owner[c] if c in owner else "not a human's", s[:200]))
        # face-down plays stay unnamed unless turned up
        for n, acts in self.actions.items():
            mine = [a for a in acts if a[0] == d and a[1] in ("play", "tcard")]
            for a in mine:
                if a[3] and a[2] in played and not any(
                        (TURNED_RE.match(s) or REVEALED_RE.match(s) or OPENED_RE.match(s)) and a[2] in cards(s)
                        for _, s in chan_segs):
                    self.fail("%s: %s played %s face down, and the channel named it" % (tag, n, a[2]))
            if complete and not caps and not pcc_lost:
                nd = sum(1 for a in mine if a[3])
                if downs.get(n, 0) != nd:
                    self.fail("%s: %s made %d face-down plays, the channel announced %d" % (
                        tag, n, nd, downs.get(n, 0)))
        if pcc:
            self.stats["pcc"] += 1
        if caps:
            self.stats["caps"] += 1
        if verdict:
            self.stats.setdefault("caps_verdicts", []).append(verdict)
        if not complete:
            return tokens
        self.stats["deals"] += 1
        if any(WON_RE.match(s) and "-card" in s for _, s in chan_segs):
            self.stats["bid6_won"] += 1
        if end is not None:
            width = ns - (ns // 2 - 1) if pcc else ns
            nums = [n for n, _, _ in tricks]
            if nums != list(range(1, hand_n + 1)):
                self.fail("%s: tricks announced %s, not 1..%d" % (tag, nums, hand_n))
            total = 0
            for n, plays, all_at_once in tricks:
                total += len(plays)
                if caps or pcc_lost:
                    continue   # the bot plays the rest: checked only for count below
                names = [a for a, _ in plays]
                if len(plays) != width or len(set(names)) != width:
                    self.fail("%s: trick %d had %d cards from %d seats (%s), not %d" % (
                        tag, n, len(plays), len(set(names)), names, width))
                elif not pcc and set(names) != set(self.seats):
                    self.fail("%s: trick %d was played by %s, not the %d seats" % (tag, n, sorted(names), ns))
            self.stats["tricks"] += len(tricks)
            self.stats["cards_played"] += total
            if total != width * hand_n:
                self.fail("%s: %d cards played in the deal, not %d" % (tag, total, width * hand_n))
            bid, took = end.group("bid"), int(end.group("took"))
            if bid.isdigit():
                if (took >= int(bid)) != (end.group("res") == "made"):
                    self.fail("%s: bid %s, took %d, said %s" % (tag, bid, took, end.group("res")))
            if not 0 <= took <= pack_points(self.z["pack"]):
                self.fail("%s: took %d points" % (tag, took))
        # tokens
        prev = tokens or (self.start_tokens, self.start_tokens)
        if tok is None:
            if end is not None:
                self.fail("%s: no tokens line after the end line" % tag)
            return tokens
        ta, tb = int(tok.group("ta")), int(tok.group("tb"))
        team_a = [x.strip() for x in re.split(r", | & ", tok.group("a"))]
        if self.seats and team_a and self.team_of(team_a[0]) == 1:
            ta, tb = tb, ta     # keep (team of seat 1, team of seat 2)
        now = (ta, tb)
        if self.scoring == "bank":
            if ta > prev[0] or tb > prev[1] or ta < 0 or tb < 0:
                self.fail("%s: tokens went from %s to %s under bank scoring" % (tag, prev, now))
            elif end is not None and not caps and verdict is None:
                side = self.team_of(end.group("name"))
                win, lose = payoff(end.group("bid"), self.z.get("bids", BIDS_304))
                if side is not None:
                    payer = 1 - side if end.group("res") == "made" else side
                    amount = win if end.group("res") == "made" else lose
                    want = list(prev)
                    want[payer] = max(0, prev[payer] - amount)
                    if tuple(want) != now:
                        self.fail("%s: %s's side bid %s, %s: tokens %s -> %s, expected %s" % (
                            tag, end.group("name"), end.group("bid"), end.group("res"), prev, now, tuple(want)))
        elif ta + tb != 2 * self.start_tokens:
            self.fail("%s: tokens add up to %d: %r" % (tag, ta + tb, tok.group(0)))
        # honest moves are never refused
        for n, ls in priv.items():
            for m in ls:
                if m.chan:
                    if re.match(r"^%s: not accepted" % re.escape(n), m.text):
                        self.fail("%s: %s: %r" % (tag, n, m.text))
                    continue
                if m.text.startswith(SLOW):
                    self.fail("%s: %s was told to slow down" % (tag, n))
                elif REFUSAL_RE.match(m.text) and not INSP_RE.match(m.text) and not KEY_RE.match(m.text):
                    self.fail("%s: %s's move was refused: %r" % (tag, n, m.text[:200]))
        return now

    def check_end(self, obs, tokens):
        wins = [(i, s) for i, m in enumerate(obs) for s in segs(m.text) if MATCH_WON_RE.match(s)]
        if len(wins) != 1:
            self.fail("the match-end line came %d times" % len(wins))
            return
        i, s = wins[0]
        later = [x for m in obs[i + 1:] for x in segs(m.text) if play304lib.DEAL_RE.match(x)]
        if later:
            self.fail("a deal began after the match ended: %r" % later[0])
        if tokens is None:
            self.fail("the match ended with no tokens line")
            return
        if min(tokens) != 0 or max(tokens) == 0:
            self.fail("the match ended at tokens %s" % (tokens,))
            return
        names = [x.strip() for x in re.split(r", | & ", MATCH_WON_RE.match(s).group("team"))]
        team = {self.team_of(x) for x in names}
        want = 0 if tokens[0] > 0 else 1
        ns = self.z["seats"]
        if team != {want} or len(names) != ns // 2:
            self.fail("the match-end line names %r; the side with tokens is seats %s" % (
                names, ", ".join(str(k) for k in range(1 + want, ns + 1, 2))))


def self_test(streams, observer, ascii=(), actions=None, scoring="bank", split="channel", size="six"):
    """Plants one defect at a time in a clean match's transcripts and
    expects MatchCheck to report each: a card of one human's hand in
    another's private line, a card still in a hand named in the channel,
    tokens that moved wrongly, a trick short of a card, and no match-end
    line. Returns what went uncaught (empty: every plant was caught)."""
    humans = [n for n in streams if any(parse_hand(m.text, n in ascii) for m in streams[n] if not m.chan)]
    missed = []
    if len(humans) < 2:
        return ["fewer than two humans with hands to plant from"]

    def hands(n):
        return [(i, parse_hand(m.text, n in ascii)) for i, m in enumerate(streams[n])
                if not m.chan and parse_hand(m.text, n in ascii)]

    a, b = humans[0], humans[1]
    hb = [h for _, h in hands(b) if h["hand"]]
    ia, ha = hands(a)[0]
    mine = set(ha["hand"])
    other = [c for c in hb[0]["hand"] if c not in mine]
    if not other:
        return ["no card to plant"]
    card = other[0]

    def check(st, ob):
        return MatchCheck(st, ob, ascii, actions, scoring, split=split, size=size).run()

    def expect(what, st, ob, needle):
        got = check(st, ob)
        if not any(needle in f for f in got):
            missed.append("%s (wanted %r, got %r)" % (what, needle, got[:2]))

    # 1. a private leak, just after a's first hand
    la = list(streams[a])
    t0 = la[ia].t
    la.insert(ia + 1, Line(t0, False, "[#304] psst: %s" % (card if a in ascii else sym(card))))
    expect("a private leak", dict(streams, **{a: la}), observer, "private line to %s names %s" % (a, card))
    # 2. a channel leak: b's card named in the channel right after the deal line
    k = [i for i, m in enumerate(observer) if m.chan and play304lib.DEAL_RE.match(segs(m.text)[0])][0]
    ob2 = list(observer)
    ob2.insert(k + 1, Line(observer[k].t, True, "a hint: %s is about" % sym(card)))
    expect("a channel leak", streams, ob2, "channel line names %s" % card)
    # 3. tokens that moved wrongly, at a deal whose tokens the check
    #    follows: a caps call or a caps verdict moves them by rules it does
    #    not recompute (a match whose first deal ended so let this plant
    #    through, at eight seats in ci24)
    j, judged = None, False
    for i, m in enumerate(observer):
        if not m.chan:
            continue
        ss = segs(m.text)
        for s in ss:
            if play304lib.DEAL_RE.match(s):
                judged = False
            elif CAPS_RE.match(s) or CAPS_RESULT_RE.match(s):
                judged = True
        if j is None and not judged and "tokens: " in m.text and any(END_RE.match(s) for s in ss):
            j = i
    if j is None:
        missed.append("tokens that moved wrongly (no deal ended without caps to plant them in)")
    else:
        m = observer[j]
        bad = re.sub(r"(-?\d+) : (-?\d+)", lambda x: "%d : %s" % (int(x.group(1)) + 1, x.group(2)), m.text, count=1)
        ob3 = list(observer)
        ob3[j] = Line(m.t, True, bad)
        expect("tokens that moved wrongly", streams, ob3, "tokens")
    # 4. a trick short of a card: the first face-up play of the match dropped
    ob4, done = [], False
    for m in observer:
        ss = segs(m.text)
        if not done and m.chan:
            keep = []
            for s in ss:
                if not done and PLAYED_RE.match(s):
                    done = True
                    continue
                keep.append(s)
            if not keep:
                continue
            m = Line(m.t, True, SEP.join(keep))
        ob4.append(m)
    expect("a trick short of a card", streams, ob4, " cards played in the deal, not ")
    # 5. no match-end line
    ob5 = [Line(m.t, True, SEP.join(s for s in segs(m.text) if not MATCH_WON_RE.match(s))) for m in observer]
    expect("no match-end line", streams, ob5, "the match-end line came 0 times")
    return missed


def dump(name, streams, observer):
    """Writes the transcripts to a kept temporary file (for a failure's
    report); returns its path."""
    import tempfile
    fd, path = tempfile.mkstemp(prefix="%s-transcript-" % name, suffix=".txt")
    with open(fd, "w", encoding="utf-8") as f:
        f.write("== channel/room\n")
        for m in observer:
            f.write("%.3f %s\n" % (m.t, m.text))
        for n, ls in streams.items():
            f.write("== %s (private lines)\n" % n)
            for m in ls:
                if not m.chan:
                    f.write("%.3f %s\n" % (m.t, m.text))
    return path
