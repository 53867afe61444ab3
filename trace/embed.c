/* embed: a file as a C string constant, for the build (meson custom_target):
 *   embed IN OUT NAME   writes OUT with `static const char NAME[] = { bytes, 0 };`
 * Exit status 0, or 1 with a message. */
#include <stdio.h>

int main(int argc, char **argv)
{
	if (argc != 4) {
		fputs("usage: embed IN OUT NAME\n", stderr);
		return 1;
	}
	FILE *in = fopen(argv[1], "rb"), *out = fopen(argv[2], "wb");
	if (!in || !out) {
		perror(in ? argv[2] : argv[1]);
		return 1;
	}
	/* numbers, not a string literal: C11 only promises 4095 characters in one */
	fprintf(out, "/* generated from %s by embed.c */\nstatic const char %s[] = {\n", argv[1], argv[3]);
	int c, col = 0;
	while ((c = fgetc(in)) != EOF) {
		col += fprintf(out, "%d,", c);
		if (col > 96) {
			fputc('\n', out);
			col = 0;
		}
	}
	fputs("0\n};\n", out);
	if (ferror(in) || fclose(out)) {
		perror(argv[2]);
		return 1;
	}
	fclose(in);
	return 0;
}
