/* Adding ids to a model, and the order the writer gives them: model indices stay as
 * handed out; dex_id_maps computes where each lands in the file. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dex.h"
#include "dex_ids.h"

void *dex_item_new(dex_file *d, size_t size)
{
	return arena_zalloc(d->a, size);
}

/* Room for one more entry of a vector of the model (its elements of esize bytes). */
static bool reserve(dex_file *d, void **v, uint32_t n, uint32_t *cap, size_t esize)
{
	if (n < *cap)
		return true;
	uint32_t ncap = *cap * 2 + 16;
	void *nv = arena_grow(d->a, *v, *cap * esize, ncap * esize);
	if (!nv)
		return false;
	*v = nv;
	*cap = ncap;
	return true;
}

#define RESERVE(d, vec) reserve((d), (void **)&(vec).v, (vec).n, &(vec).cap, sizeof *(vec).v)

static int nomem(tc_error *err)
{
	return tc_fail(err, TC_ENOMEM, TC_NO_OFFSET, "dex", "no memory");
}

static int cmp_u32(uint32_t a, uint32_t b)
{
	return a < b ? -1 : a > b;
}

/* How entry i of a vector compares with the key looked up (in the file's order). */
typedef int (*key_cmp)(const dex_file *d, uint32_t i, const void *key);

/* The one lookup of every id kind: the input's entries [0, in) are in the file's order
 * (checked by the reader), so a binary search; the entries added since, [in, n), are in
 * the order they were added, so a scan. */
static bool find(const dex_file *d, uint32_t in, uint32_t n, key_cmp cmp, const void *key, uint32_t *idx)
{
	uint32_t lo = 0, hi = in;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		int c = cmp(d, mid, key);
		if (!c) {
			*idx = mid;
			return true;
		}
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (uint32_t i = in; i < n; i++)
		if (!cmp(d, i, key)) {
			*idx = i;
			return true;
		}
	return false;
}

typedef struct str_key {
	const uint8_t *data;
	uint32_t len;
} str_key;

static int key_string(const dex_file *d, uint32_t i, const void *key)
{
	const str_key *k = key;
	return dex_mutf8_cmp(d->strings.v[i].data, d->strings.v[i].len, k->data, k->len);
}

static int key_type(const dex_file *d, uint32_t i, const void *key)
{
	return cmp_u32(d->types.v[i], *(const uint32_t *)key);
}

static int key_method(const dex_file *d, uint32_t i, const void *key)
{
	const dex_mid *m = &d->methods.v[i], *k = key;
	int r = cmp_u32(m->cls, k->cls);
	if (!r)
		r = cmp_u32(m->name, k->name);
	return r ? r : cmp_u32(m->proto, k->proto);
}

static int key_field(const dex_file *d, uint32_t i, const void *key)
{
	const dex_fid *f = &d->fields.v[i], *k = key;
	int r = cmp_u32(f->cls, k->cls);
	if (!r)
		r = cmp_u32(f->name, k->name);
	return r ? r : cmp_u32(f->type, k->type);
}

int dex_intern_string(dex_file *d, const char *s, size_t len, uint32_t *idx, tc_error *err)
{
	uint32_t utf16;
	const uint8_t *u = (const uint8_t *)s;
	if (len > UINT32_MAX / 2 || !dex_mutf8_check(u, (uint32_t)len, &utf16))
		return tc_fail(err, TC_EARG, TC_NO_OFFSET, "dex", "string to add is not valid MUTF-8");
	str_key key = {u, (uint32_t)len};
	if (find(d, d->strings.in, d->strings.n, key_string, &key, idx))
		return TC_OK;
	uint8_t *copy = arena_dup(d->a, s, len ? len : 1);
	if (!copy || !RESERVE(d, d->strings))
		return nomem(err);
	dex_str *n = &d->strings.v[d->strings.n];
	memset(n, 0, sizeof *n);
	n->data = copy;
	n->len = (uint32_t)len;
	n->utf16 = utf16;
	*idx = d->strings.n++;
	return TC_OK;
}

static bool find_type(const dex_file *d, uint32_t str, uint32_t *idx)
{
	return find(d, d->types.in, d->types.n, key_type, &str, idx);
}

static bool valid_desc(const char *s, size_t n, bool allow_void)
{
	size_t dims = 0;
	while (dims < n && s[dims] == '[')
		dims++;
	if (dims == n || dims > 255)
		return false;
	const char *t = s + dims;
	size_t rest = n - dims;
	if (*t == 'L')
		return rest >= 3 && t[rest - 1] == ';' && !memchr(t + 1, ';', rest - 2);
	return rest == 1 && strchr(allow_void && !dims ? "ZBSCIJFDV" : "ZBSCIJFD", *t) != NULL;
}

static int intern_type_n(dex_file *d, const char *desc, size_t n, uint32_t *idx, tc_error *err)
{
	if (!valid_desc(desc, n, true))
		return tc_fail(err, TC_EARG, TC_NO_OFFSET, "dex", "bad type descriptor %.*s", (int)n, desc);
	uint32_t str;
	if (dex_intern_string(d, desc, n, &str, err) != TC_OK)
		return err->code;
	if (find_type(d, str, idx))
		return TC_OK;
	if (!RESERVE(d, d->types))
		return nomem(err);
	d->types.v[d->types.n] = str;
	*idx = d->types.n++;
	return TC_OK;
}

int dex_intern_type(dex_file *d, const char *desc, uint32_t *idx, tc_error *err)
{
	return intern_type_n(d, desc, strlen(desc), idx, err);
}

static int proto_cmp(const dex_proto *x, uint32_t ret, const uint32_t *params, uint32_t np)
{
	int r = cmp_u32(x->ret, ret);
	if (r)
		return r;
	uint32_t nx = x->params ? x->params->n : 0;
	for (uint32_t i = 0; i < nx && i < np; i++)
		if ((r = cmp_u32(x->params->types[i], params[i])))
			return r;
	return cmp_u32(nx, np);
}

typedef struct proto_key {
	uint32_t ret;
	const uint32_t *params;
	uint32_t np;
} proto_key;

static int key_proto(const dex_file *d, uint32_t i, const void *key)
{
	const proto_key *k = key;
	return proto_cmp(&d->protos.v[i], k->ret, k->params, k->np);
}

int dex_intern_proto(dex_file *d, const char *desc, uint32_t *idx, tc_error *err)
{
	size_t len = strlen(desc);
	if (len < 3 || desc[0] != '(')
		return tc_fail(err, TC_EARG, TC_NO_OFFSET, "dex", "bad method descriptor %s", desc);
	uint32_t params[256], np = 0, ret;
	char shorty[258];
	size_t i = 1;
	while (i < len && desc[i] != ')') {
		size_t k = i;
		while (k < len && desc[k] == '[')
			k++;
		if (k < len && desc[k] == 'L') {
			const char *semi = memchr(desc + k, ';', len - k);
			if (!semi)
				return tc_fail(err, TC_EARG, TC_NO_OFFSET, "dex", "bad method descriptor %s", desc);
			k = (size_t)(semi - desc);
		}
		if (np == 255 || k >= len)
			return tc_fail(err, TC_EARG, TC_NO_OFFSET, "dex", "bad method descriptor %s", desc);
		if (desc[i] == 'V' || intern_type_n(d, desc + i, k + 1 - i, &params[np], err) != TC_OK)
			return err->code ? err->code
			                 : tc_fail(err, TC_EARG, TC_NO_OFFSET, "dex", "bad method descriptor %s", desc);
		shorty[1 + np] = desc[i] == '[' ? 'L' : desc[i];
		np++;
		i = k + 1;
	}
	if (i >= len || intern_type_n(d, desc + i + 1, len - i - 1, &ret, err) != TC_OK)
		return err->code ? err->code : tc_fail(err, TC_EARG, TC_NO_OFFSET, "dex", "bad method descriptor %s", desc);
	shorty[0] = desc[i + 1] == '[' ? 'L' : desc[i + 1];
	uint32_t sh;
	if (dex_intern_string(d, shorty, np + 1, &sh, err) != TC_OK)
		return err->code;
	proto_key key = {ret, params, np};
	if (find(d, d->protos.in, d->protos.n, key_proto, &key, idx))
		return TC_OK;
	/* A type list with the same types is shared, as d8 shares them. */
	dex_tlist *tl = NULL;
	for (uint32_t k = 0; np && k < d->protos.n && !tl; k++) {
		dex_tlist *p = d->protos.v[k].params;
		if (p && p->n == np && !memcmp(p->types, params, np * sizeof *params))
			tl = p;
	}
	if (np && !tl) {
		if (!(tl = dex_item_new(d, sizeof *tl)) || !(tl->types = arena_dup(d->a, params, np * sizeof *params)))
			return nomem(err);
		tl->n = np;
	}
	if (!RESERVE(d, d->protos))
		return nomem(err);
	d->protos.v[d->protos.n] = (dex_proto){sh, ret, tl};
	*idx = d->protos.n++;
	return TC_OK;
}

int dex_intern_method(dex_file *d, const char *cls, const char *name, const char *desc, uint32_t *idx,
                      tc_error *err)
{
	uint32_t c, n, p;
	if (dex_intern_type(d, cls, &c, err) != TC_OK ||
	    dex_intern_string(d, name, strlen(name), &n, err) != TC_OK ||
	    dex_intern_proto(d, desc, &p, err) != TC_OK)
		return err->code;
	dex_mid key = {c, p, n};
	if (find(d, d->methods.in, d->methods.n, key_method, &key, idx))
		return TC_OK;
	if (!RESERVE(d, d->methods))
		return nomem(err);
	d->methods.v[d->methods.n] = key;
	*idx = d->methods.n++;
	return TC_OK;
}

int dex_intern_field(dex_file *d, const char *cls, const char *name, const char *type, uint32_t *idx,
                     tc_error *err)
{
	uint32_t c, n, t;
	if (dex_intern_type(d, cls, &c, err) != TC_OK || dex_intern_string(d, name, strlen(name), &n, err) != TC_OK ||
	    dex_intern_type(d, type, &t, err) != TC_OK)
		return err->code;
	dex_fid key = {c, t, n};
	if (find(d, d->fields.in, d->fields.n, key_field, &key, idx))
		return TC_OK;
	if (!RESERVE(d, d->fields))
		return nomem(err);
	d->fields.v[d->fields.n] = key;
	*idx = d->fields.n++;
	return TC_OK;
}

/* --- the file's order ------------------------------------------------------------------ */

typedef struct order_ctx {
	const dex_file *d;
	const uint32_t *const *maps; /* lower levels, already computed (NULL: identity) */
} order_ctx;

static uint32_t m(const order_ctx *o, int kind, uint32_t v)
{
	return o->maps[kind] ? o->maps[kind][v] : v;
}

static int cmp_string(const order_ctx *o, uint32_t a, uint32_t b)
{
	const dex_str *x = &o->d->strings.v[a], *y = &o->d->strings.v[b];
	return dex_mutf8_cmp(x->data, x->len, y->data, y->len);
}

static int cmp_type(const order_ctx *o, uint32_t a, uint32_t b)
{
	return cmp_u32(m(o, DEX_MAP_STRING, o->d->types.v[a]), m(o, DEX_MAP_STRING, o->d->types.v[b]));
}

static int cmp_proto(const order_ctx *o, uint32_t a, uint32_t b)
{
	const dex_proto *x = &o->d->protos.v[a], *y = &o->d->protos.v[b];
	int r = cmp_u32(m(o, DEX_MAP_TYPE, x->ret), m(o, DEX_MAP_TYPE, y->ret));
	if (r)
		return r;
	uint32_t nx = x->params ? x->params->n : 0, ny = y->params ? y->params->n : 0;
	for (uint32_t i = 0; i < nx && i < ny; i++)
		if ((r = cmp_u32(m(o, DEX_MAP_TYPE, x->params->types[i]), m(o, DEX_MAP_TYPE, y->params->types[i]))))
			return r;
	return cmp_u32(nx, ny);
}

static int cmp_field(const order_ctx *o, uint32_t a, uint32_t b)
{
	const dex_fid *x = &o->d->fields.v[a], *y = &o->d->fields.v[b];
	int r = cmp_u32(m(o, DEX_MAP_TYPE, x->cls), m(o, DEX_MAP_TYPE, y->cls));
	if (!r)
		r = cmp_u32(m(o, DEX_MAP_STRING, x->name), m(o, DEX_MAP_STRING, y->name));
	if (!r)
		r = cmp_u32(m(o, DEX_MAP_TYPE, x->type), m(o, DEX_MAP_TYPE, y->type));
	return r;
}

static int cmp_method(const order_ctx *o, uint32_t a, uint32_t b)
{
	const dex_mid *x = &o->d->methods.v[a], *y = &o->d->methods.v[b];
	int r = cmp_u32(m(o, DEX_MAP_TYPE, x->cls), m(o, DEX_MAP_TYPE, y->cls));
	if (!r)
		r = cmp_u32(m(o, DEX_MAP_STRING, x->name), m(o, DEX_MAP_STRING, y->name));
	if (!r)
		r = cmp_u32(m(o, DEX_MAP_PROTO, x->proto), m(o, DEX_MAP_PROTO, y->proto));
	return r;
}

typedef int (*cmp_fn)(const order_ctx *, uint32_t, uint32_t);

/* A stable merge sort of v[0..n) with tmp as scratch. */
static void sort(uint32_t *v, uint32_t *tmp, uint32_t n, cmp_fn cmp, const order_ctx *o)
{
	if (n < 2)
		return;
	uint32_t h = n / 2;
	sort(v, tmp, h, cmp, o);
	sort(v + h, tmp, n - h, cmp, o);
	uint32_t i = 0, j = h, k = 0;
	while (i < h && j < n)
		tmp[k++] = cmp(o, v[j], v[i]) < 0 ? v[j++] : v[i++];
	while (i < h)
		tmp[k++] = v[i++];
	while (j < n)
		tmp[k++] = v[j++];
	memcpy(v, tmp, n * sizeof *v);
}

/* The input's entries are in file order already (checked by the reader) and every
 * lower-level map is monotonic on them, so only the added entries are sorted and then
 * merged in. */
static int level(const order_ctx *o, uint32_t in, uint32_t n, cmp_fn cmp, arena *a, uint32_t **out,
                 const char *what, uint32_t limit, tc_error *err)
{
	*out = NULL;
	if (n > limit)
		return tc_fail(err, TC_ELIMIT, TC_NO_OFFSET, "dex", "%u %s ids: more than the format's %u", n, what,
		               limit);
	if (n == in)
		return TC_OK;
	uint32_t k = n - in;
	uint32_t *added = arena_array(a, k, sizeof *added), *tmp = arena_array(a, k, sizeof *tmp);
	uint32_t *map = arena_array(a, n, sizeof *map);
	if (!added || !tmp || !map)
		return nomem(err);
	for (uint32_t i = 0; i < k; i++)
		added[i] = in + i;
	sort(added, tmp, k, cmp, o);
	uint32_t i = 0, j = 0, pos = 0;
	while (i < in || j < k) {
		if (j == k || (i < in && cmp(o, i, added[j]) < 0))
			map[i++] = pos++;
		else
			map[added[j++]] = pos++;
	}
	*out = map;
	return TC_OK;
}

int dex_id_maps(const dex_file *d, arena *a, uint32_t *maps[DEX_MAP_KINDS], tc_error *err)
{
	const uint32_t *view[DEX_MAP_KINDS] = {0};
	order_ctx o = {d, view};
	for (int i = 0; i < DEX_MAP_KINDS; i++)
		maps[i] = NULL;
	if (level(&o, d->strings.in, d->strings.n, cmp_string, a, &maps[DEX_MAP_STRING], "string", UINT32_MAX,
	          err) != TC_OK)
		return err->code;
	view[DEX_MAP_STRING] = maps[DEX_MAP_STRING];
	if (level(&o, d->types.in, d->types.n, cmp_type, a, &maps[DEX_MAP_TYPE], "type", 65535, err) != TC_OK)
		return err->code;
	view[DEX_MAP_TYPE] = maps[DEX_MAP_TYPE];
	if (level(&o, d->protos.in, d->protos.n, cmp_proto, a, &maps[DEX_MAP_PROTO], "proto", 65535, err) !=
	    TC_OK)
		return err->code;
	view[DEX_MAP_PROTO] = maps[DEX_MAP_PROTO];
	if (level(&o, d->fields.in, d->fields.n, cmp_field, a, &maps[DEX_MAP_FIELD], "field", 65536, err) !=
	        TC_OK ||
	    level(&o, d->methods.in, d->methods.n, cmp_method, a, &maps[DEX_MAP_METHOD], "method", 65536, err) !=
	        TC_OK)
		return err->code;
	return TC_OK;
}

void dex_mark_ids(const dex_file *d, dex_mark *m)
{
	*m = (dex_mark){d->strings.n, d->types.n, d->protos.n, d->fields.n, d->methods.n};
}

void dex_rollback_ids(dex_file *d, const dex_mark *m)
{
	d->strings.n = m->strings;
	d->types.n = m->types;
	d->protos.n = m->protos;
	d->fields.n = m->fields;
	d->methods.n = m->methods;
}

/* The format's limits (dex format: type_ids and proto_ids are indexed by u2 and 0xffff is
 * NO_INDEX; field and method ids by u2 in instructions). */
static const struct {
	const char *what, *limit;
	uint32_t max;
} LIMITS[] = {
	{"type", "65,535", 65535}, {"proto", "65,535", 65535}, {"field", "65,536", 65536}, {"method", "65,536", 65536},
};

/* v with a comma every three digits, as the limits are written: 65,536 */
static void thousands(uint32_t v, char out[16])
{
	char digits[12];
	int n = snprintf(digits, sizeof digits, "%u", v), k = 0;
	for (int i = 0; i < n; i++) {
		if (i && (n - i) % 3 == 0)
			out[k++] = ',';
		out[k++] = digits[i];
	}
	out[k] = '\0';
}

bool dex_ids_fit(const dex_file *d)
{
	char buf[8];
	return !dex_ids_over(d, buf, sizeof buf);
}

const char *dex_ids_over(const dex_file *d, char *buf, size_t size)
{
	const uint32_t n[] = {d->types.n, d->protos.n, d->fields.n, d->methods.n};
	for (size_t i = 0; i < sizeof LIMITS / sizeof LIMITS[0]; i++) {
		if (n[i] > LIMITS[i].max) {
			char need[16];
			thousands(n[i], need);
			snprintf(buf, size, "a dex holds at most %s %s ids (this one would need %s)", LIMITS[i].limit,
			         LIMITS[i].what, need);
			return buf;
		}
	}
	return NULL;
}
