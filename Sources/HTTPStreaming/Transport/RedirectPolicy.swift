import Foundation

/// Which redirects a client follows.
///
/// Credentials stay with their origin: by default (``sameOrigin``) a client
/// follows at most five redirects whose target has the same scheme, host and
/// port as the endpoint, and a redirect to another origin fails with an
/// error that names the target (in `ChatCompletions`, a
/// `ChatCompletionsError` of kind `redirectRefused`). A redirect to anything
/// but `http` or `https`, a loop, or one redirect too many always fail.
///
/// 307 and 308 repeat the request with its method and body; 301, 302 and 303
/// turn a `POST` into a `GET` without a body (as browsers and most HTTP
/// clients do).
///
/// ```swift
/// var endpoint = EndpointConfiguration(baseURL: url, apiKey: key)
/// endpoint.redirectPolicy = .followCrossOriginWithoutCredentials
/// ```
public struct RedirectPolicy: Sendable, Hashable {
  /// The most redirects one request follows.
  public var maximumRedirects: Int

  /// Whether a redirect to another origin is followed (without the API key,
  /// `Authorization`, cookies and any other credential header) instead of failing.
  public var followsCrossOriginWithoutCredentials: Bool

  /// Creates a policy.
  public init(maximumRedirects: Int = 5, followsCrossOriginWithoutCredentials: Bool = false) {
    self.maximumRedirects = max(0, maximumRedirects)
    self.followsCrossOriginWithoutCredentials = followsCrossOriginWithoutCredentials
  }

  /// Up to five redirects within the endpoint's origin; another origin is an error. The default.
  public static let sameOrigin = RedirectPolicy()

  /// Up to five redirects; those to another origin are followed without credentials.
  public static let followCrossOriginWithoutCredentials = RedirectPolicy(
    followsCrossOriginWithoutCredentials: true)

  /// No redirect is followed: a 3xx answer is an error.
  public static let never = RedirectPolicy(maximumRedirects: 0)
}

/// Applies a ``RedirectPolicy`` to one request's chain of redirects.
struct RedirectChain {
  let policy: RedirectPolicy
  let origin: URL
  private(set) var visited: [URL]
  private(set) var crossedOrigin = false

  /// The statuses that redirect (with a `Location`).
  static let statuses: Set<Int> = [301, 302, 303, 307, 308]

  init(policy: RedirectPolicy, request: HTTPRequest) {
    self.policy = policy
    self.origin = request.url
    self.visited = [request.url]
  }

  /// The request to send next for a redirect answer of `request`, or the
  /// failure that refuses it.
  mutating func follow(
    _ request: HTTPRequest, status: Int, location: String
  ) throws(TransportFailure) -> HTTPRequest {
    guard let target = URL(string: location, relativeTo: request.url)?.absoluteURL,
      let scheme = target.scheme?.lowercased(), scheme == "http" || scheme == "https", target.host != nil
    else {
      throw .unsupportedRedirect(to: location)
    }
    let chain = (visited + [target]).map(\.absoluteString)
    if visited.contains(target) {
      throw .tooManyRedirects(count: visited.count - 1, chain: chain, loops: true)
    }
    if visited.count > policy.maximumRedirects {
      throw .tooManyRedirects(count: policy.maximumRedirects, chain: chain, loops: false)
    }
    if !Self.sameOrigin(target, origin) {
      guard policy.followsCrossOriginWithoutCredentials else {
        throw .crossOriginRedirect(from: request.url.absoluteString, to: target.absoluteString)
      }
      crossedOrigin = true
    }
    visited.append(target)
    var next = request
    next.url = target
    if status != 307 && status != 308 && request.method.uppercased() != "GET"
      && request.method.uppercased() != "HEAD"
    {
      next.method = "GET"
      next.body = nil
      next.headers["Content-Type"] = nil
      next.headers["Content-Length"] = nil
    }
    if crossedOrigin {
      for field in next.headers.fields where Self.isCredential(field.name) {
        next.headers[field.name] = nil
      }
    }
    return next
  }

  /// Whether two URLs have the same scheme, host and port (the default port when none is written).
  static func sameOrigin(_ left: URL, _ right: URL) -> Bool {
    func key(_ url: URL) -> (String, String, Int) {
      let scheme = url.scheme?.lowercased() ?? ""
      return (scheme, url.host?.lowercased() ?? "", url.port ?? (scheme == "https" ? 443 : 80))
    }
    return key(left) == key(right)
  }

  private static func isCredential(_ name: String) -> Bool {
    EndpointConfiguration.isSecretHeader(name) || name.lowercased() == "cookie"
  }
}
