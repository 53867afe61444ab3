/* The runtime the instrumented code calls: the beat class (tc_options.beat) and the three
 * members src/inject/ writes calls to, i(I)V, o(I)V and at(Landroid/app/Activity;Z)V,
 * each an invokestatic (invoke-static) from another package, so each must be public and
 * static in a public class (JVMS 5.4.4; ART's access checks are the same). A call to a
 * member that is missing or private fails only on the device, at the first traced
 * method (NoClassDefFoundError, NoSuchMethodError, IllegalAccessError): the run is
 * refused instead, before anything is written.
 *
 * Phase 1 notes, for a class of the inputs or the class path that is the beat class,
 * what it declares (pl_unit.beat, kept in the cache's facts); beat_check, between the
 * phases, looks at the first such class as a class path would (the inputs, then the
 * class path) and refuses the run when the calls it will write find no public static
 * member of the descriptor they name. */
#include <stdio.h>
#include <string.h>

#include "classfile.h"
#include "dex.h"
#include "pipeline/pipeline.h"

/* The members, in the order of pl_unit.beat's bits. */
static const struct {
	const char *name, *desc;
} MEMBERS[3] = {
	{"i", "(I)V"},
	{"o", "(I)V"},
	{"at", "(Landroid/app/Activity;Z)V"},
};

#define DECLARED(k) (BEAT_MEMBERS << (2 * (k)))
#define USABLE(k) (BEAT_MEMBERS << (2 * (k) + 1))

static uint8_t member_bits(int k, uint32_t flags, uint32_t public_flag, uint32_t static_flag)
{
	bool ok = (flags & public_flag) && (flags & static_flag);
	return (uint8_t)(DECLARED(k) | (ok ? USABLE(k) : 0));
}

void beat_note_class(const pl_run *r, pl_unit *u, const cf_class *cls)
{
	if (!u->cls || strcmp(u->cls, r->opt->beat))
		return;
	u->beat = BEAT_DEFINED | ((cls->access & ACC_PUBLIC) ? BEAT_PUBLIC : 0);
	for (uint32_t i = 0; i < cls->nmethods; i++) {
		const cf_member *m = &cls->methods[i];
		for (int k = 0; k < 3; k++)
			if (cp_utf8_eq(&cls->cp, m->name, MEMBERS[k].name) && cp_utf8_eq(&cls->cp, m->desc, MEMBERS[k].desc))
				u->beat |= member_bits(k, m->access, ACC_PUBLIC, ACC_STATIC);
	}
}

void beat_note_dex(const pl_run *r, pl_unit *u, const dex_file *d, const dex_class *k)
{
	if (!u->cls || strcmp(u->cls, r->opt->beat))
		return;
	u->beat = BEAT_DEFINED | ((k->flags & DACC_PUBLIC) ? BEAT_PUBLIC : 0);
	const dex_cdata *cd = k->data;
	for (uint32_t i = 0; i < dex_cdata_nmethods(cd); i++) {
		const dex_emethod *m = dex_cdata_method(cd, i);
		const dex_mid *mid = &d->methods.v[m->idx];
		char desc[64];
		if (!dex_proto_desc(d, mid->proto, desc, sizeof desc))
			continue; /* longer than any of the three */
		for (int j = 0; j < 3; j++)
			if (dex_str_eq(d, mid->name, MEMBERS[j].name) && !strcmp(desc, MEMBERS[j].desc))
				u->beat |= member_bits(j, m->flags, DACC_PUBLIC, DACC_STATIC);
	}
}

/* A multi-release jar's versioned copy is no class of the class path's own. */
static bool versioned(const pl_unit *u)
{
	return !strncmp(u->name, "META-INF/versions/", 18);
}

/* The first definition of the beat class, as a class path finds it: inputs, then
 * --classpath entries. */
static const pl_unit *find_beat(const pl_run *r)
{
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < r->nunits; i++) {
			const pl_unit *u = &r->units[i];
			if ((u->beat & BEAT_DEFINED) && u->state == US_OK && u->in->classpath == (pass == 1) && !versioned(u))
				return u;
		}
	return NULL;
}

static const char FIX[] = "add the runtime (tracecanary-runtime.jar) to the app's inputs, or name where the app "
                          "gets it with --classpath, or pass --no-runtime-check";

int beat_check(const pl_run *r, tc_error *err)
{
	if (!r->opt->check_runtime)
		return TC_OK;
	bool want[3] = {r->ntraced > 0, r->ntraced > 0, false};
	for (size_t i = 0; i < r->nunits && !want[2]; i++)
		want[2] = r->units[i].activity && !r->units[i].in->classpath;
	if (!want[0] && !want[2])
		return TC_OK; /* no call is written */
	char dotted[1024];
	snprintf(dotted, sizeof dotted, "%s", r->opt->beat);
	for (char *p = dotted; *p; p++)
		if (*p == '/')
			*p = '.';
	const pl_unit *u = find_beat(r);
	if (!u)
		return tc_fail(err, TC_EARG, TC_NO_OFFSET, "runtime",
		               "the instrumented code calls %s, which no input and no --classpath entry defines: %s",
		               dotted, FIX);
	char what[300] = "";
	size_t n = 0;
	if (!(u->beat & BEAT_PUBLIC))
		n += (size_t)snprintf(what + n, sizeof what - n, "the class is not public");
	for (int k = 0; k < 3 && n < sizeof what; k++) {
		if (!want[k] || (u->beat & USABLE(k)))
			continue;
		n += (size_t)snprintf(what + n, sizeof what - n, "%s%s%s %s", n ? ", " : "", MEMBERS[k].name,
		                      MEMBERS[k].desc, (u->beat & DECLARED(k)) ? "is not public and static" : "is missing");
	}
	if (!n)
		return TC_OK;
	return tc_fail(err, TC_EARG, TC_NO_OFFSET, "runtime",
	               "the instrumented code calls %s, but its definition in %s does not fit the calls (%s): %s", dotted,
	               u->in->in, what, FIX);
}
