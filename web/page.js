/* page.js: steps through the story the bot embedded (a JSON list of steps, each with the
 * whole state after it). It knows no rules: every hand, trick and score comes from the story. */
"use strict";
(function () {
	var story = JSON.parse(document.getElementById("story").textContent);
	var steps = story.steps, players = story.players, nseats = players.length;
	/* A step without "bids" has the step before's (the bot leaves out a list that did not change). */
	steps.forEach(function (s, i) { if (!("bids" in s)) s.bids = i ? steps[i - 1].bids : []; });
	/* What the game shows, from its presentation in the bot: each card's
	 * [face, words read aloud, class], the trumps' words, the bid's player. */
	var FACES = story.faces || {}, TRUMPS = story.trumps || {}, TRUMPER = story.trumper || "trumper";
	var MAX_SEATS = 8;  /* the page's seat sections: 304 for eight and 904 have the most */
	var at = 0;

	function $(id) { return document.getElementById(id); }
	function el(tag, cls, text) {
		var e = document.createElement(tag);
		if (cls) e.className = cls;
		if (text !== undefined) e.textContent = text;
		return e;
	}

	/* How a card code looks and is read aloud: [shown text, spoken words, classes]. */
	function face(code) {
		return FACES[code] || [code, code, "black"];
	}

	/* One card: face down (still hidden at this step) or face up. who: a seat to name under it. */
	function card(code, down, who, extra) {
		var li = el("li", "card");
		li.setAttribute("role", "img");
		if (code) li.dataset.card = code;
		var label;
		if (down) {
			li.classList.add("down");
			li.dataset.down = "1";
			li.appendChild(el("span", "face", "\u00a0"));
			label = "face-down card";
		} else {
			var f = code ? face(code) : ["?", "unknown card", ""];
			li.classList.add(f[2]);
			li.appendChild(el("span", "face", f[0]));
			label = f[1];
		}
		if (extra) label += ", " + extra;
		if (who !== undefined && who !== null) {
			li.dataset.seat = String(who);
			li.appendChild(el("span", "who", players[who]));
			label = players[who] + ": " + label;
		}
		li.setAttribute("aria-label", label);
		return li;
	}

	function sideName(i) {
		return story.match.sides[i].map(function (s) { return players[s]; }).join(" & ");
	}

	function bidText(b) {
		var v = b.value;
		// An answer to a partner's ask says who asked (the ask is a turn too).
		var asked = b.asked_by !== undefined && b.asked_by !== null ? players[b.asked_by] + " asks partner, " : "";
		return asked + players[b.seat] + " " + (v === "pass" ? "pass" : v === "pcc" ? "partner close caps" : v);
	}

	function render() {
		var s = steps[at], end = s.kind === "end";
		var w = $("where");
		w.dataset.step = String(at);
		w.dataset.deal = String(s.deal);
		w.dataset.action = String(s.action);
		w.dataset.kind = s.kind;
		w.textContent = "Deal " + (s.deal + 1) + " \u00b7 step " + (at + 1) + " of " + steps.length +
			(s.kind === "action" ? " \u00b7 tricks taken: " + s.ntricks : "");
		$("text").textContent = s.text;
		var notes = $("notes");
		notes.textContent = "";
		(s.notes || []).forEach(function (n) {
			var li = el("li", /looks at the face-down/.test(n) ? "inspect" : "", n);
			notes.appendChild(li);
		});
		var dealStep = steps[firstOfDeal(at)];
		for (var seat = 0; seat < MAX_SEATS; seat++) {
			var sec = document.querySelector('.seat[data-seat="' + seat + '"]');
			sec.textContent = "";
			sec.hidden = seat >= nseats;
			if (seat >= nseats) continue;
			sec.classList.toggle("turn", s.turn === seat && !end);
			sec.setAttribute("aria-label", players[seat] + "'s hand");
			var h = el("h3", null, players[seat]);
			if (dealStep.dealer === seat) h.appendChild(el("span", "badge", "dealer"));
			if (s.trumper === seat) h.appendChild(el("span", "badge", TRUMPER));
			else if (s.trumper === null && s.bidder === seat) h.appendChild(el("span", "badge", "highest bid"));
			if (s.turn === seat && !end) h.appendChild(el("span", "badge", "their turn"));
			sec.appendChild(h);
			var ul = el("ul", "cards hand");
			(s.hands[seat] || []).forEach(function (c) { ul.appendChild(card(c, false)); });
			if (!(s.hands[seat] || []).length) ul.appendChild(el("li", "empty", "no cards"));
			sec.appendChild(ul);
		}
		var contract = [];
		var by = s.trumper !== null && s.trumper !== undefined ? s.trumper : s.bidder;
		if (s.bid !== null && s.bid !== undefined && by !== null && by !== undefined)
			contract.push((s.trumper === by ? "Bid: " : "Highest bid: ") + (s.bid === "pcc" ? "partner close caps" : s.bid) +
				" by " + players[by]);
		if (s.trump) contract.push("Trump: " + (TRUMPS[s.trump] || s.trump));
		$("contract").textContent = contract.join(" \u00b7 ");
		var aside = $("aside");
		aside.textContent = "";
		(s.aside || []).forEach(function (a) {
			aside.appendChild(card(a.card, a.down && !end, a.seat, a.what));
		});
		var trick = $("trick");
		trick.textContent = "";
		if (s.trick) {
			s.trick.cards.forEach(function (c) {
				var li = card(c.card, c.down && !end, c.seat, c.shown ? "turned up by the trumper" : (c.down && end ? "played face down" : ""));
				if (c.shown) li.classList.add("shown");
				if (c.down && end) li.classList.add("was-down");
				if (s.trick.winner === c.seat) li.classList.add("won");
				trick.appendChild(li);
			});
		}
		var dt = $("deal-tricks"), list = $("tricks");
		list.textContent = "";
		dt.hidden = !end || !(s.tricks || []).length; // a passed-out deal has no tricks to list
		if (end) {
			(s.tricks || []).forEach(function (t, i) {
				var li = el("li");
				li.appendChild(el("span", null, (t.winner !== null ? players[t.winner] + " takes: " : "")));
				var ol = el("ol", "cards");
				t.cards.forEach(function (c) {
					var x = card(c.card, false, c.seat, c.down ? "played face down" : "");
					if (c.down) x.classList.add("was-down");
					ol.appendChild(x);
				});
				li.appendChild(ol);
				list.appendChild(li);
				void i;
			});
		}
		$("bidding").textContent = (s.bids || []).length ? s.bids.map(bidText).join(", ") : "no bids yet";
		drawPlot(s);
		/* aria-disabled, not disabled: a control stays reachable by Tab at either end. */
		["step-back", "trick-back", "deal-back"].forEach(function (id) {
			$(id).setAttribute("aria-disabled", String(at === 0));
		});
		["step-fwd", "trick-fwd", "deal-fwd"].forEach(function (id) {
			$(id).setAttribute("aria-disabled", String(at === steps.length - 1));
		});
		if (history.replaceState) history.replaceState(null, "", "#step=" + (at + 1));
	}

	function firstOfDeal(i) {
		while (i > 0 && steps[i].kind !== "deal") i--;
		return i;
	}

	/* A step that ends a trick, or starts or ends a deal. */
	function trickMark(i) {
		var s = steps[i];
		return s.kind !== "action" || (i > 0 && steps[i - 1].deal === s.deal && steps[i - 1].ntricks !== s.ntricks);
	}

	function go(i) {
		at = Math.max(0, Math.min(steps.length - 1, i));
		render();
	}
	function stepBy(d) { go(at + d); }
	function trickBy(d) {
		var i = at + d;
		while (i > 0 && i < steps.length - 1 && !trickMark(i)) i += d;
		go(i);
	}
	function dealBy(d) {
		var i = d > 0 ? at + 1 : firstOfDeal(at) - (steps[at].kind === "deal" ? 1 : 0);
		if (d > 0) while (i < steps.length - 1 && steps[i].kind !== "deal") i++;
		else i = firstOfDeal(Math.max(0, i));
		go(i);
	}

	/* The score after each deal: one line a side. */
	function drawPlot(s) {
		var pts = story.plot, box = $("plot");
		var title = story.match.score_name === "score" ? "Score by deal" : "Tokens by deal";
		$("plot-title").textContent = title;
		if (!pts.length) { box.textContent = "No deal yet."; return; }
		var ns = pts[0].score.length, lo = 0, hi = 1;
		pts.forEach(function (p) { p.score.forEach(function (v) { lo = Math.min(lo, v); hi = Math.max(hi, v); }); });
		var W = 600, H = 240, L = 48, R = 12, T = 14, B = 34;
		var nx = Math.max(1, pts.length - 1);
		function x(i) { return L + (W - L - R) * i / nx; }
		function y(v) { return T + (H - T - B) * (hi - v) / (hi - lo || 1); }
		var NS = "http://www.w3.org/2000/svg";
		var svg = document.createElementNS(NS, "svg");
		svg.setAttribute("viewBox", "0 0 " + W + " " + H);
		svg.setAttribute("role", "img");
		var desc = pts.map(function (p) { return "after deal " + p.deal + ": " + p.score.join(" to "); }).join("; ");
		svg.setAttribute("aria-label", title + " (" + story.match.sides.map(function (_, i) { return sideName(i); }).join(" vs ") + "): " + desc);
		function add(tag, attrs, text) {
			var e = document.createElementNS(NS, tag);
			for (var k in attrs) e.setAttribute(k, attrs[k]);
			if (text !== undefined) e.textContent = text;
			svg.appendChild(e);
			return e;
		}
		add("line", { x1: L, x2: W - R, y1: y(0), y2: y(0), stroke: "#999" });
		add("text", { x: 4, y: y(hi) + 6, "font-size": 18 }, String(hi));
		add("text", { x: 4, y: y(lo) + 6, "font-size": 18 }, String(lo));
		if (lo < 0 && hi > 0) add("text", { x: 4, y: y(0) + 6, "font-size": 18 }, "0");
		add("text", { x: L, y: H - 6, "font-size": 18 }, "deal 0");
		add("text", { x: W - R, y: H - 6, "font-size": 18, "text-anchor": "end" }, "deal " + pts[pts.length - 1].deal);
		var colours = ["#1f5fbf", "#c0161d", "#0b7a2a", "#8a5a00"];
		/* Sides with the same score at a deal (Trump304's two opponents of
		 * three, who are paid alike; everyone at 0) are drawn side by side,
		 * a line's width apart, so no line runs over another and hides it;
		 * each point keeps a dot, and the text alternative the exact values. */
		var GAP = 5;
		function dodge(i, k) {
			var v = pts[i].score[k], same = 0, before = 0;
			for (var j = 0; j < ns; j++) {
				if (pts[i].score[j] !== v) continue;
				same++;
				if (j < k) before++;
			}
			return (before - (same - 1) / 2) * GAP;
		}
		for (var k = 0; k < ns; k++) {
			add("polyline", { fill: "none", stroke: colours[k], "stroke-width": 4, "stroke-linejoin": "round",
				points: pts.map(function (p, i) { return x(i) + "," + (y(p.score[k]) + dodge(i, k)); }).join(" ") });
			pts.forEach(function (p, i) { add("circle", { cx: x(i), cy: y(p.score[k]) + dodge(i, k), r: 3, fill: colours[k] }); });
		}
		/* Where this step is: after how many deals. */
		var done = 0;
		pts.forEach(function (p, i) { if (i > 0 && p.deal <= s.deal + (s.kind === "end" ? 1 : 0)) done = i; });
		add("line", { x1: x(done), x2: x(done), y1: T, y2: H - B, stroke: "#ffbf00", "stroke-width": 3 });
		box.textContent = "";
		box.appendChild(svg);
		var legend = el("p", "legend");
		for (k = 0; k < ns; k++) {
			var sp = el("span", null, "\u25a0 ");
			sp.style.color = colours[k];
			sp.setAttribute("aria-hidden", "true");
			legend.appendChild(sp);
			legend.appendChild(el("span", null, sideName(k) + ": " + s.score[k] + (k + 1 < ns ? "   " : "")));
		}
		box.appendChild(legend);
	}

	$("step-fwd").addEventListener("click", function () { stepBy(1); });
	$("step-back").addEventListener("click", function () { stepBy(-1); });
	$("trick-fwd").addEventListener("click", function () { trickBy(1); });
	$("trick-back").addEventListener("click", function () { trickBy(-1); });
	$("deal-fwd").addEventListener("click", function () { dealBy(1); });
	$("deal-back").addEventListener("click", function () { dealBy(-1); });
	function toggleHelp() {
		var h = $("help"), b = $("help-toggle");
		h.hidden = !h.hidden;
		b.setAttribute("aria-expanded", String(!h.hidden));
	}
	$("help-toggle").addEventListener("click", toggleHelp);
	document.addEventListener("keydown", function (e) {
		if (e.altKey || e.ctrlKey || e.metaKey) return;
		var k = e.key, done = true;
		if (k === "ArrowRight") stepBy(1);
		else if (k === "ArrowLeft") stepBy(-1);
		else if (k === "ArrowDown") trickBy(1);
		else if (k === "ArrowUp") trickBy(-1);
		else if (k === "PageDown" || k === "n") dealBy(1);
		else if (k === "PageUp" || k === "p") dealBy(-1);
		else if (k === "Home") go(0);
		else if (k === "End") go(steps.length - 1);
		else if (k === "?") toggleHelp();
		else done = false;
		if (done) e.preventDefault();
	});
	var tx = null, ty = null;
	document.addEventListener("touchstart", function (e) {
		if (e.touches.length === 1) { tx = e.touches[0].clientX; ty = e.touches[0].clientY; }
	}, { passive: true });
	document.addEventListener("touchend", function (e) {
		if (tx === null || !e.changedTouches.length) return;
		var dx = e.changedTouches[0].clientX - tx, dy = e.changedTouches[0].clientY - ty;
		tx = null;
		if (Math.abs(dx) > 50 && Math.abs(dx) > 2 * Math.abs(dy)) stepBy(dx < 0 ? 1 : -1);
	}, { passive: true });

	$("table").classList.add("seats-" + nseats);
	if (!steps.length) {
		/* A record of no deal that could be played: nothing to step through. */
		$("text").textContent = "This record holds no deal to replay.";
		$("controls").hidden = true;
		$("table").hidden = true;
		return;
	}
	var alone = story.match.sides.every(function (side) { return side.length === 1; });
	$("sides").textContent = (alone ? "Each for themselves: " + players.join(", ")
		: story.match.sides.map(function (_, i) { return sideName(i); }).join(" against ")) +
		(story.match.winner !== null ? " \u00b7 winner: " + sideName(story.match.winner) : "");
	var m = /#step=(\d+)/.exec(location.hash);
	go(m ? parseInt(m[1], 10) - 1 : 0);
}());
