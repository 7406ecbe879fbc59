#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif
import CProcessControl
import PasskeyConformanceAdapter
import Foundation
import Synchronization

/// No process an adapter starts outlives the run, whatever it does to escape: a daemon that forks
/// twice and calls `setsid` leaves the adapter's process group, which the group signals and the
/// `GroupWatchdog` reach, but it cannot leave the tree of a child subreaper.
///
/// On Linux every adapter runs under a keeper: the harness's own executable started with
/// `ProcessKeeper.argument` (`passkey-conformance __keep-adapter /bin/sh -c …`). The keeper makes
/// itself a child subreaper (`prctl(PR_SET_CHILD_SUBREAPER)`), so every orphan of the adapter is
/// re-parented to it; it starts the adapter on its own standard streams, lets them go, and waits for
/// one of two events: the adapter ended (the harness stopped it, it crashed, or a relaunch replaced
/// it) or the harness ended (a `pidfd` on the harness, so a `SIGKILL` of the harness is seen too).
/// Then it ends every descendant it has (`SIGTERM`, a short grace, `SIGKILL`), reaps them, and
/// exits as the adapter did. The harness itself is a child subreaper as well, and ends every
/// descendant it still has when it exits (`exitSweep`): the daemons of a keeper killed before it
/// could sweep land there.
///
/// Where the kernel lacks either call (not Linux, or a kernel before 5.3 for `pidfd_open`) the
/// keeper is not used, or cannot see the harness die, and only the process group is covered; the
/// report format's documentation says so.
package enum ProcessKeeper {
    /// The first argument that turns the harness's executable into a keeper.
    package static let argument = "__keep-adapter"

    /// How long descendants get between `SIGTERM` and `SIGKILL`.
    package static let grace: Duration = .milliseconds(300)

    /// The keeper's executable (the harness's own), once `harnessSetUp(executable:)` succeeded.
    private static let executablePath = Mutex<String?>(nil)

    /// Whether an adapter was started under a keeper: only then has the exit sweep anything to find.
    private static let used = Atomic<Bool>(false)

    /// The executable and arguments that start `executable` with `arguments` under a keeper, or
    /// `nil` when adapters start directly (`harnessSetUp(executable:)` was not called or failed).
    package static func wrapping(_ executable: String, _ arguments: [String]) -> (executable: String, arguments: [String])? {
        guard let keeper = executablePath.withLock({ $0 }) else { return nil }
        used.store(true, ordering: .relaxed)
        return (keeper, [argument, executable] + arguments)
    }

    /// Makes the harness a child subreaper and starts adapters under `executable` from now on; ends
    /// every descendant at exit. Returns whether the system allowed it (Linux only).
    @discardableResult
    package static func harnessSetUp(executable: String) -> Bool {
        guard cpc_become_child_subreaper() == 0 else { return false }
        executablePath.withLock { $0 = executable }
        Platform.atExit { ProcessKeeper.exitSweep() }
        return true
    }

    /// Ends every process below the harness at once (`SIGKILL`): the harness is exiting.
    package static func exitSweep() {
        guard used.load(ordering: .relaxed) else { return }
        for _ in 0..<4 {
            let below = ProcessTree.current().descendants(of: getpid()).filter { !$0.isZombie }
            if below.isEmpty { return }
            for process in below { kill(process.pid, SIGKILL) }
        }
    }

    // MARK: - The keeper process

    /// The keeper's `main`: `arguments` are the adapter's executable and its arguments. Never returns.
    package static func keep(_ arguments: [String]) -> Never {
        let harness = getppid()
        let harnessGone = cpc_pidfd_open(harness)
        // The harness ended before the keeper could watch it.
        if harnessGone >= 0 && getppid() != harness { _exit(1) }
        guard let executable = arguments.first, cpc_become_child_subreaper() == 0 else {
            report("no adapter command, or the system refused a child subreaper")
            _exit(127)
        }
        // The harness stops an adapter by signalling its process group, the keeper included: the
        // keeper outlives the signal, waits for the adapter and then sweeps.
        for number in [SIGTERM, SIGINT, SIGHUP] { signal(number, SIG_IGN) }
        let adapter: pid_t
        switch spawn(executable, arguments) {
        case .success(let pid): adapter = pid
        case .failure(let message):
            report(message)
            _exit(127)
        }
        // The adapter holds the standard streams; the harness must see their end when it ends.
        let null = open("/dev/null", O_RDWR)
        for fd: Int32 in [0, 1, 2] { dup2(null, fd) }
        if null > 2 { close(null) }
        let adapterGone = cpc_pidfd_open(adapter)
        var status: Int32 = 0
        var adapterEnded = false
        while !adapterEnded {
            var fds: [pollfd] = []
            if adapterGone >= 0 { fds.append(pollfd(fd: adapterGone, events: Int16(POLLIN), revents: 0)) }
            if harnessGone >= 0 { fds.append(pollfd(fd: harnessGone, events: Int16(POLLIN), revents: 0)) }
            if fds.isEmpty {
                // No pidfd at all: wait for the adapter by waitpid, blind to the harness.
                while waitpid(adapter, &status, 0) == -1 && errno == EINTR {}
                break
            }
            let ready = poll(&fds, nfds_t(fds.count), -1)
            if ready < 0 { continue }
            if adapterGone >= 0 && fds[0].revents != 0 {
                while waitpid(adapter, &status, 0) == -1 && errno == EINTR {}
                adapterEnded = true
            } else if harnessGone >= 0 && fds[fds.count - 1].revents != 0 {
                // The harness is gone: nobody will read the adapter any more.
                endDescendants()
                _exit(1)
            }
        }
        endDescendants()
        // Exit as the adapter did, so that the harness reports its end the same way.
        if status & 0x7f != 0 && status & 0x7f != 0x7f {
            let number = status & 0x7f
            signal(number, SIG_DFL)
            kill(getpid(), number)
        }
        _exit((status >> 8) & 0xff)
    }

    /// Ends every descendant of the calling process: `SIGTERM`, up to `grace` for them to go, then
    /// `SIGKILL`; reaps its own children. A process forked meanwhile is caught by the next round.
    package static func endDescendants() {
        let me = getpid()
        for round in 0..<5 {
            let below = ProcessTree.current().descendants(of: me)
            reapChildren()
            let alive = below.filter { !$0.isZombie }
            if alive.isEmpty { return }
            if round == 0 {
                for process in alive { kill(process.pid, SIGTERM) }
                waitForEnd(of: alive.map(\.pid), within: grace)
            }
            for process in ProcessTree.current().descendants(of: me) where !process.isZombie { kill(process.pid, SIGKILL) }
            waitForEnd(of: alive.map(\.pid), within: .seconds(5))
        }
        reapChildren()
    }

    /// Reaps every child that has ended, without blocking.
    private static func reapChildren() {
        var status: Int32 = 0
        while waitpid(-1, &status, WNOHANG) > 0 {}
    }

    /// Waits (on `pidfd`s, not the clock) until every process of `pids` has ended, or `limit` passed.
    private static func waitForEnd(of pids: [pid_t], within limit: Duration) {
        let deadline = ContinuousClock.now + limit
        var fds = pids.compactMap { pid -> pollfd? in
            let fd = cpc_pidfd_open(pid)
            return fd >= 0 ? pollfd(fd: fd, events: Int16(POLLIN), revents: 0) : nil
        }
        defer { fds.forEach { close($0.fd) } }
        while !fds.isEmpty {
            reapChildren()
            let left = deadline - ContinuousClock.now
            guard left > .zero else { return }
            let millis = Int32(clamping: max(1, left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000))
            var ready = fds
            guard poll(&ready, nfds_t(ready.count), millis) > 0 else { continue }
            let ended = Set(ready.indices.filter { ready[$0].revents != 0 })
            for index in ended { close(fds[index].fd) }
            fds = fds.indices.filter { !ended.contains($0) }.map { fds[$0] }
        }
        reapChildren()
    }

    private enum Spawned {
        case success(pid_t)
        case failure(String)
    }

    /// Starts the adapter on the keeper's standard streams with default signal dispositions.
    private static func spawn(_ executable: String, _ arguments: [String]) -> Spawned {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for number in [SIGTERM, SIGINT, SIGHUP, SIGPIPE] { sigaddset(&defaults, number) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, executable, nil, &attributes, &argv, environ)
        guard status == 0 else { return .failure("could not start \(executable): \(String(cString: strerror(status)))") }
        return .success(pid)
    }

    private static func report(_ message: String) {
        let line = "passkey-conformance keeper: \(message)\n"
        _ = line.utf8CString.withUnsafeBufferPointer { write(2, $0.baseAddress, $0.count - 1) }
    }
}

/// The processes of the system as `/proc` lists them: pid, parent and state. Empty where there is
/// no `/proc`.
package struct ProcessTree: Sendable {
    /// One process.
    package struct Entry: Sendable, Hashable {
        package var pid: pid_t
        package var parent: pid_t
        /// Ended, waiting to be reaped: no signal reaches it.
        package var isZombie: Bool
    }

    package var entries: [Entry]

    /// Reads `/proc/<pid>/stat` of every process now.
    package static func current() -> ProcessTree {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        let entries = names.compactMap { name -> Entry? in
            guard let pid = pid_t(name), let stat = try? String(contentsOfFile: "/proc/\(name)/stat", encoding: .utf8) else { return nil }
            return entry(pid: pid, stat: stat)
        }
        return ProcessTree(entries: entries)
    }

    /// Parses one `stat` line: `pid (command) state ppid …`; the command may hold spaces and `)`.
    package static func entry(pid: pid_t, stat: String) -> Entry? {
        guard let close = stat.lastIndex(of: ")") else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count >= 2, let parent = pid_t(fields[1]) else { return nil }
        return Entry(pid: pid, parent: parent, isZombie: fields[0] == "Z" || fields[0] == "X")
    }

    /// Every process below `root`, children before their own children.
    package func descendants(of root: pid_t) -> [Entry] {
        let children = Dictionary(grouping: entries, by: \.parent)
        var found: [Entry] = []
        var queue = [root]
        var seen: Set<pid_t> = [root]
        while let next = queue.popLast() {
            for child in children[next] ?? [] where seen.insert(child.pid).inserted {
                found.append(child)
                queue.append(child.pid)
            }
        }
        return found
    }
}
