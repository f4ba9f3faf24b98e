/* fuzz_matrix_render.c: adapters/matrix/matrix_html.c's matrix_render, which
 * turns the bot's text (mIRC colour and style codes) into a Matrix plain
 * body and an HTML formatted_body.
 *
 * The first two bytes choose the two buffer sizes; the rest is the text.
 * Checked: both outputs are terminated within their sizes; the body holds
 * no control character but line breaks; in the HTML every '<' opens one of
 * the tags the renderer writes, every '&' starts one of its entities, no
 * '"' or '\'' stands bare outside a tag, and every tag opened is closed.
 * Text in the HTML is what people typed, so this is where an HTML
 * injection into Matrix clients would show.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "matrix.h"

#define TEXT_MAX 4096

static const char *const tags[] = { "<b>", "</b>", "<i>", "</i>", "<u>", "</u>", "</font>", "<br>" };
static const char *const entities[] = { "&amp;", "&lt;", "&gt;", "&quot;", "&#39;" };

/* The length of the <font ...> tag at p, or 0. */
static size_t font_tag(const char *p)
{
	static const char head[] = "<font data-mx-color=\"#";
	if (strncmp(p, head, sizeof head - 1))
		return 0;
	const char *q = p + sizeof head - 1;
	for (int i = 0; i < 6; i++, q++)
		if (!strchr("0123456789abcdef", *q) || !*q)
			return 0;
	if (strncmp(q, "\" color=\"#", 10))
		return 0;
	q += 10;
	for (int i = 0; i < 6; i++, q++)
		if (!strchr("0123456789abcdef", *q) || !*q)
			return 0;
	if (strncmp(q, "\">", 2))
		return 0;
	return (size_t)(q + 2 - p);
}

static void check_html(const char *h)
{
	int depth[4] = { 0, 0, 0, 0 }; /* b, i, u, font */
	for (const char *p = h; *p;) {
		if (*p == '<') {
			size_t n = font_tag(p);
			if (n) {
				depth[3]++;
				p += n;
				continue;
			}
			size_t k;
			for (k = 0; k < sizeof tags / sizeof tags[0]; k++)
				if (!strncmp(p, tags[k], strlen(tags[k])))
					break;
			FUZZ_ASSERT(k < sizeof tags / sizeof tags[0]);
			if (k < 6)
				depth[k / 2] += k % 2 ? -1 : 1;
			else if (k == 6)
				depth[3]--;
			for (int d = 0; d < 4; d++)
				FUZZ_ASSERT(depth[d] >= 0);
			p += strlen(tags[k]);
			continue;
		}
		if (*p == '&') {
			size_t k;
			for (k = 0; k < sizeof entities / sizeof entities[0]; k++)
				if (!strncmp(p, entities[k], strlen(entities[k])))
					break;
			FUZZ_ASSERT(k < sizeof entities / sizeof entities[0]);
			p += strlen(entities[k]);
			continue;
		}
		FUZZ_ASSERT(*p != '>' && *p != '"' && *p != '\'');
		p++;
	}
	for (int d = 0; d < 4; d++)
		FUZZ_ASSERT(depth[d] == 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 2 || size > TEXT_MAX + 2)
		return 0;
	size_t body_len = 1 + (size_t)data[0] * 9;   /* 1 to 2296 */
	size_t html_len = 1 + (size_t)data[1] * 33;  /* 1 to 8416 */
	char text[TEXT_MAX + 1];
	memcpy(text, data + 2, size - 2);
	text[size - 2] = '\0';
	char *body = malloc(body_len), *html = malloc(html_len);
	if (!body || !html)
		abort();
	matrix_render(text, body, body_len, html, html_len);
	FUZZ_ASSERT(memchr(body, '\0', body_len) && memchr(html, '\0', html_len));
	for (const char *c = body; *c; c++)
		FUZZ_ASSERT(((unsigned char)*c >= 0x20 && *c != 0x7f) || *c == '\n');
	check_html(html);
	free(body);
	free(html);
	return 0;
}
