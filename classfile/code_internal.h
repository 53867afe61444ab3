/* Internals of the code editor, shared by code_edit.c (decode, layout, relocation),
 * code_flow.c (stack depths, this-initialization), code_sim.c (verification types for
 * new frames) and code_attrs.c (debug and annotation tables). Not a public header. */
#ifndef TC_CODE_INTERNAL_H
#define TC_CODE_INTERNAL_H

#include "code.h"
#include "smt.h"

#define NONE UINT32_MAX

typedef struct code_seq {
	struct code_seq *next;
	const uint8_t *bytes;
	uint32_t len;
	int peak;      /* highest stack words above the depth where it starts */
} code_seq;

enum code_form {
	FORM_SAME,     /* as decoded */
	FORM_WIDE,     /* goto -> goto_w, jsr -> jsr_w */
	FORM_LONGCOND, /* if<cond> L  ->  if<!cond> +8; goto_w L */
};

typedef struct code_node {
	cf_insn d;
	uint32_t tgt;       /* BR2/BR4: index of the target instruction */
	uint32_t *stgt;     /* switches: default then each case, as indices */
	code_seq *fall, *at; /* inserted code, see code.h */
	uint32_t fall_len, at_len;
	uint8_t form;
	uint32_t first;     /* new offset of the fall-through code (or what follows) */
	uint32_t label;     /* new offset of the at-target code (or the instruction) */
	uint32_t off;       /* new offset of the instruction */
	uint32_t len;       /* new length of the instruction */
} code_node;

typedef struct code_block {
	struct code_block *next;
	const uint8_t *bytes;
	uint32_t len;
	int peak;
	uint32_t from, to;  /* covered original instructions */
	uint16_t type;
	uint32_t off;       /* new offset */
} code_block;

/* The Code attributes the editor relocates (attr_kind). */
enum { ATTR_OTHER, ATTR_SMT, ATTR_LNT, ATTR_LVT, ATTR_LVTT, ATTR_RVTA, ATTR_RITA };

struct code_editor {
	tc_error *err;      /* set by every public entry point */
	cf_class *cls;
	cf_member *m;
	cf_attr *code_attr;
	arena *a;
	cf_code code;
	uint32_t n;
	code_node *in;
	uint32_t *at;       /* code offset -> instruction index, NONE inside an instruction */
	uint32_t *exc_start, *exc_end, *exc_handler; /* instruction indices; end may be n */
	code_block *blocks, **blocks_tail;
	uint32_t nblocks;
	/* stack map */
	cf_attr *smt_attr;
	smt_frame *frames;
	uint32_t nframes;
	smt_vtype *init;
	uint16_t ninit;
	bool frames_needed; /* edits must keep or create a StackMapTable */
	/* analyses, on demand */
	int *depth;
	bool depth_ok;
	bool edited;
	bool force_long;
	/* The last sequence check_seq accepted: instrumenting inserts the same one before
	 * every return. */
	const uint8_t *seen_bytes;
	uint32_t seen_len;
	int seen_peak;
	bool seen_handler;
	uint32_t end;       /* new offset just past the last original instruction */
	uint32_t new_len;
};

/* Errors for this method: part "Code", offsets inside the code array made absolute. */
int code_fail(code_editor *ed, int code, uint32_t code_off, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 4, 5)))
#endif
	;

/* Index of the instruction starting at code offset off, or NONE. */
uint32_t code_index(const code_editor *ed, uint32_t off);

/* code_flow.c */
int code_flow_depths(code_editor *ed);

/* code_sim.c: the verification types at the fall-through of instruction i (after it
 * executed), as a frame at offset `at` in compressed form. */
int code_sim_frame_after(code_editor *ed, uint32_t i, smt_frame *out, tc_error *err);

/* code_attrs.c: checks an attribute's offsets against the instructions (code_open)
 * and writes the relocated copy into the class arena (code_commit). */
int code_attrs_check(code_editor *ed, cf_attr *attr, int kind, tc_error *err);
int code_attrs_relocate(code_editor *ed, const cf_attr *attr, int kind, cf_attr *out,
                        tc_error *err);
/* New offsets of an old offset, for the three uses of code.h's layout comment. */
uint32_t code_new_first(const code_editor *ed, uint32_t old_off);
uint32_t code_new_label(const code_editor *ed, uint32_t old_off);
uint32_t code_new_insn(const code_editor *ed, uint32_t old_off);

#endif
