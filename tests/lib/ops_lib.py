"""ops_lib.py: shared helpers for the ops_*.py tests (install, deploy, docs, security).

Python 3 standard library only. CARDBOT names the binary under test
(default bin/cardbot), BUILD its build directory (default build/rel).
"""
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CARDBOT = os.environ.get("CARDBOT", os.path.join(ROOT, "bin", "cardbot"))
if not os.path.isabs(CARDBOT):
    CARDBOT = os.path.join(ROOT, CARDBOT)
BUILD = os.environ.get("BUILD", "build/rel")


class Checker:
    def __init__(self, name):
        self.name = name
        self.passed = 0
        self.failed = 0

    def check(self, cond, what, detail=""):
        if cond:
            self.passed += 1
        else:
            self.failed += 1
            print("FAIL %s: %s" % (self.name, what))
            if detail:
                print("    " + str(detail).replace("\n", "\n    "))
        return cond

    def note(self, text):
        print("%s: %s" % (self.name, text))

    def finish(self):
        print("%s: %d passed, %d failed" % (self.name, self.passed, self.failed))
        sys.exit(1 if self.failed else 0)


def run(argv, env_extra=None, cwd=None, timeout=120, stdin=None):
    env = dict(os.environ)
    if env_extra:
        env.update(env_extra)
    p = subprocess.run(argv, cwd=cwd or ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       timeout=timeout, stdin=subprocess.DEVNULL if stdin is None else stdin)
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")


def have(tool):
    for d in os.environ.get("PATH", "").split(os.pathsep):
        if os.access(os.path.join(d, tool), os.X_OK):
            return True
    return False


def config_keys(path=os.path.join(ROOT, "bot", "config", "config.c")):
    """Every key of config.c's field tables, and which of them are secrets
    (a secret KEY is also accepted as KEY_file and KEY_env). Keys come from
    `.key = "name"` entries and from macros that build them with `#k`."""
    src = open(path, encoding="utf-8").read()
    keys = set(re.findall(r'\.key\s*=\s*"([A-Za-z0-9_]+)"', src))
    for m in re.finditer(r'#define\s+([A-Z_0-9]+)\(\s*([a-z_]+)[^)]*\)((?:[^\n]*\\\n)*[^\n]*)', src):
        name, arg, body = m.group(1), m.group(2), m.group(3)
        if re.search(r'\.key\s*=\s*#' + arg + r'\b', body):
            for inv in re.finditer(r'\b' + name + r'\(\s*([A-Za-z_0-9]+)', src):
                if inv.group(1) != arg:
                    keys.add(inv.group(1))
    secrets = set(re.findall(r'\.key\s*=\s*"([A-Za-z0-9_]+)"\s*,\s*\.kind\s*=\s*SCHEMA_SECRET', src))
    return keys, secrets
