"""synapselib.py: a real Synapse homeserver for the Matrix tests, behind the test homeserver's interface.

tests/lib/matrixlib.py is a stand-in that checks the bot against the spec; this
runs the same scenarios against the real thing, Synapse 1.67 from
../shared/synapse (built once into build/synapse with its build.sh; Debian
packages only). `SynapseHomeserver` offers what the scenarios of
tests/net/matrix/matrix_game.py and tests/net/matrix/matrix_brief.py use of matrixlib's
`Homeserver`: users, rooms, `say`, `join`, the merged event list that the
scripted players read (`events`, `cond`), the bot's requests (`requests`,
recorded by a small proxy between the bot and Synapse, which also checks
that each is a known endpoint of the spec), `direct_rooms`, and
`empty_rooms` (rooms the bot made that nobody is in, read from Synapse's
own database). Faults cannot be injected into the real server.

Each instance is a fresh Synapse with its own database, log and free port,
stopped with `stop()`. Limits: `limits="off"` lifts every rc_* limit;
`limits="default"` keeps Synapse's message, join and invite limits as
shipped (rc_message 0.2 a second after a burst of 10) and lifts only
registration and login, which the test harness itself uses.

`synapse_missing()` says why Synapse cannot run here (no ../shared/synapse,
or its build failed), or None. This file is a helper: its name ends in
lib.py, so the test runner skips it.
"""
import fcntl
import json
import os
import shutil
import socket
import sqlite3
import subprocess
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from http.server import BaseHTTPRequestHandler

import matrixlib
from matrixlib import Room, Spec

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
BUILD = os.path.join(REPO, "build", "synapse")
SERVER_NAME = "localhost"


def shared_synapse():
    """Where ../shared/synapse is: beside the checkout (CI, /work/main), one
    level further up for a worktree under wt/, or $SYNAPSE_SRC."""
    cands = [os.environ.get("SYNAPSE_SRC", ""), os.path.join(REPO, "..", "shared", "synapse"),
             os.path.join(REPO, "..", "..", "shared", "synapse")]
    for c in cands:
        if c and os.path.isfile(os.path.join(c, "build.sh")):
            return os.path.abspath(c)
    return None


_missing = []


def synapse_missing():
    """None when Synapse is built (building it the first time), else why not."""
    if _missing:
        return _missing[0]
    src = shared_synapse()
    if not src:
        _missing.append("no ../shared/synapse beside this checkout (set SYNAPSE_SRC to its path)")
        return _missing[0]
    os.makedirs(os.path.dirname(BUILD), exist_ok=True)
    with open(BUILD + ".lock", "w") as lk:
        fcntl.flock(lk, fcntl.LOCK_EX)  # two tests may ask at once
        env = dict(os.environ)
        # build.sh installs with poetry-core, which leaves out files that git
        # ignores: build/ is ignored here, so git must not see this checkout.
        env["GIT_CEILING_DIRECTORIES"] = os.path.dirname(BUILD)
        env.setdefault("HS_PORT", "18008")
        p = subprocess.run([os.path.join(src, "build.sh"), BUILD], env=env, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, timeout=900)
        if p.returncode != 0 or not os.path.exists(os.path.join(BUILD, "venv", "bin", "python")):
            out = p.stdout.decode("utf-8", "replace").strip().splitlines()
            _missing.append("building Synapse from %s failed: %s" % (src, " / ".join(out[-3:])))
            return _missing[0]
    return None


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


LIFTED = {"per_second": 10000, "burst_count": 100000}


class SynapseHomeserver:
    """A fresh Synapse and a recording proxy in front of it (see the file's head)."""

    server = SERVER_NAME

    def __init__(self, limits="off"):
        self.limits = limits
        self.spec = Spec()
        self.lock = threading.RLock()
        self.cond = threading.Condition(self.lock)
        self.users = {}          # user -> {"password", "name", "token"}
        self.rooms = {}          # room id -> matrixlib.Room
        self.events = []         # as matrixlib's: dicts with room_id, type, sender, content, event_id, pos, t
        self.seen = set()
        self.account_data = {}
        self.requests = []       # the bot's requests through the proxy: t, t_done, method, path, status, user;
        #                          json (a /keys/ request's body), reply (a /keys/query's), event_id (a send's)
        self.violations = []
        self.faults = []
        self.rate = (10, 0.2) if limits == "default" else None
        self.tokens = {}         # access token -> user (learnt from the bot's login through the proxy)
        self.stopping = threading.Event()
        self.proc = None
        self.httpd = None
        self.observer = None
        self.tmp = matrixlib.tempdir()

    # ---------------------------------------------------------------- start, stop
    def start(self):
        why = synapse_missing()
        if why:
            raise RuntimeError(why)
        import yaml  # Debian's python3-yaml (build.sh installs it)
        data = os.path.join(BUILD, "data")
        with open(os.path.join(data, "homeserver.yaml")) as f:
            c = yaml.safe_load(f)
        self.hs_port = free_port()
        t = self.tmp
        c["listeners"][0]["port"] = self.hs_port
        c["pid_file"] = os.path.join(t, "homeserver.pid")
        c["database"] = {"name": "sqlite3", "args": {"database": os.path.join(t, "homeserver.db")}}
        c["media_store_path"] = os.path.join(t, "media_store")
        c["log_config"] = os.path.join(t, "log.config")
        self.db = c["database"]["args"]["database"]
        self.log = os.path.join(t, "homeserver.log")
        logcfg = {"version": 1,
                  "formatters": {"p": {"format": "%(asctime)s %(name)s %(levelname)s %(request)s %(message)s"}},
                  "filters": {"context": {"()": "synapse.logging.context.LoggingContextFilter", "request": ""}},
                  "handlers": {"file": {"class": "logging.FileHandler", "formatter": "p", "filters": ["context"],
                                        "filename": self.log}},
                  "root": {"level": "INFO", "handlers": ["file"]}, "disable_existing_loggers": False}
        with open(c["log_config"], "w") as f:
            yaml.safe_dump(logcfg, f)
        # The harness registers and logs in: never limited. The bot's
        # messages, joins and invites: as shipped, or lifted.
        c["rc_registration"] = LIFTED
        c["rc_login"] = {"address": LIFTED, "account": LIFTED, "failed_attempts": LIFTED}
        if self.limits == "off":
            with open(os.path.join(data, "ratelimits-off.yaml")) as f:
                c.update(yaml.safe_load(f))
        cfg = os.path.join(t, "homeserver.yaml")
        with open(cfg, "w") as f:
            yaml.safe_dump(c, f)
        out = open(os.path.join(t, "synapse.out"), "wb")
        self.proc = subprocess.Popen([os.path.join(BUILD, "venv", "bin", "python"), "-m", "synapse.app.homeserver",
                                      "--config-path", cfg], cwd=t, stdout=out, stderr=subprocess.STDOUT,
                                     stdin=subprocess.DEVNULL)
        out.close()
        matrixlib._PROCS.append(self.proc)
        self.hs_url = "http://127.0.0.1:%d" % self.hs_port
        end = time.time() + 90
        while time.time() < end:
            if self.proc.poll() is not None:
                raise RuntimeError("Synapse exited: %s" % self.tail())
            try:
                with urllib.request.urlopen(self.hs_url + "/_matrix/client/versions", timeout=2):
                    break
            except (OSError, urllib.error.URLError):
                time.sleep(0.2)
        else:
            raise RuntimeError("Synapse did not answer in 90 s: %s" % self.tail())
        self._start_proxy()
        return self

    def tail(self, n=10):
        for name in ("synapse.out", "homeserver.log"):
            try:
                with open(os.path.join(self.tmp, name), "rb") as f:
                    lines = f.read().decode("utf-8", "replace").splitlines()
                if lines:
                    return " | ".join(lines[-n:])
            except OSError:
                pass
        return "(no log)"

    def stop(self):
        self.stopping.set()
        if self.httpd:
            self.httpd.shutdown()
            self.httpd.server_close()
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
        shutil.rmtree(self.tmp, ignore_errors=True)

    @property
    def url(self):
        return "http://127.0.0.1:%d" % self.port

    # ---------------------------------------------------------------- HTTP to Synapse
    def api(self, method, path, body=None, token=None, timeout=60):
        """(status, body) of a client-server request made by the harness."""
        data = json.dumps(body).encode() if body is not None else (b"{}" if method == "POST" else None)
        req = urllib.request.Request(self.hs_url + path, data=data, method=method)
        req.add_header("Content-Type", "application/json")
        if token:
            req.add_header("Authorization", "Bearer " + token)
        try:
            with urllib.request.urlopen(req, timeout=timeout) as r:
                return r.status, json.loads(r.read() or b"{}")
        except urllib.error.HTTPError as e:
            try:
                return e.code, json.loads(e.read() or b"{}")
            except ValueError:
                return e.code, {}

    def api_ok(self, method, path, body=None, token=None):
        """The same, waiting out 429s (the harness's users are limited too)."""
        for _ in range(60):
            st, out = self.api(method, path, body, token)
            if st != 429:
                if st != 200:
                    raise RuntimeError("%s %s: %d %r" % (method, path, st, out))
                return out
            time.sleep(out.get("retry_after_ms", 1000) / 1000.0 + 0.05)
        raise RuntimeError("%s %s: refused with 429 for a minute" % (method, path))

    # ---------------------------------------------------------------- the proxy
    def _start_proxy(self):
        hs = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *a):
                pass

            def _any(self, method):
                n = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(n) if n else None
                path = urllib.parse.urlsplit(self.path).path
                ep, why = hs.spec.route(method, path)
                if ep is None:
                    hs.violations.append(why)
                auth = self.headers.get("Authorization", "")
                tok = auth[7:] if auth.startswith("Bearer ") else None
                rec = {"t": time.time(), "method": method, "path": path, "status": None,
                       "user": hs.tokens.get(tok)}
                with hs.lock:
                    hs.requests.append(rec)
                req = urllib.request.Request(hs.hs_url + self.path, data=raw, method=method)
                for k in ("Authorization", "Content-Type"):
                    if self.headers.get(k):
                        req.add_header(k, self.headers[k])
                try:
                    with urllib.request.urlopen(req, timeout=120) as r:
                        status, data = r.status, r.read()
                except urllib.error.HTTPError as e:
                    status, data = e.code, e.read()
                except OSError as e:
                    rec["status"] = "dropped"
                    hs.violations.append("the proxy could not reach Synapse: %r" % e)
                    self.close_connection = True
                    return
                rec["status"] = status
                rec["t_done"] = time.time()
                try:
                    body = json.loads(data or b"{}")
                except ValueError:
                    body = {}
                if "/keys/" in path:
                    try:
                        rec["json"] = json.loads(raw or b"{}")  # whose keys were asked for
                    except ValueError:
                        rec["json"] = None
                    if path.endswith("/keys/query"):
                        rec["reply"] = body  # which devices the reply listed
                if "/send/" in path and status == 200:
                    rec["event_id"] = body.get("event_id")
                if path.endswith("/login") and status == 200:
                    hs.tokens[body.get("access_token")] = body.get("user_id")
                    rec["device"] = body.get("device_id")
                    rec["user"] = body.get("user_id")
                if path.endswith("/createRoom") and status == 200:
                    rec["created"] = body.get("room_id")
                if "/sync" in path and "full_state=true" in self.path:
                    rec["full_state"] = True
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                try:
                    self.wfile.write(data)
                except OSError:
                    pass

            def do_GET(self):
                self._any("GET")

            def do_POST(self):
                self._any("POST")

            def do_PUT(self):
                self._any("PUT")

        self.httpd = matrixlib.QuietServer(("127.0.0.1", 0), Handler)
        self.port = self.httpd.server_address[1]
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    # ---------------------------------------------------------------- events
    def _add(self, room_id, e, t=None):
        """Adds an event seen (once, by event id); keeps rooms and members up to date."""
        with self.lock:
            eid = e.get("event_id") or "%s|%s|%s|%s" % (room_id, e.get("type"), e.get("state_key"),
                                                         json.dumps(e.get("content"), sort_keys=True))
            if eid in self.seen:
                return None
            self.seen.add(eid)
            ev = {"room_id": room_id, "type": e.get("type"), "sender": e.get("sender"),
                  "content": e.get("content") or {}, "event_id": eid, "pos": len(self.events),
                  "t": t or time.time(), "origin_server_ts": e.get("origin_server_ts", 0)}
            if "state_key" in e:
                ev["state_key"] = e["state_key"]
            if ev["type"] == "m.room.message":
                ev["txn"] = eid  # Synapse itself keeps a transaction id to one event
            room = self.rooms.get(room_id)
            if room is None:
                room = self.rooms[room_id] = Room(room_id, None)
            if ev["type"] == "m.room.create" and room.creator is None:
                room.creator = ev["sender"]
            if ev["type"] == "m.room.member" and "state_key" in ev:
                ms = ev["content"].get("membership")
                room.members[ev["state_key"]] = ms
                if ms == "invite" and ev["content"].get("is_direct"):
                    room.is_direct = True
            self.events.append(ev)
            self.cond.notify_all()
            return ev

    def _observe(self, user, token):
        """Follows everything `user` sees (the bot's rooms, direct rooms included) by /sync."""
        since = None
        filt = json.dumps({"room": {"timeline": {"limit": 200}, "state": {"lazy_load_members": False}},
                           "presence": {"not_types": ["*"]}})
        while not self.stopping.is_set():
            q = {"timeout": "2000", "filter": filt}
            if since:
                q["since"] = since
            try:
                st, body = self.api("GET", "/_matrix/client/v3/sync?" + urllib.parse.urlencode(q), token=token,
                                    timeout=30)
            except OSError:
                time.sleep(0.5)
                continue
            if st != 200:
                time.sleep(0.5)
                continue
            since = body.get("next_batch", since)
            rooms = body.get("rooms", {})
            for rid, r in rooms.get("join", {}).items():
                for e in r.get("state", {}).get("events", []):
                    self._add(rid, e)
                for e in r.get("timeline", {}).get("events", []):
                    self._add(rid, e)
            for rid, r in rooms.get("invite", {}).items():
                for e in r.get("invite_state", {}).get("events", []):
                    self._add(rid, e)
            for e in body.get("account_data", {}).get("events", []):
                with self.lock:
                    self.account_data[(user, e.get("type"))] = (len(self.events), e.get("content", {}))

    # ---------------------------------------------------------------- what simulated users do
    def add_user(self, local, password="pw", name=None):
        st, out = self.api("POST", "/_matrix/client/v3/register",
                           {"username": local, "password": password, "auth": {"type": "m.login.dummy"},
                            "inhibit_login": False})
        if st != 200:
            raise RuntimeError("registering %s: %d %r" % (local, st, out))
        uid, tok = out["user_id"], out["access_token"]
        with self.lock:
            self.users[uid] = {"password": password, "name": name or local, "token": tok}
        if name:
            self.api_ok("PUT", "/_matrix/client/v3/profile/%s/displayname" % urllib.parse.quote(uid),
                        {"displayname": name}, tok)
        if local == "cardbot":
            # The bot's own account, seen through a session of its own.
            self.observer = threading.Thread(target=self._observe, args=(uid, tok), daemon=True)
            self.observer.start()
        return uid

    def _tok(self, user):
        return self.users[user]["token"]

    def create_room(self, creator, alias=None, invite=(), encrypted=False, is_direct=False, name=""):
        body = {"preset": "public_chat", "invite": list(invite)}
        if alias:
            body["room_alias_name"] = alias[1:].split(":")[0]
        if name:
            body["name"] = name
        out = self.api_ok("POST", "/_matrix/client/v3/createRoom", body, self._tok(creator))
        rid = out["room_id"]
        with self.lock:
            room = self.rooms.setdefault(rid, Room(rid, creator))
            room.creator = creator
            room.members[creator] = "join"
            for u in invite:
                room.members.setdefault(u, "invite")
        return rid

    def join(self, user, room_id):
        self.api_ok("POST", "/_matrix/client/v3/join/%s" % urllib.parse.quote(room_id), {}, self._tok(user))
        with self.lock:
            room = self.rooms.setdefault(room_id, Room(room_id, None))
            room.members[user] = "join"
            self.cond.notify_all()

    def leave(self, user, room_id):
        self.api_ok("POST", "/_matrix/client/v3/rooms/%s/leave" % urllib.parse.quote(room_id), {}, self._tok(user))

    def say(self, user, room_id, text, msgtype="m.text", etype="m.room.message", content=None):
        content = content or {"msgtype": msgtype, "body": text}
        txn = "h%d.%s" % (int(time.time() * 1000), os.urandom(4).hex())
        t = time.time()
        out = self.api_ok("PUT", "/_matrix/client/v3/rooms/%s/send/%s/%s" % (
            urllib.parse.quote(room_id), etype, txn), content, self._tok(user))
        return self._add(room_id, {"type": etype, "sender": user, "content": content,
                                   "event_id": out["event_id"]}, t)

    def membership(self, user, room_id):
        with self.lock:
            r = self.rooms.get(room_id)
            return r.members.get(user) if r else None

    def messages(self, start=0):
        with self.lock:
            return [e for e in self.events[start:] if e["type"] == "m.room.message"]

    wait_active = matrixlib.Homeserver.wait_active

    def wait(self, pred, timeout):
        end = time.time() + timeout
        with self.cond:
            while True:
                r = pred()
                if r:
                    return r
                left = end - time.time()
                if left <= 0:
                    return None
                self.cond.wait(min(left, 0.2))

    def fault(self, pred, action, times=1):
        raise RuntimeError("faults cannot be injected into a real Synapse")

    def rate_tokens(self, user):
        """What the bot has left of Synapse's burst, from its successful
        sends and room creations (two each) as the proxy saw them."""
        if not self.rate:
            return None
        burst, per = self.rate
        tokens, last = float(burst), None
        with self.lock:
            reqs = [r for r in self.requests if r.get("user") == user and r.get("status") == 200
                    and ("/send/" in r["path"] or r["path"].endswith("/createRoom"))]
        for r in reqs:
            if last is not None:
                tokens = min(burst, tokens + (r["t"] - last) * per)
            tokens -= 2 if r["path"].endswith("/createRoom") else 1
            last = r["t"]
        if last is not None:
            tokens = min(burst, tokens + (time.time() - last) * per)
        return tokens

    def bot_messages(self, bot, room_id=None, start=0):
        with self.lock:
            return [e for e in self.events[start:] if e["type"] == "m.room.message" and e["sender"] == bot
                    and (room_id is None or e["room_id"] == room_id)]

    def direct_rooms(self, bot):
        with self.lock:
            out = {}
            for r in self.rooms.values():
                if r.is_direct and r.creator == bot:
                    for u, m in r.members.items():
                        if u != bot:
                            out[u] = r.id
            return out

    def empty_rooms(self, user):
        """Rooms `user` made that nobody is in: what a createRoom refused at
        the creator's join leaves behind (Synapse's database says)."""
        con = sqlite3.connect("file:%s?mode=ro" % self.db, uri=True, timeout=10)
        try:
            made = [r[0] for r in con.execute("SELECT room_id FROM rooms WHERE creator = ?", (user,))]
            joined = {r[0] for r in con.execute(
                "SELECT DISTINCT room_id FROM local_current_membership WHERE membership = 'join'")}
        finally:
            con.close()
        return [r for r in made if r not in joined]

    def refused(self, user):
        """The bot's requests Synapse answered 429, as the proxy saw them."""
        with self.lock:
            return [r for r in self.requests if r.get("user") == user and r.get("status") == 429]
