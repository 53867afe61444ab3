#include "output/json.h"

static void escaped(FILE *out, const char *s)
{
	fputc('"', out);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		switch (*p) {
		case '"': fputs("\\\"", out); break;
		case '\\': fputs("\\\\", out); break;
		case '\n': fputs("\\n", out); break;
		case '\r': fputs("\\r", out); break;
		case '\t': fputs("\\t", out); break;
		default:
			if (*p < 0x20)
				fprintf(out, "\\u%04x", *p);
			else
				fputc(*p, out);
		}
	}
	fputc('"', out);
}

static void member(json *j, const char *key)
{
	if (j->depth > 0) {
		if (!j->first[j->depth])
			fputc(',', j->out);
		j->first[j->depth] = false;
		fputc('\n', j->out);
		for (int i = 0; i < j->depth; i++)
			fputs("  ", j->out);
	}
	if (key) {
		escaped(j->out, key);
		fputs(": ", j->out);
	}
}

void json_init(json *j, FILE *out)
{
	j->out = out;
	j->depth = 0;
	j->first[0] = true;
}

void json_begin(json *j, const char *key, char open)
{
	member(j, key);
	fputc(open, j->out);
	if (j->depth < 31)
		j->depth++;
	j->first[j->depth] = true;
}

void json_end(json *j, char close)
{
	bool empty = j->first[j->depth];
	if (j->depth > 0)
		j->depth--;
	if (!empty) {
		fputc('\n', j->out);
		for (int i = 0; i < j->depth; i++)
			fputs("  ", j->out);
	}
	fputc(close, j->out);
	if (j->depth == 0)
		fputc('\n', j->out);
}

void json_str(json *j, const char *key, const char *value)
{
	member(j, key);
	escaped(j->out, value ? value : "");
}

void json_u64(json *j, const char *key, uint64_t value)
{
	member(j, key);
	fprintf(j->out, "%llu", (unsigned long long)value);
}

void json_num(json *j, const char *key, double value)
{
	member(j, key);
	fprintf(j->out, "%.3f", value);
}

void json_bool(json *j, const char *key, bool value)
{
	member(j, key);
	fputs(value ? "true" : "false", j->out);
}
