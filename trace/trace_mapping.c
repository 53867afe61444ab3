/* trace_mapping.c: the mapping reader. Entries are collected in file order,
 * then sorted by id for lookup; a duplicate id is found after the sort and
 * reported with both lines. */
#include "trace_mapping.h"
#include "try.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "arena.h"
#include "method_mapping.h"
#include "trace_lines.h"

typedef struct entry {
	uint32_t id;
	uint64_t line;
	const char *key; /* "class method desc", in the arena */
} entry;

struct tr_mapping {
	entry *v;
	size_t n, cap;
	entry *extra;    /* tr_mapping_name's, few: looked up in turn */
	size_t n_extra;
	arena names;
	uint64_t build_id; /* of the file read (mapfile/method_mapping.h), 0 for an empty mapping */
};

void tr_mapping_free(tr_mapping *m)
{
	if (!m)
		return;
	free(m->v);
	free(m->extra);
	arena_free(&m->names);
	free(m);
}

int tr_mapping_empty(tr_mapping **out, tc_error *err)
{
	*out = calloc(1, sizeof **out);
	return *out ? TC_OK : tc_set(err, TC_ENOMEM, "mapping: out of memory");
}

static int add_line(tr_mapping *m, const char *s, size_t n, const char *name, uint64_t line, tc_error *err)
{
	mm_line l;
	char why[160];
	if (mm_parse_line(&l, s, n, why, sizeof why) != 0)
		return tc_set(err, TC_EFORMAT, "%s:%llu: %s", name, (unsigned long long)line, why);
	if (m->n == m->cap) {
		size_t cap = m->cap ? m->cap * 2 : 1024;
		entry *v = cap > SIZE_MAX / sizeof *v ? NULL : realloc(m->v, cap * sizeof *v);
		if (!v)
			return tc_set(err, TC_ENOMEM, "%s:%llu: out of memory", name, (unsigned long long)line);
		m->v = v;
		m->cap = cap;
	}
	const char *k = arena_strndup(&m->names, l.key, l.key_len);
	if (!k)
		return tc_set(err, TC_ENOMEM, "%s:%llu: out of memory", name, (unsigned long long)line);
	m->v[m->n++] = (entry){ l.id, line, k };
	return TC_OK;
}

static int by_id(const void *a, const void *b)
{
	const entry *x = a, *y = b;
	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	return x->line < y->line ? -1 : x->line > y->line;
}

int tr_mapping_read(tr_mapping **out, FILE *f, const char *name, tc_error *err)
{
	*out = NULL;
	tr_mapping *m;
	TRY(tr_mapping_empty(&m, err));
	tr_lines lr;
	tr_lines_init(&lr, f, name, 1u << 20);
	int rc;
	const char *s;
	size_t n;
	mm_build_id id;
	mm_build_id_init(&id);
	while ((rc = tr_lines_next(&lr, &s, &n, err)) > 0) {
		if ((n = mm_line_len(s, n)) == 0)
			continue;
		mm_build_id_line(&id, s, n);
		if ((rc = add_line(m, s, n, name, lr.line_no, err)) < 0)
			break;
	}
	tr_lines_dispose(&lr);
	if (rc == 0 && m->n > 1) {
		qsort(m->v, m->n, sizeof *m->v, by_id);
		for (size_t i = 1; i < m->n && rc == 0; i++)
			if (m->v[i].id == m->v[i - 1].id)
				rc = tc_set(err, TC_EFORMAT, "%s:%llu: method id %u was listed before on line %llu", name,
				             (unsigned long long)m->v[i].line, m->v[i].id,
				             (unsigned long long)m->v[i - 1].line);
	}
	if (rc < 0) {
		tr_mapping_free(m);
		return rc;
	}
	m->build_id = mm_build_id_final(&id);
	*out = m;
	return TC_OK;
}

int tr_mapping_load(tr_mapping **out, const char *path, tc_error *err)
{
	*out = NULL;
	FILE *f = fopen(path, "rb");
	if (!f)
		return tc_set(err, TC_EIO, "%s: cannot open: %s", path, strerror(errno));
	struct stat st;
	if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
		fclose(f);
		return tc_set(err, TC_EIO, "%s: a directory, not a mapping file (methodMapping.txt)", path);
	}
	int rc = tr_mapping_read(out, f, path, err);
	fclose(f);
	return rc;
}

uint64_t tr_mapping_build_id(const tr_mapping *m)
{
	return m ? m->build_id : 0;
}

size_t tr_mapping_size(const tr_mapping *m)
{
	return m ? m->n : 0;
}

const char *tr_mapping_lookup(const tr_mapping *m, uint32_t id)
{
	if (!m)
		return NULL;
	size_t lo = 0, hi = m->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (m->v[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < m->n && m->v[lo].id == id ? m->v[lo].key : NULL;
}

int tr_mapping_name(tr_mapping *m, uint32_t id, const char *name, tc_error *err)
{
	const char *k = arena_strndup(&m->names, name, strlen(name));
	if (!k)
		return tc_set(err, TC_ENOMEM, "names: out of memory");
	for (size_t i = 0; i < m->n_extra; i++) {
		if (m->extra[i].id == id) {
			m->extra[i].key = k;
			return TC_OK;
		}
	}
	entry *v = realloc(m->extra, (m->n_extra + 1) * sizeof *v);
	if (!v)
		return tc_set(err, TC_ENOMEM, "names: out of memory");
	m->extra = v;
	m->extra[m->n_extra++] = (entry){ id, 0, k };
	return TC_OK;
}

void tr_name_put(tc_buf *sb, const tr_mapping *m, uint32_t id, tr_name_style style)
{
	for (size_t i = 0; m && i < m->n_extra; i++) {
		if (m->extra[i].id == id) {
			buf_puts(sb, m->extra[i].key);
			return;
		}
	}
	const char *key = tr_mapping_lookup(m, id);
	if (!key) {
		buf_printf(sb, "#%u", id);
		return;
	}
	/* "class method desc" -> "class.method desc" (or without the desc) */
	const char *sp = strchr(key, ' ');
	const char *sp2 = strchr(sp + 1, ' ');
	buf_putn(sb, key, (size_t)(sp - key));
	buf_putc(sb, '.');
	if (!sp2) {
		buf_puts(sb, sp + 1);
		return;
	}
	buf_putn(sb, sp + 1, (size_t)(sp2 - sp - 1));
	if (style == TR_NAME_FULL)
		buf_puts(sb, sp2);
}
