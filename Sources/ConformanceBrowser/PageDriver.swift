import ConformanceModel
import Foundation

/// The relying party's page as the user acts on it, the web's counterpart of an adapter's
/// `session.perform`: the page provides `window.pkcDriver.perform(action)`, which does what the
/// user would do on the page (types the password, presses the button) and resolves to the
/// outcome (`{status, message}`, as `ActionOutcome` is written on the wire); the action arrives as
/// the adapter protocol writes a `UserAction`.
///
/// What the page shows and records it reports through `pkc.show(kind, text)` and
/// `pkc.telemetry(name, attributes)`, functions a script installs before the page's own, as a
/// native app reports through the platform host.
package final class PageDriver: Sendable {
    /// Why an action could not be performed: no driver on the page, a driver that threw, or an
    /// answer that is not an outcome.
    package struct Failure: Error, Sendable, CustomStringConvertible {
        /// What went wrong.
        package var description: String
    }

    static let binding = "__pkcAppReport"

    let page: BrowserPage

    private init(page: BrowserPage) {
        self.page = page
    }

    /// Installs `pkc.show` and `pkc.telemetry` into `page` (for every document it loads from now
    /// on); `shown` and `recorded` hear of each call, in the page's order.
    package static func install(
        on page: BrowserPage, shown: @escaping @Sendable (UIEvent) -> Void, recorded: @escaping @Sendable (TelemetryEvent) -> Void
    ) async throws -> PageDriver {
        page.observe { event in
            guard event.method == "Runtime.bindingCalled", event.params["name"]?.stringValue == binding,
                let payload = event.params["payload"]?.stringValue, let json = try? JSONValue.parse(Data(payload.utf8))
            else { return }
            switch json["report"]?.stringValue {
            case "show":
                // A kind the protocol does not know is shown as a message: what the user saw counts.
                let kind = json["kind"]?.stringValue.flatMap(UIEvent.Kind.init(rawValue:)) ?? .message
                shown(UIEvent(kind, json["text"]?.stringValue ?? ""))
            case "telemetry":
                var attributes: [String: String] = [:]
                if case .object(let members) = json["attributes"] ?? .null {
                    for (key, value) in members { attributes[key] = text(of: value) }
                }
                recorded(TelemetryEvent(json["name"]?.stringValue ?? "", attributes))
            default:
                return
            }
        }
        try await page.send("Runtime.addBinding", ["name": .string(binding)])
        try await page.send("Page.addScriptToEvaluateOnNewDocument", ["source": .string(script), "runImmediately": .bool(true)])
        return PageDriver(page: page)
    }

    /// An attribute's value as text: a string as it is, a whole number without a fraction.
    static func text(of value: JSONValue) -> String {
        if let string = value.stringValue { return string }
        if let number = value.numberValue {
            return number.rounded() == number && abs(number) < 1e15 ? String(Int64(number)) : String(number)
        }
        if let bool = value.boolValue { return String(bool) }
        return String(decoding: (try? JSONEncoder().encode(value)) ?? Data(), as: UTF8.self)
    }

    /// Performs `action` through the page's driver and returns the page's outcome.
    package func perform(_ action: UserAction) async throws -> ActionOutcome {
        let encoded = String(decoding: try Wire.encoder().encode(action), as: UTF8.self)
        let answer: JSONValue
        do {
            answer = try await page.evaluate(
                """
                (async () => {
                  const driver = globalThis.pkcDriver;
                  if (!driver || typeof driver.perform !== "function") throw new Error("the page has no pkcDriver.perform");
                  return await driver.perform(\(encoded));
                })()
                """)
        } catch {
            throw Failure(description: "the page could not perform \(action.kind.rawValue): \(error)")
        }
        do {
            return try Wire.decoder().decode(ActionOutcome.self, from: try JSONEncoder().encode(answer))
        } catch {
            throw Failure(description: "the page answered \(action.kind.rawValue) with \(answer), not an outcome ({status, message}): \(error)")
        }
    }

    static let script = """
        (() => {
          const binding = globalThis.\(binding);
          if (typeof binding !== "function" || globalThis.pkc) return;
          delete globalThis.\(binding);
          // Every report of the page's scripts is counted in one place, so that the harness can
          // tell it has heard all of them (see PageInstrumentation.idle).
          const sent = globalThis.__pkcSent || Object.defineProperty(globalThis, "__pkcSent", { value: { count: 0 } }).__pkcSent;
          const report = (text) => { sent.count++; binding(text); };
          Object.defineProperty(globalThis, "pkc", { value: Object.freeze({
            show: (kind, text) => report(JSON.stringify({ report: "show", kind: String(kind), text: String(text) })),
            telemetry: (name, attributes) => report(JSON.stringify({ report: "telemetry", name: String(name), attributes: attributes || {} })),
          }) });
        })();
        """
}
