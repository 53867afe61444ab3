#include "maps/base_mapping.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <uthash.h>

#include "containers/walk.h"
#include "file.h"

typedef struct entry {
	UT_hash_handle hh;
	uint32_t id;
	uint32_t line;
	char key[];
} entry;

struct mapping {
	entry *by_key;
	entry **order; /* in file order */
	size_t n, cap;
	uint32_t max_id;
};

void mapping_free(mapping *m)
{
	if (!m)
		return;
	HASH_CLEAR(hh, m->by_key);
	for (size_t i = 0; i < m->n; i++)
		free(m->order[i]);
	free(m->order);
	free(m);
}

static int add_line(mapping *m, const char *s, size_t n, uint32_t line, const char *path,
                    tc_error *err)
{
	mm_line l;
	char why[160];
	if (mm_parse_line(&l, s, n, why, sizeof why) != 0)
		return tc_fail(err, TC_EFORMAT, TC_NO_OFFSET, path, "line %u: %s", line, why);
	uint32_t id = l.id;
	const char *key = l.key;
	size_t klen = l.key_len;
	entry *e = NULL;
	HASH_FIND(hh, m->by_key, key, klen, e);
	if (e)
		return tc_fail(err, TC_EFORMAT, TC_NO_OFFSET, path, "line %u: method listed before on line %u",
		               line, e->line);
	if (m->n == m->cap) {
		size_t cap = m->cap ? m->cap * 2 : 1024;
		entry **o = realloc(m->order, cap * sizeof *o);
		if (!o)
			return tc_fail(err, TC_ENOMEM, TC_NO_OFFSET, path, "no memory");
		m->order = o;
		m->cap = cap;
	}
	if (!(e = malloc(sizeof *e + klen + 1)))
		return tc_fail(err, TC_ENOMEM, TC_NO_OFFSET, path, "no memory");
	e->id = id;
	e->line = line;
	memcpy(e->key, key, klen);
	e->key[klen] = '\0';
	HASH_ADD_KEYPTR(hh, m->by_key, e->key, klen, e);
	m->order[m->n++] = e;
	if (id != MM_ID_DISPATCH && id > m->max_id)
		m->max_id = id;
	return TC_OK;
}

int mapping_parse(mapping **out, const char *t, size_t len, const char *label, tc_error *err)
{
	*out = NULL;
	mapping *m = calloc(1, sizeof *m);
	if (!m)
		return tc_fail(err, TC_ENOMEM, TC_NO_OFFSET, label, "no memory");
	uint32_t line = 0;
	int rc = TC_OK;
	for (size_t pos = 0; pos < len && rc == TC_OK;) {
		size_t end = pos;
		while (end < len && t[end] != '\n')
			end++;
		line++;
		const char *s = t + pos;
		size_t n = mm_line_len(s, end - pos);
		pos = end + 1;
		if (n == 0)
			continue;
		rc = add_line(m, s, n, line, label, err);
	}
	if (rc != TC_OK) {
		mapping_free(m);
		return rc;
	}
	*out = m;
	return TC_OK;
}

int mapping_load(mapping **out, const char *path, tc_error *err)
{
	*out = NULL;
	tc_buf buf;
	buf_init(&buf);
	int rc = tc_file_read(path, &buf, TC_MAX_INPUT_BYTES, TC_LIMIT_OPTION, err);
	if (rc == TC_OK)
		rc = mapping_parse(out, (const char *)buf.data, buf.len, path, err);
	buf_free(&buf);
	return rc;
}

uint32_t mapping_id(const mapping *m, const char *key)
{
	entry *e = NULL;
	HASH_FIND(hh, m->by_key, key, strlen(key), e);
	return e ? e->id : 0;
}

uint32_t mapping_max_id(const mapping *m)
{
	return m->max_id;
}

size_t mapping_size(const mapping *m)
{
	return m->n;
}

int mapping_diff(const mapping *old, const mapping *new_, FILE *out, size_t *changed, tc_error *err)
{
	(void)err;
	size_t ch = 0, added = 0, removed = 0, same = 0;
	for (size_t i = 0; i < new_->n; i++) {
		const entry *e = new_->order[i];
		uint32_t was = mapping_id(old, e->key);
		if (!was) {
			fprintf(out, "added %u %s\n", e->id, e->key);
			added++;
		} else if (was != e->id) {
			fprintf(out, "changed %u -> %u %s\n", was, e->id, e->key);
			ch++;
		} else {
			same++;
		}
	}
	for (size_t i = 0; i < old->n; i++) {
		const entry *e = old->order[i];
		if (!mapping_id(new_, e->key)) {
			fprintf(out, "removed %u %s\n", e->id, e->key);
			removed++;
		}
	}
	fprintf(out, "%zu unchanged, %zu changed, %zu added, %zu removed\n", same, ch, added, removed);
	*changed = ch;
	return TC_OK;
}
