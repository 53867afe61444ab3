/* trace_gen: produces what an app traced by the runtime leaves behind, by
 * driving the runtime's C API (tc_runtime.h) with an injected clock and a
 * file-backed ring, for the tc-trace end-to-end test (e2e.sh).
 *
 *   trace_gen sample DIR   DIR/ring, DIR/reports.jsonl, DIR/methodMapping.txt:
 *                          messages with nested and repeated calls, a slow
 *                          message (Trace_EvilMethod NORMAL), a 5.5 s message
 *                          (LAG and ANR), a lost out event, an id with no
 *                          mapping entry, and a method still open at the end
 *   trace_gen wrap DIR     DIR/ring of 61 slots after 800 events: wrapped
 *   trace_gen crash RING   writes into RING on the real clock, prints READY
 *                          inside a message and waits to be killed (kill -9)
 *   trace_gen big DIR N    DIR/ring holding N events (about N/22 messages of
 *                          40 kinds, each calling a few of its 8 methods, some
 *                          of which call 2 more; a 1 ms clock), and
 *                          DIR/methodMapping.txt: a big input for the HTML
 *                          report's size and speed (tests/browser, bench/)
 *   trace_gen threads DIR  DIR/ring and DIR/ring-threads (threads = all): the
 *                          main thread in a section "cold start" starts two
 *                          threads, io-1 (a section "download" around a fetch)
 *                          and io-2, one after the other, inside a message
 *   trace_gen reused DIR   the same, then io-2's ring given io-1's thread id, as
 *                          when the kernel gives an ended thread's id again:
 *                          two threads of one id, generations 1 and 2
 *   trace_gen off-main DIR threads, recorded on a thread that is not the
 *                          process's first (HotSpot's Java main thread), the
 *                          clock ticking every 1 ms (a local profiling session)
 *   trace_gen compare DIR K SEED SLOW_MS [renumber,nobuild,empty]
 *                          K launches of one build (tc-trace compare): DIR/ring0
 *                          .. ring<K-1> and DIR/methodMapping.txt, the ring
 *                          carrying its build id; a section "start-up" (a
 *                          message calling app.Catalog.load once, which takes
 *                          SLOW_MS more than its usual 30 ms, and others), then
 *                          40 messages; every duration drawn with jitter from
 *                          SEED and the launch, and a slow network method of
 *                          large variance; the clock ticks every 5 ms, as the
 *                          runtime's. renumber: another build of the same
 *                          methods, whose ids differ (Catalog.load among them);
 *                          nobuild: rings without a build id (an app without
 *                          tc-instrument's marker class); empty: rings of no call
 *   trace_gen fleet DIR FILES REPORTS SEED HOT_PCT SLOW_MS [renumber]
 *                          a fleet's report files (tc-trace compare of reports):
 *                          DIR/dev0.jsonl .. dev<FILES-1>.jsonl and
 *                          DIR/methodMapping.txt (compare's build): about
 *                          REPORTS Trace_EvilMethod reports of 7 stacks (slow
 *                          messages, an ANR, a LAG with only a thread stack, a
 *                          slow start-up; each stack's count +-5%), spread over
 *                          the devices at random, and a Trace_FPS line per
 *                          device. HOT_PCT scales the count of the slow message
 *                          under app.Catalog.load (100: as usual), SLOW_MS adds to
 *                          the costs of the one under app.Main.onClick;
 *                          renumber: the other build's ids, and a new stack (a
 *                          slow message under app.Config.read)
 *
 * Exit status 0, or 1 with a message. */
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "tc_ringfile.h"
#include "method_mapping.h"
#include "tc_runtime.h"

typedef struct fake {
	uint64_t now_ns;
} fake;

static uint64_t fake_now(void *user)
{
	return ((fake *)user)->now_ns;
}

/* wall clock: a fixed date plus the fake clock, so report times map onto
 * the ring's time base exactly */
static uint64_t fake_wall(void *user)
{
	return UINT64_C(1700000000000) + ((fake *)user)->now_ns / 1000000u;
}

static void fake_device(void *user, tc_device_info *d)
{
	(void)user;
	d->machine = "HIGH";
	d->cpu_app = 1.5;
	d->mem_bytes = INT64_C(6442450944);
	d->mem_free_kb = 1024;
}

static void fake_stat(void *user, tc_process_stat *s)
{
	(void)user;
	s->priority = 10;
	s->nice = -10;
	s->dalvik_heap_kb = 2048;
	s->native_heap_kb = 4096;
	s->vm_size_kb = 8192;
}

static char *fake_stack(void *user, int style)
{
	(void)user;
	(void)style;
	static const char text[] = "at sample.Main.stuck(Main.java:42)\nat sample.Main.onClick(Main.java:7)\n";
	char *s = malloc(sizeof text);
	if (s)
		memcpy(s, text, sizeof text);
	return s;
}

static char *fake_name(void *user)
{
	(void)user;
	char *s = malloc(16);
	if (s)
		strcpy(s, "sample.app");
	return s;
}

static fake clk;
static tc_ctx *ctx;

static void advance(uint64_t ms)
{
	clk.now_ns += ms * 1000000u;
}

static void in(uint32_t id) { tc_record(ctx, id, true); }
static void out(uint32_t id) { tc_record(ctx, id, false); }

/* a method that runs ms and calls nothing */
static void leaf(uint32_t id, uint64_t ms)
{
	in(id);
	advance(ms);
	out(id);
}

static int die(const char *what, const tc_rt_error *err)
{
	fprintf(stderr, "trace_gen: %s: %s\n", what, err ? err->message : "");
	return 1;
}

static const char mapping_text[] =
	"# methodMapping.txt as tc-instrument writes it\n"
	"1,1,sample.App onCreate ()V\n"
	"2,1,sample.Main <init> ()V\n"
	"10,1,sample.Main onCreate (Landroid.os.Bundle;)V\n"
	"11,2,sample.Main inflate (I)V\n"
	"12,2,sample.Main loadConfig ()V\n"
	"20,1,sample.Main onClick (Landroid.view.View;)V\n"
	"21,2,sample.Main slowWork ()V\n"
	"22,10,sample.Parser parse (Ljava.lang.String;)Ljava.lang.Object;\n"
	"30,1,sample.Main render ()V\n"
	"31,2,sample.Main measure ()V\n"
	"50,2,sample.Main stuck ()V\n"
	"60,1,sample.Net fetch ()V\n"
	"61,2,sample.Net connect ()V\n"
	"70,1,sample.Main finish ()V\n"
	"300,8,sample.Crash loop ()V\n"
	"301,8,sample.Crash step (I)V\n"
	"1048574,1,android.os.Handler dispatchMessage (Landroid.os.Message;)V\n";

static int write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	if (!f || fputs(text, f) < 0 || fclose(f) != 0) {
		perror(path);
		return 1;
	}
	return 0;
}

static int setup(tc_config *c, const char *ring, const char *reports, uint32_t capacity)
{
	tc_config_init(c);
	clk.now_ns = UINT64_C(5000000000);
	c->capacity = capacity;
	c->buffer_path = ring;
	c->report_path = reports;
	c->threads = false;
	c->tracers = TC_TRACER_EVIL | TC_TRACER_ANR;
	c->clock = (tc_clock){ fake_now, &clk };
	c->probe = (tc_probe){ .user = &clk, .wall_ms = fake_wall, .device_info = fake_device, .process_stat = fake_stat,
	                      .thread_stack = fake_stack, .process_name = fake_name };
	/* TRACE_GEN_BUILD_ID: the build id the runtime records (hex; "mapping": the id of
	 * the sample's methodMapping.txt, as tc-instrument would have computed it) */
	const char *bid = getenv("TRACE_GEN_BUILD_ID");
	if (bid && strcmp(bid, "mapping") == 0) {
		mm_build_id h;
		mm_build_id_init(&h);
		mm_build_id_text(&h, mapping_text, strlen(mapping_text));
		c->build_id = mm_build_id_final(&h);
	} else if (bid && mm_build_id_parse(bid, strlen(bid), &c->build_id) != 0) {
		fprintf(stderr, "TRACE_GEN_BUILD_ID: not hex: %s\n", bid);
		return 1;
	}
	tc_rt_error err = { 0 };
	if (tc_ctx_new(&ctx, c, &err) != TC_RT_OK)
		return die("tc_ctx_new", &err);
	if (tc_start(ctx, &err) != TC_RT_OK)
		return die("tc_start", &err);
	return 0;
}

static int sample(const char *dir)
{
	char ring[4096], reports[4096], map[4096];
	snprintf(ring, sizeof ring, "%s/ring", dir);
	snprintf(reports, sizeof reports, "%s/reports.jsonl", dir);
	snprintf(map, sizeof map, "%s/methodMapping.txt", dir);
	remove(reports);
	if (write_file(map, mapping_text))
		return 1;
	tc_config c;
	if (setup(&c, ring, reports, 4096))
		return 1;

	/* before the first message: the application's onCreate */
	advance(3);
	leaf(1, 4);
	tc_set_scene(ctx, "sample.Main");

	/* message 0: onCreate with three inflates and a config load */
	advance(2);
	tc_dispatch_begin(ctx);
	in(10);
	leaf(2, 1);
	for (int i = 0; i < 3; i++)
		leaf(11, 10);
	leaf(12, 25);
	out(10);
	tc_dispatch_end(ctx);

	/* message 1: a slow click, 840 ms, over the 700 ms threshold */
	advance(20);
	tc_dispatch_begin(ctx);
	in(20);
	advance(5);
	in(21);
	advance(760);
	for (int i = 0; i < 5; i++)
		leaf(22, 6);
	out(21);
	advance(5);
	out(20);
	tc_dispatch_end(ctx);

	/* message 2: render, measure twice, and an id the mapping lacks */
	advance(16);
	tc_dispatch_begin(ctx);
	in(30);
	leaf(31, 3);
	leaf(31, 4);
	leaf(40, 2);
	out(30);
	tc_dispatch_end(ctx);

	/* message 3: stuck for 5.5 s: lag at 2 s and ANR at 5 s, then slow */
	advance(10);
	tc_dispatch_begin(ctx);
	in(50);
	for (int i = 0; i < 55; i++) {
		advance(100);
		tc_ctx_poll(ctx);
	}
	out(50);
	tc_dispatch_end(ctx);
	tc_ctx_poll(ctx);

	/* message 4: fetch leaves connect by a path that lost its out event */
	advance(30);
	tc_dispatch_begin(ctx);
	in(60);
	in(61);
	advance(12);
	out(60);
	tc_dispatch_end(ctx);

	/* message 5: still running when the ring is read */
	advance(8);
	tc_dispatch_begin(ctx);
	in(70);
	advance(40);
	tc_ctx_free(ctx);
	return 0;
}

static int wrap(const char *dir)
{
	char ring[4096];
	snprintf(ring, sizeof ring, "%s/ring", dir);
	tc_config c;
	if (setup(&c, ring, NULL, 61)) /* not a multiple of a message's 8 events */
		return 1;
	for (int m = 0; m < 100; m++) {
		tc_dispatch_begin(ctx);
		in(10);
		leaf(11, 1);
		leaf(12, 2);
		out(10);
		advance(1);
		tc_dispatch_end(ctx);
		advance(3);
	}
	tc_ctx_free(ctx);
	return 0;
}

static int crash(const char *ring)
{
	tc_config c;
	tc_config_init(&c);
	c.capacity = 4096;
	c.buffer_path = ring;
	c.threads = false;
	c.tracers = 0;
	tc_rt_error err = { 0 };
	if (tc_ctx_new(&ctx, &c, &err) != TC_RT_OK)
		return die("tc_ctx_new", &err);
	if (tc_start(ctx, &err) != TC_RT_OK)
		return die("tc_start", &err);
	tc_dispatch_begin(ctx);
	in(300);
	for (int i = 0; i < 1000; i++) {
		in(301);
		struct timespec step = { 0, 100000 };
		nanosleep(&step, NULL);
		out(301);
	}
	printf("READY\n");
	fflush(stdout);
	for (;;) {
		struct timespec ts = { 1, 0 };
		nanosleep(&ts, NULL); /* until kill -9 */
	}
}

static int big(const char *dir, const char *count)
{
	char ring[4096], map[4096];
	snprintf(ring, sizeof ring, "%s/ring", dir);
	snprintf(map, sizeof map, "%s/methodMapping.txt", dir);
	char *end;
	unsigned long n = strtoul(count, &end, 10);
	if (*end || n < 100 || n > 100000000) {
		fputs("trace_gen: big needs 100..100000000 events\n", stderr);
		return 2;
	}
	FILE *f = fopen(map, "w");
	if (!f) {
		perror(map);
		return 1;
	}
	fprintf(f, "1048574,1,android.os.Handler dispatchMessage (Landroid.os.Message;)V\n");
	for (int h = 0; h < 40; h++) {
		fprintf(f, "%d,1,big.Screen%d handle (Landroid.os.Message;)V\n", 10 + h, h);
		for (int k = 0; k < 8; k++) {
			fprintf(f, "%d,1,big.Screen%d step%d ()V\n", 100 + h * 8 + k, h, k);
			for (int g = 0; g < 2; g++)
				fprintf(f, "%d,2,big.Util%d work%d (I)I\n", 1000 + (h * 8 + k) * 2 + g, k, h * 2 + g);
		}
	}
	if (fclose(f) != 0) {
		perror(map);
		return 1;
	}
	tc_config c;
	/* a little room: the ring must not wrap, the last message is cut at n */
	if (setup(&c, ring, NULL, (uint32_t)n))
		return 1;
	unsigned seed = 7;
	size_t written = 0;
#define RND() (seed = seed * 1103515245u + 12345u, seed >> 8)
#define EV(x) do { if (written >= n) goto done; x; written++; } while (0)
	for (;;) {
		unsigned h = RND() % 40;
		advance(RND() % 4);
		EV(tc_dispatch_begin(ctx));
		EV(in(10 + h));
		unsigned calls = 2 + RND() % 5;
		for (unsigned i = 0; i < calls; i++) {
			unsigned k = RND() % 8, m = 100 + h * 8 + k;
			EV(in(m));
			advance(RND() % 3);
			if (RND() % 2)
				for (int g = 0; g < 2; g++) {
					EV(in(1000 + (h * 8 + k) * 2 + g));
					advance(RND() % 2);
					EV(out(1000 + (h * 8 + k) * 2 + g));
				}
			EV(out(m));
		}
		EV(out(10 + h));
		EV(tc_dispatch_end(ctx));
	}
done:
#undef EV
#undef RND
	tc_ctx_free(ctx);
	return 0;
}

/* A worker: runs one at a time (the main thread joins it), so the fake
 * clock it advances is never read meanwhile. */
static void *io_1(void *arg)
{
	(void)arg;
	tc_thread_name(ctx, "io-1");
	advance(2);
	tc_section_begin(ctx, "download", NULL);
	in(60);
	leaf(61, 30);
	out(60);
	tc_section_end(ctx);
	return NULL;
}

static void *io_2(void *arg)
{
	(void)arg;
	tc_thread_name(ctx, "io-2");
	leaf(12, 20);
	return NULL;
}

/* the clock's tick of threads' ring (0: the default, 5 ms) */
static uint32_t threads_tick_ms;

static int threads(const char *dir)
{
	char ring[4096], map[4096];
	snprintf(ring, sizeof ring, "%s/ring", dir);
	snprintf(map, sizeof map, "%s/methodMapping.txt", dir);
	if (write_file(map, mapping_text))
		return 1;
	tc_config c;
	tc_config_init(&c);
	clk.now_ns = UINT64_C(5000000000);
	c.capacity = 4096;
	c.buffer_path = ring;
	c.threads = false;
	c.tracers = 0;
	c.record_threads = TC_THREADS_ALL;
	c.thread_capacity = 1024;
	c.max_threads = 4;
	if (threads_tick_ms)
		c.clock_resolution_ms = threads_tick_ms;
	c.clock = (tc_clock){ fake_now, &clk };
	c.probe = (tc_probe){ .user = &clk, .wall_ms = fake_wall, .device_info = fake_device, .process_stat = fake_stat,
	                      .thread_stack = fake_stack, .process_name = fake_name };
	tc_rt_error err = { 0 };
	if (tc_ctx_new(&ctx, &c, &err) != TC_RT_OK)
		return die("tc_ctx_new", &err);
	tc_thread_name(ctx, "main");
	tc_section_begin(ctx, "cold start", NULL);
	advance(5);
	tc_dispatch_begin(ctx); /* message 0, 0..100 ms after the first 5 */
	in(10);
	advance(10);
	pthread_t t;
	if (pthread_create(&t, NULL, io_1, NULL) || pthread_join(t, NULL))
		return die("io-1", NULL);
	if (pthread_create(&t, NULL, io_2, NULL) || pthread_join(t, NULL))
		return die("io-2", NULL);
	advance(38);
	out(10);
	tc_dispatch_end(ctx);
	tc_section_end(ctx);
	advance(10);
	tc_dispatch_begin(ctx); /* message 1 */
	leaf(30, 5);
	tc_dispatch_end(ctx);
	tc_ctx_free(ctx);
	return 0;
}

/* io-2's ring (the thread file's second) takes io-1's thread id. */
static int reuse_tid(const char *dir)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/ring-threads", dir);
	FILE *f = fopen(path, "r+b");
	if (!f)
		return die(path, NULL);
	uint64_t ring_size = 0;
	uint32_t tid = 0;
	int ok = fseek(f, TC_THREADS_OFF_RING_SIZE, SEEK_SET) == 0 && fread(&ring_size, 8, 1, f) == 1 &&
	         fseek(f, TC_THREADS_HEADER_SIZE + TC_RING_OFF_TID, SEEK_SET) == 0 && fread(&tid, 4, 1, f) == 1 &&
	         fseek(f, (long)(TC_THREADS_HEADER_SIZE + ring_size + TC_RING_OFF_TID), SEEK_SET) == 0 &&
	         fwrite(&tid, 4, 1, f) == 1;
	if (fclose(f) != 0 || !ok)
		return die(path, NULL);
	return 0;
}

/* threads, recorded on a thread that is not the process's first: HotSpot's
 * java launcher runs the Java main thread on a thread of its own (pid 20701,
 * main thread 20703), where Android's main thread's id is the pid. */
static void *threads_on(void *dir)
{
	return (void *)(intptr_t)threads(dir);
}

static int off_main(const char *dir)
{
	threads_tick_ms = 1; /* and a local profiling session's tick */
	pthread_t t;
	void *rc = NULL;
	if (pthread_create(&t, NULL, threads_on, (void *)dir) || pthread_join(t, &rc))
		return die("pthread", NULL);
	return (int)(intptr_t)rc;
}

/* DIR for the modes that write into one: made when missing (a parent that is missing,
 * or a file in the way, is said as such, not as a file in DIR that cannot be opened). */
static int make_dir(const char *dir)
{
	struct stat st;
	if (mkdir(dir, 0777) == 0 || (errno == EEXIST && stat(dir, &st) == 0 && S_ISDIR(st.st_mode)))
		return 0;
	fprintf(stderr, "trace_gen: %s: cannot make the directory: %s\n", dir,
	        errno == EEXIST ? "a file of that name is in the way" : strerror(errno));
	return 1;
}

/* ---- compare: launches of one build ---- */

static uint64_t tick_now(void *user)
{
	uint64_t t = ((fake *)user)->now_ns, tick = UINT64_C(5000000);
	return t / tick * tick; /* the runtime's clock thread: 5 ms ticks */
}

static uint64_t rng_state;

static uint64_t rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

/* jitter: uniform in [0, max_us) microseconds */
static uint64_t jit(uint64_t max_us)
{
	return max_us ? rnd() % max_us : 0;
}

static void advance_us(uint64_t us)
{
	clk.now_ns += us * 1000u;
}

enum {
	G_APP = 0, G_MAIN_CREATE, G_LOAD, G_CONFIG, G_INFLATE, G_FETCH, G_CLICK, G_PARSE, G_RENDER, G_MEASURE,
	G_SCROLL, G_BIND, G_METHODS
};
static const char *const gen_names[G_METHODS] = {
	"app.App onCreate ()V", "app.Main onCreate (Landroid.os.Bundle;)V", "app.Catalog load ()V",
	"app.Config read (Ljava.lang.String;)Ljava.util.Map;", "app.Main inflate (I)V", "app.Net fetch ()V",
	"app.Main onClick (Landroid.view.View;)V", "app.Parser parse (Ljava.lang.String;)Ljava.lang.Object;",
	"app.Main render ()V", "app.Main measure ()V", "app.List onScroll (I)V", "app.List bind (I)V",
};
static uint32_t gen_id[G_METHODS];
static int gen_empty;

/* a method of ms milliseconds and up to jitter_us more */
static void gen_leaf(int m, uint64_t ms, uint64_t jitter_us)
{
	in(gen_id[m]);
	advance_us(ms * 1000 + jit(jitter_us));
	out(gen_id[m]);
}

static int gen_launch(const char *ring, uint64_t build_id, uint64_t slow_ms)
{
	tc_config c;
	tc_config_init(&c);
	clk.now_ns = UINT64_C(5000000000);
	c.capacity = 8192;
	c.buffer_path = ring;
	c.threads = false;
	c.tracers = 0;
	c.clock_resolution_ms = 5;
	c.build_id = build_id;
	c.clock = (tc_clock){ tick_now, &clk };
	c.probe = (tc_probe){ .user = &clk, .wall_ms = fake_wall, .device_info = fake_device, .process_stat = fake_stat,
	                      .thread_stack = fake_stack, .process_name = fake_name };
	tc_rt_error err = { 0 };
	remove(ring);
	if (tc_ctx_new(&ctx, &c, &err) != TC_RT_OK)
		return die("tc_ctx_new", &err);
	if (tc_start(ctx, &err) != TC_RT_OK)
		return die("tc_start", &err);
	if (gen_empty) { /* an app that recorded nothing */
		tc_ctx_free(ctx);
		return 0;
	}
	advance_us(jit(5000));
	tc_section_begin(ctx, "start-up", NULL);
	gen_leaf(G_APP, 3, 2000);
	tc_dispatch_begin(ctx);
	in(gen_id[G_MAIN_CREATE]);
	advance_us(2000 + jit(2000));
	gen_leaf(G_LOAD, 30 + slow_ms, 8000);
	gen_leaf(G_CONFIG, 10, 6000);
	for (int i = 0; i < 3; i++)
		gen_leaf(G_INFLATE, 4, 3000);
	gen_leaf(G_FETCH, 40, 80000); /* the network: large variance */
	out(gen_id[G_MAIN_CREATE]);
	tc_dispatch_end(ctx);
	tc_section_end(ctx);
	for (int msg = 0; msg < 40; msg++) {
		advance_us(jit(20000));
		tc_dispatch_begin(ctx);
		switch (msg % 4) {
		case 0:
			in(gen_id[G_CLICK]);
			for (uint64_t i = 0, n = 5 + rnd() % 6; i < n; i++)
				gen_leaf(G_PARSE, 1, 2000);
			if (msg % 8 == 0)
				gen_leaf(G_FETCH, 40, 80000);
			out(gen_id[G_CLICK]);
			break;
		case 1:
		case 3:
			in(gen_id[G_RENDER]);
			gen_leaf(G_MEASURE, 2, 3000);
			gen_leaf(G_MEASURE, 2, 3000);
			out(gen_id[G_RENDER]);
			break;
		default:
			in(gen_id[G_SCROLL]);
			for (int i = 0; i < 4; i++)
				gen_leaf(G_BIND, 3, 4000);
			out(gen_id[G_SCROLL]);
			break;
		}
		tc_dispatch_end(ctx);
	}
	tc_ctx_free(ctx);
	return 0;
}

/* DIR/methodMapping.txt of the generated build (renumber: another build's
 * ids); its build id in *build_id */
static int gen_mapping(const char *dir, int renumber, uint64_t *build_id)
{
	/* build A: ids 10 up; renumber (another build): ids 100 up, in another order */
	char text[4096];
	size_t len = 0;
	len += (size_t)snprintf(text + len, sizeof text - len, "# methodMapping.txt of a generated build\n");
	for (int m = 0; m < G_METHODS; m++) {
		gen_id[m] = renumber ? 100 + (uint32_t)(G_METHODS - 1 - m) * 3 : 10 + (uint32_t)m;
		len += (size_t)snprintf(text + len, sizeof text - len, "%u,1,%s\n", gen_id[m], gen_names[m]);
	}
	len += (size_t)snprintf(text + len, sizeof text - len,
	                        "1048574,1,android.os.Handler dispatchMessage (Landroid.os.Message;)V\n");
	char path[4096];
	snprintf(path, sizeof path, "%s/methodMapping.txt", dir);
	if (write_file(path, text))
		return 1;
	mm_build_id h;
	mm_build_id_init(&h);
	mm_build_id_text(&h, text, len);
	*build_id = mm_build_id_final(&h);
	return 0;
}

static int compare_gen(int argc, char **argv)
{
	const char *dir = argv[2];
	char *end;
	unsigned long k = strtoul(argv[3], &end, 10);
	unsigned long long seed = strtoull(argv[4], &end, 10), slow = strtoull(argv[5], &end, 10);
	const char *flags = argc > 6 ? argv[6] : "";
	int renumber = strstr(flags, "renumber") != NULL;
	gen_empty = strstr(flags, "empty") != NULL;
	if (k < 1 || k > 1000 || slow > 10000) {
		fputs("trace_gen: compare DIR K SEED SLOW_MS [renumber,nobuild,empty]: K 1..1000, SLOW_MS up to 10000\n", stderr);
		return 2;
	}
	uint64_t build_id;
	char path[4096];
	if (gen_mapping(dir, renumber, &build_id))
		return 1;
	if (strstr(flags, "nobuild"))
		build_id = 0;
	for (unsigned long i = 0; i < k; i++) {
		rng_state = (seed + 1) * UINT64_C(0x9E3779B97F4A7C15) + i * UINT64_C(0xBF58476D1CE4E5B9) + 1;
		for (int w = 0; w < 8; w++)
			rnd();
		snprintf(path, sizeof path, "%s/ring%lu", dir, i);
		if (gen_launch(path, build_id, slow))
			return 1;
	}
	return 0;
}

/* ---- fleet: report files of many devices ---- */

/* the stacks a fleet reports: detail, typical cost (ms; 0 none), weight
 * (share of REPORTS), and the methods of its stack from the outermost */
static const struct fleet_stack {
	const char *detail;
	unsigned cost;
	double weight;
	int methods[3];
	int n;
	int b_only;
} fleet_stacks[] = {
	{ "NORMAL", 800, 0.15, { G_MAIN_CREATE, G_LOAD }, 2, 0 },  /* HOT_PCT scales it */
	{ "NORMAL", 900, 0.20, { G_CLICK, G_PARSE }, 2, 0 },       /* SLOW_MS slows it */
	{ "NORMAL", 750, 0.20, { G_SCROLL, G_BIND }, 2, 0 },
	{ "NORMAL", 1000, 0.15, { G_RENDER, G_MEASURE }, 2, 0 },
	{ "ANR", 5500, 0.05, { G_MAIN_CREATE, G_FETCH }, 2, 0 },
	{ "LAG", 0, 0.10, { G_FETCH, G_MAIN_CREATE }, 2, 0 },      /* a thread stack, no stackKey */
	{ "STARTUP", 2500, 0.15, { G_APP, G_MAIN_CREATE, G_CONFIG }, 3, 0 },
	{ "NORMAL", 850, 0.03, { G_MAIN_CREATE, G_CONFIG }, 2, 1 }, /* new in the renumbered build */
};

/* "app.Net fetch ()V" as a Java stack frame "app.Net.fetch" */
static void frame_name(char *out, size_t cap, const char *mapped)
{
	snprintf(out, cap, "%s", mapped);
	char *sp = strchr(out, ' ');
	if (sp) {
		*sp = '.';
		char *d = strchr(sp, ' ');
		if (d)
			*d = '\0';
	}
}

static int fleet_gen(int argc, char **argv)
{
	const char *dir = argv[2];
	char *end;
	unsigned long files = strtoul(argv[3], &end, 10), reports = strtoul(argv[4], &end, 10);
	unsigned long long seed = strtoull(argv[5], &end, 10), hot = strtoull(argv[6], &end, 10),
	                   slow = strtoull(argv[7], &end, 10);
	int renumber = argc > 8 && strcmp(argv[8], "renumber") == 0;
	if (files < 1 || files > 100000 || reports > 10000000 || hot > 10000 || slow > 100000) {
		fputs("trace_gen: fleet DIR FILES REPORTS SEED HOT_PCT SLOW_MS [renumber]: FILES 1..100000, REPORTS up to "
		      "10000000, HOT_PCT up to 10000\n", stderr);
		return 2;
	}
	uint64_t build_id;
	if (gen_mapping(dir, renumber, &build_id))
		return 1;
	char path[4096];
	int rc = 0;
	rng_state = (seed + 1) * UINT64_C(0x9E3779B97F4A7C15) + 7;
	for (int w = 0; w < 8; w++)
		rnd();
	/* per device, its reports: each stack's count spread at random */
	size_t nst = sizeof fleet_stacks / sizeof fleet_stacks[0];
	unsigned long *per = calloc(files * nst, sizeof *per);
	if (!per)
		return 1;
	for (size_t s = 0; s < nst; s++) {
		const struct fleet_stack *st = &fleet_stacks[s];
		if (st->b_only && !renumber)
			continue;
		double n = (double)reports * st->weight * (s == 0 ? (double)hot / 100.0 : 1.0);
		n *= 0.95 + (double)(rnd() % 1000) / 10000.0; /* +-5% */
		for (unsigned long r = 0; r < (unsigned long)n; r++)
			per[(rnd() % files) * nst + s]++;
	}
	for (unsigned long d = 0; d < files && !rc; d++) {
		snprintf(path, sizeof path, "%s/dev%lu.jsonl", dir, d);
		FILE *o = fopen(path, "w");
		if (!o) {
			perror(path);
			rc = 1;
			break;
		}
		uint64_t t = UINT64_C(1700000000000) + d * 1000;
		fprintf(o, "{\"machine\":\"HIGH\",\"cpu_app\":0.5,\"mem\":6442450944,\"mem_free\":1024,\"scene\":\"app.Main\","
		           "\"dropLevel\":{\"DROPPED_FROZEN\":0},\"dropSum\":{\"DROPPED_FROZEN\":0},\"fps\":58.5,"
		           "\"tag\":\"Trace_FPS\",\"process\":\"sample.app\",\"time\":%llu,\"buildId\":\"%016llx\"}\n",
		        (unsigned long long)t, (unsigned long long)build_id);
		for (size_t s = 0; s < nst; s++) {
			const struct fleet_stack *st = &fleet_stacks[s];
			for (unsigned long r = 0; r < per[d * nst + s]; r++) {
				t += 1000 + rnd() % 60000;
				unsigned long long cost = st->cost + (s == 1 ? slow : 0) + rnd() % 200;
				cost -= cost % 5; /* the clock's tick */
				fprintf(o, "{\"machine\":\"HIGH\",\"cpu_app\":0.5,\"mem\":6442450944,\"mem_free\":1024,"
				           "\"detail\":\"%s\",", st->detail);
				if (st->cost) {
					char stack[256], key[128];
					size_t sl = 0, kl = 0;
					for (int m = 0; m < st->n; m++) {
						sl += (size_t)snprintf(stack + sl, sizeof stack - sl, "%d,%u,1,%llu\\n", m,
						                       gen_id[st->methods[m]], cost - (unsigned long long)m * 5);
						kl += (size_t)snprintf(key + kl, sizeof key - kl, "%u|", gen_id[st->methods[m]]);
					}
					fprintf(o, "\"cost\":%llu,\"scene\":\"app.Main\",\"stack\":\"%s\",\"stackKey\":\"%s\",", cost,
					        stack, key);
				} else {
					char a[128], b[128];
					frame_name(a, sizeof a, gen_names[st->methods[0]]);
					frame_name(b, sizeof b, gen_names[st->methods[1]]);
					fprintf(o, "\"scene\":\"app.Main\",\"threadStack\":\"at %s(Unknown Source:%d)\\nat %s(Unknown "
					           "Source:%d)\\n\",\"isProcessForeground\":true,", a, 10 + renumber, b, 20 + renumber);
				}
				fprintf(o, "\"tag\":\"Trace_EvilMethod\",\"process\":\"sample.app\",\"time\":%llu,"
				           "\"buildId\":\"%016llx\"}\n", (unsigned long long)t, (unsigned long long)build_id);
			}
		}
		if (fclose(o) != 0) {
			perror(path);
			rc = 1;
		}
	}
	free(per);
	return rc;
}

int main(int argc, char **argv)
{
	if (argc >= 3 && strcmp(argv[1], "crash") != 0 && make_dir(argv[2]))
		return 1;
	if ((argc == 6 || argc == 7) && strcmp(argv[1], "compare") == 0)
		return compare_gen(argc, argv);
	if ((argc == 8 || argc == 9) && strcmp(argv[1], "fleet") == 0)
		return fleet_gen(argc, argv);
	if (argc == 4 && strcmp(argv[1], "big") == 0)
		return big(argv[2], argv[3]);
	if (argc == 3 && strcmp(argv[1], "sample") == 0)
		return sample(argv[2]);
	if (argc == 3 && strcmp(argv[1], "wrap") == 0)
		return wrap(argv[2]);
	if (argc == 3 && strcmp(argv[1], "crash") == 0)
		return crash(argv[2]);
	if (argc == 3 && strcmp(argv[1], "threads") == 0)
		return threads(argv[2]);
	if (argc == 3 && strcmp(argv[1], "reused") == 0)
		return threads(argv[2]) || reuse_tid(argv[2]);
	if (argc == 3 && strcmp(argv[1], "off-main") == 0)
		return off_main(argv[2]);
	fputs("usage: trace_gen sample DIR | wrap DIR | crash RING | big DIR N | threads DIR | reused DIR\n"
	      "       | off-main DIR\n"
	      "       | compare DIR K SEED SLOW_MS [renumber,nobuild,empty] | fleet DIR FILES REPORTS SEED HOT_PCT SLOW_MS [renumber]\n",
	      stderr);
	return 2;
}
