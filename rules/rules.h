/* The block list: classes and methods that are never traced.
 *
 * Rules name classes in their original (unobfuscated) form, with '.' or '/' as the
 * separator; the compiler retraces names through the ProGuard/R8 mapping before asking.
 * File format (one rule per line; '\r' ignored; blank lines, lines starting with '#'
 * and section headers such as "[package]" are skipped):
 *
 *   -keepclass a.b.C       the class a.b.C and its nested classes (a.b.C$...)
 *   -keeppackage a/b/      every class in package a.b and its sub-packages
 *   -keepregex PATTERN     every method whose "a.b.C.name(desc)" matches PATTERN as a
 *                          whole (PCRE2 syntax; desc as in the mapping files, with '.')
 *   -keepmethod a.b.C name (desc)   that one method: the key of methodMapping.txt
 *                          ("class method desc"; '/' or '.' in the class and the
 *                          descriptor). `tc-trace hot` writes such lists.
 *   -keepinlinable N [M [API]]   no method the JIT would inline but for its probes:
 *                          N bytes of class-file code (35 is HotSpot's MaxInlineSize),
 *                          M code units of dex code (ART's inline_max_code_units, 32 when
 *                          M is not given; 0: dex methods are not filtered), API the API
 *                          level of the ART whose inliner is modelled (34 when not given):
 *                          filter.h, FILTER_INLINE. The last one given counts; without
 *                          one, no method is left out for its size.
 *
 * Two Matrix quirks are fixed on purpose: -keepclass a.b.C no longer blocks a.b.Cat
 * (Matrix compared by string prefix), and -keeppackage a/b without the trailing
 * separator no longer blocks a.bc. A rule set is immutable once built and may be
 * shared by threads. */
#ifndef TC_RULES_H
#define TC_RULES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tc_error.h"

typedef struct tc_rules tc_rules;

/* A rule set holding the default rules (rules/default.rules). */
int rules_new(tc_rules **out, tc_error *err);
/* A rule set with no rules at all. */
int rules_new_empty(tc_rules **out, tc_error *err);
void rules_free(tc_rules *r);

/* Adds the rules in text; errors name label, the line and what is wrong. */
int rules_parse(tc_rules *r, const char *text, size_t len, const char *label, tc_error *err);
/* Blocks a package given in internal or dotted form ("com/x/" or "com.x"). */
int rules_block_package(tc_rules *r, const char *pkg, tc_error *err);

/* Whether class `name` (original, '.' or '/' separated) is blocked. */
bool rules_blocks_class(const tc_rules *r, const char *name);
/* Whether method subject "a.b.C.name(desc)" is blocked by a -keepregex rule. */
bool rules_blocks_method(const tc_rules *r, const char *subject, size_t len);
/* Whether the method whose mapping key is key[0..len) ("a.b.C name (desc)", dotted, as
 * tc-instrument writes methodMapping.txt) is named by a -keepmethod rule. */
bool rules_blocks_method_key(const tc_rules *r, const char *key, size_t len);
/* Whether any -keepmethod rule exists (callers skip building the key otherwise). */
bool rules_have_keepmethod(const tc_rules *r);
bool rules_have_regex(const tc_rules *r);

/* -keepinlinable's N (bytes of class-file code), or 0 without one. */
uint32_t rules_inline_limit(const tc_rules *r);
/* Its limit for dex methods, in code units: M when given, else ART's default
 * (RULES_ART_INLINE_MAX_CODE_UNITS); 0 without a -keepinlinable rule or with M = 0. */
uint32_t rules_dex_inline_limit(const tc_rules *r);
/* Its API: the API level of the ART release whose inliner filter_dex_method models
 * (RULES_ART_INLINE_API when not given). */
uint32_t rules_dex_inline_api(const tc_rules *r);

/* ART's default inline_max_code_units (compiler/driver/compiler_options.h,
 * kDefaultInlineMaxCodeUnits): its inliner does not inline a callee whose code item has
 * more code units (compiler/optimizing/inliner.cc, HInliner::IsInliningEncouraged). */
#define RULES_ART_INLINE_MAX_CODE_UNITS 32u
/* ART 14's (Android 14, API 34): the first that inlines a callee with a try item
 * (filter.h); Android 12 and 13 devices that take ART's updates from Google Play run it
 * or a later one. */
#define RULES_ART_INLINE_API 34u

size_t rules_count(const tc_rules *r);

#endif
