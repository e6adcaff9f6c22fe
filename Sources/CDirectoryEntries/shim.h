#ifndef CONTEXTKIT_CDIRECTORYENTRIES_SHIM_H
#define CONTEXTKIT_CDIRECTORYENTRIES_SHIM_H

#include <errno.h>
#include <stddef.h>

#if defined(__linux__)
#include <sys/syscall.h>
#include <unistd.h>
#endif

/* Reads the entries of the open directory `descriptor` into `buffer` as Linux
   `struct linux_dirent64` records (the `getdents64` system call, which glibc
   declares only with _GNU_SOURCE and Swift cannot call through the variadic
   `syscall`). Returns the bytes read, 0 at the end, or -1 with errno set;
   on other systems -1 with errno ENOSYS, so the caller uses readdir. */
static inline long contextkit_read_directory_entries(int descriptor, void *buffer, size_t count) {
#if defined(__linux__) && defined(SYS_getdents64)
  return syscall(SYS_getdents64, descriptor, buffer, count);
#else
  (void)descriptor;
  (void)buffer;
  (void)count;
  errno = ENOSYS;
  return -1;
#endif
}

#endif
