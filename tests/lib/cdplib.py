"""cdplib.py: a headless Debian chromium driven over the DevTools protocol, with a
minimal WebSocket client of its own (python3 has no websocket module), for the
browser tests (tests/cli/page_browser.py).

    with Browser() as b:
        page = b.new_page()
        page.navigate("file:///tmp/x.html")
        page.key("ArrowRight")
        page.eval("document.title")
        page.errors          # console errors and uncaught exceptions seen
"""
import base64
import json
import os
import re
import shutil
import socket
import struct
import subprocess
import tempfile
import time

CHROMIUM_NAMES = ("chromium", "chromium-browser", "google-chrome")
START_TIMEOUT = 30
CALL_TIMEOUT = 30


def find_chromium():
    for name in CHROMIUM_NAMES:
        path = shutil.which(name)
        if path:
            return path
    return None


class WebSocket:
    """Just enough of RFC 6455 for a client on 127.0.0.1: text frames, masked
    sends, fragmented and long receives, pings answered."""

    def __init__(self, url):
        m = re.match(r"ws://([^:/]+):(\d+)(/.*)", url)
        if not m:
            raise ValueError("not a ws:// address: " + url)
        host, port, path = m.group(1), int(m.group(2)), m.group(3)
        self.sock = socket.create_connection((host, port), timeout=CALL_TIMEOUT)
        key = base64.b64encode(os.urandom(16)).decode()
        req = ("GET %s HTTP/1.1\r\nHost: %s:%d\r\nUpgrade: websocket\r\n"
               "Connection: Upgrade\r\nSec-WebSocket-Key: %s\r\n"
               "Sec-WebSocket-Version: 13\r\n\r\n" % (path, host, port, key))
        self.sock.sendall(req.encode())
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = self.sock.recv(4096)
            if not chunk:
                raise ConnectionError("websocket handshake: connection closed")
            head += chunk
        head, self.buf = head.split(b"\r\n\r\n", 1)
        if b" 101 " not in head.split(b"\r\n", 1)[0]:
            raise ConnectionError("websocket handshake refused: %r" % head[:200])

    def _read(self, n):
        while len(self.buf) < n:
            chunk = self.sock.recv(1 << 16)
            if not chunk:
                raise ConnectionError("websocket closed")
            self.buf += chunk
        out, self.buf = self.buf[:n], self.buf[n:]
        return out

    def _send_frame(self, opcode, data):
        head = bytes([0x80 | opcode])
        n = len(data)
        if n < 126:
            head += bytes([0x80 | n])
        elif n < 1 << 16:
            head += bytes([0x80 | 126]) + struct.pack(">H", n)
        else:
            head += bytes([0x80 | 127]) + struct.pack(">Q", n)
        mask = os.urandom(4)
        body = bytes(b ^ mask[i % 4] for i, b in enumerate(data))
        self.sock.sendall(head + mask + body)

    def send(self, text):
        self._send_frame(0x1, text.encode())

    def recv(self):
        message = b""
        while True:
            b0, b1 = self._read(2)
            opcode, n = b0 & 0x0F, b1 & 0x7F
            if n == 126:
                n = struct.unpack(">H", self._read(2))[0]
            elif n == 127:
                n = struct.unpack(">Q", self._read(8))[0]
            mask = self._read(4) if b1 & 0x80 else None
            data = self._read(n)
            if mask:
                data = bytes(b ^ mask[i % 4] for i, b in enumerate(data))
            if opcode == 0x9:      # ping
                self._send_frame(0xA, data)
                continue
            if opcode == 0x8:
                raise ConnectionError("websocket closed by the browser")
            if opcode in (0x0, 0x1, 0x2):
                message += data
                if b0 & 0x80:
                    return message.decode()

    def close(self):
        try:
            self._send_frame(0x8, b"")
        except OSError:
            pass
        self.sock.close()


class Page:
    """One tab, attached through the browser's connection (flat sessions)."""

    def __init__(self, browser, session):
        self.browser, self.session = browser, session
        self.errors = []
        self.loaded = False

    def call(self, method, **params):
        return self.browser.call(method, params, self.session)

    def on_event(self, msg):
        method, p = msg.get("method"), msg.get("params", {})
        if method == "Runtime.exceptionThrown":
            d = p.get("exceptionDetails", {})
            self.errors.append("exception: %s" % (d.get("exception", {}).get("description") or d.get("text")))
        elif method == "Runtime.consoleAPICalled" and p.get("type") in ("error", "assert"):
            self.errors.append("console.%s: %s" % (p["type"], " ".join(
                str(a.get("value", a.get("description", ""))) for a in p.get("args", []))))
        elif method == "Log.entryAdded" and p.get("entry", {}).get("level") == "error":
            self.errors.append("log: %s" % p["entry"].get("text"))
        elif method == "Page.loadEventFired":
            self.loaded = True

    def navigate(self, url):
        self.loaded = False
        self.call("Page.navigate", url=url)
        deadline = time.time() + CALL_TIMEOUT
        while not self.loaded:
            if time.time() > deadline:
                raise TimeoutError("page did not load: " + url)
            self.browser.pump(0.2)

    def eval(self, expr):
        r = self.call("Runtime.evaluate", expression=expr, returnByValue=True, awaitPromise=True)
        if "exceptionDetails" in r:
            raise RuntimeError("evaluate %r: %s" % (expr[:80], r["exceptionDetails"]))
        return r.get("result", {}).get("value")

    KEYS = {
        "ArrowRight": ("ArrowRight", 39), "ArrowLeft": ("ArrowLeft", 37),
        "ArrowUp": ("ArrowUp", 38), "ArrowDown": ("ArrowDown", 40),
        "PageUp": ("PageUp", 33), "PageDown": ("PageDown", 34),
        "Home": ("Home", 36), "End": ("End", 35), "Tab": ("Tab", 9),
        "Enter": ("Enter", 13), " ": ("Space", 32), "?": ("Slash", 191),
    }

    def key(self, key, shift=False):
        code, vk = self.KEYS[key]
        mods = 8 if shift or key == "?" else 0
        text = {"Enter": "\r", " ": " ", "?": "?"}.get(key)
        down = dict(type="keyDown" if text else "rawKeyDown", key=key, code=code,
                    windowsVirtualKeyCode=vk, nativeVirtualKeyCode=vk, modifiers=mods)
        if text:
            down["text"] = text
        self.call("Input.dispatchKeyEvent", **down)
        self.call("Input.dispatchKeyEvent", type="keyUp", key=key, code=code,
                  windowsVirtualKeyCode=vk, nativeVirtualKeyCode=vk, modifiers=mods)


class Browser:
    def __init__(self):
        self.path = find_chromium()
        if not self.path:
            raise FileNotFoundError("chromium is not installed (deploy/deps.sh installs it)")
        self.dir = tempfile.mkdtemp(prefix="cardbot-chromium-")
        args = [self.path, "--headless=new", "--no-sandbox", "--disable-gpu",
                "--no-first-run", "--no-default-browser-check", "--disable-extensions",
                "--remote-debugging-port=0", "--user-data-dir=" + self.dir, "about:blank"]
        self.proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        url = None
        deadline = time.time() + START_TIMEOUT
        err = b""
        while time.time() < deadline:
            line = self.proc.stderr.readline()
            if not line:
                break
            err += line
            m = re.search(rb"DevTools listening on (ws://\S+)", line)
            if m:
                url = m.group(1).decode()
                break
        if not url:
            self.close()
            raise RuntimeError("chromium did not start: %s" % err.decode(errors="replace")[-500:])
        # Keep reading its stderr so it never blocks on a full pipe.
        import threading
        threading.Thread(target=self._drain, daemon=True).start()
        self.ws = WebSocket(url)
        self.next_id = 0
        self.pages = {}
        self.pending = {}

    def _drain(self):
        try:
            for _ in self.proc.stderr:
                pass
        except (OSError, ValueError):
            pass

    def _dispatch(self, msg):
        if "id" in msg:
            self.pending[msg["id"]] = msg
        elif msg.get("sessionId") in self.pages:
            self.pages[msg["sessionId"]].on_event(msg)

    def pump(self, seconds):
        self.ws.sock.settimeout(seconds)
        try:
            self._dispatch(json.loads(self.ws.recv()))
        except socket.timeout:
            pass
        finally:
            self.ws.sock.settimeout(CALL_TIMEOUT)

    def call(self, method, params=None, session=None):
        self.next_id += 1
        mid = self.next_id
        msg = {"id": mid, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        self.ws.send(json.dumps(msg))
        while mid not in self.pending:
            self._dispatch(json.loads(self.ws.recv()))
        r = self.pending.pop(mid)
        if "error" in r:
            raise RuntimeError("%s: %s" % (method, r["error"]))
        return r.get("result", {})

    def new_page(self, width=1200, height=900, mobile=False):
        target = self.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = self.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        page = Page(self, session)
        self.pages[session] = page
        for domain in ("Page", "Runtime", "Log"):
            page.call(domain + ".enable")
        page.call("Emulation.setDeviceMetricsOverride", width=width, height=height,
                  deviceScaleFactor=1, mobile=mobile)
        return page

    def close(self):
        try:
            if getattr(self, "ws", None):
                self.ws.close()
        except OSError:
            pass
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        shutil.rmtree(self.dir, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
