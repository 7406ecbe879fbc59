#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Why a socket channel could not be made.
public struct ChannelError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What failed, with the address and the system's reason.
    public var description: String
}

extension MessageChannel {
    /// Connects to an adapter listening on a stream socket at `address`.
    static func connectSocket(to address: ChannelAddress) throws(ChannelError) -> MessageChannel {
        let fd = try Socket.open(address, purpose: "connect to") { fd, pointer, length in systemConnect(fd, pointer, length) }
        return try Socket.channel(fd, address: address)
    }
}

/// A listening stream socket: the adapter's side of a socket channel. Each `accept()` is one
/// harness connection.
public final class ChannelListener: ChannelAccepting {
    /// Where it listens.
    public let address: ChannelAddress
    private let fd: Int32

    /// Listens at `address`; a Unix socket's stale file (a socket nobody listens on) is replaced.
    public init(address: ChannelAddress) throws(ChannelError) {
        if case .unix(let path) = address { Socket.removeStale(path) }
        let fd = try Socket.open(address, purpose: "listen at") { fd, pointer, length in
            var one: Int32 = 1
            _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
            return bind(fd, pointer, length)
        }
        guard listen(fd, 16) == 0 else {
            let reason = Socket.reason(errno)
            Platform.close(fd)
            throw ChannelError(description: "cannot listen at \(address): \(reason)")
        }
        self.address = address
        self.fd = fd
    }

    deinit {
        Platform.close(fd)
        if case .unix(let path) = address { _ = unlink(path) }
    }

    /// Stops listening: shutting the socket down wakes an `accept` that waits in another thread
    /// (it then fails), and later connections are refused. The descriptor is closed on release.
    public func close() {
        #if canImport(Glibc)
            _ = shutdown(fd, Int32(SHUT_RDWR))
        #else
            _ = shutdown(fd, SHUT_RDWR)
        #endif
    }

    /// Waits (blocking the calling thread) for the next harness to connect.
    public func accept() throws(ChannelError) -> MessageChannel {
        while true {
            let connection = systemAccept(fd, nil, nil)
            if connection >= 0 {
                Platform.setCloseOnExec(connection)
                return try Socket.channel(connection, address: address)
            }
            if errno == EINTR || errno == ECONNABORTED { continue }
            throw ChannelError(description: "cannot accept a connection at \(address): \(Socket.reason(errno))")
        }
    }
}

/// The socket calls of both sides.
private enum Socket {
    /// A close-on-exec stream socket for `address`, passed with its `sockaddr` to `use` (connect or
    /// bind); the socket, or an error naming `purpose` and the address.
    static func open(
        _ address: ChannelAddress, purpose: String, _ use: (Int32, UnsafePointer<sockaddr>, socklen_t) -> Int32
    ) throws(ChannelError) -> Int32 {
        var failure = "no address"
        for candidate in try addresses(address, purpose: purpose) {
            let fd = socket(candidate.family, streamType, 0)
            guard fd >= 0 else {
                failure = reason(errno)
                continue
            }
            Platform.setCloseOnExec(fd)
            let result = candidate.storage.withUnsafeBytes { bytes in
                use(fd, bytes.baseAddress!.assumingMemoryBound(to: sockaddr.self), candidate.length)
            }
            if result == 0 { return fd }
            failure = reason(errno)
            Platform.close(fd)
        }
        throw ChannelError(description: "cannot \(purpose) \(address): \(failure)")
    }

    /// A channel over a connected socket: the descriptor for reading, a duplicate for writing.
    static func channel(_ fd: Int32, address: ChannelAddress) throws(ChannelError) -> MessageChannel {
        #if canImport(Darwin)
            // A peer that went away must make writes fail, not kill the process.
            var one: Int32 = 1
            _ = setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        #endif
        let output = Platform.duplicate(fd)
        guard output >= 0 else {
            let why = reason(errno)
            Platform.close(fd)
            throw ChannelError(description: "cannot use the connection at \(address): \(why)")
        }
        return MessageChannel(input: fd, output: output, name: address.description)
    }

    struct Candidate {
        var family: Int32
        var storage: [UInt8]
        var length: socklen_t
    }

    /// The socket addresses `address` stands for (a loopback name may stand for two).
    static func addresses(_ address: ChannelAddress, purpose: String) throws(ChannelError) -> [Candidate] {
        switch address {
        case .unix(let path):
            var unixAddress = sockaddr_un()
            unixAddress.sun_family = sa_family_t(AF_UNIX)
            let bytes = Array(path.utf8)
            withUnsafeMutableBytes(of: &unixAddress.sun_path) { slot in
                for (index, byte) in bytes.enumerated() where index < slot.count - 1 { slot[index] = byte }
            }
            let storage = withUnsafeBytes(of: &unixAddress) { Array($0) }
            return [Candidate(family: AF_UNIX, storage: storage, length: socklen_t(MemoryLayout<sockaddr_un>.size))]
        case .tcp(let host, let port):
            var hints = addrinfo()
            hints.ai_socktype = streamType
            hints.ai_flags = AI_NUMERICSERV
            var list: UnsafeMutablePointer<addrinfo>?
            let status = getaddrinfo(host, String(port), &hints, &list)
            guard status == 0, let list else {
                throw ChannelError(description: "cannot \(purpose) \(address): \(String(cString: gai_strerror(status)))")
            }
            defer { freeaddrinfo(list) }
            var candidates: [Candidate] = []
            var entry: UnsafeMutablePointer<addrinfo>? = list
            while let current = entry {
                if let socketAddress = current.pointee.ai_addr {
                    let length = Int(current.pointee.ai_addrlen)
                    let storage = Array(UnsafeRawBufferPointer(start: socketAddress, count: length))
                    candidates.append(Candidate(family: current.pointee.ai_family, storage: storage, length: current.pointee.ai_addrlen))
                }
                entry = current.pointee.ai_next
            }
            return candidates
        }
    }

    /// Removes the file at `path` if it is a socket nobody listens on (left by a process that died).
    static func removeStale(_ path: String) {
        var status = stat()
        guard lstat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFSOCK else { return }
        if let fd = try? open(.unix(path: path), purpose: "probe", { fd, pointer, length in systemConnect(fd, pointer, length) }) {
            Platform.close(fd)
            return
        }
        _ = unlink(path)
    }

    static func reason(_ code: Int32) -> String { String(cString: strerror(code)) }

    #if canImport(Glibc)
        static let streamType = Int32(SOCK_STREAM.rawValue)
    #else
        static let streamType = SOCK_STREAM
    #endif
}

private let systemConnect: @Sendable (Int32, UnsafePointer<sockaddr>, socklen_t) -> Int32 = { connect($0, $1, $2) }
private let systemAccept: @Sendable (Int32, UnsafeMutablePointer<sockaddr>?, UnsafeMutablePointer<socklen_t>?) -> Int32 = { accept($0, $1, $2) }
