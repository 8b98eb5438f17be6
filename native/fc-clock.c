/*
 * fc-clock: fencecheck's LD_PRELOAD wall-clock offset library.
 *
 * Shifts what a process reads as the wall clock (CLOCK_REALTIME and
 * CLOCK_REALTIME_COARSE through clock_gettime, plus gettimeofday, time and
 * timespec_get) by an offset in milliseconds that the harness may change at
 * any moment. Monotonic and CPU clocks pass through untouched, so timers,
 * elections and sessions that use them are not affected: only code that reads
 * the wall clock sees the jump, exactly as after a real clock step.
 *
 * Why not Debian's libfaketime: it deadlocks redis-server at start (its lazy
 * init calls dlsym, which allocates, which re-enters jemalloc while jemalloc
 * itself is initialising and reading the clock; libfaketime issue #130). So
 * this library never allocates and never calls dlsym: the real clocks are read
 * with the raw clock_gettime system call, and the offset file is opened and
 * mapped with plain system calls.
 *
 * The offset file (path in FC_CLOCK_FILE) holds two little-endian int64 at
 * byte 0: the offset in ms and its bitwise complement. The harness rewrites
 * these 16 bytes in place with one pwrite and never truncates the file (a
 * truncated mapping raises SIGBUS). A reader that sees a pair that does not
 * match caught a write half done and reads again. Without FC_CLOCK_FILE, or if
 * the file cannot be mapped, the offset is 0.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

static volatile const int64_t *offset_map;
static int init_state; /* 0 = not yet, 1 = in progress, 2 = done */
static int64_t last_offset_ms;

static void fc_init(void) {
  int expected = 0;
  if (!__atomic_compare_exchange_n(&init_state, &expected, 1, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) return;
  const char *path = getenv("FC_CLOCK_FILE"); /* getenv does not allocate */
  if (path != NULL && path[0] != '\0') {
    int fd = (int)syscall(SYS_openat, AT_FDCWD, path, O_RDONLY | O_CLOEXEC);
    if (fd >= 0) {
      void *p = mmap(NULL, 16, PROT_READ, MAP_SHARED, fd, 0);
      syscall(SYS_close, fd); /* the mapping outlives the descriptor */
      if (p != MAP_FAILED) __atomic_store_n(&offset_map, (volatile const int64_t *)p, __ATOMIC_RELEASE);
    }
  }
  __atomic_store_n(&init_state, 2, __ATOMIC_RELEASE);
}

__attribute__((constructor)) static void fc_constructor(void) { fc_init(); }

/* The offset now, read on every call so a change applies at once. */
static int64_t offset_ms(void) {
  if (__atomic_load_n(&init_state, __ATOMIC_ACQUIRE) != 2) fc_init();
  volatile const int64_t *m = __atomic_load_n(&offset_map, __ATOMIC_ACQUIRE);
  if (m == NULL) return 0;
  for (int i = 0; i < 64; i++) {
    int64_t a = m[0];
    int64_t b = m[1];
    if (b == ~a) {
      __atomic_store_n(&last_offset_ms, a, __ATOMIC_RELAXED);
      return a;
    }
  }
  return __atomic_load_n(&last_offset_ms, __ATOMIC_RELAXED);
}

static int real_clock_gettime(clockid_t clk, struct timespec *ts) {
  return (int)syscall(SYS_clock_gettime, clk, ts);
}

static void add_ms(struct timespec *ts, int64_t ms) {
  int64_t ns = (int64_t)ts->tv_nsec + (ms % 1000) * 1000000;
  int64_t sec = (int64_t)ts->tv_sec + ms / 1000;
  if (ns >= 1000000000) { ns -= 1000000000; sec += 1; }
  if (ns < 0) { ns += 1000000000; sec -= 1; }
  ts->tv_sec = (time_t)sec;
  ts->tv_nsec = (long)ns;
}

static int shifted_realtime(struct timespec *ts) {
  int rc = real_clock_gettime(CLOCK_REALTIME, ts);
  if (rc == 0) add_ms(ts, offset_ms());
  return rc;
}

int clock_gettime(clockid_t clk, struct timespec *ts) {
  int rc = real_clock_gettime(clk, ts);
  if (rc == 0 && (clk == CLOCK_REALTIME || clk == CLOCK_REALTIME_COARSE)) add_ms(ts, offset_ms());
  return rc;
}

int gettimeofday(struct timeval *restrict tv, void *restrict tz) {
  (void)tz; /* the timezone argument is obsolete; Linux fills it with zeros at most */
  struct timespec ts;
  /* glibc declares tv nonnull, but the system call accepts NULL: keep that. */
  struct timeval *volatile out = tv;
  if (out == NULL) return 0;
  int rc = shifted_realtime(&ts);
  if (rc == 0) {
    tv->tv_sec = ts.tv_sec;
    tv->tv_usec = ts.tv_nsec / 1000;
  }
  return rc;
}

time_t time(time_t *out) {
  struct timespec ts;
  if (shifted_realtime(&ts) != 0) return (time_t)-1;
  if (out != NULL) *out = ts.tv_sec;
  return ts.tv_sec;
}

int timespec_get(struct timespec *ts, int base) {
  if (base != TIME_UTC || shifted_realtime(ts) != 0) return 0;
  return base;
}
