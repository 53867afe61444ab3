/* trace_report.c: see trace_report.h. */
#include "trace_report.h"

#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "bytes.h"
#include "tc_event.h"

/* A decimal field of a stack line; '-' allowed only where neg is set. */
static int field(const char **p, const char *end, int neg, int64_t lo, int64_t hi, int64_t *out)
{
	const char *s = *p;
	int minus = 0;
	if (neg && s < end && *s == '-') {
		minus = 1;
		s++;
	}
	if (s >= end || *s < '0' || *s > '9')
		return -1;
	int64_t v = 0;
	while (s < end && *s >= '0' && *s <= '9') {
		if (v > (INT64_C(1) << 40))
			return -1;
		v = v * 10 + (*s++ - '0');
	}
	if (minus)
		v = -v;
	if (v < lo || v > hi)
		return -1;
	*out = v;
	*p = s;
	return 0;
}

int tr_stack_parse(tc_stack *out, const char *s, size_t n, size_t *bad_line, char *why, size_t cap)
{
	out->len = 0;
	const char *end = s + n;
	size_t line = 0;
	while (s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		const char *e = nl ? nl : end;
		line++;
		int64_t depth, id, count, dur;
		const char *p = s;
		const char *what = NULL;
		if (field(&p, e, 0, 0, INT32_MAX, &depth) || p >= e || *p++ != ',')
			what = "bad depth";
		else if (field(&p, e, 0, 0, TC_ID_MAX, &id) || p >= e || *p++ != ',')
			what = "bad method id";
		else if (field(&p, e, 0, 0, INT32_MAX, &count) || p >= e || *p++ != ',')
			what = "bad count";
		else if (field(&p, e, 1, INT32_MIN, INT32_MAX, &dur) || p != e)
			what = "bad duration";
		if (what) {
			*bad_line = line;
			snprintf(why, cap, "%s: expected \"depth,methodId,count,durTime\", got \"%.*s\"", what,
			         (int)(e - s > 60 ? 60 : e - s), s);
			return TC_EFORMAT;
		}
		if (out->len == out->cap) {
			size_t c = out->cap ? out->cap * 2 : 16;
			tc_method_item *v = realloc(out->items, c * sizeof *v);
			if (!v) {
				*bad_line = line;
				snprintf(why, cap, "out of memory");
				return TC_ENOMEM;
			}
			out->items = v;
			out->cap = c;
		}
		out->items[out->len++] = (tc_method_item){ (uint32_t)id, (int32_t)dur, (int32_t)depth, (int32_t)count };
		s = nl ? nl + 1 : end;
	}
	return TC_OK;
}

int tr_key_parse(uint32_t **ids, size_t *n, const char *s, size_t len, size_t *bad_off)
{
	*ids = NULL;
	*n = 0;
	size_t cap = 0;
	for (size_t i = 0; i < len;) {
		size_t start = i;
		uint64_t v = 0;
		while (i < len && s[i] >= '0' && s[i] <= '9' && v <= TC_ID_MAX)
			v = v * 10 + (uint64_t)(s[i++] - '0');
		if (i == start || v > TC_ID_MAX || i >= len || s[i] != '|') {
			free(*ids);
			*ids = NULL;
			*n = 0;
			*bad_off = i < len ? i : len;
			return TC_EFORMAT;
		}
		i++;
		if (*n == cap) {
			cap = cap ? cap * 2 : 4;
			uint32_t *p = realloc(*ids, cap * sizeof *p);
			if (!p) {
				free(*ids);
				*ids = NULL;
				*n = 0;
				*bad_off = start;
				return TC_ENOMEM;
			}
			*ids = p;
		}
		(*ids)[(*n)++] = (uint32_t)v;
	}
	return TC_OK;
}

int tr_report_stack(tc_stack *out, const json_val *r, const char *file, uint64_t line, tc_error *err)
{
	out->len = 0;
	const json_val *st = json_get(r, "stack");
	if (!st)
		return TC_OK;
	if (st->type != JSON_STR)
		return tc_set(err, TC_EFORMAT, "%s:%llu: \"stack\" is not a string", file, (unsigned long long)line);
	size_t bad;
	char why[160];
	int rc = tr_stack_parse(out, st->s, st->len, &bad, why, sizeof why);
	if (rc != TC_OK)
		return tc_set(err, rc, "%s:%llu: \"stack\" line %zu: %s", file, (unsigned long long)line, bad, why);
	return TC_OK;
}

static int report_key(uint32_t **ids, size_t *n, const json_val *r, const char *file, uint64_t line, tc_error *err)
{
	*ids = NULL;
	*n = 0;
	const json_val *k = json_get(r, "stackKey");
	if (!k)
		return TC_OK;
	if (k->type != JSON_STR)
		return tc_set(err, TC_EFORMAT, "%s:%llu: \"stackKey\" is not a string", file, (unsigned long long)line);
	size_t bad;
	int rc = tr_key_parse(ids, n, k->s, k->len, &bad);
	if (rc != TC_OK)
		return tc_set(err, rc, "%s:%llu: \"stackKey\" at character %zu: expected \"methodId|\"", file,
		               (unsigned long long)line, bad + 1);
	return TC_OK;
}

static void put_name_json(tc_buf *sb, const tr_mapping *m, uint32_t id)
{
	tc_buf name;
	buf_init(&name);
	tr_name_put(&name, m, id, TR_NAME_FULL);
	json_escape(sb, name.str ? name.str : "");
	buf_free(&name);
}

void tr_stack_put_json(tc_buf *sb, const tc_stack *st, const tr_mapping *m)
{
	buf_putc(sb, '[');
	for (size_t i = 0; i < st->len; i++) {
		const tc_method_item *it = &st->items[i];
		buf_printf(sb, "%s{\"depth\":%d,\"id\":%u,\"name\":", i ? "," : "", (int)it->depth, it->id);
		put_name_json(sb, m, it->id);
		buf_printf(sb, ",\"count\":%d,\"durMs\":%d}", (int)it->count, (int)it->dur_ms);
	}
	buf_putc(sb, ']');
}

static void put_key_names(tc_buf *sb, const uint32_t *ids, size_t n, const tr_mapping *m)
{
	for (size_t i = 0; i < n; i++) {
		tr_name_put(sb, m, ids[i], TR_NAME_FULL);
		buf_putc(sb, '|');
	}
}

static int key_is(const json_member *mb, const char *k)
{
	return mb->key_len == strlen(k) && memcmp(mb->key, k, mb->key_len) == 0;
}

static void write_json(tc_buf *sb, const json_val *r, const tc_stack *st, const uint32_t *ids, size_t nids,
                       const tr_mapping *m)
{
	buf_putc(sb, '{');
	int first = 1;
	for (size_t i = 0; i < r->n; i++) {
		const json_member *mb = &r->members[i];
		/* a file that went through tc-trace already: decode afresh */
		if (key_is(mb, "stackDecoded") || key_is(mb, "stackKeyDecoded"))
			continue;
		if (!first)
			buf_putc(sb, ',');
		first = 0;
		json_escape(sb, mb->key);
		buf_putc(sb, ':');
		json_put(sb, &mb->val);
		if (key_is(mb, "stack")) {
			buf_puts(sb, ",\"stackDecoded\":");
			tr_stack_put_json(sb, st, m);
		} else if (key_is(mb, "stackKey")) {
			tc_buf names;
			buf_init(&names);
			put_key_names(&names, ids, nids, m);
			buf_puts(sb, ",\"stackKeyDecoded\":");
			json_escape(sb, names.str ? names.str : "");
			buf_free(&names);
		}
	}
	buf_puts(sb, "}\n");
}

/* Device keys every report starts with: noise when reading. */
static int is_device_key(const json_member *mb)
{
	return key_is(mb, "machine") || key_is(mb, "cpu_app") || key_is(mb, "mem") || key_is(mb, "mem_free");
}

static void put_indented(tc_buf *sb, const char *text, const char *indent)
{
	const char *s = text;
	while (*s) {
		const char *nl = strchr(s, '\n');
		size_t n = nl ? (size_t)(nl - s) : strlen(s);
		if (n) {
			buf_puts(sb, indent);
			buf_putn(sb, s, n);
			buf_putc(sb, '\n');
		}
		s += n + (nl ? 1 : 0);
	}
}

void tr_stack_put_text(tc_buf *sb, const tc_stack *st, const tr_mapping *m, const char *indent)
{
	buf_printf(sb, "%s%8s %6s  %s\n", indent, "ms", "calls", "method");
	for (size_t i = 0; i < st->len; i++) {
		const tc_method_item *it = &st->items[i];
		buf_printf(sb, "%s%8d %6d  ", indent, (int)it->dur_ms, (int)it->count);
		for (int32_t d = 0; d < it->depth && d < 64; d++)
			buf_puts(sb, "  ");
		tr_name_put(sb, m, it->id, TR_NAME_FULL);
		buf_putc(sb, '\n');
	}
}

static void write_text(tc_buf *sb, const json_val *r, const tc_stack *st, const uint32_t *ids, size_t nids,
                       const tr_mapping *m, const char *file, uint64_t line)
{
	const json_val *tag = json_get(r, "tag"), *detail = json_get(r, "detail");
	buf_printf(sb, "%s:%llu: %s", file, (unsigned long long)line, tag && tag->type == JSON_STR ? tag->s : "(no tag)");
	if (detail && detail->type == JSON_STR)
		buf_printf(sb, " %s", detail->s);
	buf_putc(sb, '\n');
	for (size_t i = 0; i < r->n; i++) {
		const json_member *mb = &r->members[i];
		if (is_device_key(mb) || key_is(mb, "tag") || key_is(mb, "detail") || key_is(mb, "stack") ||
		    key_is(mb, "stackKey") || key_is(mb, "threadStack") || key_is(mb, "stackDecoded") ||
		    key_is(mb, "stackKeyDecoded"))
			continue;
		buf_printf(sb, "  %s: ", mb->key);
		if (mb->val.type == JSON_STR)
			buf_puts(sb, mb->val.s);
		else
			json_put(sb, &mb->val);
		buf_putc(sb, '\n');
	}
	if (json_get(r, "stackKey")) {
		buf_puts(sb, "  stackKey: ");
		put_key_names(sb, ids, nids, m);
		buf_putc(sb, '\n');
	}
	if (json_get(r, "stack")) {
		buf_printf(sb, "  stack: %zu items\n", st->len);
		tr_stack_put_text(sb, st, m, "    ");
	}
	const json_val *ts = json_get(r, "threadStack");
	if (ts && ts->type == JSON_STR) {
		buf_puts(sb, "  threadStack:\n");
		put_indented(sb, ts->s, "    ");
	}
	buf_putc(sb, '\n');
}

int tr_report_write(FILE *out, const json_val *r, const char *file, uint64_t line, const tr_report_opts *o,
                    tc_error *err)
{
	if (r->type != JSON_OBJ)
		return tc_set(err, TC_EFORMAT, "%s:%llu: a report line must be a JSON object", file,
		               (unsigned long long)line);
	tc_stack st = { 0 };
	uint32_t *ids = NULL;
	size_t nids = 0;
	tc_buf sb;
	buf_init(&sb);
	int rc = tr_report_stack(&st, r, file, line, err);
	if (rc == TC_OK)
		rc = report_key(&ids, &nids, r, file, line, err);
	if (rc == TC_OK) {
		if (o->text)
			write_text(&sb, r, &st, ids, nids, o->map, file, line);
		else
			write_json(&sb, r, &st, ids, nids, o->map);
		if (sb.err)
			rc = tc_set(err, TC_ENOMEM, "%s:%llu: out of memory", file, (unsigned long long)line);
		else if (fwrite(sb.str, 1, sb.len, out) != sb.len)
			rc = tc_set(err, TC_EIO, "write failed");
	}
	buf_free(&sb);
	free(ids);
	tc_stack_dispose(&st);
	return rc;
}
