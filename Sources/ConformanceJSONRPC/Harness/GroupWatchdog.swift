#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif
import Foundation
import Synchronization

/// Stops an adapter's process group when the harness dies, however it dies (`SIGKILL`, a closed
/// terminal's `SIGHUP`, a crash).
///
/// The adapter is started through a small `/bin/sh` launcher. The launcher starts a watchdog in the
/// background, in the adapter's process group, then `exec`s the adapter (so the adapter keeps the
/// launcher's process id, and its exit status is the adapter's own). The watchdog opens a named pipe
/// that the harness holds open for writing, and blocks reading it. When the harness's end closes —
/// the harness closes it when it stops the process, and the kernel closes it when the harness dies —
/// the read returns and the watchdog sends `SIGTERM` to the whole group, then `SIGKILL` two seconds
/// later (it ignores `SIGTERM` itself). As a member of the group it also keeps the group's id from
/// being reused while anything of the adapter lives. A Linux child started through Foundation's
/// `Process` cannot ask for `PR_SET_PDEATHSIG` itself, and an adapter's helpers do not read the
/// adapter's standard input, so neither the parent-death signal nor end of input would reach them.
final class GroupWatchdog: Sendable {
    /// The launcher: `$1` is the named pipe, the rest the adapter's executable and arguments.
    static let launcher = """
        fifo="$1"; shift
        ( trap '' TERM INT HUP; exec 3<"$fifo" || exit 0; rm -f "$fifo"; read -r _ <&3
          kill -TERM 0; sleep 2; kill -KILL 0 ) </dev/null >/dev/null 2>&1 &
        exec "$@"
        """

    /// The named pipe's path.
    let path: String
    /// The harness's end, open for reading and writing (so that opening it never blocks and the
    /// watchdog sees end of file only when this end is closed).
    private let fd: Mutex<Int32>

    /// Creates the named pipe in the temporary directory; `nil` when the system refuses.
    init?() {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("passkey-conformance-watchdog-\(getpid())-\(Self.counter.add(1, ordering: .relaxed).newValue)").path
        unlink(path)
        guard mkfifo(path, 0o600) == 0 else { return nil }
        let fd = open(path, O_RDWR | O_CLOEXEC)
        guard fd >= 0 else {
            unlink(path)
            return nil
        }
        self.path = path
        self.fd = Mutex(fd)
    }

    private static let counter = Atomic<Int>(0)

    /// The executable and arguments that start `executable` with `arguments` under the watchdog.
    func wrap(executable: String, arguments: [String]) -> (String, [String]) {
        ("/bin/sh", ["-c", Self.launcher, "passkey-conformance-launcher", path, executable] + arguments)
    }

    /// Closes the harness's end: the watchdog stops the group. Idempotent.
    func release() {
        let fd = fd.withLock { fd in
            defer { fd = -1 }
            return fd
        }
        guard fd >= 0 else { return }
        close(fd)
        unlink(path)
    }

    deinit { release() }
}
