/* jni_glue.c against a JNIEnv of our own: JNI calls that fail (NewStringUTF,
 * GetStringUTFChars: NULL with an OutOfMemoryError pending) must not be
 * followed by calls the JNI specification forbids while an exception is
 * pending (CheckJNI aborts the process), upcalls must leave their native
 * thread without one, and create must not make a context from half a
 * configuration. The file is included, so its static functions (the
 * upcalls) can be called; JNI_OnLoad registers the natives into our table.
 * Host only (it needs <jni.h>): not in the cross suite. */
#include <criterion/criterion.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "jni_glue.c"

/* ---- the fake VM: one env, exceptions as a flag, failures on demand ---- */

static struct JNINativeInterface_ fns;
static struct JNIInvokeInterface_ vm_fns;
static JNIEnv env_obj = &fns;
static JavaVM vm_obj = &vm_fns;

static bool pending;
static int violations;
static char violation[128];
static int calls_new_string, fail_new_string_at;     /* 1-based; 0: never */
static int calls_utf_chars, fail_utf_chars_at;
static int upcalls;
static const JNINativeMethod *registered;
static jint n_registered;
static char strings[8][64];                            /* what NewStringUTF was given, in turn */
static int dummy_class, dummy_string;

/* Any call but those allowed with an exception pending (JNI spec, "Exception
 * Handling") is a violation when one is. */
static void enter(const char *name)
{
	if (pending && violations++ == 0)
		snprintf(violation, sizeof violation, "%s called with an exception pending", name);
}

static jint JNICALL get_env(JavaVM *vm, void **penv, jint version)
{
	(void)vm;
	(void)version;
	*penv = &env_obj;
	return JNI_OK;
}

static jstring JNICALL new_string_utf(JNIEnv *env, const char *utf)
{
	(void)env;
	enter("NewStringUTF");
	int k = ++calls_new_string;
	if (k == fail_new_string_at) {
		pending = true; /* OutOfMemoryError */
		return NULL;
	}
	if (k <= 8)
		snprintf(strings[k - 1], sizeof strings[0], "%s", utf);
	return (jstring)&dummy_string;
}

static const char *JNICALL get_string_utf_chars(JNIEnv *env, jstring s, jboolean *copy)
{
	(void)env;
	(void)s;
	(void)copy;
	enter("GetStringUTFChars");
	if (++calls_utf_chars == fail_utf_chars_at) {
		pending = true;
		return NULL;
	}
	return "a string";
}

static void JNICALL release_string_utf_chars(JNIEnv *env, jstring s, const char *utf)
{
	(void)env;
	(void)s;
	(void)utf; /* allowed with an exception pending */
}

static jboolean JNICALL exception_check(JNIEnv *env)
{
	(void)env;
	return pending;
}

static void JNICALL exception_describe(JNIEnv *env)
{
	(void)env;
}

static void JNICALL exception_clear(JNIEnv *env)
{
	(void)env;
	pending = false;
}

static jint JNICALL push_local_frame(JNIEnv *env, jint n)
{
	(void)env;
	(void)n;
	return 0; /* allowed with an exception pending */
}

static jobject JNICALL pop_local_frame(JNIEnv *env, jobject o)
{
	(void)env;
	return o;
}

static void JNICALL call_static_void(JNIEnv *env, jclass c, jmethodID m, ...)
{
	(void)env;
	(void)c;
	(void)m;
	enter("CallStaticVoidMethod");
	upcalls++;
}

static jobject JNICALL call_static_object(JNIEnv *env, jclass c, jmethodID m, ...)
{
	(void)env;
	(void)c;
	(void)m;
	enter("CallStaticObjectMethod");
	upcalls++;
	return (jobject)&dummy_string;
}

/* a thread's staging ring (Java: 8 longs, then a power of two of events),
 * empty */
static jlong staging[STAGE_SLOTS + 64];
static int torn_reads;   /* the next reads of the count that see it half stored */
static jlong torn_count; /* what they see */

static jsize JNICALL get_array_length(JNIEnv *env, jarray a)
{
	(void)env;
	enter("GetArrayLength");
	return a == (jarray)staging ? (jsize)(sizeof staging / sizeof staging[0]) : OPT_COUNT;
}

/* options a context can be made from: no threads of its own would be nicer,
 * but fill_config leaves tc_config_init's threads on, which is fine */
static void JNICALL get_long_array_region(JNIEnv *env, jlongArray a, jsize start, jsize len, jlong *buf)
{
	(void)env;
	(void)a;
	enter("GetLongArrayRegion");
	if (a == (jlongArray)staging) {
		memcpy(buf, staging + start, (size_t)len * sizeof *buf);
		/* a 64-bit target copies an aligned long whole; a 32-bit one
		 * may copy its halves on either side of the writer's store */
		if (start == STAGE_SEQ && torn_reads > 0) {
			torn_reads--;
			buf[0] = torn_count;
		}
		return;
	}
	jlong o[OPT_COUNT] = { 0 };
	o[OPT_CAPACITY] = 64;
	o[OPT_RESOLUTION] = 1;
	o[OPT_FRAME_INTERVAL] = 16666667;
	o[OPT_FPS_SLICE] = 10000;
	o[OPT_DROP_NORMAL] = 3;
	o[OPT_DROP_MIDDLE] = 9;
	o[OPT_DROP_HIGH] = 24;
	o[OPT_DROP_FROZEN] = 42;
	o[OPT_THREAD_CAPACITY] = 64;
	o[OPT_MAX_THREADS] = 2;
	for (jsize i = 0; i < len; i++)
		buf[i] = o[start + i];
}

static void JNICALL set_long_array_region(JNIEnv *env, jlongArray a, jsize start, jsize len, const jlong *buf)
{
	(void)env;
	enter("SetLongArrayRegion");
	cr_assert_eq(a, (jlongArray)staging, "only a staging ring is written");
	memcpy(staging + start, buf, (size_t)len * sizeof *buf);
}

static void JNICALL delete_global_ref(JNIEnv *env, jobject o)
{
	(void)env;
	(void)o; /* allowed with an exception pending */
}

static jclass JNICALL find_class(JNIEnv *env, const char *name)
{
	(void)env;
	(void)name;
	enter("FindClass");
	return (jclass)&dummy_class;
}

static jint JNICALL throw_new(JNIEnv *env, jclass c, const char *msg)
{
	(void)env;
	(void)c;
	(void)msg;
	enter("ThrowNew");
	pending = true;
	return 0;
}

static jobject JNICALL new_global_ref(JNIEnv *env, jobject o)
{
	(void)env;
	enter("NewGlobalRef");
	return o;
}

static jmethodID JNICALL get_static_method_id(JNIEnv *env, jclass c, const char *name, const char *sig)
{
	(void)env;
	(void)c;
	(void)sig;
	enter("GetStaticMethodID");
	return (jmethodID)name;
}

static jfieldID JNICALL get_static_field_id(JNIEnv *env, jclass c, const char *name, const char *sig)
{
	(void)env;
	(void)c;
	(void)sig;
	enter("GetStaticFieldID");
	return (jfieldID)name;
}

static jlong clock_word; /* AppMethodBeat.sNow */

static void JNICALL set_static_long_field(JNIEnv *env, jclass c, jfieldID f, jlong v)
{
	(void)env;
	(void)c;
	(void)f;
	enter("SetStaticLongField");
	clock_word = v;
}

static jint JNICALL register_natives(JNIEnv *env, jclass c, const JNINativeMethod *m, jint n)
{
	(void)env;
	(void)c;
	enter("RegisterNatives");
	registered = m;
	n_registered = n;
	return 0;
}

static void setup(void)
{
	memset(&fns, 0, sizeof fns);
	memset(&vm_fns, 0, sizeof vm_fns);
	vm_fns.GetEnv = get_env;
	fns.NewStringUTF = new_string_utf;
	fns.GetStringUTFChars = get_string_utf_chars;
	fns.ReleaseStringUTFChars = release_string_utf_chars;
	fns.ExceptionCheck = exception_check;
	fns.ExceptionDescribe = exception_describe;
	fns.ExceptionClear = exception_clear;
	fns.PushLocalFrame = push_local_frame;
	fns.PopLocalFrame = pop_local_frame;
	fns.CallStaticVoidMethod = call_static_void;
	fns.CallStaticObjectMethod = call_static_object;
	fns.GetArrayLength = get_array_length;
	fns.GetLongArrayRegion = get_long_array_region;
	fns.SetLongArrayRegion = set_long_array_region;
	fns.DeleteGlobalRef = delete_global_ref;
	fns.FindClass = find_class;
	fns.ThrowNew = throw_new;
	fns.NewGlobalRef = new_global_ref;
	fns.GetStaticMethodID = get_static_method_id;
	fns.GetStaticFieldID = get_static_field_id;
	fns.SetStaticLongField = set_static_long_field;
	fns.RegisterNatives = register_natives;
	cr_assert_eq(JNI_OnLoad(&vm_obj, NULL), JNI_VERSION_1_6);
	pending = false;
	violations = 0;
	violation[0] = '\0';
	calls_new_string = fail_new_string_at = calls_utf_chars = fail_utf_chars_at = upcalls = 0;
}

TestSuite(jni_glue, .init = setup);

/* JNINativeMethod holds functions as void * (see jni_glue.c's N): the way back */
#define NATIVE(type, name) (__extension__(type) native(name))

static void *native(const char *name)
{
	for (jint i = 0; i < n_registered; i++)
		if (strcmp(registered[i].name, name) == 0)
			return registered[i].fnPtr;
	cr_assert_fail("no native %s", name);
	return NULL;
}

static void assert_clean(const char *what)
{
	cr_assert_eq(violations, 0, "%s: %s", what, violation);
	cr_assert_not(pending, "%s: the upcall's thread is left with an exception pending", what);
}

Test(jni_glue, a_report_whose_strings_cannot_be_made_is_not_delivered)
{
	tc_report r = { .tag = "Trace_EvilMethod", .key = "1", .json = "{}" };
	on_report(NULL, &r);
	assert_clean("delivered");
	cr_assert_eq(upcalls, 1);
	cr_assert_str_eq(strings[0], "Trace_EvilMethod");
	cr_assert_str_eq(strings[2], "{}");
	for (int k = 1; k <= 3; k++) {
		calls_new_string = upcalls = 0;
		fail_new_string_at = k;
		on_report(NULL, &r);
		char what[48];
		snprintf(what, sizeof what, "NewStringUTF %d of 3 fails", k);
		assert_clean(what);
		cr_assert_eq(upcalls, 0, "%s: the listener is not called", what);
	}
}

Test(jni_glue, a_log_line_whose_strings_cannot_be_made_is_dropped)
{
	for (int k = 1; k <= 2; k++) {
		calls_new_string = upcalls = 0;
		fail_new_string_at = k;
		on_log(NULL, TC_LOG_WARN, "Matrix.AnrTracer", "maybe happens ANR");
		char what[48];
		snprintf(what, sizeof what, "NewStringUTF %d of 2 fails", k);
		assert_clean(what);
		cr_assert_eq(upcalls, 0, "%s", what);
	}
}

Test(jni_glue, a_thread_stack_that_cannot_be_read_is_none)
{
	fail_utf_chars_at = 1;
	char *st = thread_stack(NULL, 0);
	assert_clean("GetStringUTFChars fails");
	cr_assert_null(st);
	fail_utf_chars_at = 0;
	st = thread_stack(NULL, 0);
	cr_assert_str_eq(st, "a string");
	free(st);
}

/* Native.create(long[], String bufferPath, ...): a buffer path that cannot be
 * read must not give a context that records into memory instead, while the
 * Java caller gets the exception and never the handle (its threads would run
 * on, unreachable). */
Test(jni_glue, create_makes_no_context_from_a_path_it_could_not_read)
{
	typedef jlong (*create_fn)(JNIEnv *, jclass, jlongArray, jstring, jstring, jstring, jstring, jstring);
	create_fn create = NATIVE(create_fn, "create");
	fail_utf_chars_at = 1;
	jlong h = create(&env_obj, NULL, (jlongArray)&dummy_class, (jstring)&dummy_string, NULL, NULL, NULL, NULL);
	cr_assert_eq(h, 0, "no context");
	cr_assert(pending, "the OutOfMemoryError goes to start()");
	cr_assert_eq(violations, 0, "%s", violation);
}

typedef jlong (*attach_fn)(JNIEnv *, jclass, jlong, jstring, jlongArray);
typedef struct attach_call {
	attach_fn attach;
	jlong h, token;
} attach_call;

static void *attach_elsewhere(void *p)
{
	attach_call *a = p;
	a->token = a->attach(&env_obj, NULL, a->h, (jstring)&dummy_string, (jlongArray)staging);
	return NULL;
}

/* Natives on the app's code paths (a scene from a lifecycle callback, a
 * traced call's thread ring, a section name): out of memory they skip their
 * work, and throw nothing into the app. */
Test(jni_glue, natives_on_the_app_s_paths_throw_nothing_when_a_string_cannot_be_read)
{
	tc_config c;
	tc_config_init(&c);
	c.threads = false;
	c.record_threads = TC_THREADS_ALL;
	c.thread_capacity = 64; /* the staging ring's: as large as the thread's ring */
	tc_ctx *ctx = NULL;
	cr_assert_eq(tc_ctx_new(&ctx, &c, NULL), TC_RT_OK);
	jlong h = (jlong)(intptr_t)ctx;
	typedef void (*scene_fn)(JNIEnv *, jclass, jlong, jstring);
	typedef jint (*section_fn)(JNIEnv *, jclass, jlong, jstring);
	scene_fn scene = NATIVE(scene_fn, "scene");
	section_fn section_id = NATIVE(section_fn, "sectionId");
	fail_utf_chars_at = 1;
	scene(&env_obj, NULL, h, (jstring)&dummy_string);
	assert_clean("scene");
	calls_utf_chars = 0;
	cr_assert_eq(section_id(&env_obj, NULL, h, (jstring)&dummy_string), -1);
	assert_clean("sectionId");
	/* another thread's first traced call: its ring, named by the system */
	calls_utf_chars = 0;
	memset(staging, 0, sizeof staging);
	attach_call a = { NATIVE(attach_fn, "threadAttach"), h, 0 };
	pthread_t th;
	cr_assert_eq(pthread_create(&th, NULL, attach_elsewhere, &a), 0);
	pthread_join(th, NULL);
	jlong token = a.token;
	assert_clean("threadAttach");
	cr_assert_gt(token, 0, "the thread records all the same (%lld)", (long long)token);
	tc_threads_image img;
	size_t size;
	void *base = tc_threads_base(ctx, &size);
	cr_assert_eq(tc_threads_decode(&img, base, size, NULL), TC_RT_OK);
	cr_assert_eq(img.count, 1);
	cr_assert_str_neq(img.rings[0].thread_name, "a string", "not the name it could not read");
	tc_threads_image_dispose(&img);
	tc_ctx_free(ctx);
}

/* Defect 8, 32-bit targets: the writer's count store is whole (ART's
 * putOrderedLong on a long: ldrexd/strexd, or an atomic strd), but a JNI
 * copy of it may take its halves on either side of it, the high half of
 * 2^32 with the low half of 2^32 - 1 or the other way round (once: the
 * next read comes after the store, and the next carry into the high half is
 * 2^32 events away). The runtime must read the count the writer stored,
 * never the mix (which would make it copy 2^32 events that
 * are not there, or none). Meaningful on the cross suite's 32-bit targets
 * (armhf, i686), where the fake copies halves as such a JNI would. */
Test(jni_glue, a_count_read_in_halves_is_read_again)
{
	memset(staging, 0, sizeof staging);
	staging[STAGE_SEQ] = (jlong)1 << 32; /* the writer's count: 2^32 */
	jfeed f = { (jlongArray)staging, 63 };
	const jlong mixes[] = { ((jlong)1 << 32) | 0xFFFFFFFF, 0 };
	for (int k = 0; k < 2; k++) {
		torn_count = mixes[k];
		torn_reads = sizeof(void *) < 8; /* a count is torn once: by the carry into its high half */
		uint64_t n = feed_count(&f);
		cr_assert_eq(n, (uint64_t)1 << 32, "read %#llx for a count of 2^32 (mix %#llx)", (unsigned long long)n,
		             (unsigned long long)mixes[k]);
		cr_assert_eq(torn_reads, 0, "every torn read was read past");
	}
	assert_clean("feed_count");
}
