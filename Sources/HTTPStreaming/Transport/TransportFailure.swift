import Foundation

/// What went wrong below HTTP: the errors a transport throws (besides
/// `CancellationError`), and the redirect refusals of the client.
///
/// `ErrorMapper` turns each into the public error; nothing outside the
/// module sees this type.
package enum TransportFailure: Error, Sendable, Hashable, CustomStringConvertible {
  /// The connection did not open within the connect timeout.
  case connectTimeout(seconds: TimeInterval, url: String)
  /// The request was sent, but no byte of the answer came within the first-byte timeout.
  case firstByteTimeout(seconds: TimeInterval, url: String)
  /// The answer had started, then no byte came within the idle timeout.
  case idleTimeout(seconds: TimeInterval, url: String)
  /// The connection could not be opened, or it broke.
  case connectionFailed(String)
  /// The TLS handshake failed (such as a certificate that does not verify).
  case tlsFailed(String)
  /// The server's bytes were not usable HTTP.
  case invalidResponse(String)
  /// A redirect to another origin (scheme, host or port), which the policy refuses.
  case crossOriginRedirect(from: String, to: String)
  /// A redirect to something other than `http` or `https`.
  case unsupportedRedirect(to: String)
  /// More redirects than the policy allows, or a redirect back to a URL already visited.
  case tooManyRedirects(count: Int, chain: [String], loops: Bool)
  /// A URL spelled so that libcurl and Foundation would read it differently
  /// (`EndpointURLSpelling`), refused before any request; the reason holds no user info.
  case ambiguousURL(reason: String)

  package var description: String {
    switch self {
    case .connectTimeout(let seconds, let url):
      "could not connect to \(url) within the \(ResponseLimits.describe(seconds: seconds)) connect timeout"
    case .firstByteTimeout(let seconds, let url):
      "\(url) sent no answer within the \(ResponseLimits.describe(seconds: seconds)) first-byte timeout"
    case .idleTimeout(let seconds, let url):
      "\(url) sent nothing for \(ResponseLimits.describe(seconds: seconds)) (the idle timeout) in the middle of its answer"
    case .connectionFailed(let message): message
    case .ambiguousURL(let reason): "refused before any request: \(reason)"
    case .tlsFailed(let message): message
    case .invalidResponse(let message): message
    case .crossOriginRedirect(let from, let to):
      "the server redirected \(from) to another origin, \(to); credentials are only sent to their origin, "
        + "so the redirect was not followed (RedirectPolicy.followCrossOriginWithoutCredentials follows it "
        + "without them)"
    case .unsupportedRedirect(let to):
      "the server redirected to \(to), which is not an http or https URL"
    case .tooManyRedirects(let count, let chain, let loops):
      (loops ? "redirect loop" : "more than \(count) redirects") + ": " + chain.joined(separator: " → ")
    }
  }
}
