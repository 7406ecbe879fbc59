#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif
import Foundation
import PasskeyConformanceAdapter
import Synchronization

/// Stops an adapter's process group when the harness dies, however it dies (`SIGKILL`, a closed
/// terminal's `SIGHUP`, a crash).
///
/// Right after the adapter starts, the harness starts a watchdog (`/bin/sh`) inside the adapter's
/// process group, with the read end of a pipe as its standard input; the harness keeps the write
/// end (close-on-exec, so no other process holds it). The watchdog blocks reading. When the write
/// end closes — the harness closes it when it stops the process, and the kernel closes it when the
/// harness dies — the read returns, and the watchdog sends `SIGTERM` to the whole group, then
/// `SIGKILL` two seconds later (it ignores `SIGTERM` itself). As a member of the group it also keeps
/// the group's id from being reused while anything of the adapter lives. A Linux child started
/// through Foundation's `Process` cannot ask for `PR_SET_PDEATHSIG` itself, and an adapter's helpers
/// do not read the adapter's standard input, so neither the parent-death signal nor end of input
/// would reach them. The watchdog is the harness's child; a thread of its own reaps it.
final class GroupWatchdog: Sendable {
    /// What the watchdog runs.
    static let script = "trap '' TERM INT HUP; read -r _; kill -TERM 0; sleep 2; kill -KILL 0"

    /// The harness's end of the pipe, `-1` once released.
    private let writeEnd: Mutex<Int32>

    private init(writeEnd: Int32) {
        self.writeEnd = Mutex(writeEnd)
    }

    /// Starts a watchdog in process group `group`; `nil` when the system refuses (the adapter then
    /// runs without one).
    static func start(group: pid_t) -> GroupWatchdog? {
        guard let pipe = Platform.makePipe() else { return nil }
        let fds = [pipe.read, pipe.write]
        var actions = posix_spawn_file_actions_t()
        var attributes = posix_spawnattr_t()
        posix_spawn_file_actions_init(&actions)
        posix_spawnattr_init(&attributes)
        defer {
            posix_spawn_file_actions_destroy(&actions)
            posix_spawnattr_destroy(&attributes)
        }
        posix_spawn_file_actions_adddup2(&actions, fds[0], 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        posix_spawnattr_setpgroup(&attributes, group)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
        var spawned: pid_t = 0
        let arguments = ["sh", "-c", script]
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let status = posix_spawn(&spawned, "/bin/sh", &actions, &attributes, &argv, environ)
        close(fds[0])
        guard status == 0 else {
            close(fds[1])
            return nil
        }
        let pid = spawned
        Thread.detachNewThread {
            var exitStatus: Int32 = 0
            while waitpid(pid, &exitStatus, 0) == -1 && errno == EINTR {}
        }
        return GroupWatchdog(writeEnd: fds[1])
    }

    /// Closes the harness's end: the watchdog stops the group. Idempotent.
    func release() {
        let fd = writeEnd.withLock { fd in
            defer { fd = -1 }
            return fd
        }
        if fd >= 0 { close(fd) }
    }

    deinit { release() }
}
