#include "classfile.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* Error labels are formatted only when something fails: parsing is hot. */
static void owner_label(const cf_class *cls, const cf_member *m, char *buf, size_t size)
{
	if (m)
		cf_member_label(cls, m, buf, size);
	else
		snprintf(buf, size, "%s", "the class");
}

#if defined(__GNUC__)
__attribute__((format(printf, 7, 8)))
#endif
static int attrs_fail(const cf_class *cls, const cf_member *m, tc_error *err, int code,
                      uint32_t at, uint32_t i, const char *fmt, ...)
{
	char owner[160], part[96], msg[160];
	owner_label(cls, m, owner, sizeof owner);
	snprintf(part, sizeof part, "attribute %u of %.70s", i, owner);
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	return tc_fail(err, code, at, part, "%s", msg);
}

static int parse_attrs(const cf_class *cls, tc_reader *r, uint16_t *n, cf_attr **out,
                       const cf_member *m)
{
	uint32_t i = UINT32_MAX; /* the attribute being read, once the count is */
	r->part = "attributes";
	*n = rd_u2(r);
	if (!rd_ok(r))
		goto truncated;
	*out = arena_array(cls->arena, *n ? *n : 1, sizeof(cf_attr));
	if (!*out)
		return tc_fail(r->err, TC_ENOMEM, rd_off(r), "attributes", "no memory for %u attributes", *n);
	for (i = 0; i < *n; i++) {
		cf_attr *at = &(*out)[i];
		uint32_t start = rd_off(r);
		at->name = rd_u2(r);
		at->len = rd_u4(r);
		if (!rd_ok(r))
			goto truncated;
		if (cp_tag(&cls->cp, at->name) != CP_UTF8)
			return attrs_fail(cls, m, r->err, TC_EFORMAT, start, i,
			                  "attribute_name_index %u is not a Utf8 entry", at->name);
		at->off = rd_off(r);
		if (at->len > rd_left(r))
			return attrs_fail(cls, m, r->err, TC_ETRUNC, start, i,
			                  "declares %u bytes, only %zu left", at->len, rd_left(r));
		at->data = rd_bytes(r, at->len);
	}
	return TC_OK;
truncated:
	/* The reader reported "attributes"; name whose, and which one was cut off. */
	if (r->err->code == TC_ETRUNC) {
		char owner[160];
		owner_label(cls, m, owner, sizeof owner);
		if (i == UINT32_MAX)
			snprintf(r->err->part, sizeof r->err->part, "attributes of %.70s", owner);
		else
			snprintf(r->err->part, sizeof r->err->part, "attribute %u of %.70s", i, owner);
	}
	return r->err->code;
}

static int parse_members(cf_class *cls, tc_reader *r, uint16_t *n, cf_member **out, bool methods)
{
	const char *what = methods ? "methods" : "fields";
	r->part = what;
	*n = rd_u2(r);
	if (!rd_ok(r))
		return r->err->code;
	*out = arena_array(cls->arena, *n ? *n : 1, sizeof(cf_member));
	if (!*out)
		return tc_fail(r->err, TC_ENOMEM, rd_off(r), what, "no memory for %u %s", *n, what);
	for (uint32_t i = 0; i < *n; i++) {
		cf_member *m = &(*out)[i];
		r->part = what;
		m->off = rd_off(r);
		m->access = rd_u2(r);
		m->name = rd_u2(r);
		m->desc = rd_u2(r);
		if (!rd_ok(r)) {
			snprintf(r->err->part, sizeof r->err->part, "%s[%u]", what, i);
			return r->err->code;
		}
		if (cp_tag(&cls->cp, m->name) != CP_UTF8 || cp_tag(&cls->cp, m->desc) != CP_UTF8) {
			char part[48];
			snprintf(part, sizeof part, "%s[%u]", what, i);
			return tc_fail(r->err, TC_EFORMAT, m->off, part,
			               "name %u or descriptor %u is not a Utf8 entry", m->name, m->desc);
		}
		if (parse_attrs(cls, r, &m->nattrs, &m->attrs, m) != TC_OK)
			return r->err->code;
	}
	return TC_OK;
}

int cf_parse(cf_class *cls, arena *a, const uint8_t *data, size_t len, tc_error *err)
{
	memset(cls, 0, sizeof *cls);
	cls->arena = a;
	cls->input_len = len;
	if (len > UINT32_MAX)
		return tc_fail(err, TC_ELIMIT, 0, "class file", "%zu bytes is over 4 GiB", len);
	tc_reader r = rd_init(data, len, err);
	r.part = "magic";
	uint32_t magic = rd_u4(&r);
	if (!rd_ok(&r))
		return err->code;
	if (magic != 0xCAFEBABE)
		return tc_fail(err, TC_EFORMAT, 0, "magic", "is 0x%08X, not 0xCAFEBABE", magic);
	r.part = "version";
	cls->minor = rd_u2(&r);
	cls->major = rd_u2(&r);
	if (!rd_ok(&r))
		return err->code;
	if (cls->major < CF_MAJOR_MIN || cls->major > CF_MAJOR_MAX)
		return tc_fail(err, TC_EVERSION, 4, "version", "%u.%u is outside %u.0 .. %u.0", cls->major,
		               cls->minor, CF_MAJOR_MIN, CF_MAJOR_MAX);
	if (cp_parse(&cls->cp, a, &r) != TC_OK)
		return err->code;
	r.part = "class header";
	uint32_t hdr = rd_off(&r);
	cls->access = rd_u2(&r);
	cls->this_class = rd_u2(&r);
	cls->super_class = rd_u2(&r);
	cls->ninterfaces = rd_u2(&r);
	if (!rd_ok(&r))
		return err->code;
	if (cp_tag(&cls->cp, cls->this_class) != CP_CLASS)
		return tc_fail(err, TC_EFORMAT, hdr + 2, "this_class", "%u is not a Class entry",
		               cls->this_class);
	if (cls->super_class && cp_tag(&cls->cp, cls->super_class) != CP_CLASS)
		return tc_fail(err, TC_EFORMAT, hdr + 4, "super_class", "%u is not a Class entry",
		               cls->super_class);
	cls->interfaces = arena_array(a, cls->ninterfaces ? cls->ninterfaces : 1, sizeof(uint16_t));
	if (!cls->interfaces)
		return tc_fail(err, TC_ENOMEM, hdr, "interfaces", "no memory");
	r.part = "interfaces";
	for (uint32_t i = 0; i < cls->ninterfaces; i++) {
		uint32_t at = rd_off(&r);
		cls->interfaces[i] = rd_u2(&r);
		if (!rd_ok(&r))
			return err->code;
		if (cp_tag(&cls->cp, cls->interfaces[i]) != CP_CLASS)
			return tc_fail(err, TC_EFORMAT, at, "interfaces", "entry %u (#%u) is not a Class entry",
			               i, cls->interfaces[i]);
	}
	if (parse_members(cls, &r, &cls->nfields, &cls->fields, false) != TC_OK ||
	    parse_members(cls, &r, &cls->nmethods, &cls->methods, true) != TC_OK ||
	    parse_attrs(cls, &r, &cls->nattrs, &cls->attrs, NULL) != TC_OK)
		return err->code;
	if (rd_left(&r))
		return tc_fail(err, TC_EFORMAT, rd_off(&r), "class file",
		               "%zu extra bytes after the last attribute", rd_left(&r));
	return TC_OK;
}

static void write_attrs(tc_buf *out, const cf_attr *attrs, uint16_t n)
{
	buf_u2(out, n);
	for (uint32_t i = 0; i < n; i++) {
		buf_u2(out, attrs[i].name);
		buf_u4(out, attrs[i].len);
		buf_bytes(out, attrs[i].data, attrs[i].len);
	}
}

static void write_members(tc_buf *out, const cf_member *ms, uint16_t n)
{
	buf_u2(out, n);
	for (uint32_t i = 0; i < n; i++) {
		buf_u2(out, ms[i].access);
		buf_u2(out, ms[i].name);
		buf_u2(out, ms[i].desc);
		write_attrs(out, ms[i].attrs, ms[i].nattrs);
	}
}

int cf_write(const cf_class *cls, tc_buf *out, tc_error *err)
{
	buf_u4(out, 0xCAFEBABE);
	buf_u2(out, cls->minor);
	buf_u2(out, cls->major);
	cp_write(&cls->cp, out);
	buf_u2(out, cls->access);
	buf_u2(out, cls->this_class);
	buf_u2(out, cls->super_class);
	buf_u2(out, cls->ninterfaces);
	for (uint32_t i = 0; i < cls->ninterfaces; i++)
		buf_u2(out, cls->interfaces[i]);
	write_members(out, cls->fields, cls->nfields);
	write_members(out, cls->methods, cls->nmethods);
	write_attrs(out, cls->attrs, cls->nattrs);
	if (out->err)
		return tc_fail(err, out->err, TC_NO_OFFSET, "class writer", "output buffer: %s",
		               tc_strerror(out->err));
	return TC_OK;
}

cf_attr *cf_find_attr(const cf_class *cls, cf_attr *attrs, uint16_t n, const char *name)
{
	for (uint32_t i = 0; i < n; i++)
		if (cp_utf8_eq(&cls->cp, attrs[i].name, name))
			return &attrs[i];
	return NULL;
}

const uint8_t *cf_class_name(const cf_class *cls, uint32_t *len)
{
	return cp_class_name(&cls->cp, cls->this_class, len);
}

void cf_member_label(const cf_class *cls, const cf_member *m, char *buf, size_t size)
{
	uint32_t nl = 0, dl = 0;
	const uint8_t *n = cp_utf8(&cls->cp, m->name, &nl);
	const uint8_t *d = cp_utf8(&cls->cp, m->desc, &dl);
	snprintf(buf, size, "%.*s%.*s", n ? (int)(nl > 100 ? 100 : nl) : 1, n ? (const char *)n : "?",
	         d ? (int)(dl > 200 ? 200 : dl) : 1, d ? (const char *)d : "?");
}

int cf_add_method(cf_class *cls, const cf_member *m, tc_error *err)
{
	if (cls->nmethods == UINT16_MAX)
		return tc_fail(err, TC_ELIMIT, TC_NO_OFFSET, "methods", "already 65535 methods");
	cf_member *ms = arena_grow(cls->arena, cls->methods, cls->nmethods * sizeof *ms,
	                           (cls->nmethods + 1u) * sizeof *ms);
	if (!ms)
		return tc_fail(err, TC_ENOMEM, TC_NO_OFFSET, "methods", "no memory to add a method");
	ms[cls->nmethods] = *m;
	ms[cls->nmethods].off = TC_NO_OFFSET;
	cls->methods = ms;
	cls->nmethods++;
	return TC_OK;
}

int cf_set_attr(cf_class *cls, cf_attr **attrs, uint16_t *nattrs, cf_attr *at, const char *name,
                const uint8_t *data, uint32_t len, tc_error *err)
{
	if (!at) {
		uint16_t nm = cp_add_utf8(&cls->cp, name, (uint32_t)strlen(name), err);
		if (!nm)
			return err->code;
		if (*nattrs == UINT16_MAX)
			return tc_fail(err, TC_ELIMIT, TC_NO_OFFSET, name, "already 65535 attributes");
		cf_attr *n = arena_grow(cls->arena, *attrs, *nattrs * sizeof *n, (*nattrs + 1u) * sizeof *n);
		if (!n)
			return tc_fail(err, TC_ENOMEM, TC_NO_OFFSET, name, "no memory for an attribute");
		*attrs = n;
		at = &n[(*nattrs)++];
		at->name = nm;
	}
	at->data = data;
	at->len = len;
	at->off = TC_NO_OFFSET;
	return TC_OK;
}

/* --- Code ------------------------------------------------------------------------- */

cf_attr *cf_method_code(const cf_class *cls, const cf_member *m)
{
	return cf_find_attr(cls, m->attrs, m->nattrs, "Code");
}

/* A reader over an attribute body whose offsets are those of the class file, so every
 * message names the absolute position. New attributes count from their own start. */
static tc_reader attr_reader(const cf_attr *attr, tc_error *err, const char *part)
{
	const uint8_t *base = attr->off == TC_NO_OFFSET ? attr->data : attr->data - attr->off;
	tc_reader r = {base, attr->data, attr->data + attr->len, err, part};
	return r;
}

int cf_code_parse(const cf_class *cls, const cf_attr *attr, cf_code *out, tc_error *err)
{
	memset(out, 0, sizeof *out);
	tc_reader r = attr_reader(attr, err, "Code");
	/* HotSpot reads classes before 45.3 with 1-byte max_stack/max_locals and a 2-byte
	 * code_length (classFileParser.cpp, parse_method). */
	out->old_format = cls->major < 45 || (cls->major == 45 && cls->minor < 3);
	if (out->old_format) {
		out->max_stack = rd_u1(&r);
		out->max_locals = rd_u1(&r);
		out->len = rd_u2(&r);
	} else {
		out->max_stack = rd_u2(&r);
		out->max_locals = rd_u2(&r);
		out->len = rd_u4(&r);
	}
	if (!rd_ok(&r))
		return err->code;
	/* JVMS 4.7.3: 0 < code_length < 65536. */
	if (out->len == 0 || out->len > 65535)
		return tc_fail(err, TC_EFORMAT, rd_off(&r) - (out->old_format ? 2 : 4), "Code",
		               "code_length %u is not 1..65535", out->len);
	out->code_off = rd_off(&r);
	out->code = rd_bytes(&r, out->len);
	r.part = "exception table";
	out->nexc = rd_u2(&r);
	if (!rd_ok(&r))
		return err->code;
	out->exc = arena_array(cls->arena, out->nexc ? out->nexc : 1, sizeof(cf_exc));
	if (!out->exc)
		return tc_fail(err, TC_ENOMEM, rd_off(&r), "exception table", "no memory");
	for (uint32_t i = 0; i < out->nexc; i++) {
		uint32_t at = rd_off(&r);
		cf_exc *e = &out->exc[i];
		e->start = rd_u2(&r);
		e->end = rd_u2(&r);
		e->handler = rd_u2(&r);
		e->type = rd_u2(&r);
		if (!rd_ok(&r))
			return err->code;
		if (e->start >= e->end || e->end > out->len || e->handler >= out->len)
			return tc_fail(err, TC_EFORMAT, at, "exception table",
			               "entry %u: range %u..%u or handler %u outside the code", i,
			               e->start, e->end, e->handler);
		if (e->type && cp_tag(&cls->cp, e->type) != CP_CLASS)
			return tc_fail(err, TC_EFORMAT, at + 6, "exception table",
			               "entry %u: catch_type %u is not a Class entry", i, e->type);
	}
	if (parse_attrs(cls, &r, &out->nattrs, &out->attrs, NULL) != TC_OK) {
		/* parse_attrs calls the owner "the class"; here it is the Code attribute
		 * ("attribute 2 of Code", "attributes of Code"). */
		char *owner = strstr(err->part, "the class");
		if (owner)
			snprintf(owner, sizeof err->part - (size_t)(owner - err->part), "%s", "Code");
		return err->code;
	}
	if (rd_left(&r))
		return tc_fail(err, TC_EFORMAT, rd_off(&r), "Code",
		               "%zu bytes after its last attribute, inside its declared length",
		               rd_left(&r));
	return TC_OK;
}

size_t cf_code_size(const cf_code *code)
{
	size_t n = (code->old_format ? 4 : 8) + (size_t)code->len + 2 + 8 * (size_t)code->nexc + 2;
	for (uint32_t i = 0; i < code->nattrs; i++)
		n += 6 + (size_t)code->attrs[i].len;
	return n;
}

void cf_code_write(const cf_code *code, tc_buf *out)
{
	if (code->old_format) {
		buf_u1(out, (uint8_t)code->max_stack);
		buf_u1(out, (uint8_t)code->max_locals);
		buf_u2(out, (uint16_t)code->len);
	} else {
		buf_u2(out, code->max_stack);
		buf_u2(out, code->max_locals);
		buf_u4(out, code->len);
	}
	buf_bytes(out, code->code, code->len);
	buf_u2(out, code->nexc);
	for (uint32_t i = 0; i < code->nexc; i++) {
		buf_u2(out, code->exc[i].start);
		buf_u2(out, code->exc[i].end);
		buf_u2(out, code->exc[i].handler);
		buf_u2(out, code->exc[i].type);
	}
	write_attrs(out, code->attrs, code->nattrs);
}
