#!/usr/bin/env python3
"""irc_record.py: `!record` over IRC arrives whole (issue 30, point 1).

A real ngircd and the real bot with no public_dir, its send queue paced
(pace_burst 4, 20 lines a second) so that lines wait in it. ann and three
computer players (who move 50 ms apart) play 304 in #rec, ann passing every
bid and playing the first card the bot offers, until five deals were
played out; ann stops the match, opens a table again and asks `!record`.
The record comes as private notices:

  - the line that announces it says "in N lines", and exactly N pieces
    arrive (no piece split again by the adapter into a lone quote or a
    blank line; issue 30 saw 18 announced and 35 arrived);
  - joined without separators they are the record: JSON that
    `cardbot verify` accepts (issue 30: 3,986 of about 5,200 characters
    arrived, the rest dropped past 16 waiting lines, and verify refused);
  - nothing more comes after the N pieces (a `help` asked next is answered
    right after them), and no line says something was dropped.

Before the fix each of these failed.

Then as a file, by DCC SEND: the bot again with `dcc = true`, a range of
two ports and a short `dcc_timeout_seconds`; a deal is played, stopped,
and ann asks `!record`:

  - the bot says privately that it offers match-N.json, and sends a CTCP
    "DCC SEND match-N.json ADDR PORT SIZE" to ann, with 127.0.0.1 and a
    port of the configured range;
  - a client that connects there and acknowledges as DCC clients do gets
    SIZE bytes, the record: `cardbot verify` accepts it; nothing is sent
    as lines besides;
  - asked again, with the offer left alone, the record comes after the
    timeout as the private lines above ("in N lines", N pieces that join
    into the same record).

Ends with "irc_record: N passed, M failed". Environment: CARDBOT, NGIRCD,
IRC_RECORD_TIMEOUT (seconds a match may take, default 300).
"""
import json
import os
import re
import socket
import struct
import subprocess
import sys
import time
import traceback

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
import irclib  # noqa: E402
import play304lib  # noqa: E402
from irclib import Bot, Client, NgIRCd, strip_colours  # noqa: E402

BOTNICK = "cardbot"
CHAN = "#rec"
DEALS = 5
MATCH_TIMEOUT = float(os.environ.get("IRC_RECORD_TIMEOUT", "300"))
ANNOUNCE = re.compile(r"The record of match (\d+) \(cardbot-record/1 JSON, in (\d+) lines")
OFFER = re.compile(r"\x01DCC SEND (\S+) (\d+) (\d+) (\d+)\x01")
DCC_TIMEOUT = 3

passed = failed = 0


def check(cond, what, detail=""):
    global passed, failed
    if cond:
        passed += 1
    else:
        failed += 1
        print("FAIL: %s%s" % (what, (" (%s)" % detail) if detail else ""))


def said(c, start, pat, timeout, private=None, raw=False):
    """Waits for a line from the bot matching pat after index start; returns its index or None."""
    rx = re.compile(pat)
    found = []

    def look():
        for i, m in enumerate(c.lines[start:], start):
            if m.src.lower() == BOTNICK and m.cmd in ("NOTICE", "PRIVMSG") and rx.search(
                    m.text if raw else strip_colours(m.text)):
                if private is None or (m.target.lower() == c.nick.lower()) == private:
                    found.append(i)
                    return True
        return False
    c.wait(look, timeout)
    return found[0] if found else None


def play_deals(ann, start, deals, timeout):
    """ann plays her seat from ann.lines[start] on: she passes every bid and
    plays the first card her hand line offers, each time that line says it
    is her turn, until `deals` deals were played out (a result line: "X's
    side bid B and took T"). Returns the index after the last one, or None.

    The computers move at once, but never past ann's turn, and her hand
    line waits in the room's story (sendq.h): what the room has not heard
    yet is at most what came after her last move. (Four computers alone ran
    tens of deals ahead of their paced story: a !stop was heard only after
    them, later the busier the machine kept the test from reading.)"""
    i, ended, chan, done = start, 0, 0, set()
    end = time.time() + timeout
    while time.time() < end:
        while i < len(ann.lines):
            m = ann.lines[i]
            i += 1
            if m.src.lower() != BOTNICK or m.cmd not in ("NOTICE", "PRIVMSG"):
                continue
            if m.target.lower() == CHAN:
                chan += 1
                ended += sum(1 for x in play304lib.segs(m.text) if play304lib.END_RE.match(x))
                if ended >= deals:
                    return i
                continue
            h = play304lib.parse_hand(m.text)
            if not h or not h["turn"] or (h["raw"], chan) in done:
                continue
            done.add((h["raw"], chan))   # the same line after the room moved on is a new turn
            if h["phase"] in ("bid4", "bid8"):
                ann.privmsg(BOTNICK, "pass")
            elif h["phase"] == "play" and h["may"]:
                ann.privmsg(BOTNICK, "play " + h["may"][0])
            else:
                raise RuntimeError("ann has no move for %r" % h["raw"])
        n = len(ann.lines)
        ann.wait(lambda: len(ann.lines) > n, end - time.time())
    return None


def bot_lines(c, start):
    return " | ".join(strip_colours(m.text)[:80] for m in c.lines[start:] if m.src.lower() == BOTNICK)[-1500:]


def two_ports():
    """Two free ports side by side (the bot's DCC range)."""
    for _ in range(50):
        p = irclib.free_port()
        s = socket.socket()
        try:
            s.bind(("127.0.0.1", p + 1))
        except OSError:
            continue
        finally:
            s.close()
        return p, p + 1
    raise RuntimeError("no two free ports side by side")


def dcc_get(addr, port, size):
    """A DCC client: connects, reads size bytes, acknowledging each read
    with the 4-byte count so far, as irssi does; then whether the bot
    closed (b"") once it had the last ack."""
    s = socket.create_connection((socket.inet_ntoa(struct.pack("!I", addr)), port), timeout=20)
    got = b""
    try:
        while len(got) < size:
            b = s.recv(65536)
            if not b:
                break
            got += b
            s.sendall(struct.pack("!I", len(got) & 0xFFFFFFFF))
        s.settimeout(5)
        rest = s.recv(1)
    except socket.timeout:
        rest = None
    finally:
        s.close()
    return got, rest


def verify(tmp, text, what):
    path = os.path.join(tmp, "record.json")
    with open(path, "w") as f:
        f.write(text)
    vf = subprocess.run([irclib.CARDBOT, "verify", path], capture_output=True, text=True, timeout=60)
    check(vf.returncode == 0, "cardbot verify accepts %s" % what, (vf.stdout + vf.stderr)[-500:])


def stopped_match(tmp, srv, deals, net_extra=""):
    """The bot (net_extra in its network), ann, computers playing `deals`
    deals in CHAN, stopped, and a table open again: (bot, ann, deals played)."""
    # Computers moving 50 ms apart: at no delay the match outran the paced
    # channel (a line per trick, 20 lines a second) by tens of deals, and
    # the stop came behind all their lines.
    bot = Bot(tmp, srv.port, channels=(CHAN,), pace_burst=4, pace_per_second=20,
              extra_tables="computer_delay_ms = 50;\n  deal_pause_ms = 0;")
    with open(bot.cfg) as f:
        cfg = f.read()
    cfg = cfg.replace("bot = {", "bot = {\n  commands_burst = 100;\n  commands_per_minute = 6000;", 1)  # set up quickly
    with open(bot.cfg, "w") as f:
        f.write(cfg.replace("accept_invites = false;", "accept_invites = false;\n    " + net_extra, 1))
    bot.start()
    ann = Client(srv.port, "ann").connect()
    n = len(ann.lines)
    ann.join(CHAN)
    # The bot is in the channel: its JOIN, or its nick in the names list.
    if not ann.wait(lambda: any(m.cmd in ("JOIN", "353") and BOTNICK in m.raw.decode("utf-8", "replace").lower()
                                for m in ann.lines[n:]), 20):
        raise RuntimeError("the bot did not join: " + bot.log_tail())
    n = len(ann.lines)
    ann.privmsg(CHAN, "!304")
    if said(ann, n, r"ann sits in seat 1", 10) is None:
        raise RuntimeError("no table: " + bot.log_tail())
    for k in range(2, 5):
        ann.privmsg(CHAN, "!bot")
        if said(ann, n, r"\(a computer player\) sits in seat %d" % k, 10) is None:
            raise RuntimeError("no computer player in seat %d: %s" % (k, bot.log_tail()))
    n = len(ann.lines)
    ann.privmsg(CHAN, "!start")
    # The deals played out (a whole match is tens of deals; a deal played
    # out is some 1,900 characters of record), ann playing her seat, then
    # she stops the match: a stopped match has its record too.
    last = play_deals(ann, n, deals, MATCH_TIMEOUT)
    if last is None:
        raise RuntimeError("%d deals were not played out within %.0f s: %s" % (deals, MATCH_TIMEOUT,
                                                                              bot_lines(ann, n)))
    ann.privmsg(CHAN, "!stop")
    if said(ann, last, r"ann stops the table", 30, private=False) is None:
        raise RuntimeError("ann could not stop the match: " + bot_lines(ann, last))
    played = sum(1 for m in ann.lines[n:] if m.src.lower() == BOTNICK and "· tokens: " in m.text)
    k = len(ann.lines)
    ann.privmsg(CHAN, "!304")   # a table again, to ask it for the record
    if said(ann, k, r"ann sits in seat 1", 60) is None:
        raise RuntimeError("no table after the stop: " + bot_lines(ann, k))
    return bot, ann, played


def record_lines(ann, bot, n, at):
    """The record announced at index `at` (asked at n) in private lines:
    the lines joined, or None."""
    want = int(ANNOUNCE.search(strip_colours(ann.lines[at].text)).group(2))

    def pieces():
        return [m for m in ann.lines[at + 1:] if m.src.lower() == BOTNICK and m.cmd == "NOTICE"
                and m.target.lower() == "ann"]
    ann.wait(lambda: len(pieces()) >= want, 30 + want)
    # Anything more would come before the answer to a question asked now
    # (the same person's lines go out in order).
    ann.privmsg(BOTNICK, "help record")
    k = len(ann.lines)
    help_at = said(ann, k, r"record", 30, private=True)
    check(help_at is not None, "the help asked after the record is answered")
    got = [m for m in pieces() if help_at is None or ann.lines.index(m) < help_at]
    check(len(got) == want, "the record was announced in %d lines and %d arrived" % (want, len(got)),
          "; ".join(repr(m.text[:40]) for m in got[:40]))
    dropped = [m.text for m in ann.lines[n:] if m.src.lower() == BOTNICK and "dropped" in m.text]
    check(not dropped, "no line says something was dropped", "; ".join(dropped))
    text = "".join(m.text for m in got)
    try:
        rec = json.loads(text)
    except ValueError as e:
        check(False, "the joined record is JSON", "%s; %d characters" % (e, len(text)))
        return None
    check(rec.get("format") == "cardbot-record/1", "the record's format is cardbot-record/1")
    return text


def as_lines(tmp, srv):
    bot, ann, deals = stopped_match(tmp, srv, DEALS)
    try:
        n = len(ann.lines)
        ann.privmsg(CHAN, "!record")
        at = said(ann, n, ANNOUNCE.pattern, 20, private=True)
        check(at is not None, "!record is announced privately", bot.log_tail())
        if at is None:
            return
        text = record_lines(ann, bot, n, at)
        if text is None:
            return
        verify(tmp, text, "the joined record")
        want = int(ANNOUNCE.search(strip_colours(ann.lines[at].text)).group(2))
        check(want > 16, "the record is longer than one person's 16 waiting lines (%d)" % want)
        print("  lines: a match of %d deals; its record: %d characters in %d lines" % (deals, len(text), want))
        log_clean(bot)
    finally:
        ann.quit()
        bot.stop()


def by_dcc(tmp, srv):
    lo, hi = two_ports()
    bot, ann, deals = stopped_match(tmp, srv, 1, "dcc = true;\n    dcc_port_min = %d;\n    dcc_port_max = %d;\n"
                                    "    dcc_timeout_seconds = %d;" % (lo, hi, DCC_TIMEOUT))
    try:
        # 1. The offer, taken.
        n = len(ann.lines)
        ann.privmsg(CHAN, "!record")
        told = said(ann, n, r"I am offering you match-\d+\.json as a file \(DCC SEND", 20, private=True)
        check(told is not None, "dcc: ann is told privately that the record is offered as a file", bot_lines(ann, n))
        at = said(ann, n, OFFER.pattern, 20, private=True, raw=True)
        check(at is not None, "dcc: a CTCP DCC SEND comes to ann", bot_lines(ann, n))
        if at is None:
            return
        name, addr, port, size = OFFER.search(ann.lines[at].text).groups()
        addr, port, size = int(addr), int(port), int(size)
        check(re.fullmatch(r"match-\d+\.json", name) is not None, "dcc: the file is named match-N.json (%s)" % name)
        check(addr == 0x7F000001, "dcc: the offer names 127.0.0.1, the bot's end of its link (%d)" % addr)
        check(lo <= port <= hi, "dcc: the port %d is in the configured range %d-%d" % (port, lo, hi))
        got, rest = dcc_get(addr, port, size)
        check(len(got) == size, "dcc: %d bytes arrived of the %d offered" % (len(got), size))
        check(rest == b"", "dcc: the bot closes the connection once the last ack is in", repr(rest))
        text = got.decode("utf-8", "replace")
        verify(tmp, text, "the file sent by DCC")
        # Nothing as lines besides: a question asked now is answered next.
        k = len(ann.lines)
        ann.privmsg(BOTNICK, "help record")
        h = said(ann, k, r"record", 20, private=True)
        check(h is not None, "dcc: help asked after the transfer is answered")
        extra = [m for m in ann.lines[at + 1:h or len(ann.lines)] if m.src.lower() == BOTNICK
                 and ANNOUNCE.search(strip_colours(m.text))]
        check(not extra, "dcc: the record is not also sent as lines", [m.text[:60] for m in extra])

        # 2. The offer, left alone: the lines come after the timeout.
        n = len(ann.lines)
        t0 = time.time()
        ann.privmsg(CHAN, "!record")
        check(said(ann, n, OFFER.pattern, 20, private=True, raw=True) is not None,
              "dcc: asked again, the record is offered again")
        at = said(ann, n, ANNOUNCE.pattern, DCC_TIMEOUT + 30, private=True)
        check(at is not None, "dcc: an offer not taken: the record comes as private lines", bot_lines(ann, n))
        if at is None:
            return
        waited = time.time() - t0
        check(waited >= DCC_TIMEOUT - 0.5, "dcc: the lines come only once the offer has timed out (%.1f s)" % waited)
        joined = record_lines(ann, bot, n, at)
        # (a piece that starts with a space arrives without it: JSON does not mind)
        check(joined is not None and json.loads(joined) == json.loads(text), "dcc: the lines say what the file said")
        print("  dcc: %d deal(s), a record of %d bytes taken by DCC; as lines after a %d s timeout" % (
            deals, size, DCC_TIMEOUT))
        log_clean(bot)
    finally:
        ann.quit()
        bot.stop()


def log_clean(bot):
    check(bot.alive(), "the bot is still running", bot.log_tail())
    with open(bot.log, "rb") as f:
        log = f.read().decode("utf-8", "replace")
    check(not re.search(r"runtime error|AddressSanitizer|LeakSanitizer", log), "no sanitizer report in the log")


def main():
    if not os.access(irclib.CARDBOT, os.X_OK) or not os.access(irclib.NGIRCD, os.X_OK):
        print("irc_record: cardbot or ngircd is missing")
        print("irc_record: 0 passed, 1 failed")
        return 1
    for scenario in (as_lines, by_dcc):
        tmp = irclib.tempdir()
        srv = NgIRCd(tmp)
        srv.start()
        try:
            scenario(tmp, srv)
        except Exception:
            check(False, "%s raised" % scenario.__name__, traceback.format_exc())
        finally:
            srv.stop()
            irclib.rmtree(tmp)
    print("irc_record: %d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
