"""e2eelib.py: encrypting scripted Matrix players for the tests (issue 18), over matrix-nio.

A `Player` is a real end-to-end-encrypting Matrix client: python3-matrix-nio
(0.20) with python3-olm, Debian's packages, which only the system Python
(/usr/bin/python3) can import; a test using this file calls `reexec()` first
(it re-runs the script under /usr/bin/python3 when `import nio` fails) and
then `nio_missing()` (None, or why it must skip).

A player logs in with a password to a homeserver URL (the stand-in of
tests/lib/matrixlib.py or a real Synapse: anything speaking the Client-Server
API), keeps its nio store in a temporary directory of its own, publishes
its keys, and then syncs for ever in the background: it accepts
invitations (`auto_join`: every invitation, the bot's direct rooms
included), trusts every device it sees on first use (each device it learns
of is verified, as TOFU), and records every room event it receives, after
decryption, in `events` (see `Player.record`). An event it cannot decrypt
when it comes (its room key has not arrived) is tried again after every
sync; what is still encrypted is in `undecrypted()`.

All players run on one asyncio loop in one background thread; the test
calls the methods below from its own thread (each blocks until done):

    p = Player(url, "@ann:test", "pw", device_id=None, name="ann", auto_join=True).start()
    rid = p.create_room(invite=[...], encrypted=True, name=None, preset="public_chat", alias="304")
    p.join(rid); p.say(rid, "hello"); p.send_raw(rid, type, content)
    p.wait_for(lambda: p.find(body="hello"), timeout=20)  -> the predicate's value, or None
    p.find(room_id=None, sender=None, body=None, contains=None, encrypted=None) -> records
    p.encrypted_room(rid), p.undecrypted(), p.devices_of(user), p.trusts(user, device_id=None)
    p.errors, p.device_id, p.access_token, p.events, p.by_id (event id -> record),
    p.invites [(room, inviter, is_direct)], p.joined {rooms}, p.api(method, path, body) -> (status, body)
    p.stop(remove_store=True)

A record (`events`, `find`) is a dict: room_id, event_id, sender, type (the
decrypted type; m.room.encrypted while undecryptable), content (decrypted),
body, state_key, encrypted (it came encrypted), undecryptable, late (it was
decrypted after it came), ts (server time, ms), t (when it came), pos.

This file is a helper: its name ends in lib.py, so the test runner skips it.
"""
import asyncio
import json
import os
import shutil
import sys
import tempfile
import threading
import time
import traceback
import urllib.error
import urllib.parse
import urllib.request

SYSTEM_PYTHON = "/usr/bin/python3"
MEGOLM = "m.megolm.v1.aes-sha2"

try:
    import nio  # noqa: F401
    from nio import (AsyncClient, AsyncClientConfig, InviteMemberEvent, JoinResponse, LoginResponse,  # noqa: F401
                     MegolmEvent, RoomCreateResponse, RoomSendResponse, SyncResponse)
    _NIO_ERROR = None
    # nio 0.20 speaks the legacy r0 paths; the stand-in serves (and checks)
    # the spec's v3 ones, which Synapse serves as well: the players use v3.
    _bp = nio.Api._build_path
    if _bp.__defaults__ and _bp.__defaults__[-1] == "/_matrix/client/r0":
        _bp.__defaults__ = _bp.__defaults__[:-1] + ("/_matrix/client/v3",)
except Exception as _e:  # noqa: BLE001
    nio = None
    _NIO_ERROR = "%s: %s" % (type(_e).__name__, _e)


def reexec():
    """Runs the calling script again under /usr/bin/python3 when this Python
    cannot import nio (the `python3` on PATH may be another one); returns
    when nio is here or the system Python is what runs already."""
    if nio is not None or os.environ.get("E2EE_REEXEC") == "1":
        return
    if os.path.realpath(sys.executable) == os.path.realpath(SYSTEM_PYTHON) or not os.path.exists(SYSTEM_PYTHON):
        return
    env = dict(os.environ, E2EE_REEXEC="1")
    sys.stdout.flush()
    os.execve(SYSTEM_PYTHON, [SYSTEM_PYTHON] + sys.argv, env)


def nio_missing():
    """None when nio and olm are importable here, else why not."""
    if nio is None:
        return "matrix-nio with olm is not importable by %s (%s): install python3-matrix-nio and python3-olm" % (
            sys.executable, _NIO_ERROR)
    try:
        __import__("olm")  # nio imports it only when encryption is on
    except Exception as e:  # noqa: BLE001
        return "python3-olm is not importable by %s (%s)" % (sys.executable, e)
    return None


# ---------------------------------------------------------------- the loop all players share

_loop = None
_loop_lock = threading.Lock()


def _get_loop():
    global _loop
    with _loop_lock:
        if _loop is None:
            _loop = asyncio.new_event_loop()
            t = threading.Thread(target=_loop.run_forever, name="e2ee-loop", daemon=True)
            t.start()
        return _loop


def _run(coro, timeout=60):
    """Runs a coroutine on the players' loop; its result (or its exception)."""
    fut = asyncio.run_coroutine_threadsafe(coro, _get_loop())
    return fut.result(timeout)


SYNC_FILTER = {"room": {"timeline": {"limit": 200}, "state": {"lazy_load_members": False}},
               "presence": {"not_types": ["*"]}}


class Player:
    """One encrypting client (see the file's head)."""

    def __init__(self, url, user_id, password, device_id=None, name=None, auto_join=True, sync_timeout_ms=1000):
        self.url = url.rstrip("/")
        self.user_id = user_id
        self.password = password
        self.name = name or user_id[1:].split(":")[0]
        self.auto_join = auto_join
        self.sync_timeout_ms = sync_timeout_ms
        self.store = tempfile.mkdtemp(prefix="cardbot-nio-%s-" % self.name)
        self.device_id = device_id
        self.access_token = None
        self.client = None
        self.cond = threading.Condition()
        self.events = []      # records, see record()
        self.by_id = {}       # event id -> record
        self.pending = {}     # event id -> (room, MegolmEvent) not decrypted yet
        self.invites = []     # (room, inviter, is_direct)
        self.joined = set()
        self.errors = []      # what went wrong in the background
        self.syncs = 0
        self.stopping = False
        self.task = None
        self.first_sync = threading.Event()

    # ---- start, stop ----
    def start(self, timeout=60):
        """Logs in, publishes keys, starts syncing; returns self after the first sync."""
        _run(self._login(), timeout)
        self.task = asyncio.run_coroutine_threadsafe(self._sync_loop(), _get_loop())
        if not self.first_sync.wait(timeout):
            raise RuntimeError("%s: no first sync in %d s: %s" % (self.name, timeout, self.errors[-1:]))
        return self

    def stop(self, remove_store=True):
        self.stopping = True
        if self.task is not None:
            try:
                self.task.result(max(10, self.sync_timeout_ms / 1000.0 + 10))
            except Exception:  # noqa: BLE001
                pass
        if self.client is not None:
            try:
                _run(self.client.close(), 10)
            except Exception:  # noqa: BLE001
                pass
        if remove_store:
            shutil.rmtree(self.store, ignore_errors=True)

    async def _login(self):
        cfg = AsyncClientConfig(store_sync_tokens=True, encryption_enabled=True)
        self.client = AsyncClient(self.url, self.user_id, device_id=self.device_id, store_path=self.store,
                                  config=cfg)
        r = await self.client.login(self.password, device_name="cardbot test %s" % self.name)
        if not isinstance(r, LoginResponse):
            raise RuntimeError("%s: login failed: %r" % (self.name, r))
        self.device_id = r.device_id
        self.access_token = r.access_token
        if self.client.should_upload_keys:
            up = await self.client.keys_upload()
            if type(up).__name__.endswith("Error"):
                raise RuntimeError("%s: key upload failed: %r" % (self.name, up))

    # ---- the sync loop ----
    async def _sync_loop(self):
        c = self.client
        first = True
        while not self.stopping:
            try:
                r = await c.sync(timeout=0 if first else self.sync_timeout_ms, sync_filter=SYNC_FILTER,
                                 full_state=True if first else None)
                if not isinstance(r, SyncResponse):
                    self.errors.append("sync: %r" % (r,))
                    await asyncio.sleep(0.5)
                    continue
                self._process(r)
                await c.send_to_device_messages()
                if c.should_upload_keys:
                    await c.keys_upload()
                if c.should_query_keys:
                    await c.keys_query()
                self._trust_all()
                if c.should_claim_keys:
                    await c.keys_claim(c.get_users_for_key_claiming())
                self._retry_pending()
                for rid, inviter, _ in list(self.invites):
                    if self._wants_join(rid, inviter) and rid not in self.joined:
                        jr = await c.join(rid)
                        if isinstance(jr, JoinResponse):
                            self.joined.add(rid)
                        else:
                            self.errors.append("join %s: %r" % (rid, jr))
                self.syncs += 1
                first = False
                self.first_sync.set()
                with self.cond:
                    self.cond.notify_all()
            except asyncio.CancelledError:
                raise
            except Exception:  # noqa: BLE001
                self.errors.append(traceback.format_exc())
                await asyncio.sleep(0.5)

    def _wants_join(self, rid, inviter):
        if callable(self.auto_join):
            return self.auto_join(rid, inviter)
        return bool(self.auto_join)

    def _trust_all(self):
        c = self.client
        for user in list(c.device_store.users):
            for dev in list(c.device_store.active_user_devices(user)):
                if dev.device_id == c.device_id and user == c.user_id:
                    continue
                if not dev.verified:
                    c.verify_device(dev)

    def record(self, rid, ev, encrypted, undecryptable=False):
        """Adds a record: room_id, event_id, sender, type (the decrypted type),
        content (decrypted), body, state_key (or None), encrypted (it came as
        m.room.encrypted), undecryptable (still encrypted), ts (server time,
        ms), t (when this player got it), pos (its index)."""
        src = ev.source if isinstance(getattr(ev, "source", None), dict) else {}
        content = src.get("content") if isinstance(src.get("content"), dict) else {}
        rec = {"room_id": rid, "event_id": getattr(ev, "event_id", None) or src.get("event_id"),
               "sender": getattr(ev, "sender", None) or src.get("sender"),
               "type": "m.room.encrypted" if undecryptable else src.get("type"),
               "content": content, "body": content.get("body") if isinstance(content.get("body"), str) else None,
               "state_key": src.get("state_key"), "encrypted": encrypted, "undecryptable": undecryptable,
               "ts": getattr(ev, "server_timestamp", None) or src.get("origin_server_ts", 0), "t": time.time()}
        with self.cond:
            old = self.by_id.get(rec["event_id"]) if rec["event_id"] else None
            if old is not None:
                if old["undecryptable"] and not undecryptable:
                    # decrypted late (its key came after it): the same record, now read
                    rec["pos"], rec["late"] = old["pos"], True
                    self.events[old["pos"]] = rec
                    self.by_id[rec["event_id"]] = rec
                return old
            rec["pos"] = len(self.events)
            self.events.append(rec)
            if rec["event_id"]:
                self.by_id[rec["event_id"]] = rec
            self.cond.notify_all()
        return rec

    def _process(self, r):
        for rid, info in r.rooms.invite.items():
            for ev in info.invite_state:
                if isinstance(ev, InviteMemberEvent) and ev.state_key == self.user_id and ev.membership == "invite":
                    direct = bool((ev.content or {}).get("is_direct"))
                    if not any(x[0] == rid for x in self.invites):
                        self.invites.append((rid, ev.sender, direct))
                        with self.cond:
                            rec = {"room_id": rid, "event_id": None, "sender": ev.sender, "type": "m.room.member",
                                   "content": dict(ev.content or {}), "body": None, "state_key": self.user_id,
                                   "encrypted": False, "undecryptable": False, "ts": 0, "t": time.time(),
                                   "pos": len(self.events)}
                            self.events.append(rec)
        for rid, info in r.rooms.join.items():
            self.joined.add(rid)
            for ev in info.timeline.events:
                if isinstance(ev, MegolmEvent):
                    self.pending[ev.event_id] = (rid, ev)
                    self.record(rid, ev, True, undecryptable=True)
                else:
                    self.record(rid, ev, bool(getattr(ev, "decrypted", False)))

    def _retry_pending(self):
        for eid, (rid, ev) in list(self.pending.items()):
            try:
                d = self.client.decrypt_event(ev)
            except Exception:  # noqa: BLE001  (no key yet)
                continue
            if d is not None and not isinstance(d, MegolmEvent) and getattr(d, "decrypted", False):
                del self.pending[eid]
                self.record(rid, d, True)

    # ---- what a test does ----
    def create_room(self, invite=(), encrypted=True, name=None, preset="public_chat", is_direct=False, alias=None,
                    timeout=30):
        """A new room (alias: the local part of its alias, "304" for #304:server); its id."""
        async def go():
            st = [{"type": "m.room.encryption", "state_key": "", "content": {"algorithm": MEGOLM}}] if encrypted else []
            r = await self.client.room_create(name=name, invite=list(invite), initial_state=st, is_direct=is_direct,
                                              alias=alias,
                                              preset=nio.RoomPreset(preset) if preset else None)
            if not isinstance(r, RoomCreateResponse):
                raise RuntimeError("%s: createRoom failed: %r" % (self.name, r))
            return r.room_id
        rid = _run(go(), timeout)
        self.joined.add(rid)
        # wait until our own sync knows the room (and that it is encrypted)
        self.wait_for(lambda: rid in self.client.rooms and (not encrypted or self.client.rooms[rid].encrypted),
                      timeout)
        return rid

    def join(self, rid, timeout=30):
        async def go():
            r = await self.client.join(rid)
            if not isinstance(r, JoinResponse):
                raise RuntimeError("%s: join %s failed: %r" % (self.name, rid, r))
            return r.room_id
        real = _run(go(), timeout)
        self.joined.add(real)
        self.wait_for(lambda: real in self.client.rooms, timeout)
        return real

    def say(self, rid, text, msgtype="m.text", timeout=60):
        """Sends a text (encrypted when the room is); the event id."""
        async def go():
            r = await self.client.room_send(rid, "m.room.message", {"msgtype": msgtype, "body": text},
                                            ignore_unverified_devices=True)
            if not isinstance(r, RoomSendResponse):
                raise RuntimeError("%s: send in %s failed: %r" % (self.name, rid, r))
            return r.event_id
        return _run(go(), timeout)

    def api(self, method, path, body=None, timeout=30):
        """(status, body) of a raw Client-Server request with this player's token."""
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(self.url + path, data=data, method=method)
        req.add_header("Content-Type", "application/json")
        req.add_header("Authorization", "Bearer " + self.access_token)
        try:
            with urllib.request.urlopen(req, timeout=timeout) as r:
                return r.status, json.loads(r.read() or b"{}")
        except urllib.error.HTTPError as e:
            try:
                return e.code, json.loads(e.read() or b"{}")
            except ValueError:
                return e.code, {}

    def send_raw(self, rid, etype, content):
        """Sends an event as given, never encrypted by nio (a bogus
        m.room.encrypted, say); the event id or None."""
        txn = "raw%d%s" % (int(time.time() * 1000), os.urandom(3).hex())
        st, out = self.api("PUT", "/_matrix/client/v3/rooms/%s/send/%s/%s" % (
            urllib.parse.quote(rid), urllib.parse.quote(etype), txn), content)
        return out.get("event_id") if st == 200 else None

    def devices_of(self, user):
        """The device ids of user this player knows (from its key queries)."""
        c = self.client
        if c is None or c.olm is None:
            return []
        return sorted(d.device_id for d in c.device_store.active_user_devices(user))

    def trusts(self, user, device_id=None):
        """Whether this player knows (and so trusts) a device of user (that one, if given)."""
        c = self.client
        devs = list(c.device_store.active_user_devices(user)) if c is not None and c.olm is not None else []
        return any(d.verified and (device_id is None or d.device_id == device_id) for d in devs)

    def encrypted_room(self, rid):
        r = self.client.rooms.get(rid) if self.client else None
        return bool(r and r.encrypted)

    def wait_for(self, pred, timeout=30):
        """pred() (called under no lock) until it is true or timeout seconds
        pass: its last value."""
        end = time.time() + timeout
        while True:
            v = pred()
            if v or time.time() >= end:
                return v
            with self.cond:
                self.cond.wait(min(0.25, max(0.01, end - time.time())))

    def find(self, room_id=None, sender=None, body=None, contains=None, encrypted=None, etype="m.room.message"):
        with self.cond:
            evs = list(self.events)
        return [e for e in evs if (etype is None or e["type"] == etype)
                and (room_id is None or e["room_id"] == room_id) and (sender is None or e["sender"] == sender)
                and (body is None or e["body"] == body) and (contains is None or contains in (e["body"] or ""))
                and (encrypted is None or e["encrypted"] == encrypted)]

    def undecrypted(self):
        with self.cond:
            return [e for e in self.events if e["undecryptable"]]
