"""play304lib.py: reading the bot's 304 lines and pacing a player's commands,
for every test that plays 304 (irc_game.py, the Matrix game tests, sixlib.py,
tests/bench/irc.py): the regular expressions of the public and private lines,
the private hand line parsed (parse_hand), the cards a line names, and Pacer,
which keeps a scripted player under the bot's per-person command limit.
"""
import re
import threading
import time

import irclib
from irclib import cards_in, strip_colours  # noqa: F401  (used by the importers too)

SEP = " \u00b7 "

C = r"(?:10|[789JQKA])[\u2660\u2665\u2666\u2663]"
HAND_RE = re.compile(r"^\[(?P<room>[#&!]\S*): (?P<state>[^\]]*)\] hand: (?P<rest>.*)$")
INSP_RE = re.compile(r"^\[(?P<room>[#&!]\S*)\] trick (?P<n>\d+), face down:(?P<rest>.*)$")
REFUSAL_RE = re.compile(r"^\[[#&!]\S*\] ")
# Private lines with a room tag that are no refusal: the seat key told on
# sitting, and the question for it when the bot lost sight of a nick.
KEY_RE = re.compile(r"^\[[#&!]\S*\] your seat key is (?P<key>\w+):")
CLAIM_ASK = "claim KEY, with the seat key"
END_RE = re.compile(r"^(?P<name>\S+)'s side bid (?P<bid>\S+) and took (?P<took>\d+): (?P<res>made|failed)$")
OTHER_END_RE = re.compile(r"all pass: no play this deal|calls spoilt trumps, (?:rightly|wrongly)|throws in the hand")
TOKENS_RE = re.compile(r"^tokens: (?P<a>.+) (?P<ta>-?\d+) : (?P<tb>-?\d+) (?P<b>.+)$")
PLAYED_RE = re.compile(r"^(?P<name>\S+) (?P<card>%s)$" % C)
DOWN_RE = re.compile(r"^(?P<name>\S+) plays face down$")
TCARD_RE = re.compile(r"^(?P<name>\S+) cuts with the trump card \(face down\)$")
OPENED_RE = re.compile(r"^(?P<name>\S+) opens the game: trumps are \S+; the card laid face down was (?P<card>%s)$" % C)
REVEALED_RE = re.compile(r"^trumps are (?P<suit>\S+)! the trump card is (?P<card>%s)$" % C)
TURNED_RE = re.compile(r"^(?P<name>\S+) had played (?P<card>%s)$" % C)
CAPS_RE = re.compile(r"^(?P<name>\S+) calls CAPS and will play: (?P<order>.*)$")
TRICK_RE = re.compile(r"^(?P<name>\S+) wins trick (?P<n>\d+)$")
WON_RE = re.compile(r"^(?P<name>\S+) wins the (?:eight-card )?bidding at (?P<bid>\S+)$")
PROMPT_RE = re.compile(r"^(?P<name>\S+): your turn to (?P<what>bid|play)\b")
DEAL_RE = re.compile(r"^Deal (?P<n>\d+): (?P<dealer>\S+) deals; (?P<first>\S+) bids first\.")
RESUMED = "I am back: the game resumes where it was"
NO_TRUMP = "no trump was played"
SLOW = "Slow down please"

# ---------------------------------------------------------------- helpers


def segs(text):
    return strip_colours(text).split(SEP)


def utf8_ok(raw):
    try:
        raw.decode("utf-8")
        return True
    except UnicodeDecodeError:
        return False


# Fixed example cards in the bot's own help and error texts (T_BAD_CARD,
# T_HELP_PLAY): they name no one's card.
EXAMPLES = ("try js, J\u2660, 10h, th", "(js, J\u2660, 10h, th)")


def named_cards(text):
    """Cards a line names, the fixed examples left out."""
    t = strip_colours(text)
    for e in EXAMPLES:
        t = t.replace(e, "")
    return cards_in(t)


def deal_ended(text):
    for s in segs(text):
        if END_RE.match(s) or OTHER_END_RE.search(s):
            return True
    return False


def parse_hand(text):
    """The private hand line, or None: dict with state, hand (list), table
    (trump card on the table or None), may (list or None), may_trump,
    choose_trump, turn, led (suit letter or None), trump_open (letter or
    None), my_trump (letter, when this player is the closed trumper)."""
    t = strip_colours(text)
    m = HAND_RE.match(t)
    if not m:
        return None
    state = m.group("state")
    parts = m.group("rest").split(" | ")
    hand = cards_in(parts[0])
    h = {"state": state, "hand": hand, "table": None, "may": None, "may_trump": False, "choose_trump": False,
         "turn": state.endswith(", your turn"), "led": None, "trump_open": None, "my_trump": None, "raw": t}
    for p in parts[1:]:
        if p.startswith("trump card on the table: "):
            cs = cards_in(p)
            h["table"] = cs[0] if cs else None
        elif p.startswith("you may play: "):
            h["may"] = cards_in(p)
            h["may_trump"] = "or the trump card (play trump)" in p
        elif p.startswith("your only card to play is the trump card on the table"):
            cs = cards_in(p)
            h["table"] = cs[0] if cs else None
            h["may"] = []
            h["may_trump"] = True
        elif p.startswith("choose your trump card"):
            h["choose_trump"] = True
    lm = re.search(r", (spades|hearts|diamonds|clubs) led", state)
    if lm:
        h["led"] = irclib.SUIT_NAMES[lm.group(1)]
    om = re.search(r", trumps (spades|hearts|diamonds|clubs)", state)
    if om:
        h["trump_open"] = irclib.SUIT_NAMES[om.group(1)]
    cm = re.search(r", your trump (spades|hearts|diamonds|clubs) \(closed\)", state)
    if cm:
        h["my_trump"] = irclib.SUIT_NAMES[cm.group(1)]
    h["phase"] = ("bid4" if state.startswith("four-card bidding") else "bid8" if state.startswith("eight-card")
                  else "trump" if "is choosing a trump card" in state else "play" if state.startswith("trick ")
                  else "other")
    return h


def pct(values, p):
    if not values:
        return float("nan")
    v = sorted(values)
    k = min(len(v) - 1, max(0, int(round(p / 100.0 * (len(v) - 1)))))
    return v[k]


class Pacer:
    """Keeps a player under the bot's per-user limit (burst 5, then 1 a
    second) with a margin: burst 4, then 0.9 a second."""

    def __init__(self, burst=4.0, rate=0.9):
        self.burst, self.rate = burst, rate
        self.tokens, self.last = burst, time.time()
        self.lock = threading.Lock()

    def take(self):
        with self.lock:
            now = time.time()
            self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
            self.last = now
            if self.tokens < 1.0:
                wait = (1.0 - self.tokens) / self.rate
                time.sleep(wait)
                self.tokens = 1.0
                self.last = time.time()
            self.tokens -= 1.0

    def full_in(self):
        with self.lock:
            now = time.time()
            t = min(self.burst, self.tokens + (now - self.last) * self.rate)
            return max(0.0, (self.burst - t) / self.rate)
