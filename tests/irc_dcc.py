#!/usr/bin/env python3
"""irc_dcc.py: `!record` over IRC as a file, by DCC SEND (issue 30, point 1).

A real ngircd and the real bot with `dcc = true`, a range of two ports
and a short `dcc_timeout_seconds`. Four computer players play a deal of
304 in #dcc; ann sits, stops the match, opens a table again and asks
`!record`:

  - the bot says privately that it offers match-N.json, and sends a CTCP
    "DCC SEND match-N.json ADDR PORT SIZE" to ann, with 127.0.0.1 and a
    port of the configured range;
  - a client that connects there and acknowledges as DCC clients do gets
    SIZE bytes, the record: `cardbot verify` accepts it; nothing is sent
    as lines besides;
  - asked again, with the offer left alone, the record comes after the
    timeout as the private lines it came in before DCC ("in N lines", N
    pieces that join into a record `cardbot verify` accepts).

Ends with "irc_dcc: N passed, M failed". Environment: CARDBOT, NGIRCD,
IRC_DCC_TIMEOUT (seconds a deal may take, default 240).
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
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import irclib  # noqa: E402
from irclib import Bot, Client, NgIRCd, strip_colours  # noqa: E402

BOTNICK = "cardbot"
CHAN = "#dcc"
DEAL_TIMEOUT = float(os.environ.get("IRC_DCC_TIMEOUT", "240"))
OFFER = re.compile(r"\x01DCC SEND (\S+) (\d+) (\d+) (\d+)\x01")
ANNOUNCE = re.compile(r"The record of match (\d+) \(cardbot-record/1 JSON, in (\d+) lines")
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


def bot_lines(c, start):
    return " | ".join(strip_colours(m.text)[:80] for m in c.lines[start:] if m.src.lower() == BOTNICK)[-1500:]


def two_ports():
    """Two free ports side by side (the bot's DCC range)."""
    for _ in range(50):
        p = irclib.free_port()
        if p >= 65535:
            continue
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
    with the 4-byte count so far, as irssi does."""
    ip = socket.inet_ntoa(struct.pack("!I", addr))
    s = socket.create_connection((ip, port), timeout=20)
    got = b""
    try:
        while len(got) < size:
            b = s.recv(65536)
            if not b:
                break
            got += b
            s.sendall(struct.pack("!I", len(got) & 0xFFFFFFFF))
        s.settimeout(5)
        rest = s.recv(1)   # the bot closes once it has the last ack
    except socket.timeout:
        rest = None
    finally:
        s.close()
    return got, rest


def verify(tmp, name, text):
    path = os.path.join(tmp, name)
    with open(path, "w") as f:
        f.write(text)
    vf = subprocess.run([irclib.CARDBOT, "verify", path], capture_output=True, text=True, timeout=60)
    return vf.returncode == 0, (vf.stdout + vf.stderr)[-500:]


def main():
    if not os.access(irclib.CARDBOT, os.X_OK) or not os.access(irclib.NGIRCD, os.X_OK):
        print("irc_dcc: cardbot or ngircd is missing")
        print("irc_dcc: 0 passed, 1 failed")
        return 1
    tmp = irclib.tempdir()
    srv = NgIRCd(tmp)
    srv.start()
    lo, hi = two_ports()
    bot = Bot(tmp, srv.port, channels=(CHAN,), pace_burst=4, pace_per_second=20,
              extra_tables="computer_delay_ms = 0;\n  deal_pause_ms = 0;")
    with open(bot.cfg) as f:
        cfg = f.read()
    cfg = cfg.replace("bot = {", "bot = {\n  commands_burst = 100;\n  commands_per_minute = 6000;", 1)
    cfg = cfg.replace("accept_invites = false;", "accept_invites = false;\n    dcc = true;\n    dcc_port_min = %d;\n"
                      "    dcc_port_max = %d;\n    dcc_timeout_seconds = %d;" % (lo, hi, DCC_TIMEOUT), 1)
    with open(bot.cfg, "w") as f:
        f.write(cfg)
    bot.start()
    ann = None
    try:
        ann = Client(srv.port, "ann").connect()
        n = len(ann.lines)
        ann.join(CHAN)
        if not ann.wait(lambda: any(m.cmd in ("JOIN", "353") and BOTNICK in m.raw.decode("utf-8", "replace").lower()
                                    for m in ann.lines[n:]), 20):
            raise RuntimeError("the bot did not join: " + bot.log_tail())
        n = len(ann.lines)
        ann.privmsg(CHAN, "!304")
        if said(ann, n, r"ann sits in seat 1", 10) is None:
            raise RuntimeError("no table: " + bot.log_tail())
        ann.privmsg(CHAN, "!leave")
        ann.privmsg(CHAN, "!bot all")
        if said(ann, n, r"\(a computer player\) sits in seat 4", 10) is None:
            raise RuntimeError("no computer players: " + bot_lines(ann, n))
        n = len(ann.lines)
        ann.privmsg(CHAN, "!start")
        end = said(ann, n, r"· tokens: ", DEAL_TIMEOUT, private=False)
        check(end is not None, "a deal was played within %.0f s" % DEAL_TIMEOUT, bot.log_tail())
        if end is None:
            return
        ann.privmsg(CHAN, "!sit")
        if said(ann, end, r"ann takes seat", 20) is None:
            raise RuntimeError("ann could not take a seat: " + bot_lines(ann, end))
        ann.privmsg(CHAN, "!stop")
        if said(ann, end, r"ann stops the table", 30, private=False) is None:
            raise RuntimeError("ann could not stop the match: " + bot_lines(ann, end))
        k = len(ann.lines)
        ann.privmsg(CHAN, "!304")
        if said(ann, k, r"ann sits in seat 1", 60) is None:
            raise RuntimeError("no table after the stop: " + bot_lines(ann, k))

        # 1. The offer, taken.
        n = len(ann.lines)
        ann.privmsg(CHAN, "!record")
        told = said(ann, n, r"I am offering you match-\d+\.json as a file \(DCC SEND", 20, private=True)
        check(told is not None, "ann is told privately that the record is offered as a file", bot_lines(ann, n))
        at = said(ann, n, OFFER.pattern, 20, private=True, raw=True)
        check(at is not None, "a CTCP DCC SEND comes to ann", bot_lines(ann, n))
        if at is None:
            return
        name, addr, port, size = OFFER.search(ann.lines[at].text).groups()
        addr, port, size = int(addr), int(port), int(size)
        check(re.fullmatch(r"match-\d+\.json", name) is not None, "the file is named match-N.json (%s)" % name)
        check(addr == 0x7F000001, "the offer names 127.0.0.1, the bot's end of its link (%d)" % addr)
        check(lo <= port <= hi, "the port %d is in the configured range %d-%d" % (port, lo, hi))
        got, rest = dcc_get(addr, port, size)
        check(len(got) == size, "%d bytes arrived of the %d offered" % (len(got), size))
        check(rest == b"", "the bot closes the connection once the last ack is in", repr(rest))
        text = got.decode("utf-8", "replace")
        try:
            rec = json.loads(text)
            check(rec.get("format") == "cardbot-record/1", "the file is a cardbot-record/1")
        except ValueError as e:
            check(False, "the file is JSON", str(e))
        ok, out = verify(tmp, "dcc.json", text)
        check(ok, "cardbot verify accepts the file", out)
        # Nothing as lines besides: a question asked now is answered next.
        k = len(ann.lines)
        ann.privmsg(BOTNICK, "help record")
        h = said(ann, k, r"record", 20, private=True)
        check(h is not None, "help asked after the transfer is answered")
        pieces = [m for m in ann.lines[at + 1:h or len(ann.lines)] if m.src.lower() == BOTNICK
                  and ANNOUNCE.search(strip_colours(m.text))]
        check(not pieces, "the record is not also sent as lines", [m.text[:60] for m in pieces])

        # 2. The offer, left alone: the lines come after the timeout.
        n = len(ann.lines)
        t0 = time.time()
        ann.privmsg(CHAN, "!record")
        at2 = said(ann, n, OFFER.pattern, 20, private=True, raw=True)
        check(at2 is not None, "asked again, the record is offered again")
        ann_at = said(ann, n, ANNOUNCE.pattern, DCC_TIMEOUT + 30, private=True)
        check(ann_at is not None, "an offer not taken: the record comes as private lines", bot_lines(ann, n))
        if ann_at is None:
            return
        waited = time.time() - t0
        check(waited >= DCC_TIMEOUT - 0.5, "the lines come only once the offer has timed out (%.1f s)" % waited)
        want = int(ANNOUNCE.search(strip_colours(ann.lines[ann_at].text)).group(2))

        def got_pieces():
            return [m for m in ann.lines[ann_at + 1:] if m.src.lower() == BOTNICK and m.target.lower() == "ann"
                    and m.cmd == "NOTICE"]
        ann.wait(lambda: len(got_pieces()) >= want, 30 + want)
        lines = got_pieces()[:want]
        check(len(lines) == want, "%d lines announced, %d arrived" % (want, len(lines)))
        joined = "".join(m.text for m in lines)
        ok, out = verify(tmp, "lines.json", joined)
        check(ok, "cardbot verify accepts the record joined from the lines", out)
        # (a piece that starts with a space arrives without it: JSON does not mind)
        try:
            same = json.loads(joined) == json.loads(text)
        except ValueError:
            same = False
        check(same, "the lines say what the file said")
        print("  record: %d bytes by DCC; %d lines after a %d s timeout" % (size, want, DCC_TIMEOUT))
        check(bot.alive(), "the bot is still running", bot.log_tail())
        with open(bot.log, "rb") as f:
            log = f.read().decode("utf-8", "replace")
        check(not re.search(r"runtime error|AddressSanitizer|LeakSanitizer", log), "no sanitizer report in the log")
    except Exception:
        check(False, "the scenario raised", traceback.format_exc())
    finally:
        if ann:
            ann.quit()
        bot.stop()
        srv.stop()
        irclib.rmtree(tmp)
    print("irc_dcc: %d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
