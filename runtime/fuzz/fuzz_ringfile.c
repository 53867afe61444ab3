/* libFuzzer target for the ring decoder and the analysis behind it: any
 * bytes either decode or fail with TC_RT_EFORMAT, and whatever decodes goes
 * through every analysis step without a memory error. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "tc_analysis.h"
#include "tc_ringfile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	tc_ring_image img;
	tc_rt_error err;
	if (tc_ring_decode(&img, data, size, &err) != TC_RT_OK) {
		if (err.code != TC_RT_EFORMAT && err.code != TC_RT_ENOMEM)
			abort();
		return 0;
	}
	for (int strict = 0; strict < 2; strict++) {
		tc_stack st = { 0 };
		uint64_t end = strict ? img.wall_base_ms & TC_TIME_MASK : TC_NO_END_TIME;
		if (tc_stack_build(&st, img.events, img.count, strict, end) == TC_RT_OK) {
			tc_stack_trim(&st, TC_TRIM_TARGET);
			char key[32];
			char *report = NULL, *logcat = NULL;
			int64_t max = tc_stack_format(&st, &report, &logcat);
			tc_stack_key(&st, max, key, sizeof key);
			free(report);
			free(logcat);
		}
		tc_stack_dispose(&st);
	}
	tc_ring_image_dispose(&img);
	return 0;
}
