#include "file.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char *tc_file_kind(mode_t mode)
{
	return S_ISDIR(mode) ? "a directory" : S_ISFIFO(mode) ? "a FIFO" : S_ISCHR(mode) ? "a character device"
	       : S_ISBLK(mode) ? "a block device" : S_ISSOCK(mode) ? "a socket" : "not a regular file";
}

int tc_file_open(const char *path, uint64_t max, const char *option, uint64_t *size, tc_error *err)
{
	/* O_NONBLOCK: opening a FIFO nobody writes to would wait for a writer */
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return tc_fail(err, TC_EIO, TC_NO_OFFSET, path, "cannot open: %s", strerror(errno));
	struct stat st;
	if (fstat(fd, &st) != 0) {
		tc_fail(err, TC_EIO, TC_NO_OFFSET, path, "cannot stat: %s", strerror(errno));
	} else if (!S_ISREG(st.st_mode)) {
		tc_fail(err, TC_EIO, TC_NO_OFFSET, path, "not a regular file (%s)", tc_file_kind(st.st_mode));
	} else if ((uint64_t)st.st_size > max) {
		tc_fail(err, TC_ELIMIT, TC_NO_OFFSET, path, "%llu bytes, more than the input limit of %llu MB%s%s%s",
		        (unsigned long long)st.st_size, (unsigned long long)(max >> 20), option ? " (" : "",
		        option ? option : "", option ? ")" : "");
	} else {
		*size = (uint64_t)st.st_size;
		return fd;
	}
	close(fd);
	return err->code;
}

int tc_file_read(const char *path, tc_buf *buf, uint64_t max, const char *option, tc_error *err)
{
	buf_clear(buf);
	uint64_t size;
	int fd = tc_file_open(path, max, option, &size, err);
	if (fd < 0)
		return fd;
	int rc = TC_OK;
	if (!buf_reserve(buf, (size_t)size + 1)) {
		rc = tc_fail(err, TC_ENOMEM, TC_NO_OFFSET, path, "no memory for %llu bytes", (unsigned long long)size);
		goto done;
	}
	while (buf->len < size) {
		ssize_t got = read(fd, buf->data + buf->len, (size_t)size - buf->len);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			rc = tc_fail(err, TC_EIO, TC_NO_OFFSET, path, "cannot read: %s", strerror(errno));
			goto done;
		}
		if (got == 0)
			break;
		buf->len += (size_t)got;
	}
done:
	close(fd);
	return rc;
}
