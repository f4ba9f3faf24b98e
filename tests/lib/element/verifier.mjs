// verifier.mjs: an Element-stack player (matrix-js-sdk 43, Rust crypto) that looks at the bot's shields and verifies the bot.
//
// Line protocol, one JSON object a line: requests on stdin, replies
// ({"re": tag, "ok": true, ...} or {"re", "ok": false, "error"}) and events
// on stdout; the SDK's logging goes to stderr (polyfill.mjs).
//   {"op": "login", "tag", "base", "user", "password", "cross_signing": bool}
//        -> {"user_id", "device_id"}; with cross_signing, the player's own
//           identity is made (bootstrapCrossSigning, password auth), as
//           Element does at its first login
//   {"op": "room", "tag", "invite": [user]}      -> {"room_id"} (encrypted, the invitee joined)
//   {"op": "say", "tag", "room", "body"}         -> {"event_id"}
//   {"op": "shield", "tag", "sender", "after"}   -> {"shield": colour, "reason": code, "body"} of the
//        newest decrypted message of sender in any room, sent after "after" (ms; waits for one)
//   {"op": "events", "tag", "sender"}            -> {"events": [...]} every message of sender, decrypted or not
//   {"op": "status", "tag", "user", "device", "wait_verified"} -> what the crypto says of that user and
//        device (with wait_verified, once it counts the user's identity as verified, or after a minute)
//   {"op": "verify", "tag", "user", "device", "room"} -> {"emoji", "decimals", "txn"} once the SAS is
//        shown (by to-device with the device; with room, in that room, as Element's "Verify" on a user);
//        then {"op": "confirm", "tag"} -> {"ok"} once both sides are done, or
//        {"op": "ended", "tag"} -> {"phase", "code"} once the other side ended it
//   {"op": "quit"}
// The SDK is loaded from ELEMENT_MODULES (build/element/node_modules).
import "./polyfill.mjs";
import { createInterface } from "node:readline";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const MODULES = process.env.ELEMENT_MODULES;
const lib = (p) => import(pathToFileURL(join(MODULES, "matrix-js-sdk/lib", p)).href);
const sdk = await lib("index.js");
const cryptoApi = await lib("crypto-api/index.js");
(await lib("logger.js")).logger.setLevel("warn");

let client = null, password = null, verifier = null, done = null, request = null;

const out = (o) => process.stdout.write(JSON.stringify(o) + "\n");
const wait = (ms) => new Promise((r) => setTimeout(r, ms));

// Polls cond (an async predicate) until it holds: a test event, not a timing.
async function until(what, cond, tries = 1200, soft = false) {
	for (let i = 0; i < tries; i++) {
		const v = await cond();
		if (v)
			return v;
		await wait(100);
	}
	if (soft)
		return null;
	throw new Error(`never: ${what}`);
}

const ops = {
	async login(m) {
		password = m.password;
		const base = sdk.createClient({ baseUrl: m.base });
		const res = await base.loginRequest({ type: "m.login.password",
			identifier: { type: "m.id.user", user: m.user }, password: m.password });
		client = sdk.createClient({ baseUrl: m.base, userId: res.user_id, accessToken: res.access_token,
			deviceId: res.device_id });
		await client.initRustCrypto({ useIndexedDB: false });
		const synced = new Promise((ok) => client.on(sdk.ClientEvent.Sync, (s) => {
			if (s === "PREPARED" || s === "SYNCING")
				ok();
		}));
		await client.startClient({ initialSyncLimit: 20 });
		await synced;
		if (m.cross_signing)
			await client.getCrypto().bootstrapCrossSigning({
				authUploadDeviceSigningKeys: async (makeRequest) => {
					await makeRequest({ type: "m.login.password",
						identifier: { type: "m.id.user", user: res.user_id }, password });
				},
			});
		client.on(sdk.RoomMemberEvent.Membership, (ev, member) => {
			if (member.userId === client.getUserId() && member.membership === "invite")
				client.joinRoom(member.roomId).catch(() => {});
		});
		return { user_id: res.user_id, device_id: res.device_id };
	},
	async room(m) {
		const { room_id } = await client.createRoom({ preset: "private_chat", invite: m.invite,
			initial_state: [{ type: "m.room.encryption", state_key: "",
				content: { algorithm: "m.megolm.v1.aes-sha2" } }] });
		await until("the invitee joined", () => {
			const r = client.getRoom(room_id);
			return r && m.invite.every((u) => r.getMember(u)?.membership === "join");
		});
		return { room_id };
	},
	async say(m) {
		const r = await client.sendMessage(m.room, { msgtype: "m.text", body: m.body });
		return { event_id: r.event_id };
	},
	async shield(m) {
		const ev = await until(`a decrypted message of ${m.sender}`, () => {
			const evs = client.getRooms().flatMap((r) => r.getLiveTimeline().getEvents());
			for (let i = evs.length - 1; i >= 0; i--) {
				const e = evs[i];
				if (e.getSender() === m.sender && e.isEncrypted() && e.getType() === "m.room.message"
				    && !e.isDecryptionFailure() && (!m.after || e.getTs() > m.after))
					return e;
			}
			return null;
		});
		const info = await client.getCrypto().getEncryptionInfoForEvent(ev);
		return { shield: cryptoApi.EventShieldColour[info.shieldColour],
			reason: info.shieldReason === null ? null : cryptoApi.EventShieldReason[info.shieldReason],
			body: ev.getContent().body, ts: ev.getTs() };
	},
	async events(m) {
		const list = [];
		for (const r of client.getRooms())
			for (const e of r.getLiveTimeline().getEvents())
				if (e.getSender() === m.sender && !e.isState())
					list.push({ room: r.roomId, type: e.getType(), utd: e.isDecryptionFailure(),
						reason: e.decryptionFailureReason ?? null, body: e.getContent().body ?? null });
		return { events: list };
	},
	async status(m) {
		const c = client.getCrypto();
		await c.getUserDeviceInfo([m.user], true);
		if (m.wait_verified) // the player's user-signing key signs the master key after the SAS ends
			await until("the user's identity verified",
				async () => (await c.getUserVerificationStatus(m.user)).isCrossSigningVerified(), 600, true);
		const u = await c.getUserVerificationStatus(m.user);
		const d = await c.getDeviceVerificationStatus(m.user, m.device);
		return { user_verified: u.isVerified(), user_cross_signing_verified: u.isCrossSigningVerified(),
			device_signed_by_owner: d ? d.signedByOwner : null,
			device_cross_signing_verified: d ? d.crossSigningVerified : null,
			device_verified: d ? d.isVerified() : null };
	},
	async verify(m) {
		const c = client.getCrypto();
		await c.getUserDeviceInfo([m.user], true);
		const req = m.room ? await c.requestVerificationDM(m.user, m.room)
			: await c.requestDeviceVerification(m.user, m.device);
		request = req;
		await until("the bot is ready", () => req.phase === cryptoApi.VerificationPhase.Ready
			|| req.phase === cryptoApi.VerificationPhase.Cancelled);
		if (req.phase !== cryptoApi.VerificationPhase.Ready)
			throw new Error(`cancelled: ${req.cancellationCode}`);
		verifier = await req.startVerification("m.sas.v1");
		const shown = new Promise((ok) => verifier.on(cryptoApi.VerifierEvent.ShowSas, ok));
		done = verifier.verify();
		done.catch(() => {});
		const sas = await shown;
		verifier.sas = sas;
		return { emoji: (sas.sas.emoji || []).map((e) => `${e[0]} ${e[1]}`).join(", "),
			decimals: (sas.sas.decimal || []).join(" "), txn: req.transactionId };
	},
	async ended() {
		const P = cryptoApi.VerificationPhase;
		await until("the verification ended", () => request.phase === P.Cancelled || request.phase === P.Done);
		return { phase: P[request.phase], code: request.cancellationCode ?? null };
	},
	async confirm() {
		await verifier.sas.confirm();
		await done;
		return {};
	},
};

const rl = createInterface({ input: process.stdin });
rl.on("line", async (line) => {
	const m = JSON.parse(line);
	if (m.op === "quit") {
		client?.stopClient();
		process.exit(0);
	}
	try {
		out({ re: m.tag, ok: true, ...(await ops[m.op](m)) });
	} catch (e) {
		out({ re: m.tag, ok: false, error: String((e && e.stack) || e) });
	}
});
rl.on("close", () => process.exit(0));
