// Two Linux process-control calls the harness needs and Swift cannot reach: prctl(2) and
// syscall(2) are variadic C functions, which Swift does not import. Elsewhere both report ENOSYS.
#ifndef C_PROCESS_CONTROL_H
#define C_PROCESS_CONTROL_H

#include <sys/types.h>

/// Makes the calling process a child subreaper (PR_SET_CHILD_SUBREAPER): orphaned descendants are
/// re-parented to it instead of to init. Returns 0, or -1 with errno set.
int cpc_become_child_subreaper(void);

/// A file descriptor that becomes readable when process `pid` ends (pidfd_open(2)), close-on-exec.
/// Returns -1 with errno set where the kernel has no pidfd.
int cpc_pidfd_open(pid_t pid);

#endif
