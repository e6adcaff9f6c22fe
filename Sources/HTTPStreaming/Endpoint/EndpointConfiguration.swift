import Foundation
import ModelSession

/// Where and how to reach a model server's HTTP API: the base URL, the
/// credential, the extra headers, the redirect policy and the response limits.
///
/// Endpoint URLs follow one rule: when the base URL's path already has a
/// version component (`/v1`, `/api/v3`, any `v` followed by digits), the
/// endpoint's path is appended to it; otherwise `v1/` and the path are.
///
/// ```swift
/// let endpoint = EndpointConfiguration(baseURL: URL(string: "http://127.0.0.1:8080")!)
/// endpoint.endpointURL("models")  // http://127.0.0.1:8080/v1/models
/// ```
///
/// The API key is an ``APIKey``: no description of this value shows it.
public struct EndpointConfiguration: Sendable, Hashable, CustomStringConvertible,
  CustomDebugStringConvertible, CustomReflectable
{
  /// The server's base URL, such as `http://127.0.0.1:8080` or `https://api.example.com/v1`.
  public var baseURL: URL

  /// The credential sent as `Authorization: Bearer …`, if any.
  public var apiKey: APIKey?

  /// Headers set over the defaults, one field at a time (names are case-insensitive).
  public var additionalHeaders: Headers

  /// Which redirects requests follow: by default at most five within the
  /// base URL's origin, so that the credential never leaves it.
  public var redirectPolicy: RedirectPolicy

  /// How much of an answer is read before the client stops: line, event,
  /// stream and error body sizes, and the time for an error body.
  public var responseLimits = ResponseLimits()

  /// Creates a configuration.
  public init(
    baseURL: URL, apiKey: String? = nil, additionalHeaders: [String: String] = [:],
    redirectPolicy: RedirectPolicy = .sameOrigin
  ) {
    self.baseURL = baseURL
    self.apiKey = apiKey.flatMap { $0.isEmpty ? nil : APIKey($0) }
    self.additionalHeaders = Headers(additionalHeaders)
    self.redirectPolicy = redirectPolicy
  }

  /// The server's root: the base URL with its version component and what
  /// follows removed (`http://h/api/v3` → `http://h/api`), or the base URL
  /// itself when it has none. Non-standard endpoints such as llama.cpp's
  /// `/tokenize` live here.
  public var serverRootURL: URL {
    var components = pathComponents
    if let version = components.lastIndex(where: Self.isVersionComponent) {
      components.removeSubrange(version...)
    }
    return url(withPath: components)
  }

  /// The URL of an endpoint under the versioned API, such as `models` or `chat/completions`.
  public func endpointURL(_ relativePath: String) -> URL {
    var components = pathComponents
    if !components.contains(where: Self.isVersionComponent) {
      components.append("v1")
    }
    components += relativePath.split(separator: "/").map(String.init)
    return url(withPath: components)
  }

  /// The headers of a streamed request: the defaults
  /// (`Content-Type: application/json`, `Accept: text/event-stream`,
  /// `User-Agent: ContextKit/<version>`), then `Authorization: Bearer <key>`,
  /// then ``additionalHeaders`` set over them one field at a time.
  package var requestHeaders: HTTPHeaderFields {
    var headers = HTTPHeaderFields(orderedFields: [
      ("Content-Type", "application/json"),
      ("Accept", "text/event-stream"),
      ("User-Agent", ContextKitVersion.userAgent),
    ])
    if let apiKey {
      headers["Authorization"] = "Bearer \(apiKey.revealed)"
    }
    return headers.merging(additionalHeaders.fields)
  }

  /// A request with ``requestHeaders``, the given method, body and timeouts.
  package func request(
    url: URL, method: String = "POST", body: Data? = nil,
    timeouts: HTTPTimeouts = HTTPTimeouts(), accept: String? = nil
  ) -> HTTPRequest {
    var headers = requestHeaders
    if let accept {
      headers["Accept"] = accept
    }
    return HTTPRequest(method: method, url: url, headers: headers, body: body, timeouts: timeouts)
  }

  /// Removes this configuration's secrets from a text: the API key, the
  /// credentials in secret headers, and the base URL's user info and secret
  /// query values (see ``Redaction``).
  package var redaction: Redaction {
    Redaction(endpoint: self)
  }

  /// The base URL as text for logs and messages, without its user info and
  /// with the values of secret-looking query parameters replaced:
  /// `http://<redacted>@host/v1?api_key=<redacted>`.
  public var redactedBaseURL: String {
    redaction.describe(baseURL)
  }

  /// The base URL and the names of the headers; the key and the header values are never shown.
  public var description: String {
    let names = additionalHeaders.names.joined(separator: ", ")
    return "EndpointConfiguration(baseURL: \(redaction.describe(baseURL)), apiKey: "
      + (apiKey == nil ? "none" : "<redacted>") + ", additionalHeaders: [\(names)])"
  }

  /// The same as ``description``: the key and the header values are never shown.
  public var debugDescription: String { description }

  /// A mirror that shows the base URL, whether there is a key, and the redacted headers.
  public var customMirror: Mirror {
    Mirror(
      self,
      children: [
        "baseURL": redaction.describe(baseURL),
        "apiKey": apiKey == nil ? "none" : "<redacted>",
        "additionalHeaders": additionalHeaders.description,
      ], displayStyle: .struct)
  }

  /// Whether a header's value is a credential, to be kept out of any text
  /// and off other origins (the rule of ``Redaction/isSecretName(_:)``).
  package static func isSecretHeader(_ name: String) -> Bool {
    Redaction.isSecretName(name)
  }

  /// Whether a path component is an API version: `v` followed by one or more digits.
  package static func isVersionComponent(_ component: String) -> Bool {
    guard component.count > 1, component.first == "v" || component.first == "V" else { return false }
    return component.dropFirst().allSatisfy { $0.isASCII && $0.isNumber }
  }

  private var pathComponents: [String] {
    baseURL.path.split(separator: "/").map(String.init)
  }

  private func url(withPath components: [String]) -> URL {
    guard var parts = URLComponents(url: baseURL, resolvingAgainstBaseURL: false) else { return baseURL }
    parts.path = components.isEmpty ? "" : "/" + components.joined(separator: "/")
    return parts.url ?? baseURL
  }
}
