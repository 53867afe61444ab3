/* fill_ring PATH CAPACITY: makes a context whose ring is the file PATH and
 * writes CAPACITY events, every slot, as an app would over time; prints the
 * runtime's log lines. Exits 0 when all were written. On a full disk a sparse
 * ring file faults at the first slot the disk has no room for (SIGBUS). */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>

#include "tc_runtime.h"

static void print_log(void *user, int level, const char *tag, const char *text)
{
	(void)user;
	(void)level;
	printf("%s: %s\n", tag, text);
	fflush(stdout);
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: fill_ring PATH CAPACITY\n");
		return 2;
	}
	/* under a file-size limit, as a JVM: EFBIG rather than death by SIGXFSZ */
	signal(SIGXFSZ, SIG_IGN);
	tc_config c;
	tc_config_init(&c);
	c.threads = false;
	c.buffer_path = argv[1];
	c.capacity = (uint32_t)strtoul(argv[2], NULL, 10);
	c.on_log = print_log;
	tc_ctx *ctx;
	tc_rt_error err = { 0 };
	if (tc_ctx_new(&ctx, &c, &err) != TC_RT_OK) {
		printf("tc_ctx_new: %s\n", err.message);
		return 1;
	}
	for (uint32_t i = 0; i < c.capacity; i++)
		tc_record(ctx, 1 + i % 1000, i % 2 == 0);
	printf("written %llu\n", (unsigned long long)tc_written(ctx));
	tc_ctx_free(ctx);
	return 0;
}
