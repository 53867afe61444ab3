#include "smt.h"

#include <stdio.h>
#include <string.h>

#include "desc.h"

static const char *const tag_names[] = {"Top", "Integer", "Float", "Double", "Long",
                                        "Null", "UninitializedThis", "Object", "Uninitialized"};

const char *smt_tag_name(uint8_t tag)
{
	return tag <= VT_UNINIT ? tag_names[tag] : "invalid";
}

bool smt_vtype_eq(const smt_vtype *a, const smt_vtype *b)
{
	if (a->tag != b->tag)
		return false;
	if (a->tag == VT_OBJECT)
		return a->name_len == b->name_len && memcmp(a->name, b->name, a->name_len) == 0;
	if (a->tag == VT_UNINIT)
		return a->off == b->off;
	return true;
}

bool smt_from_desc(const uint8_t *d, uint32_t len, smt_vtype *out)
{
	memset(out, 0, sizeof *out);
	if (!len)
		return false;
	switch (d[0]) {
	case 'Z': case 'B': case 'C': case 'S': case 'I':
		out->tag = VT_INT;
		return len == 1;
	case 'F':
		out->tag = VT_FLOAT;
		return len == 1;
	case 'J':
		out->tag = VT_LONG;
		return len == 1;
	case 'D':
		out->tag = VT_DOUBLE;
		return len == 1;
	case 'L':
		if (len < 3 || d[len - 1] != ';')
			return false;
		out->tag = VT_OBJECT;
		out->name = d + 1;
		out->name_len = len - 2;
		return true;
	case '[':
		out->tag = VT_OBJECT;
		out->name = d;
		out->name_len = len;
		return true;
	}
	return false;
}

int smt_initial(const cf_class *cls, const cf_member *m, arena *a, smt_vtype **locals,
                uint16_t *nlocals, tc_error *err)
{
	uint32_t dl;
	const uint8_t *d = cp_utf8(&cls->cp, m->desc, &dl);
	cf_desc_method md;
	if (!d || !cf_desc_parse_method(d, dl, &md))
		return tc_fail(err, TC_EFORMAT, m->off, "method descriptor", "is not a valid descriptor");
	uint32_t n = md.nargs + ((m->access & ACC_STATIC) ? 0 : 1);
	smt_vtype *v = arena_array(a, n ? n : 1, sizeof *v);
	if (!v)
		return tc_fail(err, TC_ENOMEM, TC_NO_OFFSET, "stack map", "no memory");
	uint32_t k = 0;
	if (!(m->access & ACC_STATIC)) {
		memset(&v[0], 0, sizeof v[0]);
		uint32_t cl;
		const uint8_t *cn = cf_class_name(cls, &cl);
		bool is_init = cp_utf8_eq(&cls->cp, m->name, "<init>");
		bool is_object = cl == 16 && memcmp(cn, "java/lang/Object", 16) == 0;
		if (is_init && !is_object) {
			v[0].tag = VT_UNINIT_THIS;
		} else {
			v[0].tag = VT_OBJECT;
			v[0].cpidx = cls->this_class;
			v[0].name = cn;
			v[0].name_len = cl;
		}
		k = 1;
	}
	for (uint32_t pos = 1; d[pos] != ')'; k++) {
		uint32_t end = cf_desc_type_end(d, dl, pos);
		smt_from_desc(d + pos, end - pos, &v[k]);
		pos = end;
	}
	*locals = v;
	*nlocals = (uint16_t)n;
	return TC_OK;
}

static bool read_vtype(const cf_class *cls, tc_reader *r, uint32_t code_len, smt_vtype *v)
{
	memset(v, 0, sizeof *v);
	uint32_t at = rd_off(r);
	v->tag = rd_u1(r);
	if (!rd_ok(r))
		return false;
	switch (v->tag) {
	case VT_OBJECT:
		v->cpidx = rd_u2(r);
		if (!rd_ok(r))
			return false;
		v->name = cp_class_name(&cls->cp, v->cpidx, &v->name_len);
		if (!v->name) {
			tc_fail(r->err, TC_EFORMAT, at, r->part, "Object type refers to #%u, not a Class",
			        v->cpidx);
			return false;
		}
		return true;
	case VT_UNINIT:
		v->off = rd_u2(r);
		if (rd_ok(r) && v->off >= code_len) {
			tc_fail(r->err, TC_EFORMAT, at, r->part,
			        "Uninitialized(%u) is outside the code (%u bytes)", v->off, code_len);
			return false;
		}
		return rd_ok(r);
	default:
		if (v->tag > VT_UNINIT) {
			tc_fail(r->err, TC_EFORMAT, at, r->part, "unknown verification type tag %u", v->tag);
			return false;
		}
		return true;
	}
}

static smt_vtype *read_vtypes(const cf_class *cls, tc_reader *r, uint32_t n, uint32_t code_len,
                              arena *a)
{
	smt_vtype *v = arena_array(a, n ? n : 1, sizeof *v);
	if (!v) {
		tc_fail(r->err, TC_ENOMEM, rd_off(r), r->part, "no memory");
		return NULL;
	}
	for (uint32_t i = 0; i < n; i++)
		if (!read_vtype(cls, r, code_len, &v[i]))
			return NULL;
	return v;
}

/* "StackMapTable frame N" without printf: it is written once per frame decoded. */
static void frame_part(char *part, size_t size, uint32_t i)
{
	static const char prefix[] = "StackMapTable frame ";
	char digits[10];
	size_t n = 0;
	do
		digits[n++] = (char)('0' + i % 10);
	while ((i /= 10) && n < sizeof digits);
	size_t k = sizeof prefix - 1;
	if (k + n + 1 > size)
		return;
	memcpy(part, prefix, k);
	while (n)
		part[k++] = digits[--n];
	part[k] = '\0';
}

int smt_decode(const cf_class *cls, const cf_attr *attr, uint32_t code_len,
               const smt_vtype *init, uint16_t ninit, arena *a, smt_frame **frames,
               uint32_t *nframes, tc_error *err)
{
	const uint8_t *base = attr->off == TC_NO_OFFSET ? attr->data : attr->data - attr->off;
	char part[40] = "StackMapTable";
	tc_reader r = {base, attr->data, attr->data + attr->len, err, part};
	uint32_t n = rd_u2(&r);
	if (!rd_ok(&r))
		return err->code;
	smt_frame *f = arena_array(a, n ? n : 1, sizeof *f);
	if (!f)
		return tc_fail(err, TC_ENOMEM, rd_off(&r), part, "no memory for %u frames", n);
	const smt_vtype *prev = init;
	uint32_t nprev = ninit;
	int64_t last = -1;
	for (uint32_t i = 0; i < n; i++) {
		frame_part(part, sizeof part, i);
		smt_frame *fr = &f[i];
		memset(fr, 0, sizeof *fr);
		uint32_t at = rd_off(&r);
		uint8_t t = rd_u1(&r);
		uint32_t delta = 0;
		fr->type = t;
		fr->at = at;
		if (!rd_ok(&r))
			return err->code;
		if (t <= 63) {
			delta = t;
		} else if (t <= 127) {
			delta = t - 64u;
			fr->nstack = 1;
		} else if (t <= 246) {
			return tc_fail(err, TC_EFORMAT, at, part, "reserved frame_type %u", t);
		} else {
			delta = rd_u2(&r);
			if (t == 247)
				fr->nstack = 1;
		}
		if (!rd_ok(&r))
			return err->code;
		/* JVMS 4.7.4: offset = delta for the first frame, previous + delta + 1 after. */
		int64_t off = last < 0 ? (int64_t)delta : last + delta + 1;
		if (off >= code_len)
			return tc_fail(err, TC_EFORMAT, at, part, "applies at offset %lld, past the code (%u)",
			               (long long)off, code_len);
		fr->off = (uint32_t)off;
		last = off;
		if (t <= 127 || t == 247 || t == 251) {
			fr->nlocals = (uint16_t)nprev;
			fr->locals = (smt_vtype *)prev;
			if (fr->nstack && !(fr->stack = read_vtypes(cls, &r, 1, code_len, a)))
				return err->code;
		} else if (t <= 250) {
			uint32_t k = 251u - t;
			if (k > nprev)
				return tc_fail(err, TC_EFORMAT, at, part,
				               "chops %u locals from a frame with %u", k, nprev);
			fr->nlocals = (uint16_t)(nprev - k);
			fr->locals = (smt_vtype *)prev;
		} else if (t <= 254) {
			uint32_t k = t - 251u;
			if (nprev + k > UINT16_MAX)
				return tc_fail(err, TC_EFORMAT, at, part, "too many locals");
			smt_vtype *l = arena_array(a, nprev + k, sizeof *l);
			if (!l)
				return tc_fail(err, TC_ENOMEM, at, part, "no memory");
			memcpy(l, prev, nprev * sizeof *l);
			for (uint32_t j = 0; j < k; j++)
				if (!read_vtype(cls, &r, code_len, &l[nprev + j]))
					return err->code;
			fr->nlocals = (uint16_t)(nprev + k);
			fr->locals = l;
		} else {
			fr->nlocals = rd_u2(&r);
			if (!rd_ok(&r) || !(fr->locals = read_vtypes(cls, &r, fr->nlocals, code_len, a)))
				return err->code;
			fr->nstack = rd_u2(&r);
			if (!rd_ok(&r) || !(fr->stack = read_vtypes(cls, &r, fr->nstack, code_len, a)))
				return err->code;
		}
		prev = fr->locals;
		nprev = fr->nlocals;
	}
	if (rd_left(&r))
		return tc_fail(err, TC_EFORMAT, rd_off(&r), "StackMapTable",
		               "%zu bytes after the last frame", rd_left(&r));
	*frames = f;
	*nframes = n;
	return TC_OK;
}

static bool same_list(const smt_vtype *a, const smt_vtype *b, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		if (!smt_vtype_eq(&a[i], &b[i]))
			return false;
	return true;
}

static void write_vtype(cp_pool *cp, const smt_vtype *v, tc_buf *out, tc_error *err)
{
	buf_u1(out, v->tag);
	if (v->tag == VT_OBJECT) {
		uint16_t idx = v->cpidx;
		if (!idx)
			idx = cp_add_class(cp, v->name, v->name_len, err);
		buf_u2(out, idx);
	} else if (v->tag == VT_UNINIT) {
		buf_u2(out, (uint16_t)v->off);
	}
}

enum form { F_SAME, F_SAME_EXT, F_SL1, F_SL1_EXT, F_CHOP, F_APPEND, F_FULL, F_NONE };

static enum form form_of(uint8_t t)
{
	if (t <= 63) return F_SAME;
	if (t <= 127) return F_SL1;
	if (t == 247) return F_SL1_EXT;
	if (t >= 248 && t <= 250) return F_CHOP;
	if (t == 251) return F_SAME_EXT;
	if (t >= 252 && t <= 254) return F_APPEND;
	if (t == 255) return F_FULL;
	return F_NONE;
}

/* Whether form f with the original frame_type t (for chop/append: the count) encodes
 * frame fr after a frame with locals prev[0..np). */
static bool form_fits(enum form f, uint8_t t, const smt_frame *fr, const smt_vtype *prev, uint32_t np)
{
	bool same_locals = fr->nlocals == np && same_list(fr->locals, prev, np);
	switch (f) {
	case F_SAME:
	case F_SAME_EXT:
		return same_locals && fr->nstack == 0;
	case F_SL1:
	case F_SL1_EXT:
		return same_locals && fr->nstack == 1;
	case F_CHOP: {
		uint32_t k = 251u - t;
		return fr->nstack == 0 && np >= k && fr->nlocals == np - k && same_list(fr->locals, prev, fr->nlocals);
	}
	case F_APPEND: {
		uint32_t k = t - 251u;
		return fr->nstack == 0 && fr->nlocals == np + k && same_list(fr->locals, prev, np);
	}
	case F_FULL:
		return true;
	default:
		return false;
	}
}

/* The smallest frame_type that encodes fr after prev (JVMS 4.7.4 forms, by size). */
static uint8_t smallest(const smt_frame *fr, const smt_vtype *prev, uint32_t np, uint32_t delta)
{
	bool same_locals = fr->nlocals == np && same_list(fr->locals, prev, np);
	if (same_locals && fr->nstack == 0)
		return delta <= 63 ? (uint8_t)delta : 251;
	if (same_locals && fr->nstack == 1)
		return delta <= 63 ? (uint8_t)(64 + delta) : 247;
	if (fr->nstack == 0 && fr->nlocals < np && np - fr->nlocals <= 3 &&
	    same_list(fr->locals, prev, fr->nlocals))
		return (uint8_t)(251 - (np - fr->nlocals));
	if (fr->nstack == 0 && fr->nlocals > np && fr->nlocals - np <= 3 &&
	    same_list(fr->locals, prev, np))
		return (uint8_t)(251 + (fr->nlocals - np));
	return 255;
}

int smt_encode(cp_pool *cp, const smt_frame *frames, uint32_t n, const smt_vtype *init,
               uint16_t ninit, tc_buf *out, tc_error *err)
{
	if (n > UINT16_MAX)
		return tc_fail(err, TC_ELIMIT, TC_NO_OFFSET, "StackMapTable", "%u frames", n);
	buf_u2(out, (uint16_t)n);
	const smt_vtype *prev = init;
	uint32_t np = ninit;
	int64_t last = -1;
	for (uint32_t i = 0; i < n && err->code == TC_OK; i++) {
		const smt_frame *fr = &frames[i];
		int64_t d = last < 0 ? (int64_t)fr->off : (int64_t)fr->off - last - 1;
		if (d < 0 || d > UINT16_MAX)
			return tc_fail(err, TC_EARG, TC_NO_OFFSET, "StackMapTable",
			               "frames out of order at offset %u", fr->off);
		uint32_t delta = (uint32_t)d;
		uint8_t t = fr->type;
		enum form f = form_of(t);
		if (f != F_NONE && form_fits(f, t, fr, prev, np)) {
			/* Keep the original form; a short form whose delta grew takes its
			 * extended twin. */
			if (f == F_SAME && delta > 63)
				t = 251;
			else if (f == F_SAME)
				t = (uint8_t)delta;
			else if (f == F_SL1 && delta > 63)
				t = 247;
			else if (f == F_SL1)
				t = (uint8_t)(64 + delta);
		} else {
			t = smallest(fr, prev, np, delta);
		}
		buf_u1(out, t);
		if (t > 127)
			buf_u2(out, (uint16_t)delta);
		if (t <= 127 && t >= 64) {
			write_vtype(cp, &fr->stack[0], out, err);
		} else if (t == 247) {
			write_vtype(cp, &fr->stack[0], out, err);
		} else if (t >= 252 && t <= 254) {
			for (uint32_t j = np; j < fr->nlocals; j++)
				write_vtype(cp, &fr->locals[j], out, err);
		} else if (t == 255) {
			buf_u2(out, fr->nlocals);
			for (uint32_t j = 0; j < fr->nlocals; j++)
				write_vtype(cp, &fr->locals[j], out, err);
			buf_u2(out, fr->nstack);
			for (uint32_t j = 0; j < fr->nstack; j++)
				write_vtype(cp, &fr->stack[j], out, err);
		}
		prev = fr->locals;
		np = fr->nlocals;
		last = fr->off;
	}
	return err->code;
}
