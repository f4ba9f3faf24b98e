"""matrixlib.py: a small Matrix homeserver for testing cardbot, checked against the spec.

The server speaks the Client-Server endpoints the bot uses (login, whoami,
filter, account data, sync, join, leave, forget, send, createRoom) over HTTP
on 127.0.0.1, and checks every request the bot makes against the spec:
the endpoint must exist with that method, path parameters and required query
parameters must be there and of their type, a required body must be there,
and the body must validate against the request schema (a message's content
against the schema of its msgtype, m.direct against its event schema). Every
answer it gives is validated against the response schema of its status. Any
mismatch is recorded in `violations`; tests fail on a non-empty list.

The schemas come from tests/net/matrix/spec/spec.json, generated from the spec's
YAML by tests/net/matrix/spec/spec_convert.py (see there). This file is a helper:
its name ends in lib.py, so the test runner skips it.

End-to-end encryption (issue 18) is served as the spec has it, for the
bot and for encrypting players that come over HTTP with their own logins
(tests/lib/e2eelib.py; any user, any device, the token in the Authorization
header or as access_token): /keys/upload keeps each device's keys and
one-time keys, /keys/query gives every device of the users asked,
/keys/claim takes one one-time key, or when none is left the device's
fallback key (as Synapse does: again and again, marked used, so /sync's
device_unused_fallback_key_types no longer lists it until a new one is
uploaded), /sendToDevice
queues to-device events per device, which /sync hands out in
`to_device.events` until a sync with a later token confirms them; /sync
also gives `device_one_time_keys_count` and `device_lists.changed` (room
mates whose keys changed, or who joined). Since tokens are "s<event
position>_<to-device and key-change position>". m.room.encrypted events
go through rooms like any other (their content checked against the
event's schema), and createRoom takes `initial_state`. Cross-signing as
Synapse 1.67 has it: /keys/device_signing/upload asks for interactive auth
every time (401 with the password flow) and takes the account's password,
/keys/signatures/upload adds signatures to one's own devices, and
/keys/query gives master and self-signing keys (user-signing: one's own).

Simulated users (the players) live in the same process and act through
methods (join, say, invite, kick...), not HTTP; what they see is derived
from the rooms' event lists, which also give a total order of everything.
Faults are injected with `hs.fault(pred, action)`.
"""
import json
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
SPEC_JSON = os.path.join(REPO, "tests", "net", "matrix", "spec", "spec.json")
CARDBOT = os.path.abspath(os.environ.get("CARDBOT", os.path.join(REPO, "bin", "cardbot")))
BASE = "/_matrix/client/v3"
SERVER = "test"

_PROCS = []

# ---------------------------------------------------------------- JSON Schema (the subset the spec uses)


def _type_ok(t, v):
    if t == "object":
        return isinstance(v, dict)
    if t == "array":
        return isinstance(v, list)
    if t == "string":
        return isinstance(v, str)
    if t == "integer":
        return isinstance(v, int) and not isinstance(v, bool)
    if t == "number":
        return isinstance(v, (int, float)) and not isinstance(v, bool)
    if t == "boolean":
        return isinstance(v, bool)
    if t == "null":
        return v is None
    return True


def validate(schema, v, where="$"):
    """A list of what is wrong with v under schema (empty: valid)."""
    errs = []
    if not isinstance(schema, dict):
        return errs
    t = schema.get("type")
    if t is not None:
        ts = t if isinstance(t, list) else [t]
        if not any(_type_ok(x, v) for x in ts):
            return ["%s: expected %s, found %s" % (where, "/".join(ts), type(v).__name__)]
    if "enum" in schema and v not in schema["enum"]:
        errs.append("%s: %r is not one of %r" % (where, v, schema["enum"]))
    if "const" in schema and v != schema["const"]:
        errs.append("%s: %r is not %r" % (where, v, schema["const"]))
    for sub in schema.get("allOf", []):
        errs += validate(sub, v, where)
    if "anyOf" in schema and not any(not validate(s, v, where) for s in schema["anyOf"]):
        errs.append("%s: matches none of anyOf" % where)
    if "oneOf" in schema:
        n = sum(1 for s in schema["oneOf"] if not validate(s, v, where))
        if n != 1:
            errs.append("%s: matches %d of oneOf" % (where, n))
    if isinstance(v, str):
        if "pattern" in schema and not re.search(schema["pattern"], v):
            errs.append("%s: %r does not match %s" % (where, v[:80], schema["pattern"]))
        if "minLength" in schema and len(v) < schema["minLength"]:
            errs.append("%s: shorter than %d" % (where, schema["minLength"]))
        if "maxLength" in schema and len(v) > schema["maxLength"]:
            errs.append("%s: longer than %d" % (where, schema["maxLength"]))
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        if "minimum" in schema and v < schema["minimum"]:
            errs.append("%s: %r < %r" % (where, v, schema["minimum"]))
        if "maximum" in schema and v > schema["maximum"]:
            errs.append("%s: %r > %r" % (where, v, schema["maximum"]))
    if isinstance(v, dict):
        props = schema.get("properties", {})
        for r in schema.get("required", []):
            if r not in v:
                errs.append("%s: required property %r is missing" % (where, r))
        pats = schema.get("patternProperties", {})
        addl = schema.get("additionalProperties", True)
        for k, x in v.items():
            if k in props:
                errs += validate(props[k], x, "%s.%s" % (where, k))
                continue
            matched = False
            for p, s in pats.items():
                if re.search(p, k):
                    matched = True
                    errs += validate(s, x, "%s.%s" % (where, k))
            if matched:
                continue
            if addl is False:
                errs.append("%s: unexpected property %r" % (where, k))
            elif isinstance(addl, dict):
                errs += validate(addl, x, "%s.%s" % (where, k))
    if isinstance(v, list) and isinstance(schema.get("items"), dict):
        for i, x in enumerate(v):
            errs += validate(schema["items"], x, "%s[%d]" % (where, i))
    return errs


class Spec:
    def __init__(self, path=SPEC_JSON):
        with open(path) as f:
            d = json.load(f)
        self.events = d["events"]
        self.endpoints = []
        for e in d["endpoints"]:
            # Matched on the whole path: the endpoint's base ("/_matrix/client/v3",
            # or "/_matrix" for the content repository) and its path.
            p = e.get("base", BASE) + e["path"].strip()
            names = re.findall(r"\{(\w+)\}", p)
            rx = "^" + re.sub(r"\\\{\w+\\\}", "([^/]+)", re.escape(p)) + "$"
            self.endpoints.append((e["method"], re.compile(rx), names, e))

    def route(self, method, path):
        """(endpoint, {param: value}) or (None, reason)."""
        if not path.startswith("/_matrix/"):
            path = BASE + path  # a client-server path given without its base
        known_path = False
        for m, rx, names, e in self.endpoints:
            mt = rx.match(path)
            if mt:
                known_path = True
                if m == method:
                    return e, {n: urllib.parse.unquote(v) for n, v in zip(names, mt.groups())}
        return None, ("method %s not allowed on %s" % (method, path)) if known_path else ("no endpoint %s %s"
                                                                                           % (method, path))

    def content_schema(self, event):
        s = self.events[event]
        for part in [s] + s.get("allOf", []):
            c = part.get("properties", {}).get("content")
            if c and c.get("properties"):
                return c
        return {"type": "object"}


def _param_ok(schema, raw):
    t = schema.get("type")
    if t == "integer":
        return re.fullmatch(r"-?\d+", raw) is not None
    if t == "boolean":
        return raw in ("true", "false")
    if "enum" in schema:
        return raw in schema["enum"]
    return True


# ---------------------------------------------------------------- the homeserver


class Room:
    def __init__(self, room_id, creator):
        self.id = room_id
        self.creator = creator
        self.members = {}      # user -> membership
        self.names = {}        # user -> displayname
        self.encrypted = False
        self.is_direct = False
        self.name = ""


class Homeserver:
    """State, the HTTP front and the fault hooks. Every event goes into one
    list (`events`), whose index is the sync position."""

    def __init__(self, spec=None, history_initial=10):
        self.spec = spec or Spec()
        self.lock = threading.RLock()
        self.cond = threading.Condition(self.lock)
        self.users = {}          # user -> {"password", "name"}
        self.tokens = {}         # token -> (user, device)
        self.rooms = {}
        self.aliases = {}
        self.events = []         # dicts with room_id, type, sender, content, state_key?, event_id, ts, pos
        self.account_data = {}   # (user, type) -> (pos, content)
        self.filters = {}        # (user, id) -> filter
        self.txns = {}           # (token, room, txn) -> event_id
        self.requests = []       # (time, method, path, query, body, status)
        self.violations = []
        self.faults = []         # [pred, action, remaining]
        self.rate = None         # (burst, per_second) for sends by any user, or None
        self.buckets = {}
        self.media = {}          # "mxc://server/id" -> {"data", "content_type", "filename", "user"}
        self.media_max = 4 * 1024 * 1024  # larger uploads get 413
        self.history_initial = history_initial
        self.next_id = 0
        # End-to-end encryption: what devices publish and send each other.
        # Positions of to-device messages and device-key changes share one
        # counter (`xseq`), the second part of a since token "s<event>_<xseq>".
        self.device_keys = {}    # user -> {device: the signed device keys}
        self.otks = {}           # (user, device) -> {"signed_curve25519:ID": key}
        self.fallback_keys = {}  # (user, device) -> {...}: handed out by a claim when no one-time key is left
        self.fallback_used = set()  # (user, device, algorithm) whose fallback key a claim handed out
        self.xsign_keys = {}     # user -> {"master_key": ..., "self_signing_key": ..., "user_signing_key": ...}
        self.to_device = {}      # (user, device) -> [(seq, event)]
        self.to_device_log = []  # every to-device message sent: (t, sender, device, type, to user, to device, content)
        self.key_changes = []    # (seq, user): device keys uploaded anew
        self.claims = []         # (t, claimer, user, device, key id or None)
        self.xseq = 0
        self.httpd = None
        self.port = None

    # ---- helpers ----
    def _id(self, prefix):
        self.next_id += 1
        return "%s%d_%s:%s" % (prefix, self.next_id, os.urandom(3).hex(), SERVER)

    def violation(self, text):
        with self.lock:
            self.violations.append(text)

    def add_user(self, local, password="pw", name=None):
        uid = "@%s:%s" % (local, SERVER)
        with self.lock:
            self.users[uid] = {"password": password, "name": name or local}
        return uid

    def token_for(self, user, device="DEV"):
        tok = "tok_" + os.urandom(8).hex()
        with self.lock:
            self.tokens[tok] = (user, device)
        return tok

    def _emit(self, room_id, etype, sender, content, state_key=None):
        with self.lock:
            ev = {"room_id": room_id, "type": etype, "sender": sender, "content": content,
                  "event_id": "$" + os.urandom(9).hex(), "origin_server_ts": int(time.time() * 1000),
                  "pos": len(self.events), "t": time.time()}
            if state_key is not None:
                ev["state_key"] = state_key
            self.events.append(ev)
            self.cond.notify_all()
            return ev

    def _set_member(self, room, user, membership, sender=None, reason=None, is_direct=False):
        c = {"membership": membership}
        if membership == "join":
            c["displayname"] = self.users.get(user, {}).get("name", user[1:].split(":")[0])
            room.names[user] = c["displayname"]
        if reason:
            c["reason"] = reason
        if is_direct:
            c["is_direct"] = True
        room.members[user] = membership
        return self._emit(room.id, "m.room.member", sender or user, c, state_key=user)

    # ---- what simulated users do ----
    def create_room(self, creator, alias=None, invite=(), encrypted=False, is_direct=False, name="",
                    initial_state=()):
        with self.lock:
            rid = self._id("!r")
            room = Room(rid, creator)
            room.is_direct = is_direct
            room.name = name
            self.rooms[rid] = room
            self._emit(rid, "m.room.create", creator, {"room_version": "10"}, state_key="")
            self._set_member(room, creator, "join")
            if name:
                self._emit(rid, "m.room.name", creator, {"name": name}, state_key="")
            if encrypted:
                room.encrypted = True
                self._emit(rid, "m.room.encryption", creator, {"algorithm": "m.megolm.v1.aes-sha2"}, state_key="")
            for st in initial_state:
                if st.get("type") == "m.room.encryption":
                    if room.encrypted:
                        continue
                    room.encrypted = True
                self._emit(rid, st.get("type"), creator, st.get("content", {}), state_key=st.get("state_key", ""))
            if alias:
                self.aliases[alias] = rid
                self._emit(rid, "m.room.canonical_alias", creator, {"alias": alias}, state_key="")
            for u in invite:
                self._set_member(room, u, "invite", sender=creator, is_direct=is_direct)
            return rid

    def invite(self, by, room_id, user, is_direct=False):
        with self.lock:
            self._set_member(self.rooms[room_id], user, "invite", sender=by, is_direct=is_direct)

    def join(self, user, room_id):
        with self.lock:
            room = self.rooms[room_id]
            if room.members.get(user) == "join":
                return
            self._set_member(room, user, "join")

    def leave(self, user, room_id):
        with self.lock:
            self._set_member(self.rooms[room_id], user, "leave")

    def kick(self, by, room_id, user, reason="kicked"):
        with self.lock:
            self._set_member(self.rooms[room_id], user, "leave", sender=by, reason=reason)

    def say(self, user, room_id, text, msgtype="m.text", etype="m.room.message", content=None):
        with self.lock:
            room = self.rooms[room_id]
            if room.members.get(user) != "join":
                raise RuntimeError("%s is not in %s" % (user, room_id))
            return self._emit(room_id, etype, user, content or {"msgtype": msgtype, "body": text})

    def membership(self, user, room_id):
        with self.lock:
            r = self.rooms.get(room_id)
            return r.members.get(user) if r else None

    def messages(self, start=0):
        with self.lock:
            return [e for e in self.events[start:] if e["type"] == "m.room.message"]

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

    def wait_active(self, pred, stall=45.0, guard=1800.0):
        """Waits until pred() holds while events keep coming: None once
        `stall` seconds pass with no new event (stuck), or after `guard`
        seconds in all. For a whole match, whose length a busy machine
        stretches: progress, not a clock."""
        end = time.time() + guard
        last_n, last_t = len(self.events), time.time()
        with self.cond:
            while True:
                r = pred()
                if r:
                    return r
                now = time.time()
                if len(self.events) != last_n:
                    last_n, last_t = len(self.events), now
                if now - last_t > stall or now > end:
                    return None
                self.cond.wait(0.2)

    def fault(self, pred, action, times=1):
        """action: ("status", code, body) | ("raw", status, bytes) | ("drop",) | ("hang", seconds) |
        ("partial", status, bytes): closed in mid-body | ("after", ("sleep", seconds)): a late answer |
        ("after", action): handle the request first, then answer with action."""
        with self.lock:
            self.faults.append([pred, action, times])

    # ---- sync ----
    def _visible_state(self, room_id, upto):
        """The current state events of a room at position upto."""
        state = {}
        for e in self.events[:upto]:
            if e["room_id"] == room_id and "state_key" in e:
                state[(e["type"], e["state_key"])] = e
        return [e for _, e in sorted(state.items(), key=lambda kv: kv[1]["pos"])]

    @staticmethod
    def _client_event(e, with_room=False):
        out = {k: e[k] for k in ("type", "sender", "content", "event_id", "origin_server_ts")}
        if "state_key" in e:
            out["state_key"] = e["state_key"]
        if with_room:
            out["room_id"] = e["room_id"]
        out["unsigned"] = {"age": max(0, int(time.time() * 1000) - e["origin_server_ts"])}
        return out

    @staticmethod
    def _stripped(e):
        return {"type": e["type"], "state_key": e["state_key"], "sender": e["sender"], "content": e["content"]}

    def _member_at(self, room_id, user, upto):
        m = None
        for e in self.events[:upto]:
            if e["room_id"] == room_id and e["type"] == "m.room.member" and e.get("state_key") == user:
                m = e["content"]["membership"]
        return m

    def _shares_room(self, user, other):
        return any(r.members.get(user) == "join" and r.members.get(other) == "join" for r in self.rooms.values())

    def _devices_of(self, user):
        with self.lock:
            devs = set(self.device_keys.get(user, {}))
            devs |= {d for u, d in self.tokens.values() if u == user}
        return sorted(devs)

    def _device_lists_changed(self, user, since, since_x, now):
        """Users sharing a room with user whose device keys changed after
        since_x, or who joined a room of user's after event position since
        (all members of a room user joined)."""
        changed = set()
        if since_x is not None:
            changed |= {u for n, u in self.key_changes if n > since_x and self._shares_room(user, u)}
        for e in self.events[since:now]:
            if e["type"] != "m.room.member" or e["content"].get("membership") != "join":
                continue
            r = self.rooms.get(e["room_id"])
            if not r or r.members.get(user) != "join":
                continue
            if e["state_key"] == user:
                changed |= {u for u, m in r.members.items() if m == "join"}
            elif r.members.get(e["state_key"]) == "join":
                changed.add(e["state_key"])
        return changed

    def build_sync(self, user, since, filt, full_state=False, device=None, since_x=None):
        """The sync body for user from position since (None: initial); with a
        device (a client over HTTP), its to-device messages, one-time key
        count and device list changes too."""
        with self.lock:
            now = len(self.events)
            types = None
            limit = 50
            tl = (filt or {}).get("room", {}).get("timeline", {})
            if "types" in tl:
                types = tl["types"]
            if "limit" in tl:
                limit = tl["limit"]
            join, invite, leave = {}, {}, {}
            for rid, room in self.rooms.items():
                m_now = room.members.get(user)
                m_then = self._member_at(rid, user, since) if since is not None else None
                if m_now == "join":
                    if full_state and since is not None and m_then == "join":
                        st = [self._client_event(e) for e in self._visible_state(rid, now)]
                        new = [self._client_event(e) for e in self.events[since:now] if e["room_id"] == rid
                               and (types is None or e["type"] in types)]
                        join[rid] = {"state": {"events": st},
                                     "timeline": {"events": new[-limit:], "limited": len(new) > limit}}
                    elif since is None or m_then != "join":
                        st = [self._client_event(e) for e in self._visible_state(rid, now)]
                        hist = [e for e in self.events[since or 0:now] if e["room_id"] == rid and "state_key" not in e]
                        hist = hist[-(self.history_initial if since is None else limit):]
                        join[rid] = {"state": {"events": st},
                                     "timeline": {"events": [self._client_event(e) for e in hist
                                                             if types is None or e["type"] in types],
                                                  "limited": False}}
                    else:
                        new = [e for e in self.events[since:now] if e["room_id"] == rid]
                        if new:
                            evs = [self._client_event(e) for e in new if types is None or e["type"] in types]
                            join[rid] = {"timeline": {"events": evs[-limit:], "limited": len(evs) > limit}}
                elif m_now == "invite" and m_then != "invite":
                    st = [self._stripped(e) for e in self._visible_state(rid, now)
                          if e["type"] in ("m.room.create", "m.room.name", "m.room.encryption", "m.room.join_rules")
                          or (e["type"] == "m.room.member" and e["state_key"] == user)]
                    invite[rid] = {"invite_state": {"events": st}}
                elif m_now in ("leave", "ban") and since is not None and m_then in ("join", "invite"):
                    new = [self._client_event(e) for e in self.events[since:now]
                           if e["room_id"] == rid and e["type"] == "m.room.member" and e.get("state_key") == user]
                    leave[rid] = {"timeline": {"events": new}}
            ad = [{"type": t, "content": c} for (u, t), (p, c) in self.account_data.items()
                  if u == user and (since is None or p >= since)]
            body = {"next_batch": "s%d_%d" % (now, self.xseq)}
            if device is not None:
                q = self.to_device.get((user, device), [])
                if q:
                    body["to_device"] = {"events": [e for _, e in q]}
                counts = {}
                for kid in self.otks.get((user, device), {}):
                    algo = kid.split(":")[0]
                    counts[algo] = counts.get(algo, 0) + 1
                counts.setdefault("signed_curve25519", 0)
                body["device_one_time_keys_count"] = counts
                body["device_unused_fallback_key_types"] = sorted(
                    {k.split(":")[0] for k in self.fallback_keys.get((user, device), {})
                     if (user, device, k.split(":")[0]) not in self.fallback_used})
                if since is not None:
                    changed = self._device_lists_changed(user, since, since_x, now)
                    if changed:
                        body["device_lists"] = {"changed": sorted(changed)}
            rooms = {}
            if join:
                rooms["join"] = join
            if invite:
                rooms["invite"] = invite
            if leave:
                rooms["leave"] = leave
            if rooms:
                body["rooms"] = rooms
            if ad:
                body["account_data"] = {"events": ad}
            return body, now

    def _has_news(self, user, since, device=None, since_x=None):
        if device is not None:
            if self.to_device.get((user, device)):
                return True
            if since_x is not None and any(n > since_x and self._shares_room(user, u) for n, u in self.key_changes):
                return True
        for e in self.events[since:]:
            r = self.rooms.get(e["room_id"])
            if r and (r.members.get(user) in ("join", "invite") or e.get("state_key") == user):
                return True
        return any(u == user and p >= since for (u, t), (p, c) in self.account_data.items())

    # ---- HTTP ----
    def start(self):
        hs = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *a):
                pass

            def do_GET(self):
                hs._handle(self, "GET")

            def do_POST(self):
                hs._handle(self, "POST")

            def do_PUT(self):
                hs._handle(self, "PUT")

            def do_DELETE(self):
                hs._handle(self, "DELETE")

        self.httpd = QuietServer(("127.0.0.1", 0), Handler)
        self.port = self.httpd.server_address[1]
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()
        return self

    def stop(self):
        if self.httpd:
            self.httpd.shutdown()
            self.httpd.server_close()

    @property
    def url(self):
        return "http://127.0.0.1:%d" % self.port

    def _send(self, h, status, body, raw=None):
        data = raw if raw is not None else json.dumps(body).encode()
        try:
            h.send_response(status)
            h.send_header("Content-Type", "application/json")
            h.send_header("Content-Length", str(len(data)))
            h.end_headers()
            h.wfile.write(data)
        except OSError:
            pass

    def _handle(self, h, method):
        url = urllib.parse.urlsplit(h.path)
        query = urllib.parse.parse_qs(url.query, keep_blank_values=True)
        n = int(h.headers.get("Content-Length") or 0)
        raw = h.rfile.read(n) if n else b""
        body = None
        path = url.path
        rec = {"t": time.time(), "method": method, "path": path, "query": query, "raw": raw, "status": None}
        with self.lock:
            self.requests.append(rec)
        ep, params = self.spec.route(method, path)
        if ep is None:
            self.violation(params)
            return self._send(h, 404, {"errcode": "M_UNRECOGNIZED", "error": params})
        sub = path[len(ep.get("base", BASE)):]
        rec["endpoint"] = ep["path"].strip()
        # -- the request against the spec --
        for p in ep["parameters"]:
            if p["in"] == "query":
                if p["name"] in query:
                    if not _param_ok(p["schema"], query[p["name"]][0]):
                        self.violation("%s %s: query %s=%r is not a %s" % (method, sub, p["name"],
                                                                           query[p["name"]][0], p["schema"]))
                elif p["required"]:
                    self.violation("%s %s: required query parameter %s is missing" % (method, sub, p["name"]))
            elif p["in"] == "header":
                v = h.headers.get(p["name"])
                if v is None and p["required"]:
                    self.violation("%s %s: required header %s is missing" % (method, sub, p["name"]))
                elif v is not None and not _param_ok(p["schema"], v):
                    self.violation("%s %s: header %s=%r is not a %s" % (method, sub, p["name"], v, p["schema"]))
        known = {p["name"] for p in ep["parameters"] if p["in"] == "query"}
        if ep["auth"]:
            known.add("access_token")  # the spec's other way to give the token (nio uses it)
        for q in query:
            if q not in known:
                self.violation("%s %s: unknown query parameter %s" % (method, sub, q))
        if ep.get("body_type", "application/json") != "application/json":
            # Raw bytes (an upload): present when required, never JSON-checked.
            if not raw and ep["body_required"]:
                self.violation("%s %s: the required body is missing" % (method, sub))
            rec["content_type"] = h.headers.get("Content-Type")
        elif raw:
            try:
                body = json.loads(raw.decode("utf-8"))
            except (UnicodeDecodeError, ValueError) as e:
                self.violation("%s %s: the body is not JSON (%s)" % (method, sub, e))
                return self._send(h, 400, {"errcode": "M_NOT_JSON", "error": "not JSON"})
        if ep["body"] is not None:
            if body is None and ep["body_required"]:
                self.violation("%s %s: the required body is missing" % (method, sub))
            elif body is not None:
                for err in validate(ep["body"], body):
                    self.violation("%s %s: body: %s" % (method, sub, err))
        elif body is not None and method == "GET":
            self.violation("%s %s: a body on a GET" % (method, sub))
        if ep["path"].startswith("/rooms/{roomId}/send/") and body is not None:
            if params.get("eventType") == "m.room.message":
                mt = body.get("msgtype")
                key = "m.room.message$" + str(mt)
                if key not in self.spec.events:
                    self.violation("PUT send: msgtype %r is not m.text, m.notice or m.file" % mt)
                else:
                    for err in validate(self.spec.content_schema(key), body):
                        self.violation("PUT send %s: content: %s" % (mt, err))
                if body.get("format") not in (None, "org.matrix.custom.html"):
                    self.violation("PUT send: format %r" % body.get("format"))
                if ("formatted_body" in body) != ("format" in body):
                    self.violation("PUT send: format and formatted_body go together")
        if ep["path"].startswith("/rooms/{roomId}/send/") and body is not None and \
                params.get("eventType") == "m.room.encrypted":
            for err in validate(self.spec.content_schema("m.room.encrypted"), body):
                self.violation("PUT send m.room.encrypted: content: %s" % err)
        if ep["path"].startswith("/sendToDevice/") and isinstance(body, dict) and \
                params.get("eventType") == "m.room.encrypted":
            for u, devs in (body.get("messages") or {}).items():
                for d, c in (devs if isinstance(devs, dict) else {}).items():
                    for err in validate(self.spec.content_schema("m.room.encrypted"), c):
                        self.violation("PUT sendToDevice m.room.encrypted to %s %s: %s" % (u, d, err))
        if ep["path"].startswith("/user/{userId}/account_data/") and method == "PUT" and \
                params.get("type") == "m.direct":
            for err in validate(self.spec.content_schema("m.direct"), body):
                self.violation("PUT m.direct: %s" % err)
        user = None
        if ep["auth"]:
            a = h.headers.get("Authorization", "")
            tok = a[7:] if a.startswith("Bearer ") else None
            if tok is None and "access_token" in query:
                tok = query["access_token"][0]
                rec["token_in_query"] = True
            with self.lock:
                who = self.tokens.get(tok)
            if not who:
                return self._answer(h, ep, rec, 401, {"errcode": "M_UNKNOWN_TOKEN" if tok else "M_MISSING_TOKEN",
                                                      "error": "Unknown access token"})
            user = who[0]
            rec["user"] = user
            rec["token"] = tok
        # -- faults --
        action = None
        with self.lock:
            for f in self.faults:
                if f[2] > 0 and f[0](rec, body):
                    f[2] -= 1
                    action = f[1]
                    break
        after = None
        if action:
            rec["fault"] = action[0]
            if action[0] == "status":
                return self._answer(h, ep, rec, action[1], action[2])
            if action[0] == "raw":
                rec["status"] = action[1]
                return self._send(h, action[1], None, raw=action[2])
            if action[0] == "partial":
                # Headers promise more than comes: the connection closes mid-body.
                rec["status"] = "partial"
                data = action[2]
                try:
                    h.send_response(action[1])
                    h.send_header("Content-Type", "application/json")
                    h.send_header("Content-Length", str(len(data) * 2 + 10))
                    h.end_headers()
                    h.wfile.write(data)
                    h.wfile.flush()
                except OSError:
                    pass
                h.close_connection = True
                try:
                    h.connection.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
                return None
            if action[0] == "drop":
                rec["status"] = "dropped"
                h.close_connection = True
                try:
                    h.connection.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
                return None
            if action[0] == "hang":
                time.sleep(action[1])
                rec["status"] = "hung"
                h.close_connection = True
                return None
            if action[0] == "after":
                after = action[1]
        try:
            status, out = self._dispatch(ep, params, query, body, user, rec)
        except Exception as ex:  # a bug of this server: fail the test, answer 500
            self.violation("the test homeserver failed on %s %s: %r" % (method, sub, ex))
            status, out = 500, {"errcode": "M_UNKNOWN", "error": "test homeserver error"}
        if after:
            rec["fault"] = "after-" + after[0]
            if after[0] == "drop":
                rec["status"] = "dropped-after"
                h.close_connection = True
                try:
                    h.connection.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
                return None
            if after[0] == "raw":
                rec["status"] = after[1]
                return self._send(h, after[1], None, raw=after[2])
            if after[0] == "sleep":
                time.sleep(after[1])  # answered late: the bot may learn the news from a sync first
        return self._answer(h, ep, rec, status, out)

    def _answer(self, h, ep, rec, status, out):
        rec["status"] = status
        sch = ep["responses"].get(str(status))
        if sch is not None:
            for err in validate(sch, out):
                self.violation("answer to %s %s (%d): %s" % (rec["method"], rec["path"], status, err))
        return self._send(h, status, out)

    def _rate_ok(self, user, cost=1):
        """Synapse's message limit: a bucket of `burst` that refills at
        `per` a second; an action costs `cost` (a createRoom is charged one
        token and then another, see /createRoom)."""
        if not self.rate:
            return True, 0
        burst, per = self.rate
        now = time.time()
        tokens, last = self.buckets.get(user, (burst, now))
        tokens = min(burst, tokens + (now - last) * per)
        if tokens < cost:
            self.buckets[user] = (tokens, now)
            return False, int((cost - tokens) / per * 1000) + 1
        self.buckets[user] = (tokens - cost, now)
        return True, 0

    def rate_tokens(self, user):
        """What is left of a user's burst now (None without a limit)."""
        if not self.rate:
            return None
        burst, per = self.rate
        with self.lock:
            tokens, last = self.buckets.get(user, (burst, time.time()))
        return min(burst, tokens + (time.time() - last) * per)

    def _dispatch(self, ep, params, query, body, user, rec):
        p = ep["path"].strip()
        m = ep["method"]
        err = lambda code, ec, text: (code, {"errcode": ec, "error": text})  # noqa: E731
        if p == "/login" and m == "POST":
            ident = (body or {}).get("identifier", {})
            uid = ident.get("user", "")
            if uid and not uid.startswith("@"):
                uid = "@%s:%s" % (uid, SERVER)
            with self.lock:
                u = self.users.get(uid)
                if not u or u["password"] != body.get("password"):
                    return err(403, "M_FORBIDDEN", "Invalid username or password")
                dev = body.get("device_id") or "D" + os.urandom(4).hex().upper()
                tok = self.token_for(uid, dev)
            rec["device"] = dev
            rec["user"] = uid
            return 200, {"user_id": uid, "access_token": tok, "device_id": dev}
        if p == "/account/whoami":
            with self.lock:
                dev = self.tokens[rec["token"]][1]
            return 200, {"user_id": user, "device_id": dev}
        if p == "/user/{userId}/filter" and m == "POST":
            if params["userId"] != user:
                return err(403, "M_FORBIDDEN", "not yours")
            with self.lock:
                fid = str(len(self.filters) + 1)
                self.filters[(user, fid)] = body
            return 200, {"filter_id": fid}
        if p == "/user/{userId}/account_data/{type}":
            if params["userId"] != user:
                return err(403, "M_FORBIDDEN", "not yours")
            with self.lock:
                if m == "GET":
                    v = self.account_data.get((user, params["type"]))
                    return (200, v[1]) if v else err(404, "M_NOT_FOUND", "no account data")
                self.account_data[(user, params["type"])] = (len(self.events), body)
                self.cond.notify_all()
                return 200, {}
        if p == "/sync":
            since = since_x = None
            if "since" in query:
                mt = re.fullmatch(r"s(\d+)(?:_(\d+))?", query["since"][0])
                if not mt:
                    return err(400, "M_INVALID_PARAM", "bad since")
                since = int(mt.group(1))
                since_x = int(mt.group(2)) if mt.group(2) is not None else None
            with self.lock:
                device = self.tokens[rec["token"]][1]
                if since_x is not None:
                    # To-device messages handed out by the sync whose token
                    # comes back are delivered: removed.
                    q = self.to_device.get((user, device))
                    if q:
                        q[:] = [(n, e) for n, e in q if n > since_x]
            timeout = int(query.get("timeout", ["0"])[0]) / 1000.0
            full = query.get("full_state", ["false"])[0] == "true"
            filt = None
            if "filter" in query:
                with self.lock:
                    filt = self.filters.get((user, query["filter"][0]))
                if filt is None and query["filter"][0].startswith("{"):
                    try:
                        filt = json.loads(query["filter"][0])  # a filter given inline
                    except ValueError:
                        pass
                if filt is None:
                    self.violation("sync with an unknown filter %r" % query["filter"][0])
            if since is not None and timeout > 0 and not full:
                end = time.time() + min(timeout, 60)
                with self.cond:
                    while not self._has_news(user, since, device, since_x) and time.time() < end:
                        self.cond.wait(min(0.2, max(0.01, end - time.time())))
            if full and since is not None:
                rec["full_state"] = True
            body_out, _ = self.build_sync(user, since, filt, full_state=full, device=device, since_x=since_x)
            return 200, body_out
        if p in ("/join/{roomIdOrAlias}", "/rooms/{roomId}/join"):
            rid = params.get("roomIdOrAlias") or params.get("roomId")
            with self.lock:
                rid = self.aliases.get(rid, rid)
                room = self.rooms.get(rid)
                if not room:
                    return err(404, "M_NOT_FOUND", "no such room")
                if room.members.get(user) not in ("invite", "join") and room.is_direct:
                    return err(403, "M_FORBIDDEN", "not invited")
                if room.members.get(user) != "join":
                    # Synapse counts a join (a member event) as a message.
                    ok, wait = self._rate_ok(user)
                    if not ok:
                        return 429, {"errcode": "M_LIMIT_EXCEEDED", "error": "Too many requests",
                                     "retry_after_ms": wait}
                self.join(user, rid)
            return 200, {"room_id": rid}
        if p == "/rooms/{roomId}/leave":
            with self.lock:
                room = self.rooms.get(params["roomId"])
                if not room or room.members.get(user) not in ("join", "invite"):
                    return 200, {}
                self.leave(user, room.id)
            return 200, {}
        if p == "/rooms/{roomId}/forget":
            with self.lock:
                room = self.rooms.get(params["roomId"])
                if room and room.members.get(user) in ("join", "invite"):
                    return err(400, "M_UNKNOWN", "still in the room")
                rec["forgot"] = params["roomId"]
            return 200, {}
        if p == "/rooms/{roomId}/send/{eventType}/{txnId}":
            with self.lock:
                key = (rec["token"], params["roomId"], params["txnId"])
                if key in self.txns:
                    rec["dedup"] = True
                    return 200, {"event_id": self.txns[key]}
                room = self.rooms.get(params["roomId"])
                if not room or room.members.get(user) != "join":
                    return err(403, "M_FORBIDDEN", "not in the room")
                ok, wait = self._rate_ok(user)
                if not ok:
                    return 429, {"errcode": "M_LIMIT_EXCEEDED", "error": "Too many requests",
                                 "retry_after_ms": wait}
                ev = self._emit(room.id, params["eventType"], user, body)
                ev["txn"] = params["txnId"]
                self.txns[key] = ev["event_id"]
            return 200, {"event_id": ev["event_id"]}
        if p == "/media/v3/upload" and m == "POST":
            data = rec["raw"]
            if len(data) > self.media_max:
                return err(413, "M_TOO_LARGE", "Cannot upload files larger than %d bytes" % self.media_max)
            with self.lock:
                ok, wait = self._rate_ok(user)
                if not ok:
                    return 429, {"errcode": "M_LIMIT_EXCEEDED", "error": "Too many requests",
                                 "retry_after_ms": wait}
                uri = "mxc://%s/%s" % (SERVER, os.urandom(12).hex())
                fn = query.get("filename", [None])[0]
                self.media[uri] = {"data": data, "content_type": rec.get("content_type"), "filename": fn,
                                   "user": user}
                rec["uploaded"] = uri
            return 200, {"content_uri": uri}
        if p == "/createRoom":
            with self.lock:
                # As Synapse 1.67 charges it: the request takes one token,
                # the room is made, then the creator's join takes another;
                # when that one is missing the room stays behind, empty, and
                # the 429's retry_after_ms covers one token only.
                ok, wait = self._rate_ok(user)
                if not ok:
                    return 429, {"errcode": "M_LIMIT_EXCEEDED", "error": "Too many requests",
                                 "retry_after_ms": wait}
                ok, wait = self._rate_ok(user)
                if not ok:
                    rid = self._id("!r")
                    self.rooms[rid] = Room(rid, user)
                    self._emit(rid, "m.room.create", user, {"room_version": "10"}, state_key="")
                    rec["orphan"] = rid
                    return 429, {"errcode": "M_LIMIT_EXCEEDED", "error": "Too many requests",
                                 "retry_after_ms": wait}
                rid = self.create_room(user, invite=body.get("invite", []), is_direct=bool(body.get("is_direct")),
                                       name=body.get("name", ""), initial_state=body.get("initial_state", []),
                                       alias=("#%s:%s" % (body["room_alias_name"], SERVER))
                                       if body.get("room_alias_name") else None)
                rec["created"] = rid
                rec["create_body"] = body
            return 200, {"room_id": rid}
        if p.startswith("/keys/") or p.startswith("/sendToDevice/") or p == "/rooms/{roomId}/joined_members":
            return self._dispatch_e2ee(p, params, body, user, rec, err)
        return err(404, "M_UNRECOGNIZED", "not served by the test homeserver")

    def _dispatch_e2ee(self, p, params, body, user, rec, err):
        with self.lock:
            device = self.tokens[rec["token"]][1]
            if p == "/keys/upload":
                dk = body.get("device_keys")
                if dk is not None:
                    if dk.get("user_id") != user or dk.get("device_id") != device:
                        self.violation("POST /keys/upload: device keys of %s %s uploaded by %s %s" % (
                            dk.get("user_id"), dk.get("device_id"), user, device))
                        return err(400, "M_INVALID_PARAM", "not your device")
                    old = self.device_keys.get(user, {}).get(device)
                    if old != dk:
                        self.device_keys.setdefault(user, {})[device] = dk
                        self.xseq += 1
                        self.key_changes.append((self.xseq, user))
                        rec["device_keys"] = True
                otk = body.get("one_time_keys") or {}
                self.otks.setdefault((user, device), {}).update(otk)
                rec["one_time_keys"] = len(otk)
                fb = body.get("fallback_keys") or {}
                if fb:
                    self.fallback_keys[(user, device)] = dict(fb)
                    self.fallback_used -= {(user, device, k.split(":")[0]) for k in fb}
                counts = {}
                for kid in self.otks[(user, device)]:
                    counts[kid.split(":")[0]] = counts.get(kid.split(":")[0], 0) + 1
                counts.setdefault("signed_curve25519", 0)
                self.cond.notify_all()
                return 200, {"one_time_key_counts": counts}
            if p == "/keys/query":
                out = {}
                xs = {"master_keys": {}, "self_signing_keys": {}, "user_signing_keys": {}}
                for u, devs in (body.get("device_keys") or {}).items():
                    have = self.device_keys.get(u, {})
                    out[u] = {d: k for d, k in have.items() if not devs or d in devs}
                    for field, name in (("master_keys", "master_key"), ("self_signing_keys", "self_signing_key"),
                                        ("user_signing_keys", "user_signing_key")):
                        k = self.xsign_keys.get(u, {}).get(name)
                        if k and (name != "user_signing_key" or u == user):  # as Synapse: one's own only
                            xs[field][u] = k
                return 200, dict(xs, device_keys=out, failures={})
            if p == "/keys/device_signing/upload":
                # As Synapse 1.67: interactive auth every time (password flow).
                auth = body.get("auth") or {}
                if auth.get("type") != "m.login.password":
                    return 401, {"session": "xs%d" % len(self.xsign_keys), "flows": [{"stages": ["m.login.password"]}],
                                 "params": {}}
                ident = auth.get("identifier") or {}
                if ident.get("user") != user or auth.get("password") != self.users.get(user, {}).get("password"):
                    return err(403, "M_FORBIDDEN", "Invalid password")
                self.xsign_keys[user] = {k: body[k] for k in ("master_key", "self_signing_key", "user_signing_key")
                                         if k in body}
                self.xseq += 1
                self.key_changes.append((self.xseq, user))
                rec["xsign_keys"] = True
                return 200, {}
            if p == "/keys/signatures/upload":
                for u, objs in body.items():
                    for d, signed in (objs or {}).items():
                        dk = self.device_keys.get(u, {}).get(d)
                        if dk is None or u != user:
                            continue  # the stand-in takes signatures of one's own devices only
                        for su, sigs in (signed.get("signatures") or {}).items():
                            dk.setdefault("signatures", {}).setdefault(su, {}).update(sigs)
                        self.xseq += 1
                        self.key_changes.append((self.xseq, u))
                rec["signatures"] = True
                return 200, {"failures": {}}
            if p == "/keys/claim":
                out = {}
                for u, devs in (body.get("one_time_keys") or {}).items():
                    for d, algo in devs.items():
                        keys = self.otks.get((u, d), {})
                        kid = next((k for k in sorted(keys) if k.split(":")[0] == algo), None)
                        self.claims.append((time.time(), user, u, d, kid))
                        if kid is not None:
                            out.setdefault(u, {})[d] = {kid: keys.pop(kid)}
                            continue
                        # None left: the fallback key, used or not, as Synapse does (marked used).
                        fb = self.fallback_keys.get((u, d), {})
                        fkid = next((k for k in sorted(fb) if k.split(":")[0] == algo), None)
                        if fkid is not None:
                            out.setdefault(u, {})[d] = {fkid: fb[fkid]}
                            self.fallback_used.add((u, d, algo))
                return 200, {"one_time_keys": out, "failures": {}}
            if p == "/sendToDevice/{eventType}/{txnId}":
                key = ("todevice", rec["token"], params["txnId"])
                if key in self.txns:
                    rec["dedup"] = True
                    return 200, {}
                self.txns[key] = True
                n = 0
                for u, devs in (body.get("messages") or {}).items():
                    for d, content in devs.items():
                        for dd in (self._devices_of(u) if d == "*" else [d]):
                            self.xseq += 1
                            ev = {"sender": user, "type": params["eventType"], "content": content}
                            self.to_device.setdefault((u, dd), []).append((self.xseq, ev))
                            self.to_device_log.append((time.time(), user, device, params["eventType"], u, dd,
                                                       content))
                            n += 1
                rec["to_device"] = n
                self.cond.notify_all()
                return 200, {}
            if p == "/rooms/{roomId}/joined_members":
                room = self.rooms.get(params["roomId"])
                if not room or room.members.get(user) != "join":
                    return err(403, "M_FORBIDDEN", "not in the room")
                return 200, {"joined": {u: {"display_name": room.names.get(u, u)}
                                        for u, m in room.members.items() if m == "join"}}
        return err(404, "M_UNRECOGNIZED", "not served by the test homeserver")

    # ---- what tests read ----
    def bot_messages(self, bot, room_id=None, start=0):
        with self.lock:
            return [e for e in self.events[start:] if e["type"] == "m.room.message" and e["sender"] == bot
                    and (room_id is None or e["room_id"] == room_id)]

    def empty_rooms(self, user):
        """Rooms `user` made that nobody is in (a createRoom whose join was refused)."""
        with self.lock:
            return [r.id for r in self.rooms.values() if r.creator == user
                    and not any(m == "join" for m in r.members.values())]

    def direct_rooms(self, bot):
        """user -> room for rooms the bot created as direct rooms."""
        with self.lock:
            out = {}
            for r in self.rooms.values():
                if r.is_direct and r.creator == bot:
                    for u, mship in r.members.items():
                        if u != bot:
                            out[u] = r.id
            return out


# ---------------------------------------------------------------- the bot process


class QuietServer(ThreadingHTTPServer):
    """The test servers' HTTP server (the stand-in, Synapse's recording
    proxy): a client that drops its connection (the bot killed with SIGKILL
    mid-request) is expected and not printed; any other error is."""
    daemon_threads = True
    allow_reuse_address = True

    def handle_error(self, request, client_address):
        if not isinstance(sys.exc_info()[1], (ConnectionResetError, BrokenPipeError)):
            super().handle_error(request, client_address)


def tempdir():
    return tempfile.mkdtemp(prefix="cardbot-mx-")


class Bot:
    """cardbot run -c FILE against the test homeserver."""

    def __init__(self, tmp, hs_url, user_id, secret_line, rooms=(), extra="", tables="", sync_timeout=2,
                 allow_invites=True, other_networks="", operators="", rate_limited=False):
        self.tmp = tmp
        self.cfg = os.path.join(tmp, "cardbot.cfg")
        self.log = os.path.join(tmp, "cardbot.log")
        self.proc = None
        rl = ", ".join('"%s"' % r for r in rooms)
        with open(self.cfg, "w") as f:
            f.write(f"""bot = {{
  prefix = "!";
  log_level = "debug";
  data_dir = "{tmp}/data";
  allow_invites = {"true" if allow_invites else "false"};
  operators = [ {operators} ];
  commands_burst = 20;
  commands_per_minute = 600;
}};
tables = {{
  pace = "casual";
  deal_pause_ms = 500;
  computer_delay_ms = 50;
  {tables}
}};
networks = (
  {other_networks}
  {{
    name = "mx";
    type = "matrix";
    homeserver = "{hs_url}";
    user_id = "{user_id}";
    {secret_line}
    rooms = ( {rl} );
    sync_timeout_seconds = {sync_timeout};
    reconnect_min_seconds = 1;
    reconnect_max_seconds = 2;
    {"" if rate_limited else "rate_limited = false;"}
    {extra}
  }}
);
""")
        os.chmod(self.cfg, 0o600)

    def start(self, env=None):
        logf = open(self.log, "ab")
        e = dict(os.environ)
        e.update(env or {})
        self.proc = subprocess.Popen([CARDBOT, "run", "-c", self.cfg], stdout=logf, stderr=subprocess.STDOUT,
                                     stdin=subprocess.DEVNULL, cwd=self.tmp, env=e)
        _PROCS.append(self.proc)
        logf.close()
        return self

    def alive(self):
        return self.proc is not None and self.proc.poll() is None

    def stop(self, sig=signal.SIGTERM):
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(sig)
            try:
                self.proc.wait(8)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
        return self.proc.returncode if self.proc else None

    def log_text(self):
        try:
            with open(self.log, "rb") as f:
                return f.read().decode("utf-8", "replace")
        except OSError:
            return ""

    def log_tail(self, n=30):
        return "\n".join(self.log_text().splitlines()[-n:])

    def rss_kb(self):
        try:
            with open("/proc/%d/status" % self.proc.pid) as f:
                for line in f:
                    if line.startswith("VmRSS:"):
                        return int(line.split()[1])
        except OSError:
            pass
        return None


def _cleanup():
    for p in _PROCS:
        if p.poll() is None:
            p.kill()


import atexit  # noqa: E402

atexit.register(_cleanup)


class Results:
    """Collects checks: print one line per failure, and the summary line."""

    def __init__(self, name):
        self.name = name
        self.passed = 0
        self.failed = 0

    def check(self, cond, text):
        if cond:
            self.passed += 1
        else:
            self.failed += 1
            print("FAIL: %s" % text)
            sys.stdout.flush()
        return cond

    def finish(self):
        print("%s: %d passed, %d failed" % (self.name, self.passed, self.failed))
        return 1 if self.failed else 0
