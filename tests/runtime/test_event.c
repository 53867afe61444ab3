#include <criterion/criterion.h>

#include "tc_event.h"

Test(event, matrix_bit_layout)
{
	/* AppMethodBeat.mergeData: 1<<63 | id<<43 | time & 0x7FFFFFFFFFF */
	cr_assert_eq(tc_event_encode(true, 0xFFFFE, 720), (UINT64_C(1) << 63) | (UINT64_C(0xFFFFE) << 43) | 720);
	cr_assert_eq(tc_event_encode(false, 1, 5), (UINT64_C(1) << 43) | 5);
}

Test(event, round_trip)
{
	uint32_t ids[] = { 0, 1, 4711, TC_ID_DISPATCH, 0xFFFFF };
	uint64_t times[] = { 0, 1, 5000, TC_TIME_MASK };
	for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++)
		for (size_t t = 0; t < sizeof times / sizeof times[0]; t++)
			for (int in = 0; in < 2; in++) {
				uint64_t v = tc_event_encode(in, ids[i], times[t]);
				cr_assert_eq(tc_event_is_in(v), in);
				cr_assert_eq(tc_event_id(v), ids[i]);
				cr_assert_eq(tc_event_time(v), times[t]);
			}
}

Test(event, time_wraps_at_43_bits_and_id_at_20)
{
	uint64_t v = tc_event_encode(false, 0x100002, (UINT64_C(1) << 43) + 9);
	cr_assert_eq(tc_event_time(v), 9);
	cr_assert_eq(tc_event_id(v), 2);
	cr_assert_not(tc_event_is_in(v));
}
