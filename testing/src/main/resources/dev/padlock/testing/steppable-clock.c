/*
 * Preloaded into a redis-server a test starts (ServerOptions.steppableClock()), to step or stop that server's wall
 * clock while it runs: CLOCK_REALTIME, gettimeofday() and time() answer the real time plus an offset, or a fixed time,
 * both read from a file the test writes (two 64-bit integers in this machine's byte order: the offset in
 * milliseconds, and the frozen time in milliseconds since the epoch, 0 when not frozen). Monotonic clocks are left
 * alone. libfaketime does the same, but it cannot be preloaded into a server linked with jemalloc (Debian's
 * redis-server and valkey-server are): both call each other while they initialise (libfaketime issue #130). This
 * shim reads the clocks by system call and the file through a shared mapping, so it never allocates.
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

static volatile int64_t *settings; /* [0] offset ms, [1] frozen at ms or 0 */

__attribute__((constructor)) static void map_settings(void) {
    const char *file = getenv("PADLOCK_CLOCK_FILE");
    if (file == NULL) {
        return;
    }
    int fd = open(file, O_RDONLY);
    if (fd < 0) {
        return;
    }
    void *mapped = mmap(NULL, 2 * sizeof(int64_t), PROT_READ, MAP_SHARED, fd, 0);
    close(fd);
    if (mapped != MAP_FAILED) {
        settings = mapped;
    }
}

/* The adjusted time in ms from the real time in ms. */
static int64_t adjusted(int64_t real_ms) {
    if (settings == NULL) {
        return real_ms;
    }
    int64_t frozen = settings[1];
    return frozen != 0 ? frozen : real_ms + settings[0];
}

int clock_gettime(clockid_t clock, struct timespec *ts) {
    long result = syscall(SYS_clock_gettime, clock, ts);
    if (result == 0 && ts != NULL && (clock == CLOCK_REALTIME || clock == CLOCK_REALTIME_COARSE)) {
        int64_t real_ms = (int64_t) ts->tv_sec * 1000 + ts->tv_nsec / 1000000;
        int64_t shifted = adjusted(real_ms) - real_ms;
        int64_t nanos = (int64_t) ts->tv_nsec + (shifted % 1000) * 1000000;
        int64_t seconds = (int64_t) ts->tv_sec + shifted / 1000 + nanos / 1000000000;
        nanos %= 1000000000;
        if (nanos < 0) {
            nanos += 1000000000;
            seconds -= 1;
        }
        ts->tv_sec = seconds;
        ts->tv_nsec = nanos;
    }
    return (int) result;
}

int gettimeofday(struct timeval *tv, void *tz) {
    struct timespec ts;
    int result = clock_gettime(CLOCK_REALTIME, &ts);
    if (result == 0 && tv != NULL) {
        tv->tv_sec = ts.tv_sec;
        tv->tv_usec = ts.tv_nsec / 1000;
    }
    (void) tz;
    return result;
}

time_t time(time_t *out) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    if (out != NULL) {
        *out = ts.tv_sec;
    }
    return ts.tv_sec;
}
