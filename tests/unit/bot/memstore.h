/* memstore.h: an in-memory store for the crypto tests (mx_crypto_store): a table of keys and values, a switch
 * that makes writes fail, and counts of warnings. */
#ifndef CARDBOT_MEMSTORE_H
#define CARDBOT_MEMSTORE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "matrix_crypto.h"

#define MEM_MAX 512

typedef struct mem {
	char *k[MEM_MAX], *v[MEM_MAX];
	int n, fail, warns, sets;
} mem;

static int mem_get(void *ctx, const char *key, char *out, size_t len)
{
	mem *m = ctx;
	for (int i = 0; i < m->n; i++)
		if (!strcmp(m->k[i], key)) {
			snprintf(out, len, "%s", m->v[i]);
			return 1;
		}
	return 0;
}

static int mem_set(void *ctx, const char *key, const char *value)
{
	mem *m = ctx;
	if (m->fail)
		return -1;
	m->sets++;
	for (int i = 0; i < m->n; i++)
		if (!strcmp(m->k[i], key)) {
			free(m->v[i]);
			if (value) {
				m->v[i] = strdup(value);
				return 0;
			}
			free(m->k[i]);
			m->n--;
			m->k[i] = m->k[m->n];
			m->v[i] = m->v[m->n];
			return 0;
		}
	if (!value)
		return 0;
	if (m->n == MEM_MAX)
		return -1;
	m->k[m->n] = strdup(key);
	m->v[m->n++] = strdup(value);
	return 0;
}

static void mem_log(void *ctx, const char *level, const char *text)
{
	mem *m = ctx;
	if (!strcmp(level, "warn"))
		m->warns++;
	if (getenv("BOT_CRYPTO_LOG"))
		fprintf(stderr, "[%s] %s\n", level, text);
}

static const char *mem_value(mem *m, const char *key)
{
	for (int i = 0; i < m->n; i++)
		if (!strcmp(m->k[i], key))
			return m->v[i];
	return NULL;
}

static void mem_free(mem *m)
{
	for (int i = 0; i < m->n; i++) {
		free(m->k[i]);
		free(m->v[i]);
	}
	m->n = 0;
}

static mx_crypto_store store_of(mem *m)
{
	mx_crypto_store st = { m, mem_get, mem_set, mem_log };
	return st;
}

#endif
