// player.mjs: Matrix test players on Element's client stack (matrix-js-sdk 43
// with its Rust crypto, vodozemac), driven over a line protocol.
//
// One process hosts any number of clients, each named by the test ("ann",
// "ann2", ...). Requests come one JSON object a line on stdin, replies and
// events go one JSON object a line on stdout (everything the SDK logs goes
// to stderr):
//
//   {"op": "login", "tag": T, "id": "ann", "base": URL, "user": "@ann:hs", "password": "pw",
//    "device": optional device id, "autojoin": [inviters whose invitations are accepted] or true}
//      -> {"re": T, "ok": true, "user_id", "device_id"} once its crypto is up, its
//         keys are on the server and its first sync is done
//   {"op": "create_room", "tag", "id", "invite": [...], "encrypted": true, "alias": "304", "name": "..."}
//      -> {"re", "ok", "room_id"}
//   {"op": "join", "tag", "id", "room"}                          -> {"re", "ok"}
//   {"op": "send", "tag", "id", "room", "body", "msgtype"}       -> {"re", "ok", "event_id"}
//      (encrypted when the room is, as Element sends it)
//   {"op": "devices", "tag", "id", "user"}                       -> {"re", "ok", "devices": [ids]}
//      (the devices of user as this client's crypto knows them, asked from the server if not known)
//   {"op": "events", "tag", "id"}                                -> {"re", "ok", "events": [record, ...]}
//   {"op": "stop", "tag", "id"}                                  -> {"re", "ok"}  (logs out unless "keep")
//   {"op": "quit"}                                               (every client stops; the process exits)
// A request that fails answers {"re", "ok": false, "error": text}.
//
// Events, as they happen:
//   {"ev": "message", "id", "room", "event_id", "sender", "type", "msgtype", "body",
//    "encrypted", "utd", "reason", "ts", "late"}
//      a room message this client received, and again each time its state
//      changes (decrypted later; "utd": it could not be decrypted, with the
//      SDK's decryptionFailureReason; "late": decrypted after a failure)
//   {"ev": "invite", "id", "room", "inviter", "joined"}
//
// A record of "events" is the newest "message" event of each event id.
// tests/lib/elementlib.py drives it from Python. The SDK and its crypto are
// installed by `make element-deps` into build/element/node_modules
// (ELEMENT_MODULES overrides).
import "./polyfill.mjs";
import { createInterface } from "node:readline";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const MODULES = process.env.ELEMENT_MODULES || resolve(here, "../../../build/element/node_modules");
const sdk = await import(pathToFileURL(join(MODULES, "matrix-js-sdk/lib/index.js")).href);
const { logger } = await import(pathToFileURL(join(MODULES, "matrix-js-sdk/lib/logger.js")).href);
logger.setLevel(process.env.ELEMENT_VERBOSE === "1" ? "debug" : "warn");

const clients = new Map();       // id -> {client, records: Map(event_id -> record), autojoin}

function out(o) {
	process.stdout.write(JSON.stringify(o) + "\n");
}

function wait(ms) {
	return new Promise((r) => setTimeout(r, ms));
}

// The state of a room message as this client has it now.
function recordOf(id, ev) {
	const c = ev.getContent() || {};
	return {
		ev: "message", id, room: ev.getRoomId(), event_id: ev.getId(), sender: ev.getSender(),
		type: ev.getType(), msgtype: c.msgtype || null, body: typeof c.body === "string" ? c.body : null,
		encrypted: ev.isEncrypted(), utd: ev.isDecryptionFailure(),
		reason: ev.isDecryptionFailure() ? String(ev.decryptionFailureReason) : null,
		ts: ev.getTs(),
	};
}

function note(p, id, ev) {
	if (!ev.getId() || ev.getId().startsWith("~") || ev.isState())
		return;
	if (ev.isBeingDecrypted() || (ev.isEncrypted() && ev.getType() === "m.room.encrypted" && !ev.isDecryptionFailure()))
		return; // the Decrypted event tells
	if (ev.getType() !== "m.room.message")
		return;
	const r = recordOf(id, ev);
	const old = p.records.get(r.event_id);
	if (old && old.utd === r.utd && old.body === r.body)
		return;
	r.late = !!(old && old.utd && !r.utd);
	p.records.set(r.event_id, r);
	out(r);
}

async function ownKeysUp(client) {
	// The device's keys are on the server when a query of our own user lists them.
	for (let i = 0; i < 600; i++) {
		const res = await client.http.authedRequest("POST", "/keys/query",
			undefined, { device_keys: { [client.getUserId()]: [client.getDeviceId()] } });
		const d = ((res.device_keys || {})[client.getUserId()] || {})[client.getDeviceId()];
		if (d && d.keys)
			return;
		await wait(100);
	}
	throw new Error("the device's keys never reached the server");
}

async function login(m) {
	const base = sdk.createClient({ baseUrl: m.base });
	const res = await base.loginRequest({
		type: "m.login.password", identifier: { type: "m.id.user", user: m.user },
		password: m.password, ...(m.device ? { device_id: m.device } : {}),
	});
	const client = sdk.createClient({
		baseUrl: m.base, userId: res.user_id, accessToken: res.access_token, deviceId: res.device_id,
	});
	await client.initRustCrypto({ useIndexedDB: false });
	const p = { client, records: new Map(), autojoin: m.autojoin || [] };
	clients.set(m.id, p);
	client.on(sdk.RoomEvent.Timeline, (ev) => {
		note(p, m.id, ev);
		if (ev.isEncrypted())
			ev.on(sdk.MatrixEventEvent.Decrypted, () => note(p, m.id, ev));
	});
	client.on(sdk.RoomMemberEvent.Membership, (ev, member) => {
		if (member.userId !== client.getUserId() || member.membership !== "invite")
			return;
		const inviter = ev.getSender();
		const join = p.autojoin === true || (Array.isArray(p.autojoin) && p.autojoin.includes(inviter));
		out({ ev: "invite", id: m.id, room: member.roomId, inviter, joined: join });
		if (join)
			client.joinRoom(member.roomId).catch((e) => process.stderr.write(`join ${member.roomId}: ${e}\n`));
	});
	const ready = new Promise((res) => {
		const onSync = (state) => {
			if (state === "PREPARED" || state === "SYNCING") {
				client.off(sdk.ClientEvent.Sync, onSync);
				res();
			}
		};
		client.on(sdk.ClientEvent.Sync, onSync);
	});
	await client.startClient({ initialSyncLimit: 50, lazyLoadMembers: false });
	await ready;
	await ownKeysUp(client);
	return { user_id: res.user_id, device_id: res.device_id };
}

function the(m) {
	const p = clients.get(m.id);
	if (!p)
		throw new Error(`no client ${m.id}`);
	return p;
}

async function joined(client, room) {
	for (let i = 0; i < 600; i++) {
		const r = client.getRoom(room);
		if (r && r.getMyMembership() === "join")
			return;
		await wait(50);
	}
	throw new Error(`${room} never showed as joined`);
}

const ops = {
	login,
	async create_room(m) {
		const { client } = the(m);
		const body = { preset: "public_chat", invite: m.invite || [] };
		if (m.alias)
			body.room_alias_name = m.alias;
		if (m.name)
			body.name = m.name;
		if (m.encrypted)
			body.initial_state = [{ type: "m.room.encryption", state_key: "",
				content: { algorithm: "m.megolm.v1.aes-sha2" } }];
		const { room_id } = await client.createRoom(body);
		await joined(client, room_id);
		return { room_id };
	},
	async join(m) {
		const { client } = the(m);
		await client.joinRoom(m.room);
		await joined(client, m.room);
		return {};
	},
	async send(m) {
		const { client } = the(m);
		await joined(client, m.room);
		const r = await client.sendMessage(m.room, { msgtype: m.msgtype || "m.text", body: m.body });
		return { event_id: r.event_id };
	},
	async devices(m) {
		const { client } = the(m);
		const map = await client.getCrypto().getUserDeviceInfo([m.user], true);
		return { devices: [...(map.get(m.user) || new Map()).keys()] };
	},
	async events(m) {
		return { events: [...the(m).records.values()] };
	},
	async stop(m) {
		const { client } = the(m);
		client.stopClient();
		if (!m.keep)
			await client.logout(true).catch(() => {});
		clients.delete(m.id);
		return {};
	},
};

const rl = createInterface({ input: process.stdin });
rl.on("line", async (line) => {
	let m;
	try {
		m = JSON.parse(line);
	} catch {
		out({ ev: "error", error: `not JSON: ${line.slice(0, 80)}` });
		return;
	}
	if (m.op === "quit") {
		for (const { client } of clients.values())
			client.stopClient();
		process.exit(0);
	}
	const fn = ops[m.op];
	try {
		if (!fn)
			throw new Error(`no such op ${m.op}`);
		out({ re: m.tag, ok: true, ...(await fn(m)) });
	} catch (e) {
		out({ re: m.tag, ok: false, error: String((e && e.stack) || e) });
	}
});
rl.on("close", () => process.exit(0));
