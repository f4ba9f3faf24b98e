#!/usr/bin/python3
"""spec_convert.py: extracts what the Matrix test homeserver checks from the spec.

Reads the OpenAPI YAML of the Client-Server endpoints cardbot uses and the
event schemas of what it sends, resolves every $ref, drops prose (descriptions,
examples) and writes tests/net/matrix/spec/spec.json, which tests/lib/matrixlib.py validates
requests and responses against. The YAML needs PyYAML, so run it with the
system Python (Debian's python3-yaml, which deploy/deps.sh installs):

    /usr/bin/python3 tests/net/matrix/spec/spec_convert.py [SPEC_DIR] > tests/net/matrix/spec/spec.json

SPEC_DIR defaults to ../shared/matrix-spec next to the repository (the
matrix-org/matrix-spec tree). tests/net/matrix/matrix_spec.py regenerates it and fails
when the checked-in file is out of date.
"""
import json
import os
import sys

import yaml

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_SPEC = os.path.normpath(os.path.join(HERE, "..", "..", "..", "..", "..", "shared", "matrix-spec"))

# The endpoint files, and the operations in them the bot (or the test players) use.
API_FILES = [
    "login.yaml", "whoami.yaml", "filter.yaml", "account-data.yaml", "sync.yaml", "joining.yaml",
    "leaving.yaml", "room_send.yaml", "create_room.yaml", "kicking.yaml", "inviting.yaml",
    # Only the upload from the content repository (send_file: `!record` as a file).
    ("content-repo.yaml", {("/media/v3/upload", "post")}),
    # End-to-end encryption (issue 18): publishing and fetching device keys,
    # claiming one-time keys, and to-device messages (room keys).
    ("keys.yaml", {("/keys/upload", "post"), ("/keys/query", "post"), ("/keys/claim", "post")}),
    "to_device.yaml",
    # The bot's cross-signing keys and its device's signature (issue 28).
    "cross_signing.yaml",
    # What the encrypting test players (nio) ask before their first message in an encrypted room.
    ("rooms.yaml", {("/rooms/{roomId}/joined_members", "get")}),
]
EVENTS = [
    "m.room.message$m.text", "m.room.message$m.notice", "m.room.message$m.file", "m.direct", "m.room.member",
    "m.room.encrypted", "m.room_key", "m.room.encryption",
]
DROP = {"description", "example", "examples", "summary", "x-addedInMatrixVersion", "x-changedInMatrixVersion",
        "x-example", "externalDocs", "title", "x-weight", "x-alias", "x-ignore-definitions"}


def load(path, cache):
    path = os.path.normpath(path)
    if path not in cache:
        with open(path) as f:
            cache[path] = yaml.safe_load(f)
    return cache[path]


def pointer(doc, frag):
    for part in [p for p in frag.split("/") if p]:
        part = part.replace("~1", "/").replace("~0", "~")
        doc = doc[int(part)] if isinstance(doc, list) else doc[part]
    return doc


def resolve(node, base, cache, depth=0):
    if depth > 60:
        raise RuntimeError("$ref nesting too deep near %s" % base)
    if isinstance(node, dict):
        if "$ref" in node:
            ref = node["$ref"]
            file, _, frag = ref.partition("#")
            target = os.path.join(os.path.dirname(base), file) if file else base
            doc = pointer(load(target, cache), frag)
            merged = resolve(doc, target, cache, depth + 1)
            extra = {k: v for k, v in node.items() if k != "$ref" and k not in DROP}
            if extra and isinstance(merged, dict):
                merged = dict(merged, **resolve(extra, base, cache, depth + 1))
            return merged
        return {k: resolve(v, base, cache, depth + 1) for k, v in node.items() if k not in DROP}
    if isinstance(node, list):
        return [resolve(v, base, cache, depth + 1) for v in node]
    return node


def main():
    spec = sys.argv[1] if len(sys.argv) > 1 else DEFAULT_SPEC
    api = os.path.join(spec, "data", "api", "client-server")
    cache = {}
    endpoints = []
    for entry in API_FILES:
        name, only = entry if isinstance(entry, tuple) else (entry, None)
        path = os.path.join(api, name)
        doc = load(path, cache)
        # Where the paths of this file live: "/_matrix/client/v3", "/_matrix" (media)...
        base = doc.get("servers", [{}])[0].get("variables", {}).get("basePath", {}).get("default",
                                                                                        "/_matrix/client/v3")
        for p, ops in sorted(doc.get("paths", {}).items()):
            for method, op in sorted(ops.items()):
                if method not in ("get", "put", "post", "delete"):
                    continue
                if only is not None and (p, method) not in only:
                    continue
                op = resolve(op, path, cache)
                body = None
                body_required = False
                body_type = None
                rb = op.get("requestBody")
                if rb:
                    body_required = bool(rb.get("required"))
                    body = rb.get("content", {}).get("application/json", {}).get("schema")
                    body_type = sorted(rb.get("content", {}))[0] if rb.get("content") else None
                params = [{"in": x["in"], "name": x["name"], "required": bool(x.get("required")),
                           "schema": x.get("schema", {})} for x in op.get("parameters", [])]
                responses = {}
                for code, r in op.get("responses", {}).items():
                    sch = r.get("content", {}).get("application/json", {}).get("schema")
                    if sch is not None:
                        responses[str(code)] = sch
                ep = {"file": name, "method": method.upper(), "path": p, "parameters": params,
                                  "body": body, "body_required": body_required, "responses": responses,
                                  "auth": bool(op.get("security")) and any("accessTokenBearer" in s
                                                                             for s in op["security"])}
                if base != "/_matrix/client/v3":
                    ep["base"] = base
                if body_type not in (None, "application/json"):
                    ep["body_type"] = body_type
                endpoints.append(ep)
    events = {}
    for ev in EVENTS:
        path = os.path.join(spec, "data", "event-schemas", "schema", ev + ".yaml")
        events[ev] = resolve(load(path, cache), path, cache)
    out = {"generated_by": "tests/net/matrix/spec/spec_convert.py", "endpoints": endpoints, "events": events}
    json.dump(out, sys.stdout, indent=1, sort_keys=True)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
