import ConformanceModel
import Foundation
import Synchronization

/// The page's time, on the harness's virtual clock: a script installed before the page's own
/// replaces `setTimeout`, `setInterval`, their `clear` functions, `Date.now`, `new Date()` and
/// `performance.now` with versions that read and schedule on virtual time.
///
/// Every timer the page sets is reported to the harness (its id and the virtual time it is due);
/// nothing fires by itself. The harness fires a timer when its virtual clock reaches it
/// (``fire(_:at:)``), in the order it chooses, so a page's delays (an upgrade asked for 3 s after
/// sign-in, a reconciliation coalesced over a minute) take no wall time and run in the same order
/// on every run. An interval is reported again each time it fires.
package final class PageClock: Sendable {
    /// A timer the page set.
    package struct Timer: Sendable, Hashable {
        /// The page's timer id.
        package var id: Int
        /// The virtual time it is due, in milliseconds since the test case started.
        package var dueMillis: Int64
    }

    /// The wall-clock time the page's virtual time 0 reads as: 2026-01-01T00:00:00Z, whatever the
    /// day, so that a page's dates are the same on every run.
    package static let epochMillis: Int64 = 1_767_225_600_000

    static let binding = "__pkcClockReport"

    let page: BrowserPage
    private let timers = Mutex<[Int: Int64]>([:])
    private let onTimer: @Sendable (Timer) -> Void
    private let onClear: @Sendable (Int) -> Void

    private init(page: BrowserPage, onTimer: @escaping @Sendable (Timer) -> Void, onClear: @escaping @Sendable (Int) -> Void) {
        self.page = page
        self.onTimer = onTimer
        self.onClear = onClear
    }

    /// Installs the virtual clock into `page` (for every document it loads from now on); `onTimer`
    /// hears of each timer the page sets, `onClear` of each it clears.
    package static func install(
        on page: BrowserPage, onTimer: @escaping @Sendable (Timer) -> Void = { _ in }, onClear: @escaping @Sendable (Int) -> Void = { _ in }
    ) async throws -> PageClock {
        let clock = PageClock(page: page, onTimer: onTimer, onClear: onClear)
        page.observe { event in
            guard event.method == "Runtime.bindingCalled", event.params["name"]?.stringValue == binding,
                let payload = event.params["payload"]?.stringValue, let json = try? JSONValue.parse(Data(payload.utf8)),
                let kind = json["kind"]?.stringValue, let id = json["id"]?.numberValue.map({ Int($0) })
            else { return }
            switch kind {
            case "set":
                guard let due = json["due"]?.numberValue.map({ Int64($0) }) else { return }
                clock.timers.withLock { $0[id] = due }
                clock.onTimer(Timer(id: id, dueMillis: due))
            case "clear":
                _ = clock.timers.withLock { $0.removeValue(forKey: id) }
                clock.onClear(id)
            default:
                return
            }
        }
        try await page.send("Runtime.addBinding", ["name": .string(binding)])
        try await page.send("Page.addScriptToEvaluateOnNewDocument", ["source": .string(script), "runImmediately": .bool(true)])
        return clock
    }

    /// The page's timers not yet fired or cleared, earliest first.
    package var pending: [Timer] {
        timers.withLock { $0.map { Timer(id: $0.key, dueMillis: $0.value) } }.sorted { ($0.dueMillis, $0.id) < ($1.dueMillis, $1.id) }
    }

    /// Sets the page's virtual time to `millis` (never backwards) without firing anything.
    package func move(to millis: Int64) async throws {
        _ = try await page.evaluate("globalThis.__pkcClock.move(\(millis))")
    }

    /// Fires timer `id` at virtual time `millis`: the page's clock moves there and the timer's
    /// callback runs. A timer the page cleared meanwhile does nothing.
    package func fire(_ id: Int, at millis: Int64) async throws {
        guard timers.withLock({ $0.removeValue(forKey: id) }) != nil else { return }
        _ = try await page.evaluate("globalThis.__pkcClock.fire(\(id), \(millis))")
    }

    /// Forgets the timers of a page that loaded a new document.
    package func reset() {
        timers.withLock { $0 = [:] }
    }

    static let script = """
        (() => {
          const binding = globalThis.\(binding);
          if (typeof binding !== "function" || globalThis.__pkcClock) return;
          delete globalThis.\(binding);
          // Every report of the page's scripts is counted in one place, so that the harness can
          // tell it has heard all of them (see PageInstrumentation.idle).
          const sent = globalThis.__pkcSent || Object.defineProperty(globalThis, "__pkcSent", { value: { count: 0 } }).__pkcSent;
          const report = (text) => { sent.count++; binding(text); };
          const epoch = \(epochMillis);
          let now = 0;
          let next = 1;
          const callbacks = new Map();
          const set = (repeat) => (callback, delay, ...args) => {
            const id = next++;
            const wait = Math.max(0, Number(delay) || 0);
            callbacks.set(id, { callback, args, repeat, wait });
            report(JSON.stringify({ kind: "set", id, due: now + wait }));
            return id;
          };
          const clear = (id) => {
            if (callbacks.delete(id)) report(JSON.stringify({ kind: "clear", id }));
          };
          const clock = {
            move: (millis) => { if (millis > now) now = millis; },
            fire: (id, millis) => {
              clock.move(millis);
              const timer = callbacks.get(id);
              if (!timer) return;
              if (timer.repeat) {
                report(JSON.stringify({ kind: "set", id, due: now + timer.wait }));
              } else {
                callbacks.delete(id);
              }
              if (typeof timer.callback === "function") timer.callback(...timer.args);
            },
          };
          Object.defineProperty(globalThis, "__pkcClock", { value: clock });
          globalThis.setTimeout = set(false);
          globalThis.setInterval = set(true);
          globalThis.clearTimeout = clear;
          globalThis.clearInterval = clear;
          const RealDate = Date;
          class VirtualDate extends RealDate {
            constructor(...args) { if (args.length === 0) super(epoch + now); else super(...args); }
            static now() { return epoch + now; }
          }
          globalThis.Date = VirtualDate;
          if (globalThis.performance) performance.now = () => now;
        })();
        """
}
