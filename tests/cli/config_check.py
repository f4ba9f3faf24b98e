#!/usr/bin/env python3
"""config_check.py: drives `cardbot check-config` with good and bad configurations.

Good files (tests/cli/configs/good-*.cfg, config/cardbot.cfg, the built-in
default) must exit 0 with a summary and no errors. Each bad file
(tests/cli/configs/bad-*.cfg) carries its expectations as comments on the line
the message must name:

    port = 70000;   # expect: networks.[0].port: 70000 is not a port (1-65535)
    tls_verify = false;   # warn: networks.[0].tls_verify: the server's certificate is not checked

A "$" at the end of an expectation asks for the whole message, not its start.

Every expectation must appear on standard error as "FILE:LINE: TEXT..." (a
warning as "FILE:LINE: warning: TEXT..."), with no error beyond those
expected, and the exit status must be 78. "@DIR@" in an expectation stands
for the file's directory. Cases that need a file made on the spot (too many
channels, file permissions) are built in a temporary directory.

The binary is $CARDBOT (default bin/cardbot). The last line is
"config_check: N passed, M failed", and the exit status is 1 if any failed.
"""
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

CARDBOT = os.environ.get("CARDBOT", "bin/cardbot")
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BIN = os.path.join(ROOT, CARDBOT)  # an absolute CARDBOT stays as it is
CONFIGS = os.path.join("tests", "cli", "configs")
EX_USAGE, EX_NOINPUT, EX_CONFIG = 64, 66, 78
MARK = re.compile(r"#\s*(expect|warn):\s*(.*?)\s*(?=#\s*(?:expect|warn):|$)")

passed = 0
failed = 0


def check(cond, name, detail=""):
    global passed, failed
    if cond:
        passed += 1
    else:
        failed += 1
        print("FAIL %s%s" % (name, (": " + detail) if detail else ""))


def run(args, env_extra=None, env_drop=(), cwd=ROOT):
    env = dict(os.environ)
    for k in env_drop:
        env.pop(k, None)
    env.update(env_extra or {})
    p = subprocess.run([BIN, "check-config"] + args, capture_output=True, timeout=60, env=env, cwd=cwd)
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")


def expectations(path):
    """(line, kind, text) for every marker in the file."""
    out = []
    with open(os.path.join(ROOT, path), encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            for kind, text in MARK.findall(line):
                text = text.replace("@DIR@", os.path.dirname(path))
                out.append((n, kind, text))
    return out


def message_lines(stderr, path):
    """The FILE:LINE: lines of stderr about path, as (line, is_warning, text)."""
    out = []
    prefix = re.compile(r"^%s:(\d+): (warning: )?(.*)$" % re.escape(path))
    for line in stderr.splitlines():
        m = prefix.match(line)
        if m:
            out.append((int(m.group(1)), bool(m.group(2)), m.group(3)))
    return out


def check_bad(path, env_extra=None, env_drop=()):
    name = os.path.basename(path)
    rc, out, err = run([path], env_extra, env_drop)
    check(rc == EX_CONFIG, name + " exits 78", "got %d; stderr:\n%s" % (rc, err))
    check(out == "", name + " prints nothing on stdout", out)
    got = message_lines(err, path)
    exp = expectations(path)
    check(exp, name + " has expectations")
    for line, kind, text in exp:
        want_warning = kind == "warn"
        if text.endswith("$"):  # the whole message, not only its start
            hit = [g for g in got if g[0] == line and g[1] == want_warning and g[2] == text[:-1]]
        else:
            hit = [g for g in got if g[0] == line and g[1] == want_warning and g[2].startswith(text)]
        check(hit, "%s:%d %s %r" % (name, line, kind, text), "stderr:\n" + err)
    errors = [g for g in got if not g[1]]
    n_expected = sum(1 for e in exp if e[1] == "expect")
    check(len(errors) == n_expected, name + " reports exactly the expected errors",
          "%d expected, %d reported:\n%s" % (n_expected, len(errors), err))
    summary = "%s: %d error" % (path, n_expected)
    check(summary in err, name + " closes with the count", err)


def check_good(path, env_extra=None, want=()):
    name = os.path.basename(path)
    rc, out, err = run([path], env_extra)
    check(rc == 0, name + " is valid", "got %d; stderr:\n%s" % (rc, err))
    check(out.startswith(path + ": valid: "), name + " summary first line", out)
    check(not [l for l in err.splitlines() if ": warning: " not in l], name + " has no errors", err)
    for w in want:
        check(w in out, "%s summary says %r" % (name, w), out)
    return out, err


def test_good():
    check_good(os.path.join(CONFIGS, "good-minimal.cfg"),
               want=["1 network, 1 channel, 0 operators", "network min (irc): irc.example.net:6667, nick cardbot"])
    check_good(os.path.join(CONFIGS, "good-console.cfg"),
               want=["2 networks, 1 channel", "network term (console): JSON lines on standard input and output"])
    out, err = check_good(os.path.join(CONFIGS, "good-secrets.cfg"), {"CARDBOT_TEST_NICKSERV": "s3cret"},
                          want=["2 networks, 3 channels, 3 operators",
                                "irc.example.net:6697 TLS",
                                "  #304: 304, live; bidding pagat, fives on, scoring bank, caps strict, "
                                "external_caps on",
                                "  #slow: 304, correspondence; bidding pagat, fives on, scoring bank, caps off, "
                                "external_caps on",
                                "operator: account:ann"])
    check("hunter2" not in out + err and "s3cret" not in out + err, "secrets never printed")
    # The secret file is found from another working directory too.
    rc, out, err = run([os.path.join(ROOT, CONFIGS, "good-secrets.cfg")], {"CARDBOT_TEST_NICKSERV": "x"}, cwd="/")
    check(rc == 0, "relative secret file found from another directory", "%d %s" % (rc, err))


def test_bad_files():
    for path in sorted(glob.glob(os.path.join(ROOT, CONFIGS, "bad-*.cfg"))):
        rel = os.path.relpath(path, ROOT)
        check_bad(rel, env_extra={"HOME": os.environ.get("HOME", "/root")}, env_drop=("CARDBOT_TEST_UNSET",))


def network(extra="", channels='"#304"'):
    return ('networks = (\n  { name = "n"; type = "irc"; server = "127.0.0.1"; nick = "cb";\n'
            '    channels = ( %s );\n%s  }\n);\n' % (channels, extra))


def test_generated(tmp):
    # Too many channels: 65 on one network.
    path = os.path.join(tmp, "channels.cfg")
    with open(path, "w") as f:
        f.write(network(channels=", ".join('"#c%d"' % i for i in range(65))))
    rc, out, err = run([path])
    check(rc == EX_CONFIG, "65 channels exit 78", "%d %s" % (rc, err))
    check("%s:3: networks.[0].channels: 65 channels; at most 64 on one network" % path in err,
          "65 channels: the limit is named", err)
    # Too many networks: 17.
    path = os.path.join(tmp, "networks.cfg")
    with open(path, "w") as f:
        f.write("networks = (\n%s\n);\n" % ",\n".join(
            '{ name = "n%d"; type = "irc"; server = "127.0.0.1"; nick = "cb"; channels = ( "#304" ); }' % i
            for i in range(17)))
    rc, out, err = run([path])
    check(rc == EX_CONFIG and "%s:1: networks: 17 networks; at most 16" % path in err, "17 networks refused",
          "%d %s" % (rc, err))
    path = os.path.join(tmp, "channels64.cfg")
    with open(path, "w") as f:
        f.write(network(channels=", ".join('"#c%d"' % i for i in range(64))))
    rc, out, err = run([path])
    check(rc == 0 and "64 channels" in out, "64 channels are fine", "%d %s %s" % (rc, out, err))

    # Operator masks whose host part names somebody draw no warning (issue 29.5:
    # only a host matching nearly everyone makes a mask nick-only).
    path = os.path.join(tmp, "masks.cfg")
    with open(path, "w") as f:
        f.write('bot = { operators = [ "boss!*@*.example.com", "boss!~b@user/boss", "boss!*@192.0.2.*", '
                '"*!*@2001:db8::*", "boss!*@host.example.net" ]; };\n' + network())
    rc, out, err = run([path])
    check(rc == 0 and "warning" not in err, "operator masks naming a host: no warning", "%d %s" % (rc, err))

    # An inline secret in a file others may read draws a warning, not an error.
    path = os.path.join(tmp, "inline.cfg")
    with open(path, "w") as f:
        f.write(network(extra='    sasl_user = "cb";\n    sasl_password = "hunter2";\n'))
    os.chmod(path, 0o644)
    rc, out, err = run([path])
    check(rc == 0, "inline secret at 644 is valid", "%d %s" % (rc, err))
    want = ("%s:5: warning: networks.[0].sasl_password: secret written in %s, which group or others may "
            "read (mode 0644): chmod 600 %s, or move the secret to sasl_password_file" % (path, path, path))
    check(want in err, "inline secret at 644 warns", err)
    check("hunter2" not in out + err, "the inline secret is not printed")
    os.chmod(path, 0o600)
    rc, out, err = run([path])
    check(rc == 0 and "warning" not in err, "inline secret at 600: no warning", "%d %s" % (rc, err))
    os.chmod(path, 0o640)
    rc, out, err = run([path])
    check(rc == 0 and "mode 0640" in err, "inline secret at 640 warns", "%d %s" % (rc, err))

    # A secret file's first line is the secret; an empty one is an error.
    sec = os.path.join(tmp, "empty-secret")
    open(sec, "w").close()
    path = os.path.join(tmp, "empty.cfg")
    with open(path, "w") as f:
        f.write(network(extra='    nickserv_password_file = "empty-secret";\n'))
    rc, out, err = run([path])
    check(rc == EX_CONFIG and 'the first line of "%s" is empty' % sec in err, "empty secret file", err)

    # An empty environment variable is an error too.
    path = os.path.join(tmp, "envempty.cfg")
    with open(path, "w") as f:
        f.write(network(extra='    server_password_env = "CARDBOT_TEST_EMPTY";\n'))
    rc, out, err = run([path], {"CARDBOT_TEST_EMPTY": ""})
    check(rc == EX_CONFIG and "environment variable CARDBOT_TEST_EMPTY is empty" in err, "empty env secret", err)
    rc, out, err = run([path], {"CARDBOT_TEST_EMPTY": "pw"})
    check(rc == 0, "set env secret is fine", err)

    # A NUL byte and a huge file are refused, not half-read.
    path = os.path.join(tmp, "nul.cfg")
    with open(path, "wb") as f:
        f.write(network().encode() + b"\0")
    rc, out, err = run([path])
    check(rc == EX_CONFIG and "NUL byte" in err, "NUL byte refused", err)


def test_files_and_usage(tmp):
    missing = os.path.join(tmp, "missing.cfg")
    rc, out, err = run([missing])
    check(rc == EX_NOINPUT, "missing file exits 66", str(rc))
    check("%s: cannot read: No such file or directory" % missing in err, "missing file says why", err)
    rc, out, err = run([tmp])
    check(rc == EX_NOINPUT and "Is a directory" in err, "directory exits 66", "%d %s" % (rc, err))
    for args in ([], ["a.cfg", "b.cfg"], ["--frobnicate"]):
        rc, out, err = run(args)
        check(rc == EX_USAGE and "usage: cardbot check-config" in err, "usage %r exits 64" % args, "%d %s" % (rc, err))
    rc, out, err = run(["--help"])
    check(rc == 0 and "usage: cardbot check-config" in out and "Exit status" in out, "--help", err)
    p = subprocess.run([BIN, "help", "check-config"], capture_output=True, cwd=ROOT, timeout=60)
    check(p.returncode == 0 and b"--default" in p.stdout, "cardbot help check-config")


def test_shipped(tmp):
    out, err = check_good(os.path.join("config", "cardbot.cfg"),
                          want=["network example (irc): irc.example.org:6697 TLS",
                                "  #304-club: 304, live; bidding single"])
    check(err == "", "example config: no warnings", err)
    rc, out, err = run(["--default"])
    check(rc == 0, "--default is valid", "%d %s" % (rc, err))
    check('name = "local"' in out and "127.0.0.1" in out and '"#304"' in out, "--default prints the text", out)
    check("(default): valid: 1 network, 1 channel, 0 operators" in err, "--default summary on stderr", err)
    check("network local (irc): 127.0.0.1:6667, nick cardbot" in err and "  #304: 304, casual;" in err,
          "--default is the local network, #304, casual", err)
    # What --default prints is itself a valid file.
    path = os.path.join(tmp, "default.cfg")
    with open(path, "w") as f:
        f.write(out)
    rc, out2, err2 = run([path])
    check(rc == 0, "--default output checks as a file", err2)


def main():
    if not os.path.exists(BIN):
        print("config_check: %s not found (run make)" % CARDBOT)
        print("config_check: 0 passed, 1 failed")
        return 1
    tmp = tempfile.mkdtemp(prefix="cardbot-config-")
    try:
        test_good()
        test_bad_files()
        test_generated(tmp)
        test_files_and_usage(tmp)
        test_shipped(tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print("config_check: %d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
