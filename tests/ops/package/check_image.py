#!/usr/bin/env python3
"""check_image.py: builds deploy/Dockerfile for real and runs the bot inside
the image against ngircd (`make check-image`; root; about two minutes and
200 MB of downloads from Debian; not in `make test` nor CI's run).

No container registry is reachable from the project's machines, so the base
is made from Debian's own packages: mmdebstrap writes Debian 12 (minbase)
to a tarball, which buildah makes into the image the Dockerfile names
(debian:12-slim, tagged locally; --pull=never, so nothing is looked up).
Then `buildah bud` builds the Dockerfile as it is: the build stage installs
the compiler and libraries with apt and builds cardbot, the run stage takes
the result.

The image is run with buildah's chroot isolation, which runs the image's
entrypoint and command as its user in its working directory, in the
image's files, but without namespaces of its own: on these machines neither
podman nor buildah can start an OCI container (crun may not set the
resource limits it asks for, nor work with the hybrid cgroup layout), so
this checks the image's contents, not a container runtime's isolation.
Checked:
- the image's user is cardbot (uid 10304), not root; its working
  directory /var/lib/cardbot is that user's, mode 0700;
- its entrypoint and command, with a configuration mounted at
  /etc/cardbot/cardbot.cfg, join a channel on ngircd and open a table;
- the database is written in the working directory, as that user.
Environment: IMAGE_KEEP=1 keeps the images afterwards.
"""
import json
import os
import shutil
import signal
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
sys.path.insert(0, os.path.join(ROOT, "tests", "lib"))
import irclib  # noqa: E402
from irclib import Client, NgIRCd, strip_colours  # noqa: E402

BASE = "docker.io/library/debian:12-slim"
IMAGE = "localhost/cardbot:check-image"
MIRRORS = ["deb http://deb.debian.org/debian bookworm main",
           "deb http://deb.debian.org/debian bookworm-updates main",
           "deb http://deb.debian.org/debian-security bookworm-security main"]
passed = failed = 0


def check(ok, what, detail=None):
    global passed, failed
    if ok:
        passed += 1
        print("ok   " + what)
    else:
        failed += 1
        print("FAIL " + what + ("" if detail is None else ": %s" % (detail,)))
    return ok


def run(cmd, timeout=900, **kw):
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, **kw)
    return r.returncode, r.stdout, r.stderr


def timed(what, cmd, timeout=900):
    t = time.time()
    rc, out, err = run(cmd, timeout)
    ok = check(rc == 0, "%s (%.0f s)" % (what, time.time() - t), (out + err)[-2000:])
    return ok, out


def main():
    if os.geteuid() != 0:
        print("check_image: builds images as root: run it as root")
        print("check_image: 0 passed, 1 failed")
        return 1
    for tool in ("mmdebstrap", "buildah"):
        if not shutil.which(tool):
            print("check_image: %s is missing (`deploy/deps.sh image` installs it)" % tool)
            print("check_image: 0 passed, 1 failed")
            return 1
    t0 = time.time()
    tmp = irclib.tempdir()
    base_tar = os.path.join(tmp, "debian-12.tar")
    containers = []
    ircd = None
    try:
        ok, _ = timed("mmdebstrap writes Debian 12 (minbase) from Debian's packages",
                      ["mmdebstrap", "--quiet", "--variant=minbase", "bookworm", base_tar] + MIRRORS)
        if not ok:
            return 1
        ok, out = timed("buildah makes it an image", ["buildah", "from", "scratch"])
        if not ok:
            return 1
        c = out.strip()
        containers.append(c)
        ok = timed("  (the tarball unpacked into it)", ["buildah", "add", c, base_tar, "/"])[0] and \
            timed("  (committed as %s, local only)" % BASE, ["buildah", "commit", "--quiet", c, BASE])[0]
        if not ok:
            return 1
        ok, _ = timed("buildah bud builds deploy/Dockerfile on it, as it is",
                      ["buildah", "bud", "--quiet", "--isolation", "chroot", "--network", "host", "--pull=never",
                       "-f", "deploy/Dockerfile", "-t", IMAGE, "."], timeout=1800)
        if not ok:
            return 1
        rc, out, err = run(["buildah", "inspect", "--type", "image", IMAGE])
        cfg = json.loads(out)["OCIv1"]["config"] if rc == 0 else {}
        user = cfg.get("User", "")
        check(user.split(":")[0] not in ("", "0", "root"), "the image's user is not root", user)
        entry = (cfg.get("Entrypoint") or []) + (cfg.get("Cmd") or [])
        check(entry == ["/usr/local/bin/cardbot", "run", "-c", "/etc/cardbot/cardbot.cfg"],
              "its entrypoint and command run the bot on /etc/cardbot/cardbot.cfg", entry)
        rc, out, err = run(["buildah", "from", "--pull=never", IMAGE])
        if not check(rc == 0, "a working container from the image", err):
            return 1
        c = out.strip()
        containers.append(c)
        brun = ["buildah", "run", "--isolation", "chroot", "--network", "host"]
        rc, out, err = run(brun + [c, "sh", "-c", "id -u; pwd; stat -c '%U %a' ."])
        check(rc == 0 and out.split() == ["10304", "/var/lib/cardbot", "cardbot", "700"],
              "in it: uid 10304, in /var/lib/cardbot, its own with mode 0700", out + err)

        ircd = NgIRCd(tmp)
        ircd.start()
        conf = os.path.join(tmp, "cardbot.cfg")
        with open(conf, "w") as f:
            f.write(f"""bot = {{ prefix = "!"; data_dir = "./data"; commands_burst = 100; }};
networks = ( {{ name = "test"; type = "irc"; server = "127.0.0.1"; port = {ircd.port}; tls = false;
  nick = "cardbot"; channels = ( "#304" ); pace_burst = 100; pace_per_second = 50; }} );
""")
        os.chmod(conf, 0o644)
        os.chmod(tmp, 0o755)
        log = open(os.path.join(tmp, "bot.log"), "wb")
        p = subprocess.Popen(brun + ["-v", conf + ":/etc/cardbot/cardbot.cfg:ro", c] + entry,
                             stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, start_new_session=True)
        w = Client(ircd.port, "watcher").connect()
        w.join("#304")
        joined = w.wait(lambda: any(m.cmd == "JOIN" and m.src.lower() == "cardbot" for m in list(w.lines)), 30)
        check(joined, "the image's entrypoint joins the channel of the mounted configuration")
        time.sleep(0.3)
        w.privmsg("#304", "!304")
        check(w.wait(lambda: any(m.src.lower() == "cardbot" and "seat 1" in strip_colours(m.text)
                                 for m in list(w.lines)), 15), "it answers !304 with a table")
        w.close()
        # The whole session: buildah and the bot under it.
        os.killpg(p.pid, signal.SIGTERM)
        try:
            p.wait(20)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            p.wait(10)
        rc, out, err = run(brun + [c, "stat", "-c", "%U %a", "data/cardbot.db"])
        check(rc == 0 and out.split() == ["cardbot", "600"],
              "its database is in the working directory, the image user's, mode 0600", out + err)
        if failed:
            print(open(os.path.join(tmp, "bot.log"), encoding="utf-8", errors="replace").read()[-2000:])
    finally:
        if ircd:
            ircd.stop()
        for c in containers:
            run(["buildah", "rm", c])
        if os.environ.get("IMAGE_KEEP") != "1":
            run(["buildah", "rmi", IMAGE])
            run(["buildah", "rmi", BASE])
        irclib.rmtree(tmp)
        print("check_image: %.0f s" % (time.time() - t0))
        print("check_image: %d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
