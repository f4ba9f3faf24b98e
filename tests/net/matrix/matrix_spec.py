#!/usr/bin/env python3
"""matrix_spec.py: the test homeserver's spec data and checker, and the Matrix config keys.

  - tests/net/matrix/spec/spec.json is what tests/net/matrix/spec/spec_convert.py makes of the
    spec's YAML today (when /usr/bin/python3 has PyYAML and the spec is at
    ../shared/matrix-spec; otherwise that check is reported as skipped);
  - the checker in matrixlib.py catches what it must: an unknown endpoint, a
    wrong method, a missing required body field, a wrong type, a bad
    msgtype, a missing required query parameter, an unknown one, a bad
    response;
  - `cardbot check-config` accepts tests/cli/configs/good-matrix.cfg and says
    what is wrong in tests/cli/configs/bad-matrix.cfg (config_check.py checks the
    messages line by line).
Prints "matrix_spec: N passed, M failed".
"""
import json
import os
import subprocess
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
import matrixlib  # noqa: E402
from matrixlib import Homeserver, Results, Spec, validate  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
R = Results("matrix_spec")


def spec_in_sync():
    conv = os.path.join(HERE, "spec", "spec_convert.py")
    spec_dir = os.path.normpath(os.path.join(HERE, "..", "..", "..", "..", "shared", "matrix-spec"))
    py = "/usr/bin/python3"
    has_yaml = os.path.exists(py) and subprocess.run([py, "-c", "import yaml"], capture_output=True).returncode == 0
    if not has_yaml or not os.path.isdir(spec_dir):
        print("  skipped: spec.json sync check (needs /usr/bin/python3 with yaml and %s)" % spec_dir)
        return
    p = subprocess.run([py, conv, spec_dir], capture_output=True, timeout=120)
    R.check(p.returncode == 0, "spec_convert.py failed: %s" % p.stderr.decode()[-500:])
    with open(matrixlib.SPEC_JSON, "rb") as f:
        current = f.read()
    R.check(json.loads(p.stdout) == json.loads(current),
            "tests/net/matrix/spec/spec.json is out of date: regenerate it with "
            "/usr/bin/python3 tests/net/matrix/spec/spec_convert.py > tests/net/matrix/spec/spec.json")


def checker_catches():
    spec = Spec()
    ep, _ = spec.route("PUT", "/rooms/!a:b/send/m.room.message/t1")
    R.check(ep is not None, "the send endpoint is not found")
    ep, why = spec.route("GET", "/rooms/!a:b/send/m.room.message/t1")
    R.check(ep is None and "not allowed" in why, "a wrong method is not caught: %r" % why)
    ep, why = spec.route("POST", "/nonsense")
    R.check(ep is None, "an unknown endpoint is not caught")
    ep, _ = spec.route("POST", "/login")
    R.check(validate(ep["body"], {"type": "m.login.password", "password": "x",
                                  "identifier": {"type": "m.id.user", "user": "@a:b"}}) == [],
            "a good login body is refused: %s" % validate(ep["body"], {"type": "m.login.password"}))
    R.check(validate(ep["body"], {"password": "x"}) != [], "a login body without type is accepted")
    R.check(validate(ep["body"], {"type": 5}) != [], "a login type of the wrong type is accepted")
    ep, _ = spec.route("POST", "/createRoom")
    R.check(validate(ep["body"], {"preset": "nonsense"}) != [], "a bad createRoom preset is accepted")
    R.check(validate(ep["body"], {"preset": "trusted_private_chat", "is_direct": True, "invite": ["@a:b"]}) == [],
            "a direct-room createRoom body is refused")
    notice = spec.content_schema("m.room.message$m.notice")
    R.check(validate(notice, {"msgtype": "m.notice", "body": "x"}) == [], "a notice is refused")
    R.check(validate(notice, {"msgtype": "m.text", "body": "x"}) != [], "m.text passes as m.notice")
    R.check(validate(notice, {"msgtype": "m.notice"}) != [], "a notice without body is accepted")
    ep, _ = spec.route("POST", "/_matrix/media/v3/upload")
    R.check(ep is not None and ep.get("body_type") == "application/octet-stream",
            "the media upload endpoint is missing or not raw bytes")
    R.check(ep is not None and validate(ep["responses"]["200"], {"content_uri": "http://x/y"}) != [],
            "an upload answer without an mxc:// URI passes")
    ep2, _ = spec.route("POST", "/media/v3/upload")
    R.check(ep2 is None, "the upload is found under the client-server base")
    fil = spec.content_schema("m.room.message$m.file")
    R.check(validate(fil, {"msgtype": "m.file", "body": "a.json", "url": "mxc://s/x",
                           "info": {"mimetype": "application/json", "size": 3}}) == [], "an m.file is refused")
    R.check(validate(fil, {"msgtype": "m.file", "body": "a.json", "url": "https://s/x"}) != [],
            "an m.file with an http url is accepted")
    R.check(validate(fil, {"msgtype": "m.file", "body": "a", "info": {"size": "3"}}) != [],
            "an m.file with a string size is accepted")
    ep, _ = spec.route("GET", "/sync")
    R.check(validate(ep["responses"]["200"], {"next_batch": 5}) != [], "a sync answer with a number token passes")
    R.check(validate(ep["responses"]["200"], {"next_batch": "s1"}) == [], "a minimal sync answer is refused")
    # The server records violations of a live request: no auth header, bad query.
    hs = Homeserver().start()
    try:
        import urllib.request
        req = urllib.request.Request(hs.url + "/_matrix/client/v3/sync?timeout=soon&bogus=1")
        try:
            urllib.request.urlopen(req, timeout=5)
        except Exception:
            pass
        R.check(any("timeout" in v for v in hs.violations), "a non-integer timeout is not flagged: %s"
                % hs.violations)
        R.check(any("bogus" in v for v in hs.violations), "an unknown query parameter is not flagged")
        n = len(hs.violations)
        req = urllib.request.Request(hs.url + "/_matrix/client/v3/login", data=b'{"password": "x"}',
                                     method="POST", headers={"Content-Type": "application/json"})
        try:
            urllib.request.urlopen(req, timeout=5)
        except Exception:
            pass
        R.check(len(hs.violations) > n, "a login without type is not flagged")
    finally:
        hs.stop()


def config_keys():
    cb = matrixlib.CARDBOT
    if not os.path.exists(cb):
        R.check(False, "no cardbot binary at %s" % cb)
        return
    good = os.path.join(HERE, "..", "..", "cli", "configs", "good-matrix.cfg")
    p = subprocess.run([cb, "check-config", good], capture_output=True, timeout=20)
    R.check(p.returncode == 0, "good-matrix.cfg is refused: %s" % p.stderr.decode()[-400:])
    R.check(b"network mx (matrix): https://matrix.example.org as @cardbot:example.org, 2 rooms" in p.stdout,
            "the summary does not describe the Matrix network: %r" % p.stdout[-300:])
    R.check(b"end-to-end encryption on" in p.stdout, "the summary does not say encryption is on: %r" % p.stdout[-300:])
    bad = os.path.join(HERE, "..", "..", "cli", "configs", "bad-matrix.cfg")
    p = subprocess.run([cb, "check-config", bad], capture_output=True, timeout=20)
    R.check(p.returncode == 78, "bad-matrix.cfg: exit %d, not 78" % p.returncode)


def main():
    spec_in_sync()
    checker_catches()
    config_keys()
    return R.finish()


if __name__ == "__main__":
    sys.exit(main())
