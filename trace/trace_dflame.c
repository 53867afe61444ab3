/* trace_dflame.c: see trace_dflame.h. */
#include "trace_dflame.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bytes.h"
#include "trace_flame.h"
#include "trace_index.h"

#define NONE SIZE_MAX

typedef struct dnode {
	size_t parent, first_child, last_child, next_sibling, depth;
	uint32_t key;
	double total[2], self[2], calls[2]; /* sums over the side's recordings */
} dnode;

struct tr_dflame {
	size_t n[2];
	dnode *v;
	size_t nv, capv;
	tr_index nodes;            /* (parent, key) -> node */
	char **keys;
	size_t nkeys, capk;
	tr_index texts;            /* key text -> key */
	uint32_t *kid, *stamp, gen; /* per method id: its key for the spans being added */
	size_t *node_of, cap_of;   /* per span: its node */
	uint64_t *kids, cap_kids;  /* per span: its children's time */
};

void tr_dflame_free(tr_dflame *f)
{
	if (!f)
		return;
	for (size_t i = 0; i < f->nkeys; i++)
		free(f->keys[i]);
	free(f->keys);
	tr_index_dispose(&f->texts);
	free(f->v);
	tr_index_dispose(&f->nodes);
	free(f->kid);
	free(f->stamp);
	free(f->node_of);
	free(f->kids);
	free(f);
}

static uint64_t node_hash(const void *ctx, size_t k)
{
	const dnode *v = ctx;
	return tr_hash_pair(v[k].parent, v[k].key);
}

static uint64_t text_hash(const void *ctx, size_t k)
{
	char *const *keys = ctx;
	return tr_hash_str(TR_HASH_SEED, keys[k]);
}

int tr_dflame_new(tr_dflame **out, size_t na, size_t nb, tc_error *err)
{
	*out = NULL;
	tr_dflame *f = calloc(1, sizeof *f);
	if (!f)
		return tc_set(err, TC_ENOMEM, "flame: out of memory");
	f->n[0] = na;
	f->n[1] = nb;
	f->capv = 256;
	f->v = calloc(f->capv, sizeof *f->v);
	f->kid = calloc(TC_ID_MAX + 1, sizeof *f->kid);
	f->stamp = calloc(TC_ID_MAX + 1, sizeof *f->stamp);
	if (!f->v || !f->kid || !f->stamp || tr_index_init(&f->nodes, 1024, err) != TC_OK ||
	    tr_index_init(&f->texts, 1024, err) != TC_OK) {
		tr_dflame_free(f);
		return tc_set(err, TC_ENOMEM, "flame: out of memory");
	}
	/* the root, "all" */
	f->v[0] = (dnode){ .parent = NONE, .first_child = NONE, .last_child = NONE, .next_sibling = NONE };
	f->nv = 1;
	*out = f;
	return TC_OK;
}

/* The key of text, interned; -1 when out of memory. */
static int key_of(tr_dflame *f, const char *text, uint32_t *out)
{
	size_t i = tr_index_slot(&f->texts, tr_hash_str(TR_HASH_SEED, text)), r;
	for (; (r = f->texts.slots[i]) != TR_INDEX_EMPTY; i = tr_index_next(&f->texts, i))
		if (strcmp(f->keys[r], text) == 0) {
			*out = (uint32_t)r;
			return 0;
		}
	if (f->nkeys == f->capk) {
		size_t cap = f->capk ? f->capk * 2 : 256;
		char **k = realloc(f->keys, cap * sizeof *k);
		if (!k)
			return -1;
		f->keys = k;
		f->capk = cap;
	}
	size_t len = strlen(text) + 1;
	char *copy = malloc(len);
	if (!copy)
		return -1;
	memcpy(copy, text, len);
	f->keys[f->nkeys] = copy;
	*out = (uint32_t)f->nkeys++;
	return tr_index_put(&f->texts, i, *out, text_hash, f->keys, NULL) == TC_OK ? 0 : -1;
}

/* The child of parent with key, made if new; NONE when out of memory. */
static size_t child_of(tr_dflame *f, size_t parent, uint32_t key)
{
	size_t i = tr_index_slot(&f->nodes, tr_hash_pair(parent, key)), r;
	for (; (r = f->nodes.slots[i]) != TR_INDEX_EMPTY; i = tr_index_next(&f->nodes, i))
		if (f->v[r].parent == parent && f->v[r].key == key)
			return r;
	if (f->nv == f->capv) {
		size_t cap = f->capv * 2;
		dnode *v = realloc(f->v, cap * sizeof *v);
		if (!v)
			return NONE;
		f->v = v;
		f->capv = cap;
	}
	size_t k = f->nv++;
	f->v[k] = (dnode){ .parent = parent, .first_child = NONE, .last_child = NONE, .next_sibling = NONE,
		           .depth = f->v[parent].depth + 1, .key = key };
	if (f->v[parent].last_child == NONE)
		f->v[parent].first_child = k;
	else
		f->v[f->v[parent].last_child].next_sibling = k;
	f->v[parent].last_child = k;
	return tr_index_put(&f->nodes, i, k, node_hash, f->v, NULL) == TC_OK ? k : NONE;
}

int tr_dflame_add(tr_dflame *f, int side, const tr_spans *s, const tr_mapping *m, tc_error *err)
{
	if (s->n > f->cap_of) {
		size_t *o = realloc(f->node_of, s->n * sizeof *o);
		if (o)
			f->node_of = o;
		uint64_t *k = realloc(f->kids, s->n * sizeof *k);
		if (k)
			f->kids = k;
		if (!o || !k)
			return tc_set(err, TC_ENOMEM, "flame: out of memory");
		f->cap_of = f->cap_kids = s->n;
	}
	if (++f->gen == 0) { /* the stamps wrapped: forget them all */
		memset(f->stamp, 0, (TC_ID_MAX + 1) * sizeof *f->stamp);
		f->gen = 1;
	}
	for (size_t i = 0; i < s->n; i++)
		f->kids[i] = 0;
	for (size_t i = 0; i < s->n; i++)
		if (s->v[i].parent != TR_NONE)
			f->kids[s->v[i].parent] += s->v[i].end_ms - s->v[i].start_ms;
	tc_buf name;
	buf_init(&name);
	int rc = TC_OK;
	for (size_t i = 0; i < s->n; i++) {
		const tr_span *sp = &s->v[i];
		if (f->stamp[sp->id] != f->gen) {
			name.len = 0;
			tr_name_put(&name, m, sp->id, TR_NAME_FULL);
			if (name.err || key_of(f, name.str ? name.str : "", &f->kid[sp->id])) {
				rc = tc_set(err, TC_ENOMEM, "flame: out of memory");
				break;
			}
			f->stamp[sp->id] = f->gen;
		}
		size_t parent = sp->parent == TR_NONE ? 0 : f->node_of[sp->parent];
		size_t k = child_of(f, parent, f->kid[sp->id]);
		if (k == NONE) {
			rc = tc_set(err, TC_ENOMEM, "flame: out of memory");
			break;
		}
		f->node_of[i] = k;
		uint64_t d = sp->end_ms - sp->start_ms;
		dnode *nd = &f->v[k];
		nd->total[side] += (double)d;
		nd->self[side] += (double)(d - f->kids[i]);
		nd->calls[side] += 1;
		if (parent == 0)
			f->v[0].total[side] += (double)d;
	}
	buf_free(&name);
	return rc;
}

static double per(const tr_dflame *f, const double *v, int side)
{
	return f->n[side] ? v[side] / (double)f->n[side] : 0;
}

static void frame(tc_buf *sb, const tr_dflame *f, size_t i, double x, double w, double y, double max_delta,
                  double tick)
{
	const dnode *nd = &f->v[i];
	const char *full = i == 0 ? "all" : f->keys[nd->key];
	double ta = per(f, nd->total, 0), tb = per(f, nd->total, 1), d = tb - ta;
	double ca = per(f, nd->calls, 0), cb = per(f, nd->calls, 1), calls = ca > cb ? ca : cb;
	int r = 225, g = 225, b = 218; /* under the noise floor */
	if (i != 0 && fabs(d) >= tick * (calls > 1 ? calls : 1) && max_delta > 0) { /* "all" stays grey */
		double s = fabs(d) / max_delta;
		int fade = 215 - (int)(185 * (s < 1 ? s : 1));
		if (d > 0)
			r = 255, g = fade, b = fade;
		else
			r = fade, g = fade, b = 255;
	}
	buf_puts(sb, "<g><title>");
	tr_xml_escape(sb, full);
	buf_printf(sb, " (B %.1f ms, A %.1f ms, %+.1f ms", tb, ta, d);
	if (ta > 0)
		buf_printf(sb, ", %+.0f%%", 100 * d / ta);
	buf_printf(sb, "; self B %.1f, A %.1f ms; calls B %.1f, A %.1f; per recording)</title>", per(f, nd->self, 1),
	           per(f, nd->self, 0), cb, ca);
	/* the label: the short name (up to the descriptor) */
	tr_flame_svg_frame(sb, x, y, w, r, g, b, full, strcspn(full, " "));
	buf_puts(sb, "</g>\n");
}

int tr_dflame_write(FILE *out, const tr_dflame *f, const tr_dflame_opts *o, tc_error *err)
{
	unsigned width = o->width ? o->width : 1200;
	double tick = o->tick_ms > 0 ? o->tick_ms : 5;
	double *xs = malloc(f->nv * sizeof *xs), *ws = malloc(f->nv * sizeof *ws);
	if (!xs || !ws) {
		free(xs);
		free(ws);
		return tc_set(err, TC_ENOMEM, "flame: out of memory");
	}
	double whole = per(f, f->v[0].total, 1), whole_a = per(f, f->v[0].total, 0);
	double scale = whole > 0 ? (double)(width - 2 * TR_FLAME_PAD) / whole : 0.0, max_delta = 0;
	size_t depth_max = 0, a_only = 0;
	double a_only_ms = 0;
	xs[0] = TR_FLAME_PAD;
	ws[0] = width - 2 * TR_FLAME_PAD;
	/* parents come before their children: each node's children from its left edge */
	for (size_t i = 0; i < f->nv; i++) {
		double cursor = xs[i];
		for (size_t c = f->v[i].first_child; c != NONE; c = f->v[c].next_sibling) {
			const dnode *nd = &f->v[c];
			double w = per(f, nd->total, 1) * scale;
			if (ws[i] >= 0 && nd->total[1] == 0 && nd->total[0] > 0) {
				a_only++; /* a path with no time in B: no width */
				a_only_ms += per(f, nd->total, 0);
			}
			ws[c] = ws[i] >= 0 && w >= TR_FLAME_MIN_W && nd->depth < TR_FLAME_MAX_ROWS ? w : -1;
			xs[c] = cursor;
			cursor += w > 0 ? w : 0;
			if (ws[c] >= 0) {
				if (nd->depth > depth_max)
					depth_max = nd->depth;
				double d = fabs(per(f, nd->total, 1) - per(f, nd->total, 0));
				if (d > max_delta)
					max_delta = d;
			}
		}
	}
	unsigned height = TR_FLAME_TOP + (unsigned)(depth_max + 1) * TR_FLAME_FRAME_H + TR_FLAME_BOTTOM;
	tc_buf sb;
	buf_init(&sb);
	tr_flame_svg_open(&sb, width, height, o->title ? o->title : "Differential flame graph", o->subtitle);
	buf_printf(&sb, "B %.1f ms, A %.1f ms per recording; width: B's time; red grew, blue shrank, grey under "
	                "%g ms a call", whole, whole_a, tick);
	if (a_only)
		buf_printf(&sb, "; %zu path%s only in A (%.1f ms) not drawn", a_only, a_only == 1 ? "" : "s", a_only_ms);
	buf_puts(&sb, "</text>\n");
	int rc = TC_OK;
	if (!(whole > 0)) {
		buf_printf(&sb, "<text x=\"%d\" y=\"%d\">nothing to draw: no time was recorded in B</text>\n", TR_FLAME_PAD,
		           TR_FLAME_TOP + TR_FLAME_FRAME_H);
	} else {
		for (size_t i = 0; i < f->nv && rc == TC_OK; i++) {
			if (ws[i] < 0)
				continue;
			double y = TR_FLAME_TOP + (double)(depth_max - f->v[i].depth) * TR_FLAME_FRAME_H;
			frame(&sb, f, i, xs[i], ws[i], y, max_delta, tick);
			if (sb.len > 65536)
				rc = tr_flame_svg_flush(out, &sb, err);
		}
	}
	buf_puts(&sb, "</svg>\n");
	if (rc == TC_OK)
		rc = tr_flame_svg_flush(out, &sb, err);
	buf_free(&sb);
	free(xs);
	free(ws);
	return rc;
}
