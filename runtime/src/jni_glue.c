/* jni_glue.c: the JNI face of the runtime (class
 * com.tencent.matrix.trace.core.Native). The Java side holds the context
 * pointer; this file holds the JavaVM and the method ids of the upcalls,
 * which are the only process-wide state. Natives are registered in
 * JNI_OnLoad, so only that symbol is exported.
 *
 * Upcalls (report, log, expiry, thread stack, Java heap) run on the context's
 * threads, which attach themselves as daemons, under their own names, on
 * first use and detach when they exit.
 *
 * A JNI call that fails (NewStringUTF, GetStringUTFChars: NULL, with an
 * OutOfMemoryError pending) must not be followed by another JNI call but
 * those the specification allows with an exception pending (ExceptionCheck,
 * ExceptionClear, ExceptionDescribe, Release*, PopLocalFrame, ...): CheckJNI
 * aborts the process. So: an upcall that cannot make its strings is not made
 * and the exception is cleared (its thread has no Java caller to take it);
 * a native called by the app's code paths (scene, activities, sections,
 * threads) skips what needed the string and clears it too, rather than throw
 * an OutOfMemoryError into the app from tracing; create and reconfigure make
 * no context from half a configuration and let the exception go to start(). */
#include <jni.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "tc_ringfile.h"
#include "tc_runtime.h"
#include "os_thread.h"

static JavaVM *g_vm;
static jclass g_native;               /* global ref */
static jmethodID g_on_report, g_on_log, g_on_expired, g_thread_stack, g_java_heap, g_queue_late, g_error_state;
static jmethodID g_gc_stats;
static jclass g_beat;                 /* AppMethodBeat, global ref */
static jfieldID g_now;                /* AppMethodBeat.sNow, the clock word */
static pthread_key_t g_detach_key;

#define NATIVE_CLASS "com/tencent/matrix/trace/core/Native"
#define BEAT_CLASS "com/tencent/matrix/trace/core/AppMethodBeat"

/* A staged writer's memory (AppMethodBeat, ThreadRing; tc_ringfile.h,
 * "Staged writers"): a long[] whose element 0 is the count of events
 * written, published with Unsafe.putOrderedLong after the event's
 * Unsafe.putLong, element 1 the count the ring has (stored here after each
 * copy), and event e in element STAGE_SLOTS + (e & (slots - 1)). */
#define STAGE_SEQ 0
#define STAGE_COPIED 1
#define STAGE_SLOTS 8

/* Option slots of Native.create(long[] ...); keep in step with Native.java. */
enum {
	OPT_CAPACITY, OPT_RESOLUTION, OPT_TRACERS, OPT_EXPIRE, OPT_EVIL, OPT_LAG, OPT_ANR, OPT_ANR_INVALID,
	OPT_STACK_STYLE, OPT_FPS_SLICE, OPT_FRAME_INTERVAL, OPT_DROP_FROZEN, OPT_DROP_HIGH, OPT_DROP_MIDDLE,
	OPT_DROP_NORMAL, OPT_COLD, OPT_WARM, OPT_HAS_ACTIVITY, OPT_LOG, OPT_THREADS, OPT_THREAD_CAPACITY,
	OPT_MAX_THREADS, OPT_BLOCK_CONTEXT, OPT_TOUCH_LAG, OPT_BUILD_ID, OPT_COUNT
};

static void detach(void *unused)
{
	(void)unused;
	(*g_vm)->DetachCurrentThread(g_vm);
}

static JNIEnv *env_here(void)
{
	JNIEnv *env = NULL;
	jint rc = (*g_vm)->GetEnv(g_vm, (void **)&env, JNI_VERSION_1_6);
	if (rc == JNI_OK)
		return env;
	if (rc != JNI_EDETACHED)
		return NULL;
	/* ART names the native thread after the Java one: keep the name the
	 * runtime gave it (tc-clock, tc-tracer) */
	char name[16];
	os_thread_name(name);
	JavaVMAttachArgs args = { JNI_VERSION_1_6, name[0] ? name : (char *)"tracecanary", NULL };
	if ((*g_vm)->AttachCurrentThreadAsDaemon(g_vm, (void **)&env, &args) != JNI_OK)
		return NULL;
	pthread_setspecific(g_detach_key, env); /* non-NULL: the destructor runs at thread exit */
	return env;
}

/* NULL, with the exception pending, when it fails, or when an earlier call
 * failed (the exception still pending: no other call may be made). */
static jstring new_string(JNIEnv *env, const char *s)
{
	if ((*env)->ExceptionCheck(env))
		return NULL;
	/* NewStringUTF wants modified UTF-8; our strings are ASCII or UTF-8
	 * without NULs and without supplementary characters in practice. */
	return (*env)->NewStringUTF(env, s ? s : "");
}

static void clear_exception(JNIEnv *env)
{
	if ((*env)->ExceptionCheck(env)) {
		(*env)->ExceptionDescribe(env);
		(*env)->ExceptionClear(env);
	}
}

/* PushLocalFrame fails (an OutOfMemoryError pending) when there is no room
 * for the local references: then no frame to pop, and no upcall. */
static bool push_frame(JNIEnv *env)
{
	if ((*env)->PushLocalFrame(env, 8) == 0)
		return true;
	clear_exception(env);
	return false;
}

static void on_report(void *user, const tc_report *r)
{
	(void)user;
	JNIEnv *env = env_here();
	if (!env || !push_frame(env))
		return;
	jstring tag = new_string(env, r->tag), key = new_string(env, r->key), json = new_string(env, r->json);
	if (tag && key && json)
		(*env)->CallStaticVoidMethod(env, g_native, g_on_report, tag, key, json);
	clear_exception(env); /* the listener's, or the report not delivered (printed) */
	(*env)->PopLocalFrame(env, NULL);
}

static void on_log(void *user, int level, const char *tag, const char *text)
{
	(void)user;
	JNIEnv *env = env_here();
	if (!env || !push_frame(env))
		return;
	jstring jtag = new_string(env, tag), jtext = new_string(env, text);
	if (jtag && jtext)
		(*env)->CallStaticVoidMethod(env, g_native, g_on_log, (jint)level, jtag, jtext);
	clear_exception(env);
	(*env)->PopLocalFrame(env, NULL);
}

static void on_expired(void *user)
{
	(void)user;
	JNIEnv *env = env_here();
	if (!env)
		return;
	(*env)->CallStaticVoidMethod(env, g_native, g_on_expired);
	clear_exception(env);
}

static char *thread_stack(void *user, int style)
{
	(void)user;
	JNIEnv *env = NULL;
	if (style == TC_STACK_CALLER) {
		/* in a PLT hook on the thread that made the call: a thread the VM
		 * does not know has no Java stack, and attaching it there (inside
		 * whatever native code called) is not ours to do */
		if ((*g_vm)->GetEnv(g_vm, (void **)&env, JNI_VERSION_1_6) != JNI_OK)
			return NULL;
	} else {
		env = env_here();
	}
	if (!env)
		return NULL;
	char *out = NULL;
	if (!push_frame(env))
		return NULL;
	jstring s = (*env)->CallStaticObjectMethod(env, g_native, g_thread_stack, (jint)style);
	clear_exception(env);
	if (s) {
		const char *utf = (*env)->GetStringUTFChars(env, s, NULL);
		if (utf) {
			out = strdup(utf);
			(*env)->ReleaseStringUTFChars(env, s, utf);
		}
		clear_exception(env); /* GetStringUTFChars failed: out of memory */
	}
	(*env)->PopLocalFrame(env, NULL);
	return out;
}

/* On the signal-ANR watcher thread (attached here). */
static int64_t queue_head_late(void *user)
{
	(void)user;
	JNIEnv *env = env_here();
	if (!env)
		return INT64_MIN;
	jlong v = (*env)->CallStaticLongMethod(env, g_native, g_queue_late);
	clear_exception(env);
	return (int64_t)v;
}

/* The same thread: ActivityManager's error state, by the Java glue. */
static int error_state(void *user)
{
	(void)user;
	JNIEnv *env = env_here();
	if (!env)
		return 0;
	jint v = (*env)->CallStaticIntMethod(env, g_native, g_error_state);
	clear_exception(env);
	return (int)v;
}

/* The block context's GC counters (Native.gcStats): on the clock thread at a
 * message's start, on the recording thread when it turns out slow. */
static bool gc_stats(void *user, int64_t out[4])
{
	(void)user;
	JNIEnv *env = env_here();
	if (!env || !push_frame(env))
		return false;
	bool ok = false;
	jlongArray a = (*env)->NewLongArray(env, 4);
	if (a && (*env)->CallStaticBooleanMethod(env, g_native, g_gc_stats, a) && !(*env)->ExceptionCheck(env)) {
		jlong v[4];
		(*env)->GetLongArrayRegion(env, a, 0, 4, v);
		for (int k = 0; k < 4; k++)
			out[k] = (int64_t)v[k];
		ok = true;
	}
	clear_exception(env);
	(*env)->PopLocalFrame(env, NULL);
	return ok;
}

/* The clock word into AppMethodBeat.sNow, a volatile field: the writers'
 * only per-event view of the runtime. Any thread (attached here). */
static void on_clock_word(void *user, int64_t word)
{
	(void)user;
	JNIEnv *env = env_here();
	if (!env)
		return;
	(*env)->SetStaticLongField(env, g_beat, g_now, (jlong)word);
}

/* ---- staged writers: tc_feed over a Java long[] ---- */

static void throw_state(JNIEnv *env, const char *msg);

typedef struct jfeed {
	jlongArray arr;   /* global ref */
	uint32_t mask;    /* slots - 1 */
} jfeed;

static uint64_t feed_count(void *user)
{
	jfeed *f = user;
	JNIEnv *env = env_here();
	if (!env)
		return 0; /* nothing to copy */
	jlong v = 0;
	(*env)->GetLongArrayRegion(env, f->arr, STAGE_SEQ, 1, &v);
	if (sizeof(void *) < 8) {
		/* neither side is whole on 32-bit ARM: the writer's count store
		 * (putOrderedLong, an ordered, not volatile, store) is a plain
		 * strd from API 21-22's Quick compiler and two halves from the
		 * interpreter's Unsafe native, and a JNI copy may read in halves.
		 * Read until two reads agree: no read that overlapped a store is
		 * kept. A writer stopped between its halves leaves a value both
		 * reads agree on, wrong only where the low half carried (by 2^32,
		 * once every 2^32 events; ring_pull_some refuses the one above
		 * the real count). See tc_ringfile.h, "Staged writers". */
		for (jlong again = ~v; again != v; ) {
			again = v;
			(*env)->GetLongArrayRegion(env, f->arr, STAGE_SEQ, 1, &v);
		}
	}
	clear_exception(env);
	/* the count, then the events it counts: pairs with the writer's release
	 * store (putOrderedLong) of the count after the event */
	atomic_thread_fence(memory_order_acquire);
	return (uint64_t)v;
}

static void feed_copy(void *user, uint64_t first, size_t n, uint64_t *out)
{
	jfeed *f = user;
	JNIEnv *env = env_here();
	if (!env) {
		memset(out, 0, n * sizeof *out);
		return;
	}
	while (n) {
		uint32_t i = (uint32_t)(first & f->mask);
		size_t k = f->mask + 1 - i;
		if (k > n)
			k = n;
		(*env)->GetLongArrayRegion(env, f->arr, STAGE_SLOTS + (jsize)i, (jsize)k, (jlong *)out);
		clear_exception(env);
		out += k;
		first += k;
		n -= k;
	}
}

static void feed_store(void *user, uint64_t first, size_t n, const uint64_t *in)
{
	jfeed *f = user;
	JNIEnv *env = env_here();
	if (!env)
		return;
	while (n) {
		uint32_t i = (uint32_t)(first & f->mask);
		size_t k = f->mask + 1 - i;
		if (k > n)
			k = n;
		(*env)->SetLongArrayRegion(env, f->arr, STAGE_SLOTS + (jsize)i, (jsize)k, (const jlong *)in);
		clear_exception(env);
		in += k;
		first += k;
		n -= k;
	}
}

static void feed_reset(void *user, uint64_t count)
{
	jfeed *f = user;
	JNIEnv *env = env_here();
	if (!env)
		return;
	/* the count, and copied: everything below it is in the ring */
	jlong v[2] = { (jlong)count, (jlong)count };
	(*env)->SetLongArrayRegion(env, f->arr, STAGE_SEQ, 2, v);
	clear_exception(env);
}

/* Element 1: the events the ring has. No Java writer reads it today (none
 * waits for a copy): the copier drops what a writer overwrote (ring_pull_some). */
static void feed_copied(void *user, uint64_t count)
{
	jfeed *f = user;
	JNIEnv *env = env_here();
	if (!env)
		return;
	jlong v = (jlong)count;
	(*env)->SetLongArrayRegion(env, f->arr, STAGE_COPIED, 1, &v);
	clear_exception(env);
}

static void feed_release(void *user)
{
	jfeed *f = user;
	JNIEnv *env = env_here();
	if (env)
		(*env)->DeleteGlobalRef(env, f->arr);
	free(f);
}

/* A feed over arr, or NULL (an exception pending) when arr is not a staging
 * ring: STAGE_SLOTS plus a power of two of at least 2 elements. */
static int make_feed(JNIEnv *env, jlongArray arr, tc_feed *out)
{
	jsize len = arr ? (*env)->GetArrayLength(env, arr) : 0;
	uint32_t slots = len > STAGE_SLOTS ? (uint32_t)(len - STAGE_SLOTS) : 0;
	if (slots < 2 || (slots & (slots - 1))) {
		throw_state(env, "a staging ring is 8 + a power of two longs");
		return -1;
	}
	jfeed *f = malloc(sizeof *f);
	if (!f) {
		throw_state(env, "out of memory");
		return -1;
	}
	f->arr = (*env)->NewGlobalRef(env, arr);
	if (!f->arr) {
		free(f);
		return -1;
	}
	f->mask = slots - 1;
	*out = (tc_feed){ feed_count, feed_copy, feed_store, feed_reset, feed_release, feed_copied, slots, f };
	return 0;
}

/* The defaults read /proc; only the Java heap needs the VM. */
static void process_stat(void *user, tc_process_stat *out);

static tc_ctx *ctx_of(jlong handle)
{
	return (tc_ctx *)(intptr_t)handle;
}

static void throw_class(JNIEnv *env, const char *cls, const char *msg)
{
	if ((*env)->ExceptionCheck(env))
		return; /* one pending already: it is what the caller gets */
	jclass c = (*env)->FindClass(env, cls);
	if (c)
		(*env)->ThrowNew(env, c, msg);
}

static void throw_state(JNIEnv *env, const char *msg)
{
	throw_class(env, "java/lang/IllegalStateException", msg);
}

/* *out: a malloc'd copy of s, NULL for a null s. -1 when out of memory,
 * with an exception pending (GetStringUTFChars's, or ours). */
static int dup_jstring(JNIEnv *env, jstring s, char **out)
{
	*out = NULL;
	if (!s)
		return 0;
	const char *utf = (*env)->GetStringUTFChars(env, s, NULL);
	if (!utf)
		return -1;
	*out = strdup(utf);
	(*env)->ReleaseStringUTFChars(env, s, utf);
	if (!*out) {
		throw_class(env, "java/lang/OutOfMemoryError", "libtracecanary: a string");
		return -1;
	}
	return 0;
}

/* the strings of Native.create and reconfigure, in owned[] */
enum { STR_BUFFER, STR_REPORT, STR_SPLASH, STR_PRIORITY_LIBS, STR_TOUCH_LIBS, STR_COUNT };

static int fill_config(JNIEnv *env, tc_config *c, jlongArray opts, const jstring *strs, char **owned)
{
	tc_config_init(c);
	if ((*env)->GetArrayLength(env, opts) != OPT_COUNT) {
		throw_state(env, "option array size mismatch between Native.java and jni_glue.c");
		return -1;
	}
	jlong o[OPT_COUNT];
	(*env)->GetLongArrayRegion(env, opts, 0, OPT_COUNT, o);
	c->capacity = (uint32_t)o[OPT_CAPACITY];
	c->clock_resolution_ms = (uint32_t)o[OPT_RESOLUTION];
	c->tracers = (uint32_t)o[OPT_TRACERS];
	c->expire_ms = (uint32_t)o[OPT_EXPIRE];
	c->evil_threshold_ms = (uint32_t)o[OPT_EVIL];
	c->lag_ms = (uint32_t)o[OPT_LAG];
	c->anr_ms = (uint32_t)o[OPT_ANR];
	c->anr_invalid_ms = (uint32_t)o[OPT_ANR_INVALID];
	c->stack_style = (int)o[OPT_STACK_STYLE];
	c->fps_slice_ms = (uint32_t)o[OPT_FPS_SLICE];
	c->frame_interval_ns = (uint64_t)o[OPT_FRAME_INTERVAL];
	c->drop_frozen = (int)o[OPT_DROP_FROZEN];
	c->drop_high = (int)o[OPT_DROP_HIGH];
	c->drop_middle = (int)o[OPT_DROP_MIDDLE];
	c->drop_normal = (int)o[OPT_DROP_NORMAL];
	c->cold_threshold_ms = (uint32_t)o[OPT_COLD];
	c->warm_threshold_ms = (uint32_t)o[OPT_WARM];
	c->has_activity = o[OPT_HAS_ACTIVITY] != 0;
	c->record_threads = (uint32_t)o[OPT_THREADS];
	c->thread_capacity = (uint32_t)o[OPT_THREAD_CAPACITY];
	c->max_threads = (uint32_t)o[OPT_MAX_THREADS];
	c->block_context = o[OPT_BLOCK_CONTEXT] != 0;
	c->touch_lag_ms = (uint32_t)o[OPT_TOUCH_LAG];
	c->build_id = (uint64_t)o[OPT_BUILD_ID];
	/* half a configuration (no buffer path, say) makes no context: the
	 * exception goes to start() */
	for (size_t i = 0; i < STR_COUNT; i++)
		if (dup_jstring(env, strs[i], &owned[i]) != 0)
			return -1;
	c->buffer_path = owned[STR_BUFFER];
	c->report_path = owned[STR_REPORT];
	c->splash_activities = owned[STR_SPLASH];
	c->priority_libs = owned[STR_PRIORITY_LIBS];
	c->touch_libs = owned[STR_TOUCH_LIBS];
	c->on_report = on_report;
	c->on_log = o[OPT_LOG] ? on_log : NULL;
	c->on_expire = on_expired;
	c->probe.thread_stack = thread_stack;
	c->probe.process_stat = process_stat;
	c->probe.queue_head_late_ms = queue_head_late;
	c->probe.error_state = error_state;
	c->probe.gc_stats = gc_stats;
	c->on_clock_word = on_clock_word;
	return 0;
}

static jlong JNICALL n_create(JNIEnv *env, jclass cls, jlongArray opts, jstring buffer_path, jstring report_path,
                              jstring splash, jstring priority_libs, jstring touch_libs)
{
	(void)cls;
	tc_config c;
	char *owned[STR_COUNT] = { 0 };
	const jstring strs[STR_COUNT] = { buffer_path, report_path, splash, priority_libs, touch_libs };
	tc_ctx *ctx = NULL;
	if (fill_config(env, &c, opts, strs, owned) == 0) {
		tc_rt_error err = { 0 };
		if (tc_ctx_new(&ctx, &c, &err) != TC_RT_OK)
			throw_state(env, err.message);
	}
	for (size_t i = 0; i < STR_COUNT; i++)
		free(owned[i]);
	return (jlong)(intptr_t)ctx;
}

/* May replace the ring (tc_reconfigure): the Java writer lets go of it first
 * (TraceCanary.reconfigure). */
static void JNICALL n_reconfigure(JNIEnv *env, jclass cls, jlong h, jlongArray opts, jstring buffer_path,
                                  jstring report_path, jstring splash, jstring priority_libs, jstring touch_libs)
{
	(void)cls;
	tc_config c;
	char *owned[STR_COUNT] = { 0 };
	const jstring strs[STR_COUNT] = { buffer_path, report_path, splash, priority_libs, touch_libs };
	if (fill_config(env, &c, opts, strs, owned) == 0) {
		tc_rt_error err = { 0 };
		if (tc_reconfigure(ctx_of(h), &c, &err) != TC_RT_OK)
			throw_state(env, err.message);
	}
	for (size_t i = 0; i < STR_COUNT; i++)
		free(owned[i]);
}

static jobject JNICALL n_region(JNIEnv *env, jclass cls, jlong h)
{
	(void)cls;
	size_t size;
	void *base = tc_ring_base(ctx_of(h), &size);
	return (*env)->NewDirectByteBuffer(env, base, (jlong)size);
}

/* The recording thread's staging ring (AppMethodBeat). */
static void JNICALL n_attach(JNIEnv *env, jclass cls, jlong h, jlongArray staging)
{
	(void)cls;
	tc_feed f;
	if (make_feed(env, staging, &f) != 0)
		return;
	tc_rt_error err = { 0 };
	if (tc_feed_attach(ctx_of(h), &f, NULL, NULL, &err) != TC_RT_OK) {
		f.release(f.user);
		throw_state(env, err.message);
	}
}

static jint JNICALL n_start(JNIEnv *env, jclass cls, jlong h)
{
	(void)cls;
	tc_rt_error err = { 0 };
	int rc = tc_start(ctx_of(h), &err);
	if (rc != TC_RT_OK)
		throw_state(env, err.message);
	return rc;
}

static void JNICALL n_stop(JNIEnv *env, jclass cls, jlong h) { (void)env; (void)cls; tc_stop(ctx_of(h)); }
static void JNICALL n_release(JNIEnv *env, jclass cls, jlong h) { (void)env; (void)cls; tc_ctx_free(ctx_of(h)); }
static jint JNICALL n_status(JNIEnv *env, jclass cls, jlong h) { (void)env; (void)cls; return tc_status(ctx_of(h)); }
/* The string-taking natives share one shape. They run on the app's code
 * paths (lifecycle callbacks): out of memory, they skip their work and clear
 * the exception rather than throw it into the app. */
#define WITH_UTF(env, js, var, body)                                   \
	do {                                                           \
		const char *var = (*(env))->GetStringUTFChars((env), (js), NULL); \
		if (!var) {                                            \
			clear_exception(env);                          \
			return;                                        \
		}                                                      \
		body;                                                  \
		(*(env))->ReleaseStringUTFChars((env), (js), var);     \
	} while (0)

static void JNICALL n_bind(JNIEnv *env, jclass cls, jlong h, jstring name)
{
	(void)cls;
	tc_ctx_bind_thread(ctx_of(h));
	WITH_UTF(env, name, n, tc_thread_name(ctx_of(h), n));
}

static void JNICALL n_thread_name(JNIEnv *env, jclass cls, jlong h, jstring name)
{
	(void)cls;
	WITH_UTF(env, name, n, tc_thread_name(ctx_of(h), n));
}

/* The ring's capacity: the recording thread's staging ring holds as many. */
static jint JNICALL n_capacity(JNIEnv *env, jclass cls, jlong h)
{
	(void)env; (void)cls;
	uint64_t cap = 0;
	memcpy(&cap, (const char *)tc_ring_base(ctx_of(h), NULL) + TC_RING_OFF_CAPACITY, sizeof cap);
	return (jint)cap;
}

static jint JNICALL n_thread_capacity(JNIEnv *env, jclass cls, jlong h)
{
	(void)env; (void)cls;
	const char *base = tc_threads_base(ctx_of(h), NULL);
	uint64_t ring_size = 0;
	if (base)
		memcpy(&ring_size, base + TC_THREADS_OFF_RING_SIZE, sizeof ring_size);
	return base ? (jint)((ring_size - TC_RING_HEADER_SIZE) / 8) : 0;
}

static jboolean JNICALL n_threads_on(JNIEnv *env, jclass cls, jlong h)
{
	(void)env; (void)cls;
	return tc_threads_base(ctx_of(h), NULL) != NULL;
}

/* Another thread's staging ring (ThreadRing): its ring's token (> 0, for
 * threadEnded), 0 every ring is in use (try again later), -1 the context
 * records the recording thread only. */
static jlong JNICALL n_thread_attach(JNIEnv *env, jclass cls, jlong h, jstring name, jlongArray staging)
{
	(void)cls;
	tc_feed f;
	if (make_feed(env, staging, &f) != 0)
		return -1;
	char *n;
	if (dup_jstring(env, name, &n) != 0)
		clear_exception(env); /* the app's thread, in a traced call: the system's name for it */
	tc_rt_error err = { 0 };
	uint64_t token = 0;
	int rc = tc_feed_attach(ctx_of(h), &f, n, &token, &err);
	free(n);
	if (rc != TC_RT_OK)
		f.release(f.user);
	return rc == TC_RT_OK ? (jlong)token : rc == TC_RT_ENOSPC ? 0 : -1;
}

static void JNICALL n_thread_ended(JNIEnv *env, jclass cls, jlong h, jlong token)
{
	(void)env; (void)cls;
	tc_feed_ended(ctx_of(h), (uint64_t)token);
}

static void JNICALL n_pull(JNIEnv *env, jclass cls, jlong h)
{
	(void)env; (void)cls;
	tc_feed_pull(ctx_of(h));
}

static jlong JNICALL n_kick(JNIEnv *env, jclass cls, jlong h)
{
	(void)env; (void)cls;
	return (jlong)tc_clock_kick(ctx_of(h));
}

static void JNICALL n_threads_dropped(JNIEnv *env, jclass cls, jlong h, jlong n)
{
	(void)env; (void)cls;
	tc_threads_dropped(ctx_of(h), (uint64_t)n);
}

static jint JNICALL n_section_id(JNIEnv *env, jclass cls, jlong h, jstring name)
{
	(void)cls;
	char *n;
	if (dup_jstring(env, name, &n) != 0) {
		clear_exception(env); /* beginSection, on the app's code path: not recorded */
		return -1;
	}
	uint32_t id = 0;
	int rc = n ? tc_section_id(ctx_of(h), n, &id, NULL) : TC_RT_EINVAL;
	free(n);
	return rc == TC_RT_OK ? (jint)id : -1;
}

static void JNICALL n_self_check(JNIEnv *env, jclass cls, jlong h, jlong ps)
{
	(void)env;
	(void)cls;
	tc_self_check(ctx_of(h), ps <= 0 ? 1 : ps > (jlong)UINT32_MAX ? UINT32_MAX : (uint32_t)ps);
}

static void JNICALL n_first_report_note(JNIEnv *env, jclass cls, jlong h, jstring key, jstring value)
{
	(void)cls;
	char *k = NULL, *v = NULL;
	if (dup_jstring(env, key, &k) == 0 && dup_jstring(env, value, &v) == 0 && k && v)
		tc_first_report_note(ctx_of(h), k, v, NULL);
	clear_exception(env);
	free(k);
	free(v);
}

static void JNICALL n_dispatch_begin(JNIEnv *env, jclass cls, jlong h)
{
	(void)env; (void)cls;
	tc_dispatch_begin(ctx_of(h));
}

static void JNICALL n_idle_begin(JNIEnv *env, jclass cls, jlong h)
{
	(void)env; (void)cls;
	tc_idle_begin(ctx_of(h));
}

static void JNICALL n_idle_end(JNIEnv *env, jclass cls, jlong h)
{
	(void)env; (void)cls;
	tc_idle_end(ctx_of(h));
}

static void JNICALL n_dispatch_end(JNIEnv *env, jclass cls, jlong h)
{
	(void)env; (void)cls;
	tc_dispatch_end(ctx_of(h));
}

static void JNICALL n_vsync(JNIEnv *env, jclass cls, jlong h, jlong ns) { (void)env; (void)cls; tc_vsync(ctx_of(h), (uint64_t)ns); }
static void JNICALL n_view_phase(JNIEnv *env, jclass cls, jlong h, jint phase) { (void)env; (void)cls; tc_view_phase(ctx_of(h), phase); }
static void JNICALL n_view_source(JNIEnv *env, jclass cls, jlong h, jint source) { (void)env; (void)cls; tc_set_view_source(ctx_of(h), source); }
static void JNICALL n_frame_metrics(JNIEnv *env, jclass cls, jlong h, jlongArray ns)
{
	(void)cls;
	/* the durations, then the intended vsync (-1 before API 26), then the
	 * reports the platform dropped before this one */
	if ((*env)->GetArrayLength(env, ns) != TC_FM_COUNT + 2)
		return;
	int64_t v[TC_FM_COUNT];
	jlong j[TC_FM_COUNT + 2];
	(*env)->GetLongArrayRegion(env, ns, 0, TC_FM_COUNT + 2, j);
	for (int i = 0; i < TC_FM_COUNT; i++)
		v[i] = j[i];
	if (j[TC_FM_COUNT + 1] > 0)
		tc_frame_metrics_dropped(ctx_of(h), j[TC_FM_COUNT + 1] < UINT32_MAX ? (uint32_t)j[TC_FM_COUNT + 1] : UINT32_MAX);
	tc_frame_metrics_at(ctx_of(h), v, j[TC_FM_COUNT]);
}
static void JNICALL n_frame_interval(JNIEnv *env, jclass cls, jlong h, jlong ns)
{
	(void)env; (void)cls;
	tc_set_frame_interval(ctx_of(h), (uint64_t)ns);
}
static void JNICALL n_foreground(JNIEnv *env, jclass cls, jlong h, jboolean fg)
{
	(void)env; (void)cls;
	tc_set_foreground(ctx_of(h), fg);
}
static jlong JNICALL n_written(JNIEnv *env, jclass cls, jlong h) { (void)env; (void)cls; return (jlong)tc_written(ctx_of(h)); }
static void JNICALL n_app_begin(JNIEnv *env, jclass cls, jlong h) { (void)env; (void)cls; tc_app_create_begin(ctx_of(h)); }
static void JNICALL n_app_end(JNIEnv *env, jclass cls, jlong h, jint what, jboolean launch)
{
	(void)env; (void)cls;
	tc_app_create_end(ctx_of(h), what, launch);
}

static void JNICALL n_scene(JNIEnv *env, jclass cls, jlong h, jstring s)
{
	(void)cls;
	WITH_UTF(env, s, scene, tc_set_scene(ctx_of(h), scene));
}
static void JNICALL n_created(JNIEnv *env, jclass cls, jlong h, jstring s, jint id)
{
	(void)cls;
	WITH_UTF(env, s, name, tc_activity_created(ctx_of(h), name, (uint32_t)id));
}
static void JNICALL n_destroyed(JNIEnv *env, jclass cls, jlong h, jstring s, jint id)
{
	(void)cls;
	WITH_UTF(env, s, name, tc_activity_destroyed(ctx_of(h), name, (uint32_t)id));
}
static void JNICALL n_focus(JNIEnv *env, jclass cls, jlong h, jstring s, jint id, jboolean focus)
{
	(void)cls;
	WITH_UTF(env, s, name, tc_activity_focus(ctx_of(h), name, (uint32_t)id, focus));
}

static void process_stat(void *user, tc_process_stat *out)
{
	(void)user;
	/* out holds the /proc defaults: the Java heap from the VM */
	JNIEnv *env = env_here();
	if (!env)
		return;
	jlong kb = (*env)->CallStaticLongMethod(env, g_native, g_java_heap);
	clear_exception(env);
	out->dalvik_heap_kb = kb;
}

/* JNINativeMethod holds functions as void *, which ISO C does not define;
 * every JNI platform does, and __extension__ says we know. */
#define N(name, sig, fn) { (char *)(name), (char *)(sig), __extension__(void *)(fn) }
static const JNINativeMethod methods[] = {
	N("create", "([JLjava/lang/String;Ljava/lang/String;Ljava/lang/String;Ljava/lang/String;Ljava/lang/String;)J",
	  n_create),
	N("reconfigure",
	  "(J[JLjava/lang/String;Ljava/lang/String;Ljava/lang/String;Ljava/lang/String;Ljava/lang/String;)V",
	  n_reconfigure),
	N("region", "(J)Ljava/nio/ByteBuffer;", n_region),
	N("attach", "(J[J)V", n_attach),
	N("capacity", "(J)I", n_capacity),
	N("start", "(J)I", n_start),
	N("stop", "(J)V", n_stop),
	N("release", "(J)V", n_release),
	N("status", "(J)I", n_status),
	N("bindThread", "(JLjava/lang/String;)V", n_bind),
	N("threadName", "(JLjava/lang/String;)V", n_thread_name),
	N("threadsOn", "(J)Z", n_threads_on),
	N("threadCapacity", "(J)I", n_thread_capacity),
	N("threadAttach", "(JLjava/lang/String;[J)J", n_thread_attach),
	N("threadEnded", "(JJ)V", n_thread_ended),
	N("threadsDropped", "(JJ)V", n_threads_dropped),
	N("pull", "(J)V", n_pull),
	N("kick", "(J)J", n_kick),
	N("sectionId", "(JLjava/lang/String;)I", n_section_id),
	N("selfCheck", "(JJ)V", n_self_check),
	N("firstReportNote", "(JLjava/lang/String;Ljava/lang/String;)V", n_first_report_note),
	N("dispatchBegin", "(J)V", n_dispatch_begin),
	N("dispatchEnd", "(J)V", n_dispatch_end),
	N("idleBegin", "(J)V", n_idle_begin),
	N("idleEnd", "(J)V", n_idle_end),
	N("vsync", "(JJ)V", n_vsync),
	N("viewPhase", "(JI)V", n_view_phase),
	N("viewSource", "(JI)V", n_view_source),
	N("frameMetrics", "(J[J)V", n_frame_metrics),
	N("frameInterval", "(JJ)V", n_frame_interval),
	N("foreground", "(JZ)V", n_foreground),
	N("written", "(J)J", n_written),
	N("appCreateBegin", "(J)V", n_app_begin),
	N("appCreateEnd", "(JIZ)V", n_app_end),
	N("scene", "(JLjava/lang/String;)V", n_scene),
	N("activityCreated", "(JLjava/lang/String;I)V", n_created),
	N("activityDestroyed", "(JLjava/lang/String;I)V", n_destroyed),
	N("activityFocus", "(JLjava/lang/String;IZ)V", n_focus),
};

JNIEXPORT jint JNICALL JNI_OnLoad(JavaVM *vm, void *reserved)
{
	(void)reserved;
	JNIEnv *env;
	if ((*vm)->GetEnv(vm, (void **)&env, JNI_VERSION_1_6) != JNI_OK)
		return JNI_ERR;
	g_vm = vm;
	if (pthread_key_create(&g_detach_key, detach) != 0)
		return JNI_ERR;
	jclass c = (*env)->FindClass(env, NATIVE_CLASS);
	if (!c)
		return JNI_ERR;
	g_native = (*env)->NewGlobalRef(env, c);
	g_on_report = (*env)->GetStaticMethodID(env, c, "onReport", "(Ljava/lang/String;Ljava/lang/String;Ljava/lang/String;)V");
	g_on_log = (*env)->GetStaticMethodID(env, c, "onLog", "(ILjava/lang/String;Ljava/lang/String;)V");
	g_on_expired = (*env)->GetStaticMethodID(env, c, "onExpired", "()V");
	g_thread_stack = (*env)->GetStaticMethodID(env, c, "threadStack", "(I)Ljava/lang/String;");
	g_java_heap = (*env)->GetStaticMethodID(env, c, "javaHeapKb", "()J");
	g_queue_late = (*env)->GetStaticMethodID(env, c, "queueHeadLate", "()J");
	g_error_state = (*env)->GetStaticMethodID(env, c, "errorState", "()I");
	g_gc_stats = (*env)->GetStaticMethodID(env, c, "gcStats", "([J)Z");
	if (!g_native || !g_on_report || !g_on_log || !g_on_expired || !g_thread_stack || !g_java_heap || !g_queue_late ||
	    !g_error_state || !g_gc_stats)
		return JNI_ERR;
	/* the class that loaded the library is TraceCanary's: AppMethodBeat is
	 * found through the same loader (and is initialized by the field lookup) */
	jclass beat = (*env)->FindClass(env, BEAT_CLASS);
	if (!beat)
		return JNI_ERR;
	g_beat = (*env)->NewGlobalRef(env, beat);
	g_now = (*env)->GetStaticFieldID(env, beat, "sNow", "J");
	if (!g_beat || !g_now)
		return JNI_ERR;
	if ((*env)->RegisterNatives(env, c, methods, (jint)(sizeof methods / sizeof methods[0])) != 0)
		return JNI_ERR;
	return JNI_VERSION_1_6;
}
