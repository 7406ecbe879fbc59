import Foundation
import PasskeyConformanceProtocol

/// Serves an in-process `RelyingPartyAdapter` over the adapter protocol as JSON-RPC 2.0 on standard
/// input and output: the adapter's side of `JSONRPCAdapter`.
///
/// ```swift
/// // main.swift of an adapter executable
/// await JSONRPCAdapterServer(adapter: ReferenceRP()).run()
/// ```
///
/// Threading: one thread per connection reads the harness's messages, writes what the pipe had no
/// room for and watches the platform calls' deadlines (the connection core the harness's end uses
/// too); each request is handled by a task of its own, so requests of several sessions (and of one
/// session) can be in progress at once. The relying party's `PlatformHost` calls write their
/// request and suspend until that thread hands them the harness's answer: no thread waits, and no
/// write blocks, however slowly the harness reads.
public struct JSONRPCAdapterServer: Sendable {
    /// Limits of the adapter's side.
    public struct Configuration: Sendable, Hashable {
        /// How long a platform call of the relying party waits for the harness's answer before it
        /// gives up (the harness answers at once; this guards against a harness that is gone).
        public var platformCallTimeout: Duration
        /// The longest line the harness may send, in bytes.
        public var maximumMessageBytes: Int
        /// How long the server waits before it answers each `session.*` request: the latency of a
        /// relying party reached over a network, for trying the harness's parallel sessions. The wait
        /// suspends only the request's own task; other sessions go on meanwhile.
        public var answerLatency: Duration

        /// Creates a configuration: 60 seconds per platform call, lines of up to 16 MiB and no added
        /// latency by default.
        public init(platformCallTimeout: Duration = .seconds(60), maximumMessageBytes: Int = 16 << 20, answerLatency: Duration = .zero) {
            self.platformCallTimeout = platformCallTimeout
            self.maximumMessageBytes = maximumMessageBytes
            self.answerLatency = answerLatency
        }
    }

    let adapter: any RelyingPartyAdapter
    let configuration: Configuration

    /// A server for `adapter`.
    public init(adapter: any RelyingPartyAdapter, configuration: Configuration = Configuration()) {
        self.adapter = adapter
        self.configuration = configuration
    }

    /// Serves the harness on standard input and output until it sends `adapter.shutdown` or closes
    /// standard input; then every open session is closed and the adapter shut down.
    ///
    /// The protocol keeps a private duplicate of standard output, and file descriptor 1 is pointed at
    /// standard error: a stray `print` of the relying party cannot corrupt the protocol stream.
    public func run() async {
        let output = Platform.duplicate(1)
        Platform.redirect(2, to: 1)
        await run(input: 0, output: output)
    }

    /// Serves the harness on two descriptors, which the server owns from now on and closes when done.
    package func run(input: Int32, output: Int32) async {
        await run(channel: .pipes(input: input, output: output))
    }

    /// Serves one harness on `channel` (which the server owns from now on) until it sends
    /// `adapter.shutdown` or closes the channel; then every open session is closed and the adapter
    /// shut down.
    public func run(channel: MessageChannel) async {
        await ServerConnection(adapter: adapter, configuration: configuration, channel: channel).serve()
    }

    /// Serves every harness that connects through `listener` (a `ChannelListener` for stream
    /// sockets), each connection as `run()` serves standard
    /// input and output, several at once if they come; it returns when its task is cancelled (the
    /// listener is then closed, which ends the thread waiting in `accept`) and throws if accepting
    /// fails. The
    /// adapter serves one harness after another: `adapter.shutdown` and the end of a connection
    /// close that connection's sessions, never the adapter. `ready` is called as the accepting thread
    /// starts (the listener has been listening since it was made: a harness may connect at once).
    ///
    /// ```swift
    /// let listener = try ChannelListener(address: ChannelAddress(parsing: "unix:/tmp/rp.sock"))
    /// try await JSONRPCAdapterServer(adapter: MyRelyingParty()).run(listener: listener)
    /// ```
    public func run(listener: some ChannelAccepting, ready: @escaping @Sendable () -> Void = {}) async throws(ChannelError) {
        let (accepted, continuation) = AsyncStream<Result<MessageChannel, ChannelError>>.makeStream()
        // Cancelled (or ended): the thread below must not wait in `accept` for ever.
        continuation.onTermination = { _ in listener.close() }
        // `accept` blocks: a thread of its own waits in it, never one of the cooperative pool.
        let thread = Thread {
            ready()
            while true {
                do throws(ChannelError) {
                    continuation.yield(.success(try listener.accept()))
                } catch {
                    continuation.yield(.failure(error))
                    continuation.finish()
                    return
                }
            }
        }
        thread.name = "passkey-conformance listener"
        thread.start()
        let adapter = adapter
        let configuration = configuration
        for await next in accepted {
            switch next {
            case .success(let channel):
                Task { await ServerConnection(adapter: adapter, configuration: configuration, channel: channel, keepsAdapter: true).serve() }
            case .failure(let error):
                throw error
            }
        }
    }
}
