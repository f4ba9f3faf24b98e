/* config_errors.c: the errors and warnings of a configuration load, kept in file and line order. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "schema.h"
#include "grow.h"

void config_errors_free(config_errors *e)
{
	if (!e)
		return;
	for (int i = 0; i < e->n; i++) {
		free(e->items[i].file);
		free(e->items[i].text);
	}
	free(e->items);
	memset(e, 0, sizeof *e);
}

void config_errors_add(config_errors *e, int warning, const char *file, int line, const char *text)
{
	if (warning)
		e->nwarnings++;
	else
		e->nerrors++;
	if (e->n >= CONFIG_MESSAGES_MAX)
		return;
	config_message *items = grow_room(e->items, sizeof *items, (size_t)e->n, &e->cap, 16);
	if (!items)
		return; /* counted, not kept: the count still fails the load */
	e->items = items;
	config_message *m = &e->items[e->n];
	m->warning = warning;
	m->line = line;
	m->file = strdup(file);
	m->text = strdup(text);
	if (!m->file || !m->text) {
		free(m->file);
		free(m->text);
		return;
	}
	e->n++;
}

/* Stable, by file then line: reads like a compiler's output. */
void config_errors_sort(config_errors *e)
{
	for (int i = 1; i < e->n; i++) {
		config_message m = e->items[i];
		int j = i;
		while (j > 0) {
			const config_message *p = &e->items[j - 1];
			int c = strcmp(p->file, m.file);
			if (c < 0 || (c == 0 && p->line <= m.line))
				break;
			e->items[j] = e->items[j - 1];
			j--;
		}
		e->items[j] = m;
	}
}

int config_errors_print(const config_errors *e, FILE *f)
{
	for (int i = 0; i < e->n; i++)
		if (fprintf(f, "%s\n", e->items[i].text) < 0)
			return -1;
	int more = e->nerrors + e->nwarnings - e->n;
	if (more > 0 && fprintf(f, "... and %d more\n", more) < 0)
		return -1;
	return 0;
}
