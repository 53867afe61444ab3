#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>

#include "json.h"

static char *escaped(const char *s)
{
	tc_buf sb;
	buf_init(&sb);
	json_escape(&sb, s);
	return buf_take_str(&sb);
}

Test(json, escapes_quotes_backslashes_and_controls)
{
	char *s = escaped("a\"b\\c\n\t\r\b\f\x01\x1f\x7f/");
	cr_assert_str_eq(s, "\"a\\\"b\\\\c\\n\\t\\r\\b\\f\\u0001\\u001f\\u007f/\"");
	free(s);
}

Test(json, keeps_utf8_and_replaces_invalid_bytes)
{
	char *s = escaped("\xc3\xa9\xe4\xb8\xad");
	cr_assert_str_eq(s, "\"\xc3\xa9\xe4\xb8\xad\"");
	free(s);
	/* a lone continuation byte, a truncated sequence, an overlong '/', a surrogate */
	s = escaped("a\x80" "b\xc3" "c\xc0\xaf" "d\xed\xa0\x80" "e");
	cr_assert_str_eq(s, "\"a\\ufffdb\\ufffdc\\ufffd\\ufffdd\\ufffd\\ufffd\\ufffde\"");
	free(s);
}

/* Output must be valid modified UTF-8 for JNI's NewStringUTF: no 4-byte
 * sequences. Input may be modified UTF-8 from GetStringUTFChars. */
Test(json, supplementary_characters_become_escaped_pairs)
{
	char *s = escaped("a\xf0\x9f\x98\x80" "b");       /* U+1F600 in UTF-8 */
	cr_assert_str_eq(s, "\"a\\ud83d\\ude00b\"");
	free(s);
	s = escaped("a\xed\xa0\xbd\xed\xb8\x80" "b");   /* the same in modified UTF-8 */
	cr_assert_str_eq(s, "\"a\\ud83d\\ude00b\"");
	free(s);
	s = escaped("a\xc0\x80" "b");                     /* modified UTF-8 NUL */
	cr_assert_str_eq(s, "\"a\\u0000b\"");
	free(s);
}

Test(json, objects_commas_and_values)
{
	json j;
	json_init(&j);
	json_begin_object(&j);
	json_kv_string(&j, "tag", "Trace_FPS");
	json_kv_int(&j, "cost", -5);
	json_kv_bool(&j, "warm", true);
	json_key(&j, "dropLevel");
	json_begin_object(&j);
	json_kv_int(&j, "a", 1);
	json_kv_int(&j, "b", 2);
	json_end_object(&j);
	json_kv_double(&j, "fps", 58.5);
	json_kv_double(&j, "whole", 60);
	json_kv_double(&j, "nan", NAN);
	json_kv_string(&j, "none", NULL);
	json_end_object(&j);
	char *s = json_take(&j);
	cr_assert_str_eq(s, "{\"tag\":\"Trace_FPS\",\"cost\":-5,\"warm\":true,\"dropLevel\":{\"a\":1,\"b\":2},"
	                    "\"fps\":58.5,\"whole\":60.0,\"nan\":null,\"none\":null}");
	free(s);
}
