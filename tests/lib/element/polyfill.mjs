// polyfill.mjs: what matrix-js-sdk 43 needs of Node 22 on Debian 12's Node 20, and a quiet stdout.
// Imported before the SDK (ES modules run in import order), so the SDK sees it.
if (!Promise.withResolvers) {
	Promise.withResolvers = function () {
		let resolve, reject;
		const promise = new this((res, rej) => { resolve = res; reject = rej; });
		return { promise, resolve, reject };
	};
}
// stdout carries the line protocol alone: every log line of the SDK and of
// its Rust crypto goes to stderr.
for (const k of ["log", "info", "debug", "trace", "warn"])
	console[k] = (...a) => process.stderr.write(a.map(String).join(" ") + "\n");
