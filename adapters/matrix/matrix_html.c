/* matrix_html.c: the bot's mIRC-coded text as a Matrix plain body and an HTML formatted_body. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include "matrix_internal.h"

/* ---- HTML rendering of mIRC-coded text ---- */

/* Appends s[0..n) whole or not at all, and nothing more once something
 * did not fit: an entity or a tag is never cut in two. */
static void ob_add(strbuf *b, const char *s, size_t n)
{
	if (b->cut || b->len + n + 1 > b->cap) {
		b->cut = 1;
		return;
	}
	sb_addn(b, s, n);
}

void mx_ob_str(strbuf *b, const char *s) { ob_add(b, s, strlen(s)); }

void mx_html_escape(strbuf *b, const char *s, size_t n)
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

/* mIRC's style codes (bold, italic, underline) and their tags, outermost first. */
#define STYLES 3
static const struct {
	unsigned char code;
	const char *open, *close;
} styles[STYLES] = { { 0x02, "<b>", "</b>" }, { 0x1d, "<i>", "</i>" }, { 0x1f, "<u>", "</u>" } };

struct fmt_state {
	int colour;      /* -1 none */
	int on[STYLES];  /* styles[i] is on */
	int open;        /* tags currently written */
};

static void fmt_close(strbuf *h, struct fmt_state *st)
{
	if (!st->open)
		return;
	for (int i = STYLES - 1; i >= 0; i--)
		if (st->on[i])
			mx_ob_str(h, styles[i].close);
	if (st->colour >= 0)
		mx_ob_str(h, "</font>");
	st->open = 0;
}

static void fmt_open(strbuf *h, struct fmt_state *st)
{
	if (st->open)
		return;
	if (st->colour >= 0) {
		char tag[64];
		snprintf(tag, sizeof tag, "<font data-mx-color=\"%s\" color=\"%s\">", mirc_colours[st->colour],
			 mirc_colours[st->colour]);
		mx_ob_str(h, tag);
	}
	for (int i = 0; i < STYLES; i++)
		if (st->on[i])
			mx_ob_str(h, styles[i].open);
	st->open = 1;
}

/* Renders n bytes of text; html gets room for its closing tags kept back. */
void mx_render_into(const char *text, size_t n, strbuf *body, strbuf *html)
{
	struct fmt_state st = { -1, { 0 }, 0 };
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
			for (int k = 0; k < STYLES; k++) {
				if (c == 0x0f)
					st.on[k] = 0;
				else if (c == styles[k].code)
					st.on[k] = !st.on[k];
			}
			if (c == 0x0f)
				st.colour = -1;
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
	html->cut = 0;
	fmt_close(html, &st);
}

void matrix_render(const char *text, char *body, size_t body_len, char *html, size_t html_len)
{
	strbuf b, h;
	sb_init(&b, body, body_len);
	sb_init(&h, html, html_len);
	if (!body_len || !html_len)
		return;
	mx_render_into(text, strlen(text), &b, &h);
}
