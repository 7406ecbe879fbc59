/// A duplex byte stream that carries the protocol's messages, one per line: what a
/// `JSONRPCConnection` reads and writes, whatever carries the bytes.
///
/// A channel is a pair of descriptors that `poll`, `read` and `write` serve alike (the two ends of
/// a child's pipes, the adapter's standard input and output, or two duplicates of one connected
/// stream socket), framed by newlines (`LineFramer`), with a name for messages. The connection owns
/// both descriptors once it is made: its reader closes the input when reading ends, its outbox
/// ends the output (a socket's sending side is shut down first, so the peer reads end-of-file while
/// the input stays open for the last answers).
///
/// A new carrier is one file that makes channels (as `MessageChannel+Socket.swift` does for stream
/// sockets); the connection core, sessions, faults, time-outs and the watchdog do not change.
public struct MessageChannel: Sendable {
    /// The descriptor messages are read from.
    package let input: Int32
    /// The descriptor messages are written to (the same stream as `input` for a socket, duplicated).
    package let output: Int32
    /// What the channel is, for messages and reports: `standard input and output`, `unix:/run/rp.sock`.
    public let name: String

    /// A channel over two descriptors, which it owns from now on.
    package init(input: Int32, output: Int32, name: String) {
        self.input = input
        self.output = output
        self.name = name
    }

    /// A channel over a pair of pipe descriptors (a child's, or an in-process server's).
    package static func pipes(input: Int32, output: Int32, name: String = "pipes") -> MessageChannel {
        MessageChannel(input: input, output: output, name: name)
    }

    /// Closes both descriptors: for a channel that no connection took over.
    package func discard() {
        Platform.close(input)
        if output != input { Platform.close(output) }
    }
}

extension MessageChannel {
    /// Connects to an adapter listening at `address` (the harness's side of a channel to an adapter
    /// that runs on its own); each kind of address is served by its carrier's file.
    public static func connect(to address: ChannelAddress) throws(ChannelError) -> MessageChannel {
        switch address {
        case .unix, .tcp: try connectSocket(to: address)
        }
    }
}

/// The adapter's side of a carrier: each `accept()` waits (blocking its thread) for the next harness
/// and returns its channel. `JSONRPCAdapterServer.run(listener:)` serves whatever conforms.
public protocol ChannelAccepting: Sendable {
    /// Where it accepts connections, for messages.
    var address: ChannelAddress { get }
    /// Waits for the next harness to connect.
    func accept() throws(ChannelError) -> MessageChannel
    /// Stops accepting: an `accept` waiting now or later fails, and no harness can connect any more.
    func close()
}

/// Where a stream socket channel is: `unix:PATH` or `tcp:HOST:PORT` with a loopback host.
///
/// Only loopback TCP is accepted: the protocol carries no authentication, and a device farm's
/// adapter is reached through a port forwarded to this machine (`adb forward`, `iproxy`, an SSH
/// tunnel), never across a network.
public enum ChannelAddress: Sendable, Hashable, CustomStringConvertible {
    /// A Unix-domain stream socket at a path.
    case unix(path: String)
    /// A TCP socket on a loopback address (`127.0.0.1`, `::1` or `localhost`).
    case tcp(host: String, port: UInt16)

    /// Why an address cannot be read.
    public struct Invalid: Error, Sendable, Hashable, CustomStringConvertible {
        /// What is wrong, naming the text.
        public var description: String
    }

    /// Reads `unix:PATH` or `tcp:HOST:PORT` (`tcp:[::1]:PORT` for IPv6).
    public init(parsing text: String) throws(Invalid) {
        if text.hasPrefix("unix:") {
            let path = String(text.dropFirst(5))
            guard !path.isEmpty else { throw Invalid(description: "'\(text)' names no socket path; write unix:/path/to/socket") }
            // sockaddr_un holds 108 bytes on Linux, 104 on macOS, with the terminating zero.
            guard path.utf8.count < 104 else {
                throw Invalid(description: "the socket path in '\(text)' is \(path.utf8.count) bytes; a Unix socket path must be shorter than 104")
            }
            self = .unix(path: path)
            return
        }
        guard text.hasPrefix("tcp:") else {
            throw Invalid(description: "'\(text)' is not a channel address; write unix:PATH or tcp:127.0.0.1:PORT")
        }
        let rest = text.dropFirst(4)
        guard let colon = rest.lastIndex(of: ":") else {
            throw Invalid(description: "'\(text)' has no port; write tcp:127.0.0.1:PORT")
        }
        var host = String(rest[..<colon])
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard let port = UInt16(rest[rest.index(after: colon)...]), port > 0 else {
            throw Invalid(description: "the port in '\(text)' is not a number from 1 to 65535")
        }
        guard ["127.0.0.1", "::1", "localhost"].contains(host) else {
            throw Invalid(
                description: "'\(text)': only a loopback host (127.0.0.1, ::1, localhost) is accepted; "
                    + "forward a remote adapter's port to this machine (adb forward, iproxy, ssh -L)")
        }
        self = .tcp(host: host, port: port)
    }

    /// `unix:PATH` or `tcp:HOST:PORT`, as it is written on the command line.
    public var description: String {
        switch self {
        case .unix(let path): "unix:\(path)"
        case .tcp(let host, let port): host.contains(":") ? "tcp:[\(host)]:\(port)" : "tcp:\(host):\(port)"
        }
    }
}
