"""langlib.py: shared pieces of the language end-to-end tests (irc_lang.py,
matrix_lang.py).

- The bot's own tables (bot/text/text.h for English, bot/text/text_ta.c, bot/text/text_si.c)
  read as data, so a scripted player can find its hand, its turn and what it
  may play in the words of the language it reads. The tables are used only
  to read the bot's lines; what language a line is in is judged by its
  letters alone (below), never by comparing it with a table.
- A move chooser for 304, Trump304 and Rook that works from those lines.
- The language rule: a line is Tamil if it holds Tamil letters (U+0B80 to
  U+0BFF), Sinhala if it holds Sinhala letters (U+0D80 to U+0DFF).
  check_line() says what is wrong with one line meant for one language.
- A privacy check that needs no words: a card named to someone (privately,
  or in the room) while it sat in another person's hand both before and
  after that line is a leak.
Python 3 standard library only.
"""
import glob
import os
import re

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SEP = " \u00b7 "

TA = re.compile(r"[\u0B80-\u0BFF]")
SI = re.compile(r"[\u0D80-\u0DFF]")
SCRIPT = {"ta": TA, "si": SI}
COLOUR_RE = re.compile(r"\x03(\d{1,2}(,\d{1,2})?)?|[\x02\x0f\x16\x1d\x1f]")

SUITS = {"\u2660": "S", "\u2665": "H", "\u2666": "D", "\u2663": "C"}
T_CARD = re.compile(r"(?<![0-9A-Za-z])(10|[789JQKA])([\u2660\u2665\u2666\u2663])")
R_CARD = re.compile(r"(?<![0-9A-Za-z])(1[0-4]|[1-9])([RGYB])(?![0-9A-Za-z])|(?<![A-Za-z-])ROOK(?![A-Za-z])")


def strip_colours(text):
    return COLOUR_RE.sub("", text)


def cards_in(text, game="304"):
    """Card codes a text names: 'JS', '10H' (304, Trump304); '14R', 'ROOK' (Rook)."""
    t = strip_colours(text)
    if game == "rook":
        return [m.group(0) if m.group(0) == "ROOK" else m.group(1) + m.group(2) for m in R_CARD.finditer(t)]
    return [r + SUITS[s] for r, s in T_CARD.findall(t)]


# ---------------------------------------------------------------- the tables

def _unc(s):
    return s.replace('\\"', '"').replace("\\\\", "\\")


def load_tables():
    """{'en': {id: text}, 'ta': {...}, 'si': {...}} for the T_ ids: the host's
    (bot/text/) and each game's own (bot/games/present_<game>_text.h in
    English, present_<game>_ta.inc and _si.inc)."""
    out = {"en": {}, "ta": {}, "si": {}}
    games = os.path.join(ROOT, "bot", "games")
    en = [os.path.join(ROOT, "bot", "text", "text.h")] + sorted(glob.glob(os.path.join(games, "present_*_text.h")))
    for path in en:
        with open(path, encoding="utf-8") as f:
            for m in re.finditer(r'X\((T_\w+), "((?:[^"\\]|\\.)*)"\)', f.read()):
                out["en"][m.group(1)] = _unc(m.group(2))
    for lang in ("ta", "si"):
        paths = [os.path.join(ROOT, "bot", "text", "text_%s.c" % lang)] + \
            sorted(glob.glob(os.path.join(games, "present_*_%s.inc" % lang)))
        for path in paths:
            with open(path, encoding="utf-8") as f:
                for m in re.finditer(r'^\s*\[(T_\w+)\] = "((?:[^"\\]|\\.)*)",\s*$', f.read(), re.M):
                    out[lang][m.group(1)] = _unc(m.group(2))
    return out


TABLES = load_tables()


def text(lang, tid):
    return TABLES[lang].get(tid) or TABLES["en"][tid]


def template_re(tmpl, anchored=True):
    """A regex reading a table line: {1} {2} ... become groups g1, g2 ..."""
    out, pos = [], 0
    tmpl = tmpl.replace("/msg me ", "\0")  # the bot names itself, or the direct room, there
    for m in re.finditer(r"\{(\d|prefix|start)\}|\0", tmpl):
        out.append(re.escape(tmpl[pos:m.start()]))
        k = m.group(1)
        if k is None:
            out.append(".*?")
        elif not k.isdigit():
            out.append(r"\S*")
        elif "(?P<g%s>" % k in "".join(out):
            out.append("(?P=g%s)" % k)
        else:
            out.append("(?P<g%s>.*?)" % k)
        pos = m.end()
    out.append(re.escape(tmpl[pos:]))
    body = "".join(out)
    return re.compile("^" + body + "$" if anchored else body)


def part_prefix(lang, tid):
    """The words a ' | ...' part of a hand line starts with (before its
    first placeholder or '/msg me', which names the bot)."""
    t = text(lang, tid)
    if t.startswith(" | "):
        t = t[3:]
    for cut in ("{", "/msg"):
        t = t.split(cut)[0]
    return t.rstrip()


def parse_hand(line, lang, game="304"):
    """The private hand line in language lang, or None: room, state, turn,
    hand (codes), and the parts: may (codes or None), only_trump,
    choose_trump, g_trump, exchange, discard (codes or None), colour."""
    t = strip_colours(line)
    hm = template_re(text(lang, "T_HAND")).match(t)
    if not hm:
        return None
    head, rest = hm.group("g1"), hm.group("g2")
    room, _, state = head.partition(": ")
    if not re.match(r"^[#&!]\S*$", room):
        return None
    yt = text(lang, "T_STATE_YOUR_TURN")
    turn = state.endswith(yt)
    if turn:
        state = state[:-len(yt)]
    parts = rest.split(" | ")
    h = {"room": room, "state": state, "turn": turn, "hand": cards_in(parts[0], game), "may": None,
         "only_trump": False, "choose_trump": False, "exchange": False, "discard": None, "colour": False,
         "table": None, "raw": t}
    for p in parts[1:]:
        if p.startswith(part_prefix(lang, "T_HAND_MAY_PLAY")):
            h["may"] = cards_in(p, game)
        elif p.startswith(part_prefix(lang, "T_HAND_ONLY_TRUMP_CARD")):
            h["only_trump"] = True
        elif p.startswith(part_prefix(lang, "T_HAND_CHOOSE_TRUMP")):
            h["choose_trump"] = True
        elif p.startswith(part_prefix(lang, "T_HAND_TRUMP_CARD")):
            cs = cards_in(p, game)
            h["table"] = cs[0] if cs else None
        elif p.startswith(part_prefix(lang, "T_G_HAND_TRUMP_CARD")):
            cs = cards_in(p, game)
            h["table"] = cs[0] if cs else None
        elif p.startswith(part_prefix(lang, "T_G_HAND_EXCHANGE")):
            h["exchange"] = True
        elif p.startswith(part_prefix(lang, "T_G_HAND_DISCARD")):
            h["discard"] = cards_in(p, game)
        elif p.startswith(part_prefix(lang, "T_G_HAND_COLOUR")):
            h["colour"] = True
    st = state.split(",")[0]
    h["bid4_open"] = state == text(lang, "T_STATE_BID4")
    h["gbid_open"] = state == text(lang, "T_G_STATE_BID")
    h["bid8"] = template_re(text(lang, "T_STATE_BID8")).match(st + state[len(st):]) is not None or \
        state.startswith(text(lang, "T_STATE_BID8").split("{1}")[0])
    return h


def decide(h, game, bidder, bid_done):
    """The command (without the room) a scripted player sends for its turn.
    bidder: this player bids when nobody has bid yet (304: 250 in the
    four-card bidding; Trump304: 250; Rook: 150); everyone else passes.
    bid_done: unused (kept for callers)."""
    if h["may"]:
        return "play " + h["may"][0].lower()
    if h["only_trump"] or (h["may"] is not None and h["table"]):
        return "play trump"
    if h["choose_trump"]:
        return "trump 1"
    if h["discard"]:
        return "discard " + h["discard"][-1].lower()
    if h["colour"]:
        return "trump black"
    if h["exchange"]:
        return "keep"
    # bidding
    if game == "304":
        if bidder and h["bid4_open"]:
            return "bid 250"
        return "pass"
    if bidder and h["gbid_open"]:
        return "bid 250" if game == "trump304" else "bid 150"
    return "pass"


# ---------------------------------------------------------------- the language rule

# Latin words a Tamil or Sinhala line may hold: commands and their words
# (commands are English in every language), option names and values, card
# placeholders of command syntax, the game names, and the bot's own name.
COMMAND_WORDS = set("""
304 trump304 rook sit bot unbot start stop leave play p bid pass partner redeal trump open cut spoilt caps
finish hand table last score rules notify ascii help stats top history record new lang set claim key hint
keep exchange discard reveal msg me CARD CARD CARD KEY SEAT GAME PLAYERS OPTION VALUE N NAME pcc
bidding fives scoring caps external_caps pace level think standard bank strict lenient off on pagat single
casual live correspondence easy normal strong en ta si red green yellow black r g y b js th
cardbot verify JSON cardbot-record HTML
salt commitment nest quit restart nick
private notice irssi weechat
""".split())
# (The last three are terms the translators kept on purpose: "salt" and
# "commitment" are the fields of a match record that `cardbot verify` checks,
# "nest" is Rook's own word for its centre card; "quit", "restart", "nick"
# are IRC's words in the seat-key line; "notice" is a value of !private,
# and irssi and weechat are the names of the clients that line warns of.)


def latin_words(seg, names):
    """Latin words of a segment, names, cards, room names and command
    words taken out."""
    t = strip_colours(seg)
    for key in re.findall(r"\bclaim (\w+)", t):   # a seat key: random letters
        if key != "KEY":
            t = t.replace(key, " ")
    for n in sorted(names, key=len, reverse=True):
        t = re.sub(r"(?<![A-Za-z0-9_-])%s(?![A-Za-z0-9_-])" % re.escape(n), " ", t)
    t = T_CARD.sub(" ", t)
    t = R_CARD.sub(" ", t)
    t = re.sub(r"[#&!][A-Za-z0-9_.:-]+", " ", t)            # rooms, !commands and Matrix ids
    t = re.sub(r"@[A-Za-z0-9_.=-]+:[A-Za-z0-9.-]+", " ", t)  # Matrix user ids
    t = re.sub(r"https?://\S+", " ", t)
    t = re.sub(r"\b[0-9a-f]{16,}\b", " ", t)                 # commitments, salts
    words = re.findall(r"[A-Za-z][A-Za-z_']*", t)
    return [w for w in words if w not in COMMAND_WORDS and w.lower() not in COMMAND_WORDS]


def check_line(line, lang, names):
    """None if line is fit for a reader of lang, else what is wrong.

    The rule, per segment (a line's parts between ' \u00b7 ' and ' | '):
      en: no Tamil or Sinhala letter anywhere in the line.
      ta, si: no letter of the other of the two scripts anywhere in the
        line; and every segment either holds no Latin word once names,
        cards, rooms, numbers and command words are taken out (it is all
        names and cards: exempt), or holds letters of lang and no such
        Latin word (an English word left is a leak)."""
    t = strip_colours(line)
    if lang == "en":
        if TA.search(t) or SI.search(t):
            return "Tamil or Sinhala letters in a line meant for English"
        return None
    other = SI if lang == "ta" else TA
    if other.search(t):
        return "letters of the other script"
    segs = [s for part in t.split(SEP) for s in part.split(" | ")]
    own = SCRIPT[lang]
    for s in segs:
        words = latin_words(s, names)
        if words:
            return "English words %s in %r" % (words[:6], s[:120])
        if not own.search(s) and re.search(r"[^\W\d_]", _letters_left(s, names)):
            return "a segment with letters but none of %s: %r" % (lang, s[:120])
    return None


def _letters_left(seg, names):
    t = strip_colours(seg)
    for key in re.findall(r"\bclaim (\w+)", t):
        t = t.replace(key, " ")
    for n in names:
        t = t.replace(n, " ")
    t = T_CARD.sub(" ", t)
    t = R_CARD.sub(" ", t)
    t = re.sub(r"[#&!@][^\s,;:()]+", " ", t)
    t = re.sub(r"\b[0-9a-f]{16,}\b", " ", t)
    return re.sub(r"[A-Za-z][A-Za-z_'-]*", lambda m: " " if m.group(0) in COMMAND_WORDS else m.group(0), t)


def utf8_ok(raw):
    try:
        raw.decode("utf-8")
        return True
    except UnicodeDecodeError:
        return False


# ---------------------------------------------------------------- privacy

class Hands:
    """The hands one person was shown, in time order: [(t, set of codes)]."""

    def __init__(self):
        self.seq = []

    def add(self, t, cards):
        self.seq.append((t, set(cards)))

    def held_around(self, t, card, margin=0.0):
        """The card was in this hand in the last hand line before t and in
        the first one after t, both of one deal (one hand holds the other:
        a hand only loses cards, or grows from four to eight), so it was
        held when t's line was sent, whatever order two streams arrive in."""
        before = [c for tt, c in self.seq if tt < t - margin]
        after = [c for tt, c in self.seq if tt > t + margin]
        if not before or not after:
            return False
        b, a = before[-1], after[0]
        return card in b and card in a and (a <= b or b <= a)


# Room announcements that show a card by the rules (the trump card opened
# or revealed, a face-down card turned up): read in the room's language.
PUBLIC_IDS = ("T_OPENED", "T_REVEALED", "T_TURNED_UP", "T_CAPS_CALLED", "T_G_REVEAL_ASKED", "T_G_REVEAL_SELF",
              "T_G_REVEAL_LAST")


def public_announcement(seg):
    return any(template_re(text(lg, tid)).match(seg) for lg in ("en", "ta", "si") for tid in PUBLIC_IDS)


def privacy(hands, private, channel, names, game="304", margin=0.3):
    """Leaks. hands: person -> Hands (each person's own hand lines);
    private: person -> [(t, text)] of lines to them (hand lines included);
    channel: [(t, text)] of room lines; names: person -> the names the room
    calls them. A private line to p leaks a card c when c was in another
    person's hand before and after it. A room line leaks c when c was in
    someone's hand before and after it and the segment naming it does not
    name that person (their own play, opening or caps order) and is not
    one of the announcements the rules make public (PUBLIC_IDS)."""
    leaks = []
    for p, lines in private.items():
        for t, txt in lines:
            for c in cards_in(txt, game):
                for q, hq in hands.items():
                    if q != p and hq.held_around(t, c, margin):
                        leaks.append("private line to %s names %s, in %s's hand: %r" % (p, c, q, txt[:160]))
    for t, txt in channel:
        for seg in strip_colours(txt).split(SEP):
            for c in cards_in(seg, game):
                for q, hq in hands.items():
                    if hq.held_around(t, c, margin) and not any(n in seg for n in names[q]) \
                            and not public_announcement(seg):
                        leaks.append("room line names %s, in %s's hand: %r" % (c, q, seg[:160]))
    return leaks
