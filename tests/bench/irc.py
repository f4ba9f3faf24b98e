#!/usr/bin/env python3
"""tests/bench/irc.py: cardbot's figures on a real ngircd (part of `make bench`).

Not a test (tests/run.sh runs only tests/*.py): it asserts nothing and
exits 0 even when a figure cannot be measured, saying why. It starts its
own ngircd servers on free 127.0.0.1 ports (MaxPenaltyTime = 0: no flood
penalties, MaxJoins = 0: no channel limit) and `$CARDBOT run -c FILE`
(default bin/cardbot) with generated configurations whose pacing is at the
configuration's maximum (pace_burst 100, pace_per_second 50) and whose
per-user command limits are at theirs (commands_burst 1000,
commands_per_minute 60000), then measures:

  1. command-to-reply latency: 500 commands ("!table" in the channel and
     "hand" in private, alternately) at a table in play, one at a time at
     40 a second (under the bot's 50 lines a second, so its own pacing
     never holds a reply back), from the client's send to the first line
     back to that client; also every bid and play of the scripted deals;
  2. resident memory (VmRSS) of the bot idle (one table open), connected
     to 100 channels, with 1, 50 and 100 tables in play
     (four computer players each, playing continuously; two networks of
     50 channels, as one network holds at most 64);
  3. CPU time (utime+stime) and system calls (strace -c -f -p PID) of an
     idle bot (connected, one table open, no game) over 60 s;
  4. lines the bot sends per complete deal, channel and private, with four
     scripted humans and with two humans and two computer players.

Runs in about 70 s (the 60 s idle window overlaps the rest). Prints one
summary line per figure, "irc.NAME VALUE  (how it was measured)".
Environment: CARDBOT, NGIRCD, BENCH_IRC_IDLE_SECONDS (default 60).
"""
import os
import re
import signal
import shutil
import subprocess
import sys
import threading
import time
import traceback

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
TESTS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, TESTS)
import irclib  # noqa: E402
from irclib import Client, NgIRCd, strip_colours  # noqa: E402
from irc_game import parse_hand, segs, deal_ended, END_RE  # noqa: E402

IDLE_SECONDS = float(os.environ.get("BENCH_IRC_IDLE_SECONDS", "60"))
LAT_COMMANDS = 500
LAT_INTERVAL = 0.025          # 40 commands a second, under the bot's 50 lines a second
DEALS_WANTED = 4              # complete deals per table for the lines figure
MEM_TABLES = 100
MEM_PER_NET = 50
MEM_PLAY_SECONDS = 20.0
MEM_HALF_SECONDS = 10.0
MEM_COMPUTER_DELAY_MS = 150     # ~6 s a deal: ~1 line a second a table, under 50 lines a second a network
MOVE_THINK = 0.07             # a scripted human's pause before each move: keeps the bot under its pacing
MEM_DEAL_PAUSE_MS = 200
CLK_TCK = os.sysconf("SC_CLK_TCK")

FIGURES = []                  # summary lines, in order
NOTES = []
_lock = threading.Lock()


def figure(name, value, how):
    with _lock:
        FIGURES.append((name, value, how))


def unmeasured(name, why):
    figure(name, "n/a", "not measured: " + why)


def note(text):
    with _lock:
        NOTES.append(text)


def pct(values, p):
    v = sorted(values)
    k = min(len(v) - 1, max(0, int(round(p / 100.0 * (len(v) - 1)))))
    return v[k]


# ---------------------------------------------------------------- the process


def proc_status(pid):
    out = {}
    try:
        with open("/proc/%d/status" % pid) as f:
            for line in f:
                k, _, v = line.partition(":")
                out[k] = v.strip()
    except OSError:
        pass
    return out


def rss_kb(pid):
    v = proc_status(pid).get("VmRSS", "")
    return int(v.split()[0]) if v else None


def hwm_kb(pid):
    v = proc_status(pid).get("VmHWM", "")
    return int(v.split()[0]) if v else None


def cpu_seconds(pid):
    """utime + stime of pid, in seconds."""
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLK_TCK   # fields 14 and 15 of stat(5)


def ctx_switches(pid):
    s = proc_status(pid)
    return int(s.get("voluntary_ctxt_switches", 0)), int(s.get("nonvoluntary_ctxt_switches", 0))


class BotProc:
    """`$CARDBOT run -c FILE` on a generated configuration: one or more
    networks on the same server, every limit that could hold a figure back
    raised to the configuration's maximum."""

    def __init__(self, tmp, port, networks, deal_pause_ms=0, computer_delay_ms=0, log_level="info"):
        self.tmp = tmp
        self.cfg = os.path.join(tmp, "cardbot.cfg")
        self.log = os.path.join(tmp, "cardbot.log")
        self.proc = None
        nets = []
        for name, nick, chans in networks:
            nets.append("""  {
    name = "%s";
    type = "irc";
    server = "127.0.0.1";
    port = %d;
    tls = false;
    nick = "%s";
    channels = ( %s );
    private_notice = true;
    pace_burst = 100;
    pace_per_second = 50;
    reconnect_min_seconds = 1;
    reconnect_max_seconds = 2;
    accept_invites = false;
  }""" % (name, port, nick, ", ".join('"%s"' % c for c in chans)))
        with open(self.cfg, "w") as f:
            f.write("""bot = {
  prefix = "!";
  log_level = "%s";
  data_dir = "%s/data";
  allow_invites = false;
  commands_burst = 1000;
  commands_per_minute = 60000;
};
tables = {
  pace = "casual";
  computer_level = "normal";
  deal_pause_ms = %d;
  computer_delay_ms = %d;
};
networks = (
%s
);
""" % (log_level, tmp, deal_pause_ms, computer_delay_ms, ",\n".join(nets)))

    def start(self):
        logf = open(self.log, "ab")
        self.proc = subprocess.Popen([irclib.CARDBOT, "run", "-c", self.cfg], stdout=logf, stderr=subprocess.STDOUT,
                                     stdin=subprocess.DEVNULL, cwd=self.tmp)
        irclib._PROCS.append(self.proc)
        logf.close()
        return self

    @property
    def pid(self):
        return self.proc.pid

    def alive(self):
        return self.proc is not None and self.proc.poll() is None

    def stop(self):
        if self.alive():
            self.proc.send_signal(signal.SIGTERM)
            time.sleep(0.1)
            if self.alive():
                self.proc.send_signal(signal.SIGTERM)  # a second signal: leave at once
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)

    def log_text(self):
        try:
            with open(self.log, "rb") as f:
                return f.read().decode("utf-8", "replace")
        except OSError:
            return ""

    def log_tail(self, n=8):
        return " | ".join(self.log_text().splitlines()[-n:])


# ---------------------------------------------------------------- clients


def raw(m):
    return m.raw.decode("utf-8", "replace") if isinstance(m.raw, bytes) else m.raw


def from_bot(m, bots):
    return m.src.lower() in bots and m.cmd in ("NOTICE", "PRIVMSG")


def bot_in(client, chan, bots):
    """Whether client has seen one of bots in chan (a JOIN, or the NAMES list)."""
    c = chan.lower()
    for m in list(client.lines):
        if m.cmd == "JOIN" and m.src.lower() in bots and (m.target.lower() == c or m.text.lower() == c):
            return True
        if m.cmd == "353" and len(raw(m).split()) > 4 and raw(m).split()[4].lower() == c:
            names = {n.lstrip("@+%~&").lower() for n in m.text.split()}
            if names & bots:
                return True
    return False


def join_all(client, chans, timeout=20.0):
    """Joins many channels, a few JOINs per line, and waits for every 366."""
    n = len(client.lines)
    for i in range(0, len(chans), 40):
        client.raw("JOIN " + ",".join(chans[i:i + 40]))
    want = {c.lower() for c in chans}

    def done():
        got = {raw(m).split()[3].lower() for m in client.lines[n:] if m.cmd == "366" and len(raw(m).split()) > 3}
        return want <= got
    return client.wait(done, timeout)


def wait_reply(client, start, bots, timeout, pred=None):
    """First bot line in client.lines from index start (matching pred), or None."""
    found = []

    def look():
        for m in client.lines[start:]:
            if from_bot(m, bots) and (pred is None or pred(m)):
                found.append(m)
                return True
        return False
    client.wait(look, timeout)
    return found[0] if found else None


def isupport(client):
    """Tokens of the server's 005 lines, as a dict."""
    out = {}
    for m in client.lines:
        if m.cmd == "005":
            for tok in raw(m).split(" :", 1)[0].split()[3:]:
                k, _, v = tok.partition("=")
                out[k.upper()] = v
    return out


# ---------------------------------------------------------------- 3. idle


def bench_idle():
    tmp = irclib.tempdir()
    srv = bot = strace = None
    try:
        srv = NgIRCd(tmp)
        srv.start()
        bot = BotProc(tmp, srv.port, [("idle", "cardbot", ["#idle"])]).start()
        c = Client(srv.port, "idler").connect()
        c.join("#idle")
        if not c.wait(lambda: bot_in(c, "#idle", {"cardbot"}), 15):
            raise RuntimeError("the bot did not join #idle: " + bot.log_tail())
        n = len(c.lines)
        c.privmsg("#idle", "!304")
        if not wait_reply(c, n, {"cardbot"}, 5, lambda m: "sits in seat 1" in strip_colours(m.text)):
            raise RuntimeError("no table opened: " + bot.log_tail())
        time.sleep(2.0)
        pid = bot.pid
        rss = rss_kb(pid)
        figure("irc.rss_kb.idle", rss, "VmRSS of the bot connected to one network, in #idle with one table open "
               "(!304), no game")
        strace_path = shutil.which("strace")
        out = os.path.join(tmp, "strace.txt")
        if strace_path:
            errf = open(out + ".err", "wb")
            strace = subprocess.Popen([strace_path, "-c", "-f", "-p", str(pid), "-o", out],
                                      stdout=subprocess.DEVNULL, stderr=errf, stdin=subprocess.DEVNULL)
            errf.close()
            irclib._PROCS.append(strace)
            time.sleep(0.5)   # attached
            if strace.poll() is not None:
                note("strace could not attach: %s" % read_text(out + ".err").strip())
                strace = None
        cpu0, ctx0, t0 = cpu_seconds(pid), ctx_switches(pid), time.time()
        time.sleep(IDLE_SECONDS)
        cpu1, ctx1, t1 = cpu_seconds(pid), ctx_switches(pid), time.time()
        per_min = 60.0 / (t1 - t0)
        figure("irc.idle_cpu_ms_per_minute", "%.1f" % ((cpu1 - cpu0) * 1000 * per_min),
               "utime+stime from /proc/PID/stat before and after %.0f s idle (connected, one table open, no game; "
               "clock tick %d ms)" % (t1 - t0, 1000 // CLK_TCK))
        figure("irc.idle_wakeups_per_minute", "%.1f" % ((ctx1[0] - ctx0[0]) * per_min),
               "voluntary context switches in /proc/PID/status over the same %.0f s (each is a blocking "
               "select() that returned; %d involuntary; strace%s attached)" % (
                   t1 - t0, ctx1[1] - ctx0[1], "" if strace else " not"))
        if strace:
            strace.send_signal(signal.SIGINT)
            try:
                strace.wait(10)
            except subprocess.TimeoutExpired:
                strace.kill()
            calls, total = parse_strace(out)
            if "attached" not in read_text(out + ".err"):
                unmeasured("irc.idle_syscalls_per_minute", "strace did not attach: " + read_text(out + ".err")[:200])
            elif total is None:
                unmeasured("irc.idle_syscalls_per_minute", "strace -c printed no summary")
            else:
                sel = sum(v for k, v in calls.items() if k in ("select", "pselect6", "poll", "ppoll", "epoll_wait",
                                                                "epoll_pwait"))
                detail = ", ".join("%s %d" % (k, v) for k, v in sorted(calls.items(), key=lambda x: -x[1])) or "none"
                figure("irc.idle_syscalls_per_minute", "%.1f" % (total * per_min),
                       "strace -c -f -p PID for %.0f s: %d system calls, of them %d select() wake-ups (%s)" % (
                           t1 - t0, total, sel, detail))
        else:
            unmeasured("irc.idle_syscalls_per_minute", "strace is not installed (the context-switch count above "
                       "stands in for wake-ups)")
        ping = [m for m in c.lines if m.cmd == "PING"]
        note("idle window: ngircd's PingTimeout is 120 s in these configs, so the server sent %s PING in it; a "
             "real network's PINGs (every 1-5 minutes) add one wake-up each" % ("no" if not ping else len(ping)))
        c.quit("done")
    except Exception as e:
        for name in ("irc.rss_kb.idle", "irc.idle_cpu_ms_per_minute", "irc.idle_syscalls_per_minute"):
            if not any(f[0] == name for f in FIGURES):
                unmeasured(name, "%s: %s" % (type(e).__name__, e))
    finally:
        if strace and strace.poll() is None:
            strace.kill()
        if bot:
            bot.stop()
        if srv:
            srv.stop()
        irclib.rmtree(tmp)


def read_text(path):
    try:
        with open(path, "rb") as f:
            return f.read().decode("utf-8", "replace")
    except OSError:
        return ""


def parse_strace(path):
    """({syscall: calls}, total calls) from strace -c output."""
    calls, total = {}, None
    try:
        with open(path) as f:
            text = f.read()
    except OSError:
        return calls, None
    for line in text.splitlines():
        parts = line.split()
        if not parts or parts[0].startswith(("%", "-")):
            continue
        if parts[-1] == "total":
            total = int(parts[3]) if len(parts) >= 5 and parts[3].isdigit() else 0
            continue
        # % time, seconds, usecs/call, calls, [errors], syscall
        if len(parts) >= 5 and parts[3].isdigit():
            calls[parts[-1]] = int(parts[3])
    if total is None and not text.strip():
        total = 0   # strace -c prints nothing at all when the process made no system call
    return calls, total


# ---------------------------------------------------------------- 4. scripted players


class Player(threading.Thread):
    """A scripted human: answers each private hand line that says "your
    turn" (bids in the channel, the trump and cards privately) as
    tests/irc_game.py's players do: the first bidder bids 160, everyone
    else passes, the trumper lays its first card, and each play is the first
    card the bot lists as playable. Records (send time, kind) of moves."""

    def __init__(self, client, chan, botnick, stop, think=MOVE_THINK):
        super().__init__(daemon=True)
        self.c, self.chan, self.bot, self.stop, self.think = client, chan, botnick, stop, think
        self.moves = []      # (time sent, what)
        self.idx = 0
        self.done = set()
        self.errors = []

    def run(self):
        try:
            while not self.stop.is_set():
                with self.c.cond:
                    if len(self.c.lines) <= self.idx:
                        self.c.cond.wait(0.2)
                    new = self.c.lines[self.idx:]
                    self.idx += len(new)
                for m in new:
                    self.handle(m)
        except Exception:
            self.errors.append(traceback.format_exc())

    def send(self, target, text, kind):
        time.sleep(self.think)
        if self.stop.is_set():
            return
        self.moves.append((time.time(), kind))
        self.c.privmsg(target, text)

    def handle(self, m):
        if m.src.lower() != self.bot or m.cmd not in ("NOTICE", "PRIVMSG") or m.target.lower() == self.chan:
            return
        h = parse_hand(m.text)
        if not h or not h["turn"] or h["raw"] in self.done:
            return
        self.done.add(h["raw"])
        if h["phase"] == "bid4":
            has_bid = re.search(r"four-card bidding, \d+ by ", h["state"])
            self.send(self.chan, "!pass" if has_bid else "!bid 60", "bid")
        elif h["phase"] == "bid8":
            self.send(self.chan, "!pass", "bid")
        elif h["phase"] == "trump":
            self.send(self.bot, "trump 1", "trump")
        elif h["phase"] == "play":
            may = h["may"] or []
            if may:
                self.send(self.bot, "play " + may[0], "play")
            elif h["may_trump"]:
                self.send(self.bot, "play trump", "play")
            else:
                self.errors.append("no legal card in %r" % h["raw"])


def open_table(opener, sitters, chan, computers, bots, timeout=10.0):
    """opener opens a table in chan, each of sitters sits, then `computers`
    computer players; returns the opener's line index before !start."""
    n = len(opener.lines)
    opener.privmsg(chan, "!304")
    if not wait_reply(opener, n, bots, timeout, lambda m: "sits in seat 1" in strip_colours(m.text)):
        raise RuntimeError("no table opened in " + chan)
    for k, s in enumerate(sitters, start=2):
        n = len(opener.lines)
        s.privmsg(chan, "!sit")
        if not wait_reply(opener, n, bots, timeout, lambda m, k=k: "sits in seat %d" % k in strip_colours(m.text)):
            raise RuntimeError("%s did not sit in %s" % (s.nick, chan))
    for _ in range(computers):
        n = len(opener.lines)
        opener.privmsg(chan, "!bot")
        if not wait_reply(opener, n, bots, timeout, lambda m: "(a computer player) sits" in strip_colours(m.text)):
            raise RuntimeError("no computer player in " + chan)


def deal_segments(lines, chan, bots, start):
    """A player's bot lines from index start, cut into deals at the channel's
    deal-end lines: a list of (channel lines, private lines) per complete
    deal."""
    out, ch, pv = [], 0, 0
    for m in lines[start:]:
        if not from_bot(m, bots):
            continue
        if m.target.lower() == chan:
            ch += 1
            if deal_ended(m.text):
                out.append((ch, pv, any(END_RE.match(s) for s in segs(m.text))))
                ch = pv = 0
        else:
            pv += 1
    return out


def bench_deals(port, tmp):
    """4: lines per deal (and the latency of every move). Returns move latencies.
    Each table has its own network (and nick), so each its own pacing."""
    nick = {"#four": "cardbot", "#two": "cardbot2"}
    bot = BotProc(tmp, port, [("four", "cardbot", ["#four"]), ("two", "cardbot2", ["#two"])]).start()
    stop = threading.Event()
    clients, players = [], []
    lat = []
    try:
        tables = {"#four": ["ann", "bob", "cat", "dan"], "#two": ["fay", "gus"]}
        byname = {}
        for chan, names in tables.items():
            for nm in names:
                c = Client(port, nm).connect()
                c.join(chan)
                clients.append(c)
                byname[nm] = c
            if not byname[names[0]].wait(lambda chan=chan: bot_in(byname[names[0]], chan, {nick[chan]}), 15):
                raise RuntimeError("the bot did not join %s: %s" % (chan, bot.log_tail()))
        starts = {}
        for chan, names in tables.items():
            open_table(byname[names[0]], [byname[n] for n in names[1:]], chan, 4 - len(names), {nick[chan]})
            for nm in names:
                starts[nm] = len(byname[nm].lines)
                p = Player(byname[nm], chan, nick[chan], stop)
                p.start()
                players.append(p)
        for chan, names in tables.items():
            byname[names[0]].privmsg(chan, "!start")
        t0 = time.time()

        def enough():
            for chan, names in tables.items():
                segsn = deal_segments(byname[names[0]].lines, chan, {nick[chan]}, starts[names[0]])
                if sum(1 for s in segsn if s[2]) < DEALS_WANTED:
                    return False
            return True
        ok = clients[0].wait(enough, 60)
        took = time.time() - t0
        stop.set()
        for p in players:
            p.join(2)
            for e in p.errors:
                note("player %s: %s" % (p.c.nick, e.strip().splitlines()[-1]))
        time.sleep(0.3)
        for chan, names in tables.items():
            per = [deal_segments(byname[nm].lines, chan, {nick[chan]}, starts[nm]) for nm in names]
            ndeals = min(len(x) for x in per)
            deals = []
            for d in range(ndeals):
                if not per[0][d][2]:
                    continue   # a deal thrown in or passed out: not a complete deal
                deals.append((per[0][d][0], sum(x[d][1] for x in per)))
            deals = deals[:DEALS_WANTED]
            label = "4humans" if len(names) == 4 else "2humans_2computers"
            who = ("four scripted humans" if len(names) == 4 else
                   "two scripted humans and two computer players (!bot)")
            if not deals:
                unmeasured("irc.lines_per_deal." + label, "no complete deal in %.0f s: %s" % (took, bot.log_tail()))
                continue
            mc = sum(d[0] for d in deals) / len(deals)
            mp = sum(d[1] for d in deals) / len(deals)
            figure("irc.lines_per_deal." + label, "channel %.1f private %.1f" % (mc, mp),
                   "mean of %d complete deals in %s, %s; per deal (channel/private): %s; private = NOTICEs to "
                   "the humans, summed; deal 1 includes the match-start line; bids by !bid/!pass in the channel, "
                   "trump and cards by /msg, %d ms after the prompt" % (len(deals), chan, who,
                                                 " ".join("%d/%d" % d for d in deals), MOVE_THINK * 1000))
            if not ok:
                note("%s: only %d complete deals within 60 s" % (chan, len(deals)))
        # move latency: each move to the first bot line back to that player
        for p in players:
            times = [m.t for m in p.c.lines if from_bot(m, {p.bot})]
            j = 0
            for t, _ in p.moves:
                while j < len(times) and times[j] < t:
                    j += 1
                if j < len(times) and times[j] - t < 5:
                    lat.append(times[j] - t)
        return lat
    finally:
        stop.set()
        for c in clients:
            try:
                c.quit("done")
            except Exception:
                pass
        bot.stop()


# ---------------------------------------------------------------- 1. latency


def bench_latency(port, tmp):
    bots = {"cardbot"}
    bot = BotProc(tmp, port, [("lat", "cardbot", ["#lat"])]).start()
    c = None
    try:
        c = Client(port, "lat").connect()
        c.join("#lat")
        if not c.wait(lambda: bot_in(c, "#lat", bots), 15):
            raise RuntimeError("the bot did not join #lat: " + bot.log_tail())
        open_table(c, [], "#lat", 3, bots)
        n = len(c.lines)
        c.privmsg("#lat", "!start")
        if not wait_reply(c, n, bots, 10, lambda m: m.target.lower() == "lat" and "your turn" in m.text):
            raise RuntimeError("never the human's turn: " + bot.log_tail())
        time.sleep(0.3)
        lat = {"!table": [], "hand": []}
        lost = 0
        next_at = time.time()
        for i in range(LAT_COMMANDS):
            now = time.time()
            if now < next_at:
                time.sleep(next_at - now)
            n = len(c.lines)
            if i % 2 == 0:
                what = "!table"
                t = time.time()
                c.privmsg("#lat", "!table")
            else:
                what = "hand"
                t = time.time()
                c.privmsg("cardbot", "hand")
            next_at = t + LAT_INTERVAL
            m = wait_reply(c, n, bots, 2.0)
            if m is None:
                lost += 1
            else:
                lat[what].append(m.t - t)
        both = lat["!table"] + lat["hand"]
        if not both:
            raise RuntimeError("no replies: " + bot.log_tail())
        figure("irc.latency_ms", "p50 %.2f p99 %.2f" % (pct(both, 50) * 1000, pct(both, 99) * 1000),
               "%d commands, one at a time at 40/s: \"!table\" in #lat (p50 %.2f p99 %.2f) and \"/msg cardbot "
               "hand\" (p50 %.2f p99 %.2f), at a table in play (1 human + 3 computer players, waiting for the "
               "human); client send to first line back; max %.2f; %d unanswered in 2 s" % (
                   len(both), pct(lat["!table"], 50) * 1000, pct(lat["!table"], 99) * 1000,
                   pct(lat["hand"], 50) * 1000, pct(lat["hand"], 99) * 1000, max(both) * 1000, lost))
    finally:
        if c:
            c.quit("done")
        bot.stop()


# ---------------------------------------------------------------- 2. memory


def bench_memory(port, tmp):
    chans = ["#m%03d" % i for i in range(MEM_TABLES)]
    nets = [("a", "cardbot", chans[:MEM_PER_NET]), ("b", "cardbot2", chans[MEM_PER_NET:])]
    bots = {"cardbot", "cardbot2"}
    bot = BotProc(tmp, port, nets, deal_pause_ms=MEM_DEAL_PAUSE_MS, computer_delay_ms=MEM_COMPUTER_DELAY_MS).start()
    host = None
    try:
        host = Client(port, "host").connect()
        sup = isupport(host)
        note("ngircd announces CHANLIMIT=%s (MaxJoins = 0 in [Limits]: no limit); the bot holds at most 64 channels "
             "a network (IRC_CHANNELS_MAX), so the 100 channels are split over two networks (nicks cardbot, "
             "cardbot2) to the same server" % (sup.get("CHANLIMIT", "?")))
        if not join_all(host, chans):
            raise RuntimeError("the host client could not join %d channels" % len(chans))
        if not host.wait(lambda: all(bot_in(host, ch, bots) for ch in chans), 30):
            missing = [ch for ch in chans if not bot_in(host, ch, bots)]
            raise RuntimeError("the bot is not in %d channels (%s...): %s" % (len(missing), missing[:3],
                                                                              bot.log_tail()))
        time.sleep(1.0)
        pid = bot.pid
        figure("irc.rss_kb.channels100", rss_kb(pid), "VmRSS connected to two networks, in %d channels, no table" %
               len(chans))

        def start(ch):
            for cmd in ("!304", "!bot", "!bot", "!bot", "!start", "!leave"):
                host.privmsg(ch, cmd)

        start(chans[0])
        time.sleep(4.0)
        samples = []
        for _ in range(4):
            samples.append(rss_kb(pid))
            time.sleep(0.5)
        figure("irc.rss_kb.tables1", max(samples),
               "VmRSS (max of 4 samples over 2 s), one table in #m000 with four computer players playing "
               "(computer_delay_ms %d, deal_pause_ms %d)" % (MEM_COMPUTER_DELAY_MS, MEM_DEAL_PAUSE_MS))
        rss1 = max(samples)
        state = {"seen": len(host.lines), "restarts": 0}

        def play(seconds):
            """Samples VmRSS every 0.5 s while the tables play, starting a new
            match wherever one ends; (samples, deals, cpu seconds, seconds)."""
            cpu0, t0 = cpu_seconds(pid), time.time()
            samples, deals = [], 0
            while time.time() - t0 < seconds:
                time.sleep(0.5)
                samples.append(rss_kb(pid))
                new = host.lines[state["seen"]:]
                state["seen"] += len(new)
                for m in new:
                    if not from_bot(m, bots) or not m.target.startswith("#"):
                        continue
                    t = strip_colours(m.text)
                    deals += sum(1 for x in segs(t) if END_RE.match(x))
                    if "the match is over" in t:
                        host.privmsg(m.target, "!start")   # keep every table in play
                        state["restarts"] += 1
            return samples, deals, cpu_seconds(pid) - cpu0, time.time() - t0

        half = MEM_TABLES // 2
        for ch in chans[1:half]:
            start(ch)
            time.sleep(0.04)   # tables started over a few seconds: their opening lines fit the bot's pacing
        s50, _, _, _ = play(MEM_HALF_SECONDS)
        rss50 = max(s50[len(s50) // 2:])
        figure("irc.rss_kb.tables50", rss50, "VmRSS, max of the last %d samples over %.0f s with %d tables playing "
               "(as below)" % (len(s50) - len(s50) // 2, MEM_HALF_SECONDS / 2, half))
        for ch in chans[half:]:
            start(ch)
            time.sleep(0.04)
        samples, deals, cpu, took = play(MEM_PLAY_SECONDS)
        playing = set()
        for m in host.lines:
            if from_bot(m, bots) and m.target.startswith("#") and re.search(r"wins trick \d", m.text):
                playing.add(m.target.lower())
        rss100 = max(samples)
        figure("irc.rss_kb.tables100", rss100,
               "VmRSS, max of %d samples over %.0f s with %d tables of four computer players playing, two networks "
               "of 50 channels (%d tables seen playing a trick; %d complete deals, %d new matches started; last "
               "sample %d, VmHWM %s); %.1f KB a table from 50 to 100 tables, %.1f KB a table over the one-table "
               "figure" % (len(samples), took, MEM_TABLES, len(playing), deals, state["restarts"], samples[-1],
                           hwm_kb(pid), (rss100 - rss50) / (MEM_TABLES - half), (rss100 - rss1) / (MEM_TABLES - 1)))
        figure("irc.cpu_percent.tables100", "%.1f" % (cpu / took * 100),
               "the bot's utime+stime over the same %.0f s, as %% of one core (%.1f deals a second in all)" % (
                   took, deals / took))
        full = bot.log_text().count("send queue full")
        if full:
            note("100 tables: the bot's log says 'send queue full' %d times: lines were dropped" % full)
    finally:
        if host:
            host.quit("done")
        bot.stop()


# ---------------------------------------------------------------- main


def main():
    t_start = time.time()
    print("== tests/bench/irc.py: cardbot %s on ngircd %s, loopback" % (irclib.CARDBOT, irclib.NGIRCD))
    sys.stdout.flush()
    if not os.access(irclib.CARDBOT, os.X_OK):
        print("irc bench: %s is not built; nothing measured" % irclib.CARDBOT)
        return 0
    if not os.access(irclib.NGIRCD, os.X_OK):
        print("irc bench: %s is missing (make deps installs it); nothing measured" % irclib.NGIRCD)
        return 0
    idle = threading.Thread(target=bench_idle, daemon=True)
    idle.start()
    tmp = irclib.tempdir()
    srv = NgIRCd(tmp)
    try:
        srv.start()
        for name, fn, keys in (("latency", bench_latency, ["irc.latency_ms"]),
                               ("deals", bench_deals, ["irc.lines_per_deal.4humans",
                                                       "irc.lines_per_deal.2humans_2computers"]),
                               ("memory", bench_memory, ["irc.rss_kb.channels100", "irc.rss_kb.tables1",
                                                         "irc.rss_kb.tables50", "irc.rss_kb.tables100"])):
            sub = os.path.join(tmp, name)
            os.makedirs(sub, exist_ok=True)
            try:
                r = fn(srv.port, sub)
                if name == "deals" and r:
                    figure("irc.latency_ms.moves", "p50 %.2f p99 %.2f" % (pct(r, 50) * 1000, pct(r, 99) * 1000),
                           "%d bids, trump choices and plays by the scripted humans of the deals below (each network "
                           "one table, players pausing %d ms before a move so the bot's pacing never holds a line), "
                           "each to the first line back to that player" % (len(r), MOVE_THINK * 1000))
            except Exception as e:
                for k in keys:
                    if not any(f[0] == k for f in FIGURES):
                        unmeasured(k, "%s: %s" % (type(e).__name__, str(e)[:300]))
    except Exception as e:
        note("ngircd: %s" % e)
    finally:
        srv.stop()
    idle.join(IDLE_SECONDS + 60)
    if idle.is_alive():
        unmeasured("irc.idle_cpu_ms_per_minute", "the idle measurement did not finish")
    irclib.rmtree(tmp)
    order = ["irc.latency_ms", "irc.latency_ms.moves", "irc.rss_kb.idle", "irc.rss_kb.channels100",
             "irc.rss_kb.tables1", "irc.rss_kb.tables50", "irc.rss_kb.tables100", "irc.cpu_percent.tables100",
             "irc.idle_cpu_ms_per_minute", "irc.idle_wakeups_per_minute", "irc.idle_syscalls_per_minute",
             "irc.lines_per_deal.4humans", "irc.lines_per_deal.2humans_2computers"]
    FIGURES.sort(key=lambda f: order.index(f[0]) if f[0] in order else len(order))
    for name, value, how in FIGURES:
        print("%s %s  (%s)" % (name, value, how))
    for n in NOTES:
        print("  note: " + n)
    print("  irc bench took %.0f s" % (time.time() - t_start))
    return 0


if __name__ == "__main__":
    try:
        main()
    except Exception:
        traceback.print_exc()
    sys.exit(0)
