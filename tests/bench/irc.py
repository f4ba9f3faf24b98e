#!/usr/bin/env python3
"""tests/bench/irc.py: cardbot's figures on a real ngircd (run by `make bench`
through tests/bench/report.py, or alone).

Not a test (tests/run.sh runs only the .py files of its SCRIPT_DIRS): it
asserts nothing and exits 0 even when a figure cannot be measured, saying why.
It starts its own ngircd servers on free 127.0.0.1 ports (MaxPenaltyTime = 0:
no flood penalties, MaxJoins = 0: no channel limit) and `$CARDBOT run -c FILE`
(default bin/cardbot) with generated configurations whose pacing is at the
configuration's maximum (pace_burst 100, pace_per_second 50) and whose per-
user command limits are at theirs (commands_burst 1000, commands_per_minute
60000), then measures, one part after another:

  idle     an idle bot (connected, one table open, no game) over
           BENCH_IRC_IDLE_SECONDS: CPU time (utime+stime), wake-ups
           (voluntary + involuntary context switches of every thread, from
           /proc/PID/task/*/status, also per thread) and system calls
           (strace -c -f -p PID, when strace is installed), per minute;
  latency  command-to-reply latency: 500 commands ("!table" in the channel
           and "hand" in private, alternately) at a table in play, one at a
           time at 40 a second (under the bot's 50 lines a second), from the
           client's send to the first line back;
  deals    lines the bot sends per complete deal, channel and private, with
           four scripted humans and with two humans and two computer
           players; the latency of every scripted move;
  memory   VmRSS of one bot process with 1, 100 and 1,000 tables in play
           (BENCH_TABLES), each with four computer players, connected to 16
           networks (nicks) of at most 63 channels on the same server (the
           bot holds 64 channels a network and 16 networks); the bot's
           database shows every table committing moves in the window; the
           cost of a table is (RSS@1000 - RSS@1) / 999.

  fairness a quiet player's reply time while 1, 2 and 20 people each send
           "!table" in the channel once every 1.02 s (just inside the
           default allowance of 60 commands a minute), on a bot with the
           default pacing (a burst of 4 lines, then one a second) and the
           default per-person limits: over BENCH_FAIR_SECONDS per count
           (default 40), after 8 s of flood, the quiet player asks
           "/msg cardbot #fair table" every 4 s; the time from their send to
           the answer (p50 and worst), and how many answers the flooders got.

  spectators  issue 29's ten-spectator case: a 304 match of the quiet
           player and three computer players, with BENCH_SPECTATORS
           (default 10) spectators each sending "!set lang ta"/"en" (and
           then "!sit 2"/"!leave": BENCH_SPEC_KINDS) in the channel every
           1.02 s for BENCH_SPEC_SECONDS (default 120): the quiet player's
           bids and plays from the send to the channel's line saying them,
           and their private "table" every 5 s, send to answer (p50, p90,
           worst), whether the send queue filled, and the spectators'
           dropped lines.

Runs in about nine minutes. Prints one summary line per figure,
"irc.NAME VALUE  (how it was measured)", then "note:" lines.
Environment: CARDBOT, NGIRCD, BENCH_IRC_PARTS (comma list of the parts
above; all by default), BENCH_IRC_IDLE_SECONDS (default 60),
BENCH_TABLES (default 1,100,1000), BENCH_MEM_SECONDS (RSS window at each
count, default 8), BENCH_MEM_DELAY_MS (computer_delay_ms of the memory
bot, default 2000), BENCH_MEM_LEVEL (its computer_level, default normal), BENCH_FAIR_SECONDS
(the flood at each count, default 40), BENCH_FAIR_FLOODERS (default
1,2,20).
"""
import os
import re
import signal
import shutil
import sqlite3
import subprocess
import sys
import threading
import time
import traceback

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
TESTS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(TESTS, "lib"))
import irclib  # noqa: E402
from irclib import Client, NgIRCd, strip_colours  # noqa: E402
from play304lib import parse_hand, segs, deal_ended, END_RE  # noqa: E402

IDLE_SECONDS = float(os.environ.get("BENCH_IRC_IDLE_SECONDS", "60"))
LAT_COMMANDS = 500
LAT_INTERVAL = 0.025          # 40 commands a second, under the bot's 50 lines a second
DEALS_WANTED = 3              # complete deals per table for the lines figure
DEALS_SECONDS = 45.0          # at most this long for them
MEM_STEPS = os.environ.get("BENCH_TABLES", "1,100,1000")   # table counts for the memory figures
MEM_CHANS_PER_NET = 63        # 1,000 channels over 16 networks; the bot holds 64 a network (IRC_CHANNELS_MAX)
MEM_NETS_MAX = 16             # the bot's networks at most (CONFIG_NETWORKS_MAX)
MEM_STEP_SECONDS = float(os.environ.get("BENCH_MEM_SECONDS", "8"))   # RSS sampling window at each step
MEM_SETTLE_SECONDS = 6.0      # after the last table of a step is opened, before the window
MEM_OPEN_GAP = 0.005          # between opening two tables
# A computer's pause before each move: with 1,000 tables that is ~500 moves a
# second, ~30 lines a second on each network (its pacing allows 50).
MEM_COMPUTER_DELAY_MS = int(os.environ.get("BENCH_MEM_DELAY_MS", "2000"))
MEM_LEVEL = os.environ.get("BENCH_MEM_LEVEL", "normal")
MOVE_THINK = 0.07             # a scripted human's pause before each move: keeps the bot under its pacing
MEM_DEAL_PAUSE_MS = 200
CLK_TCK = os.sysconf("SC_CLK_TCK")
FAIR_SECONDS = float(os.environ.get("BENCH_FAIR_SECONDS", "40"))
FAIR_FLOODERS = [int(x) for x in os.environ.get("BENCH_FAIR_FLOODERS", "1,2,20").split(",") if x.strip()]
# What the flooders send (BENCH_FAIR_KINDS): "table" in #fair; "version", a CTCP VERSION to the bot;
# "seat", "!sit 2" and "!leave" in #fair; "lang", "!set lang ta" and "!set lang en" in #fair; "new",
# "!new rook" and "!new 304" at a table of their own in #fair2 (issue 29, points 2 and 4).
FAIR_KINDS = [x.strip() for x in os.environ.get("BENCH_FAIR_KINDS", "table").split(",") if x.strip()]
FAIR_WORDS = {"table": ("#fair", "!table", "!table"), "version": ("cardbot", "\x01VERSION\x01", "\x01VERSION\x01"),
              "seat": ("#fair", "!sit 2", "!leave"), "lang": ("#fair", "!set lang ta", "!set lang en"),
              "new": ("#fair2", "!new rook", "!new 304")}
FAIR_PERIOD = 1.02            # a flooder's "!table" every this long: just inside 60 a minute
FAIR_WARMUP = 8.0             # flood before the first question
FAIR_ASK_EVERY = 4.0          # the quiet player's questions
FAIR_WAIT = 60.0              # longest wait for one answer

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


def thread_switches(pid):
    """{tid: (name, voluntary, nonvoluntary)} of every thread of pid
    (/proc/PID/task/*/status: the counts there are per thread)."""
    out = {}
    try:
        tids = os.listdir("/proc/%d/task" % pid)
    except OSError:
        return out
    for tid in tids:
        st = {}
        try:
            with open("/proc/%d/task/%s/status" % (pid, tid)) as f:
                for line in f:
                    k, _, v = line.partition(":")
                    st[k] = v.strip()
        except OSError:
            continue
        out[int(tid)] = (st.get("Name", "?"), int(st.get("voluntary_ctxt_switches", 0)),
                         int(st.get("nonvoluntary_ctxt_switches", 0)))
    return out


class BotProc:
    """`$CARDBOT run -c FILE` on a generated configuration: one or more
    networks on the same server, every limit that could hold a figure back
    raised to the configuration's maximum."""

    def __init__(self, tmp, port, networks, deal_pause_ms=0, computer_delay_ms=0, log_level="info",
                 computer_level="normal"):
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
  computer_level = "%s";
  deal_pause_ms = %d;
  computer_delay_ms = %d;
};
networks = (
%s
);
""" % (log_level, tmp, computer_level, deal_pause_ms, computer_delay_ms, ",\n".join(nets)))

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
        cpu0, th0, t0 = cpu_seconds(pid), thread_switches(pid), time.time()
        time.sleep(IDLE_SECONDS)
        cpu1, th1, t1 = cpu_seconds(pid), thread_switches(pid), time.time()
        per_min = 60.0 / (t1 - t0)
        figure("irc.idle_cpu_ms_per_minute", "%.1f" % ((cpu1 - cpu0) * 1000 * per_min),
               "utime+stime from /proc/PID/stat before and after %.0f s idle (connected, one table open, no game; "
               "clock tick %d ms)" % (t1 - t0, 1000 // CLK_TCK))
        both = [t for t in th1 if t in th0]
        vol = sum(th1[t][1] - th0[t][1] for t in both)
        inv = sum(th1[t][2] - th0[t][2] for t in both)
        figure("irc.idle_wakeups_per_minute", "%.1f" % ((vol + inv) * per_min),
               "voluntary + involuntary context switches (%d + %d) summed over the bot's %d threads "
               "(/proc/PID/task/*/status) over the same %.0f s; a voluntary one is a blocking wait that "
               "returned; strace%s attached" % (vol, inv, len(both), t1 - t0, "" if strace else " not"))
        figure("irc.idle_wakeups_per_minute.threads",
               ", ".join("%s[%d] %.1f" % (th1[t][0], t, (th1[t][1] + th1[t][2] - th0[t][1] - th0[t][2]) * per_min)
                         for t in sorted(both)) or "none",
               "the same per thread: name[tid] wake-ups a minute%s" % (
                   "" if len(both) == len(th1) == len(th0) else
                   " (threads came or went in the window: %d before, %d after)" % (len(th0), len(th1))))
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
    tests/net/irc/irc_game.py's players do: the first bidder bids 160, everyone
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
        ok = clients[0].wait(enough, DEALS_SECONDS)
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
                note("%s: only %d complete deals within %.0f s" % (chan, len(deals), DEALS_SECONDS))
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


# ---------------------------------------------------------------- fairness


def start_floods(clients, where, words, stop, sent):
    """Each client sends words[0], words[1], words[0], ... to `where` every
    FAIR_PERIOD, the clients spread evenly over the period, until stop is
    set; sent[0] counts what they sent. Returns the threads."""
    def flood(f, phase):
        next_at = time.time() + phase
        turn = 0
        while not stop.is_set():
            now = time.time()
            if now < next_at:
                stop.wait(next_at - now)
                continue
            try:
                f.privmsg(where, words[turn % 2])
                turn += 1
                with _lock:
                    sent[0] += 1
            except OSError:
                return
            next_at += FAIR_PERIOD
    threads = []
    for i, f in enumerate(clients):
        th = threading.Thread(target=flood, args=(f, FAIR_PERIOD * i / len(clients)), daemon=True)
        th.start()
        threads.append(th)
    return threads


def start_quiet(port, tmp, chan, channels):
    """A bot in `channels` with the default pacing and limits, and the quiet
    player in chan once the bot is there: (bot, quiet)."""
    bot = irclib.Bot(tmp, port, nick="cardbot", channels=channels, pace_burst=None)
    bot.start()
    try:
        q = Client(port, "quiet").connect()
        q.join(chan)
        if not q.wait(lambda: bot_in(q, chan, {"cardbot"}), 15):
            q.quit("done")
            raise RuntimeError("the bot did not join %s: %s" % (chan, bot.log_tail()))
        return bot, q
    except Exception:
        bot.stop()
        raise


def end_floods(stop, threads, clients, bot):
    """Stops the floods, the clients and the bot."""
    stop.set()
    for th in threads:
        th.join(2)
    for c in clients:
        try:
            c.quit("done")
        except Exception:
            pass
    bot.stop()


def ask_table(q, chan, bots, seconds, every, answered):
    """After FAIR_WARMUP, q asks "/msg cardbot CHAN table" every `every` s
    until `seconds` have passed: (times from send to the first line
    `answered` accepts, questions unanswered within FAIR_WAIT)."""
    t0 = time.time()
    times, lost = [], 0
    time.sleep(FAIR_WARMUP)
    while time.time() - t0 < seconds:
        k = len(q.lines)
        t = time.time()
        q.privmsg("cardbot", chan + " table")
        m = wait_reply(q, k, bots, FAIR_WAIT, answered)
        if m is None:
            lost += 1
        else:
            times.append(m.t - t)
        rest = t + every - time.time()
        if rest > 0:
            time.sleep(rest)
    return times, lost


def bench_fair_one(port, tmp, n, kind="table"):
    """The quiet player's answer times (seconds) with n people flooding at the
    allowance; (times, unanswered, answers the flooders got, their commands)."""
    chan = "#fair"
    bots = {"cardbot"}
    where, word0, word1 = FAIR_WORDS[kind]
    bot, q = start_quiet(port, tmp, chan, (chan, "#fair2"))
    floods = []
    stop = threading.Event()
    threads = []
    sent = [0]
    try:
        k = len(q.lines)
        q.privmsg(chan, "!304")
        if not wait_reply(q, k, bots, 15, lambda m: "sits in seat 1" in strip_colours(m.text)):
            raise RuntimeError("no table opened: " + bot.log_tail())
        for i in range(n):
            f = Client(port, "flood%d" % i).connect()
            f.join(chan)
            if where == "#fair2":
                f.join(where)
            floods.append(f)
        if where == "#fair2":
            k = len(floods[0].lines)
            floods[0].privmsg(where, "!304")
            wait_reply(floods[0], k, bots, 15, lambda m: "sits in seat 1" in strip_colours(m.text))
        time.sleep(5)   # the pacing has its burst back

        threads += start_floods(floods, where, (word0, word1), stop, sent)
        times, lost = ask_table(q, chan, bots, FAIR_SECONDS, FAIR_ASK_EVERY, lambda m: m.target.lower() == "quiet")
        stop.set()
        answers = sum(1 for m in floods[0].lines if from_bot(m, bots) and m.target.lower() == chan
                      and strip_colours(m.text).startswith(chan + ": ")) if floods else 0
        return times, lost, answers, sent[0]
    finally:
        end_floods(stop, threads, floods + [q], bot)


def bench_fairness(port, tmp):
    for kind, n in [(k, n) for k in FAIR_KINDS for n in FAIR_FLOODERS]:
        name = "irc.quiet_reply_ms.flood%d" % n if kind == "table" else "irc.quiet_reply_ms.%s%d" % (kind, n)
        sub = os.path.join(tmp, "%s%d" % (kind, n))
        os.makedirs(sub, exist_ok=True)
        try:
            times, lost, answers, sent = bench_fair_one(port, sub, n, kind)
        except Exception as e:
            unmeasured(name, "%s: %s" % (type(e).__name__, str(e)[:300]))
            continue
        if not times:
            unmeasured(name, "no answer to the quiet player within %.0f s" % FAIR_WAIT)
            continue
        figure(name, "p50 %.0f p90 %.0f max %.0f" % (pct(times, 50) * 1000, pct(times, 90) * 1000,
                                                    max(times) * 1000),
               "%d flooder(s) each sending %r/%r to %s every %.2f s (default pacing: burst 4, then 1 "
               "line/s; default limits: 5 commands, then 60 a minute) for %.0f s; from %.0f s on, the quiet player "
               "asks \"/msg cardbot #fair table\" every %.0f s: %d questions, send to answer; %d unanswered in "
               "%.0f s; the flooders sent %d commands and the channel got %d \"!table\" answers" % (
                   n, FAIR_WORDS[kind][1], FAIR_WORDS[kind][2], FAIR_WORDS[kind][0], FAIR_PERIOD, FAIR_SECONDS,
                   FAIR_WARMUP, FAIR_ASK_EVERY, len(times) + lost, lost, FAIR_WAIT, sent, answers))


# ---------------------------------------------------------------- spectators

# Issue 29's "ten-spectator" case: a table in play and SPEC_COUNT spectators
# each flooding inside the allowance (BENCH_SPEC_KINDS: "lang", !set lang
# ta/en; "seat", !sit 2/!leave), for SPEC_SECONDS.
SPEC_COUNT = int(os.environ.get("BENCH_SPECTATORS", "10"))
SPEC_SECONDS = float(os.environ.get("BENCH_SPEC_SECONDS", "120"))
SPEC_KINDS = [x.strip() for x in os.environ.get("BENCH_SPEC_KINDS", "lang,seat").split(",") if x.strip()]
SPEC_ASK_EVERY = 5.0          # the quiet player's private question


def bench_spectators_one(port, tmp, n, kind):
    """The quiet player's move and reply times (seconds) at a table in play
    with n spectators flooding: (moves, replies, unanswered, queue full?, lines
    dropped for the spectators, spectator commands sent)."""
    chan = "#spec"
    bots = {"cardbot"}
    _, word0, word1 = FAIR_WORDS[kind]
    bot, q = start_quiet(port, tmp, chan, (chan,))
    specs = []
    stop = threading.Event()
    threads = []
    sent = [0]
    try:
        open_table(q, [], chan, 3, bots, timeout=15)
        for i in range(n):
            f = Client(port, "spec%d" % i).connect()
            f.join(chan)
            specs.append(f)
        time.sleep(5)   # the pacing has its burst back
        k = len(q.lines)
        player = Player(q, chan, "cardbot", stop, think=0.0)
        player.start()
        q.privmsg(chan, "!start")
        if not wait_reply(q, k, bots, 30, lambda m: "Deal 1" in strip_colours(m.text)):
            raise RuntimeError("the match did not start: " + bot.log_tail())

        threads += start_floods(specs, chan, (word0, word1), stop, sent)
        t0 = time.time()
        replies, lost = ask_table(q, chan, bots, SPEC_SECONDS, SPEC_ASK_EVERY, lambda m: m.target.lower() == "quiet"
                                  and strip_colours(m.text).startswith(chan + ": "))
        stop.set()
        # Each bid or play of quiet's, from its send to the channel's line saying it.
        moves = []
        with q.cond:
            chan_lines = [(m.t, strip_colours(m.text)) for m in q.lines if from_bot(m, bots)
                          and m.target.lower() == chan]
        for at, what in player.moves:
            if what not in ("bid", "play") or at < t0:
                continue
            said = [t for t, text in chan_lines if t > at and any(
                seg.startswith("quiet ") for seg in text.split(" \u00b7 "))]
            if said:
                moves.append(said[0] - at)
        with open(bot.log, "rb") as f:
            log = f.read().decode("utf-8", "replace")
        dropped = sum(1 for line in log.splitlines() if "has more than" in line and "spec" in line)
        return moves, replies, lost, "send queue full" in log, dropped, sent[0]
    finally:
        end_floods(stop, threads, specs + [q], bot)


def bench_spectators(port, tmp):
    for kind in SPEC_KINDS:
        name = "irc.spectators%d.%s" % (SPEC_COUNT, kind)
        sub = os.path.join(tmp, "spec-%s" % kind)
        os.makedirs(sub, exist_ok=True)
        try:
            moves, replies, lost, full, dropped, sent = bench_spectators_one(port, sub, SPEC_COUNT, kind)
        except Exception as e:
            unmeasured(name, "%s: %s" % (type(e).__name__, str(e)[:300]))
            continue

        def three(v):
            return "p50 %.0f p90 %.0f max %.0f" % (pct(v, 50) * 1000, pct(v, 90) * 1000, max(v) * 1000) if v \
                else "none"
        figure(name, "moves %s; replies %s" % (three(moves), three(replies)),
               "a 304 match of quiet and three computer players (default pacing: burst 4, then 1 line/s; "
               "default limits), %d spectators each sending %r/%r in the channel every %.2f s for %.0f s: "
               "quiet's %d bids and plays, from the send to the channel's line saying it; quiet's private "
               "\"table\" every %.0f s, send to answer (%d unanswered in %.0f s); the spectators sent %d "
               "commands, %d of their lines were dropped over their cap; the send queue %s" % (
                   SPEC_COUNT, FAIR_WORDS[kind][1], FAIR_WORDS[kind][2], FAIR_PERIOD, SPEC_SECONDS, len(moves),
                   SPEC_ASK_EVERY, lost, FAIR_WAIT, sent, dropped, "filled" if full else "never filled"))


# ---------------------------------------------------------------- 2. memory


def table_steps():
    """The table counts to measure at, from BENCH_TABLES ("1,100,1000")."""
    try:
        steps = sorted({int(x) for x in MEM_STEPS.split(",") if x.strip()})
    except ValueError:
        steps = []
    return [s for s in steps if s >= 1] or [1, 100, 1000]


class ChanWatch:
    """Follows one client's lines incrementally: in which channels a bot
    is present, and in which a match ended (to be started again)."""

    def __init__(self, client, bots):
        self.c, self.bots = client, bots
        self.idx = 0
        self.present = set()
        self.ended = []

    def scan(self):
        with self.c.cond:
            new = self.c.lines[self.idx:]
            self.idx += len(new)
        for m in new:
            if m.cmd == "JOIN" and m.src.lower() in self.bots:
                self.present.add((m.target or m.text).lower())
            elif m.cmd == "353":
                parts = raw(m).split()
                if len(parts) > 4 and {n.lstrip("@+%~&").lower() for n in m.text.split()} & self.bots:
                    self.present.add(parts[4].lower())
            elif from_bot(m, self.bots) and m.target.startswith("#"):
                if "the match is over" in strip_colours(m.text):
                    self.ended.append(m.target)


def actions_by_room(tmp):
    """{room: actions committed} from the bot's database (read-only), or
    None when it cannot be read: the proof that the tables play."""
    path = os.path.join(tmp, "data", "cardbot.db")
    try:
        db = sqlite3.connect("file:%s?mode=ro" % path, uri=True, timeout=5)
        try:
            rows = db.execute("SELECT m.network || ' ' || m.room, COUNT(*) FROM actions a "
                              "JOIN matches m ON m.id = a.match_id GROUP BY m.network, m.room").fetchall()
        finally:
            db.close()
    except sqlite3.Error:
        return None
    return dict(rows)


def bench_memory(port, tmp):
    """VmRSS with 1, 100 and 1,000 tables in play (BENCH_TABLES), each with
    four computer players, in one bot process: 1,000 channels need 16
    networks (nicks) to the same server, as one network holds at most 64
    channels (IRC_CHANNELS_MAX) and the bot 16 networks."""
    steps = table_steps()
    total = steps[-1]
    nnets = max(1, -(-total // MEM_CHANS_PER_NET))
    if nnets > MEM_NETS_MAX:
        raise RuntimeError("%d tables need %d networks of %d channels; the bot takes at most %d" % (
            total, nnets, MEM_CHANS_PER_NET, MEM_NETS_MAX))
    chans = ["#t%04d" % i for i in range(total)]
    nicks = ["cardbot%02d" % k for k in range(nnets)]
    # channel i on network i % nnets: the first tables are spread over every network's pacing
    nets = [("n%02d" % k, nicks[k], chans[k::nnets]) for k in range(nnets)]
    bots = set(nicks)
    bot = BotProc(tmp, port, nets, deal_pause_ms=MEM_DEAL_PAUSE_MS, computer_delay_ms=MEM_COMPUTER_DELAY_MS,
                  computer_level=MEM_LEVEL).start()
    host = None
    pid = bot.pid
    try:
        host = Client(port, "host").connect()
        sup = isupport(host)
        note("memory: %d tables on %d networks (nicks %s..%s) of at most %d channels each, one ngircd (CHANLIMIT=%s, "
             "MaxJoins = 0: no limit); computer players at level %s, computer_delay_ms %d, deal_pause_ms %d" % (
                 total, nnets, nicks[0], nicks[-1], MEM_CHANS_PER_NET, sup.get("CHANLIMIT", "?"), MEM_LEVEL,
                 MEM_COMPUTER_DELAY_MS, MEM_DEAL_PAUSE_MS))
        if not join_all(host, chans, timeout=60):
            raise RuntimeError("the host client could not join %d channels" % len(chans))
        w = ChanWatch(host, bots)

        def present():
            w.scan()
            return all(ch.lower() in w.present for ch in chans)
        if not host.wait(present, 60):
            missing = [ch for ch in chans if ch.lower() not in w.present]
            raise RuntimeError("the bot is not in %d channels (%s...): %s" % (len(missing), missing[:3],
                                                                              bot.log_tail()))
        time.sleep(1.0)
        figure("irc.rss_kb.channels%d" % total, rss_kb(pid),
               "VmRSS connected to %d networks, in %d channels, no table" % (nnets, total))

        def sample(seconds):
            """VmRSS every 0.5 s while the tables play, starting a new match
            wherever one ends; (samples, cpu seconds, seconds)."""
            cpu0, t0 = cpu_seconds(pid), time.time()
            out = []
            acts0 = actions_by_room(tmp)
            while time.time() - t0 < seconds:
                time.sleep(0.5)
                out.append(rss_kb(pid))
                w.scan()
                while w.ended:
                    host.privmsg(w.ended.pop(), "!start")   # keep every table in play
            acts1 = actions_by_room(tmp)
            return out, cpu_seconds(pid) - cpu0, time.time() - t0, acts0, acts1

        rss = {}
        opened = 0
        t_all = time.time()
        for step in steps:
            t_open = time.time()
            for ch in chans[opened:step]:
                for cmd in ("!304", "!bot", "!bot", "!bot", "!start", "!leave"):
                    host.privmsg(ch, cmd)
                time.sleep(MEM_OPEN_GAP)
            opened = step
            # let every table open and start, then sample while they play
            time.sleep(MEM_SETTLE_SECONDS)
            samples, cpu, took, a0, a1 = sample(MEM_STEP_SECONDS)
            if a0 is None or a1 is None:
                playing, moves = "?", "?"
            else:
                playing = sum(1 for k, v in a1.items() if v > a0.get(k, 0))
                moves = sum(a1.values()) - sum(a0.values())
            rss[step] = max(samples)
            figure("irc.rss_kb.tables%d" % step, rss[step],
                   "VmRSS, max of %d samples every 0.5 s over %.0f s, from %.0f s after the last of %d tables of "
                   "four computer players was opened; %s tables committed moves in that window (%s moves; the "
                   "bot's database); VmHWM %s; the bot used %.0f%% of one core meanwhile" % (
                       len(samples), took, MEM_SETTLE_SECONDS, step, playing, moves, hwm_kb(pid),
                       cpu / took * 100))
            if playing != step:
                note("memory: at %d tables, only %s committed a move in the %.0f s window (opened %.0f s "
                     "before; the bot's log: %s)" % (step, playing, took, time.time() - t_open, bot.log_tail(3)))
        if len(steps) > 1:
            lo, hi = steps[0], steps[-1]
            figure("irc.rss_kb.per_table", "%.1f" % ((rss[hi] - rss[lo]) / float(hi - lo)),
                   "(RSS@%d - RSS@%d) / %d, from the figures above" % (hi, lo, hi - lo))
        full = bot.log_text().count("send queue full")
        if full:
            note("memory: the bot's log says 'send queue full' %d times: lines were dropped" % full)
        note("memory: the whole run took %.0f s" % (time.time() - t_all))
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
    parts = [x.strip() for x in os.environ.get("BENCH_IRC_PARTS", "idle,latency,deals,memory,fairness,spectators")
             .split(",")
             if x.strip()]
    if "idle" in parts:
        # alone, before the rest: another bot's load on the machine would blur its figures
        bench_idle()
    tmp = irclib.tempdir()
    srv = NgIRCd(tmp)
    try:
        srv.start()
        for name, fn, keys in (("latency", bench_latency, ["irc.latency_ms"]),
                               ("deals", bench_deals, ["irc.lines_per_deal.4humans",
                                                       "irc.lines_per_deal.2humans_2computers"]),
                               ("memory", bench_memory, ["irc.rss_kb.channels%d" % table_steps()[-1]] +
                                ["irc.rss_kb.tables%d" % n for n in table_steps()] + ["irc.rss_kb.per_table"]),
                               ("fairness", bench_fairness, ["irc.quiet_reply_ms.flood%d" % n for n in FAIR_FLOODERS]),
                               ("spectators", bench_spectators, ["irc.spectators%d.%s" % (SPEC_COUNT, k)
                                                                 for k in SPEC_KINDS])):
            if name not in parts:
                continue
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
    irclib.rmtree(tmp)
    order = ["irc.latency_ms", "irc.latency_ms.moves", "irc.rss_kb.idle"] + \
        ["irc.rss_kb.channels%d" % table_steps()[-1]] + ["irc.rss_kb.tables%d" % n for n in table_steps()] + \
        ["irc.rss_kb.per_table", "irc.idle_cpu_ms_per_minute", "irc.idle_wakeups_per_minute",
         "irc.idle_wakeups_per_minute.threads", "irc.idle_syscalls_per_minute",
         "irc.lines_per_deal.4humans", "irc.lines_per_deal.2humans_2computers"] + \
        ["irc.quiet_reply_ms.flood%d" % n for n in FAIR_FLOODERS]
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
