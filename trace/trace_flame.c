/* trace_flame.c: see trace_flame.h. */
#include "trace_flame.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "bytes.h"
#include "tc_event.h"
#include "utf8.h"

#define FONT_PX 12
#define CHAR_W 7.2     /* monospace advance at 12 px, roughly */

void tr_xml_escape(tc_buf *sb, const char *str)
{
	tr_xml_escape_n(sb, str, strlen(str));
}

void tr_xml_escape_n(tc_buf *sb, const char *str, size_t len)
{
	const unsigned char *s = (const unsigned char *)str, *end = s + len;
	while (s < end) {
		unsigned char c = *s;
		switch (c) {
		case '&': buf_puts(sb, "&amp;"); s++; continue;
		case '<': buf_puts(sb, "&lt;"); s++; continue;
		case '>': buf_puts(sb, "&gt;"); s++; continue;
		case '"': buf_puts(sb, "&quot;"); s++; continue;
		case '\'': buf_puts(sb, "&apos;"); s++; continue;
		default: break;
		}
		if (c < 0x20 || c == 0x7F) {
			buf_putc(sb, '?');
			s++;
			continue;
		}
		if (c < 0x80) {
			buf_putc(sb, (char)c);
			s++;
			continue;
		}
		uint32_t cp;
		size_t n = utf8_decode(s, (size_t)(end - s), &cp);
		if (n == 0 || cp == 0xFFFE || cp == 0xFFFF) { /* not XML characters */
			buf_puts(sb, "\xEF\xBF\xBD"); /* U+FFFD */
			s++;
			continue;
		}
		buf_putn(sb, (const char *)s, n);
		s += n;
	}
}

/* A warm colour from the name (as flamegraph.pl's "hot" palette), blue for
 * messages, so the same method has the same colour in every graph. */
static void colour(const char *name, uint32_t id, int *r, int *g, int *b)
{
	uint32_t h = 2166136261u;
	for (const unsigned char *p = (const unsigned char *)name; *p; p++)
		h = (h ^ *p) * 16777619u;
	if (id == TC_ID_DISPATCH) {
		*r = 120 + (int)(h % 40);
		*g = 160 + (int)((h >> 8) % 40);
		*b = 230;
		return;
	}
	*r = 205 + (int)(h % 50);
	*g = (int)((h >> 8) % 200);
	*b = (int)((h >> 16) % 55);
}

int tr_flame_svg_flush(FILE *out, tc_buf *sb, tc_error *err)
{
	if (sb->err)
		return tc_set(err, TC_ENOMEM, "flame: out of memory");
	if (sb->len && fwrite(sb->str, 1, sb->len, out) != sb->len)
		return tc_set(err, TC_EIO, "write failed");
	sb->len = 0;
	return TC_OK;
}

void tr_flame_svg_open(tc_buf *sb, unsigned width, unsigned height, const char *title, const char *subtitle)
{
	buf_printf(sb,
	          "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n"
	          "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%u\" height=\"%u\" "
	          "viewBox=\"0 0 %u %u\">\n"
	          "<style>text{font-family:monospace;font-size:%dpx;fill:#000}"
	          ".title{font-size:16px;text-anchor:middle}.sub{fill:#555}rect{stroke:#fff;stroke-width:0.5}</style>\n"
	          "<rect x=\"0\" y=\"0\" width=\"%u\" height=\"%u\" fill=\"#f8f8f0\" style=\"stroke:none\"/>\n",
	          width, height, width, height, FONT_PX, width, height);
	buf_printf(sb, "<text class=\"title\" x=\"%u\" y=\"20\">", width / 2);
	tr_xml_escape(sb, title);
	buf_puts(sb, "</text>\n");
	buf_printf(sb, "<text class=\"sub\" x=\"%d\" y=\"38\">", TR_FLAME_PAD);
	if (subtitle) {
		tr_xml_escape(sb, subtitle);
		buf_puts(sb, "; ");
	}
}

void tr_flame_svg_frame(tc_buf *sb, double x, double y, double w, int r, int g, int b, const char *label,
                        size_t len)
{
	buf_printf(sb, "<rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%d\" fill=\"rgb(%d,%d,%d)\" rx=\"2\"/>", x, y,
	          w, TR_FLAME_FRAME_H - 1, r, g, b);
	size_t fit = w > 6 ? (size_t)((w - 6) / CHAR_W) : 0;
	if (fit < 3)
		return;
	size_t shown = len;
	if (len > fit) {
		/* cut on a UTF-8 boundary, then mark the cut */
		shown = fit - 2;
		while (shown > 0 && ((unsigned char)label[shown] & 0xC0) == 0x80)
			shown--;
	}
	buf_printf(sb, "<text x=\"%.2f\" y=\"%.1f\">", x + 3, y + TR_FLAME_FRAME_H - 4);
	tr_xml_escape_n(sb, label, shown);
	if (shown < len)
		buf_puts(sb, "..");
	buf_puts(sb, "</text>");
}

static void frame(tc_buf *sb, tc_buf *name, const tr_tree *t, size_t i, const tr_mapping *m, double x, double w,
                  double y)
{
	const tr_node *nd = &t->v[i];
	uint64_t whole = t->v[0].total_ms;
	name->len = 0;
	if (i == 0)
		buf_puts(name, "all");
	else
		tr_name_put(name, m, nd->id, TR_NAME_FULL);
	const char *full = name->err || !name->str ? "" : name->str;
	int r = 160, g = 160, b = 160;
	if (i != 0)
		colour(full, nd->id, &r, &g, &b);
	buf_puts(sb, "<g><title>");
	tr_xml_escape(sb, full);
	buf_printf(sb, " (%" PRIu64 " ms, %.2f%%, self %" PRIu64 " ms, %" PRIu64 " call%s)</title>", nd->total_ms,
	          whole ? 100.0 * (double)nd->total_ms / (double)whole : 0.0, nd->self_ms, nd->calls,
	          nd->calls == 1 ? "" : "s");
	name->len = 0;
	if (i == 0)
		buf_puts(name, "all");
	else
		tr_name_put(name, m, nd->id, TR_NAME_SHORT);
	const char *label = name->err || !name->str ? "" : name->str;
	tr_flame_svg_frame(sb, x, y, w, r, g, b, label, strlen(label));
	buf_puts(sb, "</g>\n");
}

int tr_flame_write(FILE *out, const tr_tree *t, const tr_mapping *m, const tr_flame_opts *o, tc_error *err)
{
	unsigned width = o->width ? o->width : 1200;
	if (width < 200)
		width = 200;
	double *xs = malloc(t->n * sizeof *xs);
	double *ws = malloc(t->n * sizeof *ws);
	if (!xs || !ws) {
		free(xs);
		free(ws);
		return tc_set(err, TC_ENOMEM, "flame: out of memory");
	}
	uint64_t whole = t->v[0].total_ms;
	double scale = whole ? (double)(width - 2 * TR_FLAME_PAD) / (double)whole : 0.0;
	/* Parents come before their children in the node array: lay out each
	 * node's children from its left edge; -1 marks a frame left out. */
	size_t depth_max = 0;
	xs[0] = TR_FLAME_PAD;
	ws[0] = width - 2 * TR_FLAME_PAD;
	for (size_t i = 0; i < t->n; i++) {
		double cursor = xs[i];
		for (size_t c = t->v[i].first_child; c != TR_NONE; c = t->v[c].next_sibling) {
			double w = (double)t->v[c].total_ms * scale;
			ws[c] = ws[i] >= 0 && w >= TR_FLAME_MIN_W && t->v[c].depth < TR_FLAME_MAX_ROWS ? w : -1;
			xs[c] = cursor;
			cursor += w;
			if (ws[c] >= 0 && t->v[c].depth > depth_max)
				depth_max = t->v[c].depth;
		}
	}
	unsigned height = TR_FLAME_TOP + (unsigned)(depth_max + 1) * TR_FLAME_FRAME_H + TR_FLAME_BOTTOM;
	tc_buf sb, name;
	buf_init(&sb);
	buf_init(&name);
	tr_flame_svg_open(&sb, width, height, o->title ? o->title : "Flame graph", o->subtitle);
	buf_printf(&sb, "total %" PRIu64 " ms; width is time, hover a frame for details</text>\n", whole);
	int rc = TC_OK;
	if (!whole) {
		buf_printf(&sb, "<text x=\"%d\" y=\"%d\">nothing to draw: no time was recorded</text>\n", TR_FLAME_PAD,
		          TR_FLAME_TOP + TR_FLAME_FRAME_H);
	} else {
		for (size_t i = 0; i < t->n && rc == TC_OK; i++) {
			if (ws[i] < 0)
				continue;
			double y = TR_FLAME_TOP + (double)(depth_max - t->v[i].depth) * TR_FLAME_FRAME_H;
			frame(&sb, &name, t, i, m, xs[i], ws[i], y);
			if (sb.len > 65536)
				rc = tr_flame_svg_flush(out, &sb, err);
		}
	}
	buf_puts(&sb, "</svg>\n");
	if (rc == TC_OK)
		rc = tr_flame_svg_flush(out, &sb, err);
	buf_free(&sb);
	buf_free(&name);
	free(xs);
	free(ws);
	return rc;
}
