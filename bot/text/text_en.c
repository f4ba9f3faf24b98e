/* text_en.c: the English table: every line (bot/text/text.h's TEXT_LIST); and the
 * English-only wrappers. */
#include "text.h"
#include "text_lang.h"

const char *const text_en_lines[T_COUNT] = {
#define X(id, str) [id] = str,
	TEXT_ALL(X)
#undef X
};

const text_lang text_lang_en = { "en", "English", text_en_lines };

size_t text_deal_refused(char *buf, size_t len, int over)
{
	return text_deal_refused_in(&text_lang_en, buf, len, over);
}

size_t text_fmt(char *buf, size_t len, int id, int nargs, const char *const *args)
{
	return text_fmt_in(&text_lang_en, buf, len, id, nargs, args);
}
