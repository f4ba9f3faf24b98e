"""irclib.py: shared helpers for cardbot's end-to-end IRC tests.

A real ngircd on a free 127.0.0.1 port with a generated config in a temp
dir, the real cardbot (`$CARDBOT run -c FILE`, default bin/cardbot) with a
generated config, and scripted clients over plain sockets whose reader
thread records every line received with a timestamp. Python 3 standard
library only.
"""
import atexit
import os
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import sys
import threading
import time

NGIRCD = os.environ.get("NGIRCD", "/usr/sbin/ngircd")
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CARDBOT = os.environ.get("CARDBOT", os.path.join(ROOT, "bin", "cardbot"))
if not os.path.isabs(CARDBOT):
    CARDBOT = os.path.join(ROOT, CARDBOT)


_PROCS = []


def _kill_all():
    """Last resort at exit: no ngircd or cardbot outlives the test."""
    for p in _PROCS:
        if p.poll() is None:
            try:
                p.kill()
                p.wait(5)
            except Exception:
                pass


atexit.register(_kill_all)
signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def wait_port(port, timeout=10.0):
    end = time.time() + timeout
    while time.time() < end:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            return True
        except OSError:
            time.sleep(0.05)
    return False


class NgIRCd:
    """One ngircd on 127.0.0.1. throttle=False sets MaxPenaltyTime = 0, which
    turns off ngircd's flood penalties for every client; True keeps ngircd's
    default (MaxPenaltyTime = -1: each command costs time).

    The port is free when free_port() looks, not when ngircd binds it: a
    test beside this one may take it first. ngircd then exits ("Can't bind
    socket"), while wait_port() connects to the other test's server and
    the test would play on it, beside a stranger's bot and players. So
    start() waits for ngircd's own "Now listening" line, and with a port
    of its own choosing takes another one when the bind failed."""

    START_TRIES = 5   # ports tried when the one chosen was taken meanwhile

    def __init__(self, tmp, throttle=False, port=None):
        self.tmp = tmp
        self.throttle = throttle
        self.fixed_port = port is not None   # a restart on the port its bot knows: never moved
        self.port = port or free_port()
        self.proc = None
        self.conf = os.path.join(tmp, "ngircd.conf")
        self.log = os.path.join(tmp, "ngircd.log")
        self.write_conf()

    def write_conf(self):
        inc = os.path.join(self.tmp, "ngircd.d")
        os.makedirs(inc, exist_ok=True)
        with open(self.conf, "w") as f:
            f.write(f"""[Global]
Name = irc.test
Info = cardbot test server
Listen = 127.0.0.1
Ports = {self.port}
MotdPhrase = "test"
PidFile = {self.tmp}/ngircd.pid
[Limits]
MaxConnectionsIP = 0
MaxJoins = 0
MaxNickLength = 30
PingTimeout = 120
PongTimeout = 60
{"" if self.throttle else "MaxPenaltyTime = 0"}
[Options]
PAM = no
Ident = no
DNS = no
IncludeDir = {inc}
""")

    def _listening(self, since, timeout=10.0):
        """True once this ngircd says it listens on self.port; False when it
        exits first (the port was taken) or says nothing in time."""
        want = ("Now listening on [127.0.0.1]:%d " % self.port).encode()
        end = time.time() + timeout
        while time.time() < end:
            try:
                with open(self.log, "rb") as f:
                    f.seek(since)
                    if want in f.read():
                        return True
            except OSError:
                pass
            if self.proc.poll() is not None:
                return False
            time.sleep(0.05)
        return False

    def start(self):
        for _ in range(1 if self.fixed_port else self.START_TRIES):
            since = os.path.getsize(self.log) if os.path.exists(self.log) else 0
            logf = open(self.log, "ab")
            self.proc = subprocess.Popen([NGIRCD, "-n", "-f", self.conf], stdout=logf, stderr=subprocess.STDOUT,
                                         stdin=subprocess.DEVNULL)
            _PROCS.append(self.proc)
            logf.close()
            if self._listening(since) and wait_port(self.port):
                self.fixed_port = True   # the bot has it now: a restart stays there
                return
            if self.proc.poll() is None:
                break   # alive but not listening: not a port race
            self.port = free_port()
            self.write_conf()
        raise RuntimeError("ngircd did not start on a port of its own; see " + self.log)

    def stop(self):
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
        self.proc = None


class Bot:
    """cardbot run -c FILE with a generated config."""

    def __init__(self, tmp, port, nick="cardbot", channels=("#304",), pace_burst=100, pace_per_second=50,
                 grace_seconds=120, extra_tables="", reconnect=(1, 2)):
        self.tmp = tmp
        self.nick = nick
        self.cfg = os.path.join(tmp, "cardbot.cfg")
        self.log = os.path.join(tmp, "cardbot.log")
        self.proc = None
        chans = ", ".join('"%s"' % c for c in channels)
        pace = "" if pace_burst is None else "pace_burst = %s;\n    pace_per_second = %s;" % (pace_burst,
                                                                                              pace_per_second)
        with open(self.cfg, "w") as f:
            f.write(f"""bot = {{
  prefix = "!";
  log_level = "debug";
  data_dir = "{tmp}/data";
  allow_invites = false;
}};
tables = {{
  pace = "casual";
  grace_seconds = {grace_seconds};
  computer_level = "normal";
  cut_offer_seconds = 4;  # the deck cut offered before a deal waits as the pause did (default 20)
  {extra_tables}
}};
networks = (
  {{
    name = "test";
    type = "irc";
    server = "127.0.0.1";
    port = {port};
    tls = false;
    nick = "{nick}";
    channels = ( {chans} );
    private_notice = true;
    {pace}
    reconnect_min_seconds = {reconnect[0]};
    reconnect_max_seconds = {reconnect[1]};
    accept_invites = false;
  }}
);
""")

    def start(self):
        logf = open(self.log, "ab")
        self.proc = subprocess.Popen([CARDBOT, "run", "-c", self.cfg], stdout=logf, stderr=subprocess.STDOUT,
                                     stdin=subprocess.DEVNULL, cwd=self.tmp)
        _PROCS.append(self.proc)
        logf.close()

    def alive(self):
        return self.proc is not None and self.proc.poll() is None

    def stop(self):
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)

    def log_tail(self, n=20):
        try:
            with open(self.log, "rb") as f:
                return b"\n".join(f.read().splitlines()[-n:]).decode("utf-8", "replace")
        except OSError:
            return ""


# ---- IRC lines ----

LINE_RE = re.compile(r"^(?::(?P<prefix>\S+) )?(?P<cmd>\S+)(?P<rest>.*)$")


def parse_line(raw):
    """(nick, command, params) of one decoded line; the trailing parameter last."""
    m = LINE_RE.match(raw)
    if not m:
        return None, "", []
    prefix = m.group("prefix") or ""
    nick = prefix.split("!", 1)[0]
    rest = m.group("rest")
    params = []
    while rest:
        rest = rest.lstrip(" ")
        if not rest:
            break
        if rest.startswith(":"):
            params.append(rest[1:])
            break
        p, _, rest = rest.partition(" ")
        params.append(p)
    return nick, m.group("cmd").upper(), params


class Msg:
    """One line a client received: time, sender nick, command, target, text."""
    __slots__ = ("t", "src", "cmd", "target", "text", "raw", "conn")

    def __init__(self, t, src, cmd, target, text, raw, conn):
        self.t, self.src, self.cmd, self.target, self.text, self.raw, self.conn = t, src, cmd, target, text, raw, conn

    def __repr__(self):
        return "%.3f %s %s %s :%s" % (self.t, self.src, self.cmd, self.target, self.text)


class Client:
    """A plain-socket IRC client. Every line received is recorded in .lines
    (Msg), across reconnections; .sent records (time, text) of every
    PRIVMSG it sent."""

    def __init__(self, port, nick, record=None):
        self.port = port
        self.nick = nick
        self.lines = record if record is not None else []
        self.sent = []
        self.cond = threading.Condition()
        self.sock = None
        self.reader = None
        self.conn_no = 0
        self.closed_by_server = False
        self.registered = False
        self.errors = []   # ERROR lines and KILLs seen
        self.username = None   # the USER name sent (None: the nick, lower case)

    # -- connection --
    def connect(self, timeout=10.0):
        self.sock = socket.create_connection(("127.0.0.1", self.port), timeout=timeout)
        self.sock.settimeout(None)
        self.conn_no += 1
        self.registered = False
        self.closed_by_server = False
        self.reader = threading.Thread(target=self._read, args=(self.sock, self.conn_no), daemon=True)
        self.reader.start()
        self.raw("NICK %s" % self.nick)
        self.raw("USER %s 0 * :scripted player" % (self.username or self.nick.lower()))
        if not self.wait(lambda: self.registered, timeout):
            raise RuntimeError("%s: not registered" % self.nick)
        return self

    def _read(self, sock, conn):
        buf = b""
        while True:
            try:
                data = sock.recv(65536)
            except OSError:
                data = b""
            if not data:
                with self.cond:
                    if conn == self.conn_no:
                        self.closed_by_server = True
                    self.cond.notify_all()
                return
            now = time.time()
            buf += data
            while b"\n" in buf:
                line, buf = buf.split(b"\n", 1)
                line = line.rstrip(b"\r")
                text = line.decode("utf-8", "replace")
                src, cmd, params = parse_line(text)
                if cmd == "PING":
                    try:
                        sock.sendall(b"PONG :" + (params[-1].encode() if params else b"x") + b"\r\n")
                    except OSError:
                        pass
                    continue
                target = params[0] if params else ""
                body = params[-1] if len(params) > 1 else ""
                if cmd == "NICK" and src.lower() == self.nick.lower() and params:
                    pass  # our own rename: .nick is set by rename()
                m = Msg(now, src, cmd, target, body, line, conn)
                with self.cond:
                    if cmd == "001":
                        self.registered = True
                    if cmd in ("ERROR", "KILL"):
                        self.errors.append(text)
                    self.lines.append(m)
                    self.cond.notify_all()

    def raw(self, text):
        data = text.encode("utf-8") if isinstance(text, str) else text
        self.sock.sendall(data + b"\r\n")

    def privmsg(self, target, text):
        t = time.time()
        self.sent.append((t, target, text))
        self.raw("PRIVMSG %s :%s" % (target, text))

    def join(self, chan, timeout=10.0):
        n = len(self.lines)
        self.raw("JOIN %s" % chan)
        ok = self.wait(lambda: any(m.cmd == "366" for m in self.lines[n:]), timeout)
        if not ok:
            raise RuntimeError("%s: could not join %s" % (self.nick, chan))

    def rename(self, new, timeout=10.0):
        n = len(self.lines)
        old = self.nick
        self.raw("NICK %s" % new)
        ok = self.wait(lambda: any(m.cmd == "NICK" and m.src.lower() == old.lower() for m in self.lines[n:]),
                       timeout)
        if ok:
            self.nick = new
        return ok

    def quit(self, why="bye"):
        try:
            self.raw("QUIT :%s" % why)
        except OSError:
            pass
        self.close()

    def close(self):
        if self.sock:
            try:
                self.sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            try:
                self.sock.close()
            except OSError:
                pass
        if self.reader:
            self.reader.join(2)

    # -- waiting --
    def wait(self, pred, timeout):
        end = time.time() + timeout
        with self.cond:
            while True:
                if pred():
                    return True
                left = end - time.time()
                if left <= 0:
                    return False
                self.cond.wait(min(left, 0.2))

    def wait_active(self, pred, stall=45.0, guard=1800.0):
        """Waits until pred() holds while lines keep coming: False once
        `stall` seconds pass with no new line (stuck), or after `guard`
        seconds in all (a test that would never end). For a whole match,
        whose length a busy machine stretches: progress, not a clock."""
        end = time.time() + guard
        last_n, last_t = len(self.lines), time.time()
        with self.cond:
            while True:
                if pred():
                    return True
                now = time.time()
                if len(self.lines) != last_n:
                    last_n, last_t = len(self.lines), now
                if now - last_t > stall or now > end:
                    return False
                self.cond.wait(0.2)

    def from_bot(self, botnick, start=0):
        """Lines the bot sent to this client (channel or private) from index start."""
        b = botnick.lower()
        with self.cond:
            return [m for m in self.lines[start:] if m.src.lower() == b and m.cmd in ("NOTICE", "PRIVMSG")]


def tempdir():
    return tempfile.mkdtemp(prefix="cardbot-irc-")


def rmtree(path):
    shutil.rmtree(path, ignore_errors=True)


# ---- cards ----

COLOUR_RE = re.compile(r"\x03(\d{1,2}(,\d{1,2})?)?|[\x02\x0f\x16\x1d\x1f]")
SUITS = {"\u2660": "S", "\u2665": "H", "\u2666": "D", "\u2663": "C"}
SUIT_NAMES = {"spades": "S", "hearts": "H", "diamonds": "D", "clubs": "C"}
CARD_RE = re.compile(r"(?<![0-9A-Za-z])(10|[789JQKA])([\u2660\u2665\u2666\u2663])")
ALL_CARDS = [r + s for s in "SHDC" for r in ("7", "8", "Q", "K", "10", "A", "9", "J")]


def strip_colours(text):
    return COLOUR_RE.sub("", text)


def cards_in(text):
    """Every card named in text with suit symbols, as 'JS', '10H'."""
    return [r + SUITS[s] for r, s in CARD_RE.findall(strip_colours(text))]


def card_suit(card):
    return card[-1]
