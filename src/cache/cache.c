/* The cache's files; see cache.h. */
#define _GNU_SOURCE /* copy_file_range */

#include "cache/cache.h"
#include "containers/map_guard.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <xxhash.h>

/* An entry: this header, then the payload. File entries put the payload at a block
 * boundary (4096) so that a reflink can share its blocks. */
#define MAGIC "TCCACHE1"
#define HEADER 64
#define FILE_HEADER 4096
#define KIND_LEN 16

struct cache_hasher {
	XXH3_state_t *s;
};

cache_hasher *cache_hasher_new(void)
{
	cache_hasher *h = calloc(1, sizeof *h);
	if (h && (!(h->s = XXH3_createState()) || XXH3_128bits_reset(h->s) != XXH_OK)) {
		XXH3_freeState(h->s);
		free(h);
		h = NULL;
	}
	return h;
}

void cache_hasher_free(cache_hasher *h)
{
	if (h) {
		XXH3_freeState(h->s);
		free(h);
	}
}

void cache_hash(cache_hasher *h, const void *data, size_t len)
{
	if (len)
		XXH3_128bits_update(h->s, data, len);
}

void cache_hash_u64(cache_hasher *h, uint64_t v)
{
	uint8_t b[8];
	for (int i = 0; i < 8; i++)
		b[i] = (uint8_t)(v >> (8 * i));
	cache_hash(h, b, 8);
}

void cache_hash_str(cache_hasher *h, const char *s)
{
	size_t n = s ? strlen(s) : 0;
	cache_hash_u64(h, s ? n : UINT64_MAX);
	cache_hash(h, s, n);
}

cache_key cache_digest(cache_hasher *h)
{
	XXH128_hash_t d = XXH3_128bits_digest(h->s);
	return (cache_key){d.low64, d.high64};
}

cache_key cache_hash_bytes(const void *data, size_t len)
{
	XXH128_hash_t d = XXH3_128bits(data, len);
	return (cache_key){d.low64, d.high64};
}

int cache_hash_file(const char *path, cache_key *out, uint64_t *size, tc_error *err)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) != 0) {
		int e = errno;
		if (fd >= 0)
			close(fd);
		return tc_fail(err, TC_EIO, TC_NO_OFFSET, path, "cannot read: %s", strerror(e));
	}
	*size = (uint64_t)st.st_size;
	if (!st.st_size) {
		close(fd);
		*out = cache_hash_bytes("", 0);
		return TC_OK;
	}
	void *p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (p == MAP_FAILED)
		return tc_fail(err, TC_EIO, TC_NO_OFFSET, path, "cannot map: %s", strerror(errno));
	int guard = map_guard_add(p, (size_t)st.st_size);
	*out = cache_hash_bytes(p, (size_t)st.st_size);
	bool cut = map_guard_damaged(guard);
	map_guard_remove(guard);
	munmap(p, (size_t)st.st_size);
	if (cut)
		return tc_fail(err, TC_EIO, TC_NO_OFFSET, path, "the file was cut short while it was read (is it still being written?)");
	return TC_OK;
}

struct tc_cache {
	char *dir;
	uint64_t max_bytes;
	unsigned counter;
	cache_stats stats;
};

int cache_open(tc_cache **out, const char *dir, uint64_t max_bytes, tc_error *err)
{
	*out = NULL;
	char path[4096];
	snprintf(path, sizeof path, "%s", dir);
	/* mkdir -p */
	for (char *p = path + 1;; p++) {
		if (*p != '/' && *p)
			continue;
		char c = *p;
		*p = '\0';
		if (mkdir(path, 0777) != 0 && errno != EEXIST)
			return tc_fail(err, TC_EIO, TC_NO_OFFSET, path, "cannot create the cache directory: %s",
			               strerror(errno));
		*p = c;
		if (!c)
			break;
	}
	tc_cache *c = calloc(1, sizeof *c);
	if (!c || !(c->dir = strdup(dir))) {
		free(c);
		return tc_fail(err, TC_ENOMEM, TC_NO_OFFSET, dir, "no memory");
	}
	c->max_bytes = max_bytes;
	*out = c;
	return TC_OK;
}

cache_stats cache_get_stats(const tc_cache *c)
{
	return c->stats;
}

static void entry_path(const tc_cache *c, cache_key k, const char *kind, char *buf, size_t size)
{
	snprintf(buf, size, "%s/%016llx%016llx.%s", c->dir, (unsigned long long)k.hi, (unsigned long long)k.lo,
	         kind);
}

static void put_u64(uint8_t *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static uint64_t get_u64(const uint8_t *p)
{
	uint64_t v = 0;
	for (int i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

/* header: magic(8) kind(16) header_len(8) payload_len(8) xxh64(8) key(16) */
static void make_header(uint8_t *h, size_t hlen, cache_key k, const char *kind, const void *payload, size_t len)
{
	memset(h, 0, hlen);
	memcpy(h, MAGIC, 8);
	strncpy((char *)h + 8, kind, KIND_LEN - 1);
	put_u64(h + 24, hlen);
	put_u64(h + 32, len);
	put_u64(h + 40, XXH3_64bits(payload, len));
	put_u64(h + 48, k.lo);
	put_u64(h + 56, k.hi);
}

/* The payload of a mapped entry, checked; NULL when damaged. */
static const uint8_t *check(const uint8_t *p, size_t size, cache_key k, const char *kind, size_t *len)
{
	if (size < HEADER || memcmp(p, MAGIC, 8) || strncmp((const char *)p + 8, kind, KIND_LEN))
		return NULL;
	uint64_t hlen = get_u64(p + 24), plen = get_u64(p + 32);
	if (hlen < HEADER || hlen > size || plen != size - hlen || get_u64(p + 48) != k.lo || get_u64(p + 56) != k.hi)
		return NULL;
	if (XXH3_64bits(p + hlen, plen) != get_u64(p + 40))
		return NULL;
	*len = plen;
	return p + hlen;
}

/* Maps an entry; on success the caller unmaps map (size bytes). A file too short to
 * hold a header is damaged: removed and counted, like one whose check fails. */
static bool map_entry(tc_cache *c, const char *path, uint8_t **map, size_t *size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	struct stat st;
	bool ok = fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
	if (ok && st.st_size < HEADER) {
		close(fd);
		unlink(path);
		c->stats.damaged++;
		return false;
	}
	void *p = ok ? mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0) : MAP_FAILED;
	close(fd);
	if (p == MAP_FAILED)
		return false;
	*map = p;
	*size = (size_t)st.st_size;
	return true;
}

static void touch(const char *path)
{
	/* a hit is a use: the entry moves to the end of the eviction order */
	utimensat(AT_FDCWD, path, NULL, 0);
}

/* Maps entry k and checks it: its payload is *len bytes at *off in *map (*size
 * bytes, which the caller unmaps). A missing entry is a miss; a damaged one is
 * also removed and counted. */
static bool open_entry(tc_cache *c, cache_key k, const char *kind, char *path, size_t cap, uint8_t **map,
                       size_t *size, size_t *off, size_t *len)
{
	entry_path(c, k, kind, path, cap);
	if (!map_entry(c, path, map, size)) {
		c->stats.misses++;
		return false;
	}
	const uint8_t *payload = check(*map, *size, k, kind, len);
	if (!payload) {
		munmap(*map, *size);
		unlink(path);
		c->stats.damaged++;
		c->stats.misses++;
		return false;
	}
	*off = (size_t)(payload - *map);
	return true;
}

bool cache_get(tc_cache *c, cache_key k, const char *kind, tc_buf *out)
{
	char path[4200];
	uint8_t *map;
	size_t size, off, len;
	if (!open_entry(c, k, kind, path, sizeof path, &map, &size, &off, &len))
		return false;
	buf_clear(out);
	buf_bytes(out, map + off, len);
	munmap(map, size);
	if (out->err) {
		c->stats.misses++;
		return false;
	}
	touch(path);
	c->stats.hits++;
	return true;
}

/* A temporary file in the cache directory, opened for writing. */
static int temp_file(tc_cache *c, char *buf, size_t size)
{
	for (int tries = 0; tries < 100; tries++) {
		snprintf(buf, size, "%s/.tmp-%ld-%u-%d", c->dir, (long)getpid(), c->counter++, tries);
		int fd = open(buf, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
		if (fd >= 0 || errno != EEXIST)
			return fd;
	}
	return -1;
}

static bool write_all(int fd, const uint8_t *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return false;
		p += w;
		n -= (size_t)w;
	}
	return true;
}

static int finish(tc_cache *c, int fd, const char *tmp, cache_key k, const char *kind, bool ok, tc_error *err)
{
	char path[4200];
	entry_path(c, k, kind, path, sizeof path);
	int e = errno;
	if (close(fd) != 0 && ok) {
		ok = false;
		e = errno;
	}
	if (!ok || rename(tmp, path) != 0) {
		if (ok)
			e = errno;
		unlink(tmp);
		return tc_fail(err, TC_EIO, TC_NO_OFFSET, path, "cannot write the cache entry: %s", strerror(e));
	}
	c->stats.writes++;
	return TC_OK;
}

static int put(tc_cache *c, cache_key k, const char *kind, const uint8_t *data, size_t len, size_t hlen,
               tc_error *err)
{
	char tmp[4200];
	int fd = temp_file(c, tmp, sizeof tmp);
	if (fd < 0)
		return tc_fail(err, TC_EIO, TC_NO_OFFSET, c->dir, "cannot write to the cache: %s", strerror(errno));
	uint8_t small[HEADER], *h = hlen <= HEADER ? small : malloc(hlen);
	bool ok = h != NULL;
	if (ok) {
		make_header(h, hlen, k, kind, data, len);
		ok = write_all(fd, h, hlen) && write_all(fd, data, len);
	}
	if (h != small)
		free(h);
	return finish(c, fd, tmp, k, kind, ok, err);
}

int cache_put(tc_cache *c, cache_key k, const char *kind, const uint8_t *data, size_t len, tc_error *err)
{
	return put(c, k, kind, data, len, HEADER, err);
}

int cache_put_blob(tc_cache *c, cache_key k, const char *kind, const uint8_t *data, size_t len, tc_error *err)
{
	return put(c, k, kind, data, len, FILE_HEADER, err);
}

int cache_put_file(tc_cache *c, cache_key k, const char *kind, const char *src, const cache_key *expect,
                   cache_key *content, tc_error *err)
{
	uint8_t *map = NULL;
	size_t size = 0;
	int in = open(src, O_RDONLY | O_CLOEXEC);
	struct stat st;
	if (in < 0 || fstat(in, &st) != 0) {
		if (in >= 0)
			close(in);
		return tc_fail(err, TC_EIO, TC_NO_OFFSET, src, "cannot read: %s", strerror(errno));
	}
	size = (size_t)st.st_size;
	if (size && (map = mmap(NULL, size, PROT_READ, MAP_PRIVATE, in, 0)) == MAP_FAILED) {
		close(in);
		return tc_fail(err, TC_EIO, TC_NO_OFFSET, src, "cannot map: %s", strerror(errno));
	}
	cache_key got = cache_hash_bytes(map, size);
	int rc = expect && (got.lo != expect->lo || got.hi != expect->hi)
	                 ? tc_fail(err, TC_EIO, TC_NO_OFFSET, src, "changed while it was read")
	                 : put(c, k, kind, map, size, FILE_HEADER, err);
	if (content)
		*content = got;
	if (map)
		munmap(map, size);
	close(in);
	return rc;
}

/* Copies len bytes at off of in to out: a reflink of the range where the file system
 * can (whole blocks), else the kernel's copy, else read and write. */
static bool copy_range(int in, off_t off, size_t len, int out)
{
	struct file_clone_range r = {.src_fd = in, .src_offset = (uint64_t)off, .src_length = 0, .dest_offset = 0};
	if (ioctl(out, FICLONERANGE, &r) == 0)
		return true;
	loff_t from = off;
	size_t done = 0;
	while (done < len) {
		ssize_t n = copy_file_range(in, &from, out, NULL, len - done, 0);
		if (n <= 0)
			break;
		done += (size_t)n;
	}
	if (done == len)
		return true;
	if (ftruncate(out, 0) != 0 || lseek(out, 0, SEEK_SET) != 0)
		return false;
	char buf[1 << 16];
	for (done = 0; done < len;) {
		ssize_t n = pread(in, buf, len - done < sizeof buf ? len - done : sizeof buf, off + (off_t)done);
		if (n <= 0 || !write_all(out, (const uint8_t *)buf, (size_t)n))
			return false;
		done += (size_t)n;
	}
	return true;
}

bool cache_get_file(tc_cache *c, cache_key k, const char *kind, const char *dest, tc_error *err)
{
	char path[4200];
	uint8_t *map;
	size_t size, off, len;
	if (!open_entry(c, k, kind, path, sizeof path, &map, &size, &off, &len))
		return false;
	munmap(map, size); /* checked: the payload is copied from the file */
	int in = open(path, O_RDONLY | O_CLOEXEC);
	char tmp[4200];
	snprintf(tmp, sizeof tmp, "%s.tc-tmp.%ld", dest, (long)getpid());
	int out = in >= 0 ? open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666) : -1;
	bool ok = in >= 0 && out >= 0 && copy_range(in, (off_t)off, len, out);
	int e = errno;
	if (out >= 0 && close(out) != 0 && ok) {
		ok = false;
		e = errno;
	}
	if (in >= 0)
		close(in);
	if (ok && rename(tmp, dest) != 0) {
		ok = false;
		e = errno;
	}
	if (!ok) {
		unlink(tmp);
		tc_fail(err, TC_EIO, TC_NO_OFFSET, dest, "cannot write from the cache: %s", strerror(e));
		c->stats.misses++;
		return false;
	}
	touch(path);
	c->stats.hits++;
	return true;
}

bool cache_has(tc_cache *c, cache_key k, const char *kind)
{
	char path[4200];
	entry_path(c, k, kind, path, sizeof path);
	struct stat st;
	if (stat(path, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size < HEADER)
		return false; /* a short file is rewritten; any other damage is found when read */
	touch(path);
	return true;
}

typedef struct entry {
	char *name;
	off_t size;
	struct timespec mtime;
} entry;

static int by_age(const void *a, const void *b)
{
	const entry *x = a, *y = b;
	if (x->mtime.tv_sec != y->mtime.tv_sec)
		return x->mtime.tv_sec < y->mtime.tv_sec ? -1 : 1;
	if (x->mtime.tv_nsec != y->mtime.tv_nsec)
		return x->mtime.tv_nsec < y->mtime.tv_nsec ? -1 : 1;
	return strcmp(x->name, y->name);
}

void cache_close(tc_cache *c)
{
	if (!c)
		return;
	DIR *d = opendir(c->dir);
	entry *v = NULL;
	size_t n = 0, cap = 0;
	uint64_t total = 0;
	time_t now = time(NULL);
	for (struct dirent *de; d && (de = readdir(d));) {
		if (de->d_name[0] == '.') {
			/* a temporary file a crashed run left behind, an hour on */
			struct stat st;
			char path[4200];
			snprintf(path, sizeof path, "%s/%s", c->dir, de->d_name);
			if (!strncmp(de->d_name, ".tmp-", 5) && stat(path, &st) == 0 && now - st.st_mtime > 3600)
				unlink(path);
			continue;
		}
		struct stat st;
		if (fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode))
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 256;
			entry *nv = realloc(v, cap * sizeof *v);
			if (!nv)
				break;
			v = nv;
		}
		if (!(v[n].name = strdup(de->d_name)))
			break;
		v[n].size = st.st_size;
		v[n].mtime = st.st_mtim;
		total += (uint64_t)st.st_size;
		n++;
	}
	if (d)
		closedir(d);
	if (total > c->max_bytes) {
		qsort(v, n, sizeof *v, by_age);
		for (size_t i = 0; i < n && total > c->max_bytes; i++) {
			char path[4200];
			snprintf(path, sizeof path, "%s/%s", c->dir, v[i].name);
			if (unlink(path) == 0) {
				total -= (uint64_t)v[i].size;
				c->stats.evicted++;
			}
		}
	}
	for (size_t i = 0; i < n; i++)
		free(v[i].name);
	free(v);
	free(c->dir);
	free(c);
}
