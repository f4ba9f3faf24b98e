"""ops_deploy.py: install and deployment files.

- `make install PREFIX=... DESTDIR=...` puts the binary, the example
  configuration and both man pages where they belong, with sane modes, and
  the installed binary runs;
- deploy/cardbot.service passes `systemd-analyze verify` (ExecStart pointed
  at the binary under test, man pages found in the install), is hardened
  (the directives SECURITY.md promises), and `systemd-analyze security`
  rates it at most MAX_EXPOSURE; the score is printed;
- deploy/Dockerfile is multi-stage on debian:12-slim and runs as a user
  other than root; deploy/compose.yaml runs it read-only, as that user,
  without capabilities. `docker build` runs only where a Docker daemon is
  reachable (OPS_DOCKER=1 to insist); otherwise it is reported as skipped;
- deploy/deps.sh has its lists in one script: `run` (what `make run`
  installs) holds the build libraries the Dockerfile's build stage needs and
  ngircd, and none of the test tools (a browser, clang, inspircd, atheme,
  Synapse's Python packages); `test` (what `make test`, `make deps` and CI
  install) is the run list and the tools; `deb` (`make deb`) is the build
  libraries and debhelper's tools, `image` (`make check-image`) mmdebstrap
  and buildah.
"""
import os
import re
import shutil
import stat
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from ops_lib import BUILD, CARDBOT, ROOT, Checker, have, run  # noqa: E402

T = Checker("ops_deploy")
MAX_EXPOSURE = float(os.environ.get("OPS_MAX_EXPOSURE", "2.0"))
UNIT = os.path.join(ROOT, "deploy", "cardbot.service")
tmp = tempfile.mkdtemp(prefix="cardbot-ops-")


def install():
    dest = os.path.join(tmp, "dest")
    prefix = "/opt/cardbot"
    bindir = os.path.relpath(os.path.dirname(CARDBOT), ROOT)
    # -o: the binary under test is installed as it is, never rebuilt here.
    rc, out, err = run(["make", "--no-print-directory", "-s", "-o", os.path.join(bindir, "cardbot"), "install",
                        "PREFIX=" + prefix, "DESTDIR=" + dest, "BUILD=" + BUILD, "BINDIR=" + bindir], timeout=600)
    if not T.check(rc == 0, "make install with PREFIX and DESTDIR", out + err):
        return None
    root = dest + prefix
    want = {
        "bin/cardbot": 0o755,
        "share/man/man1/cardbot.1": 0o644,
        "share/man/man5/cardbot.cfg.5": 0o644,
        "share/doc/cardbot/cardbot.cfg.example": 0o644,
    }
    for rel, mode in want.items():
        p = os.path.join(root, rel)
        ok = os.path.isfile(p)
        T.check(ok, "installed " + rel)
        if ok:
            T.check(stat.S_IMODE(os.stat(p).st_mode) == mode, "%s has mode %o" % (rel, mode),
                    oct(stat.S_IMODE(os.stat(p).st_mode)))
    # Nothing outside DESTDIR/PREFIX.
    stray = [os.path.join(d, f) for d, _, fs in os.walk(dest) for f in fs if not os.path.join(d, f).startswith(root)]
    T.check(not stray, "nothing installed outside PREFIX", stray)
    rc, out, err = run([os.path.join(root, "bin", "cardbot"), "version"])
    T.check(rc == 0 and out.startswith("cardbot "), "the installed binary runs", out + err)
    rc, out, err = run([os.path.join(root, "bin", "cardbot"), "check-config",
                        os.path.join(root, "share/doc/cardbot/cardbot.cfg.example")])
    T.check(rc == 0, "the installed example configuration is valid", out + err)
    return root


def unit_text():
    return open(UNIT, encoding="utf-8").read()


def directives(text):
    d = {}
    for line in text.splitlines():
        line = line.strip()
        if not line or line[0] in "#;[":
            continue
        k, _, v = line.partition("=")
        d.setdefault(k.strip(), []).append(v.strip())
    return d


def unit_static():
    d = directives(unit_text())
    want = {
        "DynamicUser": "yes", "NoNewPrivileges": "yes", "ProtectSystem": "strict", "ProtectHome": "yes",
        "PrivateTmp": "yes", "PrivateDevices": "yes", "Restart": "on-failure", "StateDirectory": "cardbot",
        "CapabilityBoundingSet": "", "AmbientCapabilities": "", "SystemCallArchitectures": "native",
        "MemoryDenyWriteExecute": "yes", "RestrictSUIDSGID": "yes", "UMask": "0077",
    }
    for k, v in want.items():
        T.check(d.get(k, [None])[-1] == v, "unit sets %s=%s" % (k, v), d.get(k))
    filters = d.get("SystemCallFilter", [])
    T.check("@system-service" in filters, "unit allows only @system-service system calls", filters)
    T.check(any(f.startswith("~") and "@privileged" in f for f in filters),
            "unit denies @privileged system calls", filters)
    T.check(any("cardbot run -c" in v for v in d.get("ExecStart", [])), "unit runs `cardbot run -c FILE`")
    T.check("User" not in d, "no fixed User= (DynamicUser makes one)")
    # Match pages: the private state directory cannot be served, so the unit
    # lets the bot write the public folder the docs name (issue 29.5).
    rw = [p.lstrip("-") for v in d.get("ReadWritePaths", []) for p in v.split()]
    T.check(rw == ["/srv/cardbot/public"], "unit lets the bot write /srv/cardbot/public only", rw)
    for doc in ("README.md", "docs/cardbot.cfg.5", "config/cardbot.cfg"):
        text = open(os.path.join(ROOT, doc), encoding="utf-8").read()
        T.check("/srv/cardbot/public" in text and "0644" in text,
                "%s names the unit's public folder and the pages' mode" % doc)


def unit_systemd(root):
    if root is None:
        return
    if not T.check(have("systemd-analyze"), "systemd-analyze is installed (make deps installs systemd)"):
        return
    unit_dir = os.path.join(tmp, "units")
    os.makedirs(unit_dir)
    path = os.path.join(unit_dir, "cardbot.service")
    with open(path, "w") as f:
        f.write(unit_text().replace("/usr/local/bin/cardbot", CARDBOT))
    env = {"MANPATH": os.path.join(root, "share", "man") + ":", "SYSTEMD_LOG_COLOR": "0", "SYSTEMD_PAGER": ""}
    rc, out, err = run(["systemd-analyze", "verify", path], env_extra=env)
    T.check(rc == 0 and err.strip() == "", "systemd-analyze verify: no complaint", out + err)
    rc, out, err = run(["systemd-analyze", "security", "--offline=true", "--no-pager", path], env_extra=env)
    m = re.search(r"Overall exposure level for \S+: ([0-9.]+) (\w+)", out + err)
    if T.check(m is not None, "systemd-analyze security gives a score", out[-500:] + err):
        score = float(m.group(1))
        T.note("systemd-analyze security: exposure %.1f %s" % (score, m.group(2)))
        T.check(score <= MAX_EXPOSURE, "exposure %.1f is at most %.1f" % (score, MAX_EXPOSURE))
    # The checker can fail: a unit without the hardening scores worse.
    bare = os.path.join(unit_dir, "bare.service")
    with open(bare, "w") as f:
        f.write("[Service]\nExecStart=%s run -c /etc/cardbot/cardbot.cfg\n" % CARDBOT)
    rc, out, err = run(["systemd-analyze", "security", "--offline=true", "--no-pager", bare], env_extra=env)
    mb = re.search(r"Overall exposure level for \S+: ([0-9.]+)", out + err)
    T.check(mb is not None and float(mb.group(1)) > MAX_EXPOSURE, "an unhardened unit scores above the limit",
            mb.group(1) if mb else out + err)


def docker_files():
    text = open(os.path.join(ROOT, "deploy", "Dockerfile"), encoding="utf-8").read()
    froms = re.findall(r"^FROM\s+(\S+)", text, re.M)
    T.check(len(froms) >= 2, "Dockerfile is multi-stage", froms)
    T.check(all(f == "debian:12-slim" for f in froms), "every stage is debian:12-slim", froms)
    users = re.findall(r"^USER\s+(\S+)", text, re.M)
    T.check(users and users[-1].split(":")[0] not in ("root", "0"), "the image runs as a user, not root", users)
    T.check("COPY --from=build" in text, "the run stage takes only the build's output")
    T.check(not re.search(r"(?i)password|token", re.sub(r"#.*", "", text)), "no secret in the Dockerfile")
    compose = os.path.join(ROOT, "deploy", "compose.yaml")
    try:
        import yaml
    except ImportError:
        T.note("skipped: compose.yaml checks need python3-yaml")
        yaml = None
    if yaml:
        doc = yaml.safe_load(open(compose, encoding="utf-8"))
        svc = doc.get("services", {}).get("cardbot", {})
        T.check(svc.get("read_only") is True, "compose: read-only root file system")
        T.check(str(svc.get("user", "")).split(":")[0] not in ("", "0", "root"), "compose: not root",
                svc.get("user"))
        T.check(svc.get("cap_drop") == ["ALL"], "compose: every capability dropped", svc.get("cap_drop"))
        T.check("no-new-privileges:true" in svc.get("security_opt", []), "compose: no new privileges")
        T.check(svc.get("restart") in ("on-failure", "unless-stopped", "always"), "compose: restarts")
        T.check(any("/etc/cardbot/cardbot.cfg:ro" in v for v in svc.get("volumes", [])),
                "compose: the configuration is mounted read-only")
    rc = 1
    if have("docker"):
        rc, _, _ = run(["docker", "info"], timeout=30)
    if rc != 0 and os.environ.get("OPS_DOCKER") != "1":
        T.note("skipped: docker build (no Docker daemon reachable here)")
        return
    rc, out, err = run(["docker", "build", "-q", "-f", "deploy/Dockerfile", "-t", "cardbot:ops-test", "."],
                       timeout=1800)
    if T.check(rc == 0, "docker build", (out + err)[-2000:]):
        rc, out, err = run(["docker", "run", "--rm", "cardbot:ops-test", "version"], timeout=120)
        T.check(rc == 0 and out.startswith("cardbot "), "the image runs cardbot", out + err)
        rc, out, err = run(["docker", "run", "--rm", "--entrypoint", "id", "cardbot:ops-test", "-u"], timeout=120)
        T.check(rc == 0 and out.strip() not in ("", "0"), "the image's user is not root", out + err)


def deps_lists():
    script = os.path.join(ROOT, "deploy", "deps.sh")
    lists = {}
    for which in ("run", "test", "deb", "image"):
        rc, out, err = run(["sh", script, "--list", which])
        T.check(rc == 0 and out.split(), "deps.sh --list %s prints its packages" % which, out + err)
        lists[which] = set(out.split())
    rc, out, err = run(["sh", script, "--list", "everything"])
    T.check(rc != 0 and "usage" in err, "deps.sh names its lists when given another word", (rc, out, err))
    docker = open(os.path.join(ROOT, "deploy", "Dockerfile"), encoding="utf-8").read()
    build = re.search(r"install -y -qq --no-install-recommends\s*\\?\n(.*?)&&", docker, re.S)
    build = set(build.group(1).replace("\\", " ").split()) if build else set()
    T.check(build and build <= lists["run"], "the run list has what the Dockerfile's build stage installs",
            sorted(build - lists["run"]))
    T.check("ngircd" in lists["run"], "the run list has ngircd (make run's local server)")
    heavy = {"chromium", "clang", "inspircd", "atheme-services", "python3-twisted", "python3-matrix-nio", "strace"}
    T.check(not (heavy & lists["run"]), "the run list has no test tool", sorted(heavy & lists["run"]))
    T.check(lists["run"] < lists["test"] and heavy <= lists["test"], "the test list is the run list and the tools",
            sorted(lists["run"] - lists["test"]))
    T.check(lists["run"] - {"ngircd"} < lists["deb"] and {"debhelper", "lintian"} <= lists["deb"],
            "the deb list is the build libraries and debhelper's tools", sorted(lists["deb"]))
    T.check({"mmdebstrap", "buildah"} <= lists["image"], "the image list has mmdebstrap and buildah")
    makefile = open(os.path.join(ROOT, "Makefile"), encoding="utf-8").read()
    T.check("sh deploy/deps.sh deb" in makefile and "sh deploy/deps.sh image" in makefile,
            "make deb and make check-image install through deps.sh")
    calls = {
        "deploy/run-local.sh": "sh deploy/deps.sh run",
        "Makefile": "sh deploy/deps.sh test",
        ".ci/run": "sh deploy/deps.sh test",
    }
    for path, call in calls.items():
        text = open(os.path.join(ROOT, path), encoding="utf-8").read()
        T.check(call in text and not re.search(r"deps\.sh\s*($|\|)", text, re.M), "%s runs %s" % (path, call))


try:
    deps_lists()
    root = install()
    unit_static()
    unit_systemd(root)
    docker_files()
finally:
    shutil.rmtree(tmp, ignore_errors=True)
T.finish()
