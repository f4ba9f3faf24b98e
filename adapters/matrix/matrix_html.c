/* matrix_html.c: the bot's mIRC-coded text as a Matrix plain body and an HTML formatted_body. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include "matrix_internal.h"

/* ---- HTML rendering of mIRC-coded text ---- */

static void ob_add(outbuf *b, const char *s, size_t n)
{
	if (b->full || b->len + n + 1 > b->cap) {
		b->full = 1;
		return;
	}
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = '\0';
}

void mx_ob_str(outbuf *b, const char *s) { ob_add(b, s, strlen(s)); }

void mx_html_escape(outbuf *b, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		switch (s[i]) {
		case '&': mx_ob_str(b, "&amp;"); break;
		case '<': mx_ob_str(b, "&lt;"); break;
		case '>': mx_ob_str(b, "&gt;"); break;
		case '"': mx_ob_str(b, "&quot;"); break;
		case '\'': mx_ob_str(b, "&#39;"); break;
		case '\n': mx_ob_str(b, "<br>"); break;
		default: ob_add(b, s + i, 1);
		}
	}
}

static const char *const mirc_colours[16] = {
	"#ffffff", "#000000", "#00007f", "#009300", "#ff0000", "#7f0000", "#9c009c", "#fc7f00",
	"#ffff00", "#00fc00", "#009393", "#00ffff", "#0000fc", "#ff00ff", "#7f7f7f", "#d2d2d2",
};

struct fmt_state {
	int colour; /* -1 none */
	int bold, italic, underline;
	int open;   /* tags currently written */
};

static void fmt_close(outbuf *h, struct fmt_state *st)
{
	if (!st->open)
		return;
	if (st->underline)
		mx_ob_str(h, "</u>");
	if (st->italic)
		mx_ob_str(h, "</i>");
	if (st->bold)
		mx_ob_str(h, "</b>");
	if (st->colour >= 0)
		mx_ob_str(h, "</font>");
	st->open = 0;
}

static void fmt_open(outbuf *h, struct fmt_state *st)
{
	if (st->open)
		return;
	if (st->colour >= 0) {
		char tag[64];
		snprintf(tag, sizeof tag, "<font data-mx-color=\"%s\" color=\"%s\">", mirc_colours[st->colour],
			 mirc_colours[st->colour]);
		mx_ob_str(h, tag);
	}
	if (st->bold)
		mx_ob_str(h, "<b>");
	if (st->italic)
		mx_ob_str(h, "<i>");
	if (st->underline)
		mx_ob_str(h, "<u>");
	st->open = 1;
}

/* Renders n bytes of text; html gets room for its closing tags kept back. */
void mx_render_into(const char *text, size_t n, outbuf *body, outbuf *html)
{
	struct fmt_state st = { -1, 0, 0, 0, 0 };
	size_t hcap = html->cap;
	html->cap = hcap > 40 ? hcap - 40 : 0; /* room for the closing tags */
	const unsigned char *s = (const unsigned char *)text;
	size_t i = 0;
	while (i < n && s[i]) {
		unsigned char c = s[i];
		if (c == 0x03) {
			i++;
			int col = -1;
			if (i < n && isdigit(s[i])) {
				col = s[i++] - '0';
				if (i < n && isdigit(s[i]))
					col = col * 10 + (s[i++] - '0');
				if (i + 1 < n && s[i] == ',' && isdigit(s[i + 1])) { /* a background: ignored */
					i += 2;
					if (i < n && isdigit(s[i]))
						i++;
				}
			}
			fmt_close(html, &st);
			st.colour = col >= 0 && col < 16 ? col : -1;
			continue;
		}
		if (c == 0x02 || c == 0x1d || c == 0x1f || c == 0x0f) {
			fmt_close(html, &st);
			if (c == 0x02)
				st.bold = !st.bold;
			else if (c == 0x1d)
				st.italic = !st.italic;
			else if (c == 0x1f)
				st.underline = !st.underline;
			else
				st.colour = -1, st.bold = st.italic = st.underline = 0;
			i++;
			continue;
		}
		if ((c < 0x20 && c != '\n') || c == 0x7f) {
			i++;
			continue;
		}
		size_t cl = mx_utf8_len(s + i);
		if (i + cl > n)
			break;
		/* 80: the opening tags (56), then room left for closing them (19)
		 * should a code close them before the next character's check;
		 * 64 let a </font> be dropped (tests/fuzz/fuzz_matrix_render.c). */
		if (body->len + cl + 1 > body->cap || html->len + cl * 6 + 80 > html->cap)
			break; /* cut at a character boundary */
		fmt_open(html, &st);
		if (cl == 1 && c >= 0x80) {
			ob_add(body, "?", 1);
			ob_add(html, "?", 1);
		} else {
			ob_add(body, (const char *)s + i, cl);
			mx_html_escape(html, (const char *)s + i, cl);
		}
		i += cl;
	}
	html->cap = hcap;
	html->full = 0;
	fmt_close(html, &st);
}

void matrix_render(const char *text, char *body, size_t body_len, char *html, size_t html_len)
{
	outbuf b = { body, 0, body_len, 0 }, h = { html, 0, html_len, 0 };
	if (body_len)
		body[0] = '\0';
	if (html_len)
		html[0] = '\0';
	if (!body_len || !html_len)
		return;
	mx_render_into(text, strlen(text), &b, &h);
}
