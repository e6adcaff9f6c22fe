import Foundation

#if canImport(CCurl)
import CCurl
#endif

/// One reading of a URL for every part of ContextKit: the URL a request
/// goes to must be spelled so that Foundation's `URL` (which validates,
/// redacts and prints it) and libcurl (which sends it) read the same host,
/// port and user info.
///
/// They disagree on spellings such as `http:/user:pw@host/`, `http:user:pw@host/`
/// and `http:///user:pw@host/`: Foundation reads no host and no user info
/// (so nothing is redacted), libcurl reads the host and sends the user and
/// password as `Authorization: Basic`. So a URL must be `http://` or
/// `https://`, then a host; and on Linux, libcurl's own parser
/// (`curl_url`) must read the same host, port, user and password as
/// Foundation. Anything else is refused before any request, with a message
/// that holds no user info.
package enum EndpointURLSpelling {
  /// Why the URL cannot be sent, or `nil` when it can. The reason never
  /// quotes the URL's user info.
  package static func problem(with url: URL) -> String? {
    let text = url.absoluteString
    guard let colon = text.firstIndex(of: ":") else {
      return "the URL has no scheme; write http:// or https:// and a host"
    }
    let scheme = text[..<colon].lowercased()
    guard scheme == "http" || scheme == "https" else {
      return "the URL's scheme is \(scheme), not http or https"
    }
    let rest = text[text.index(after: colon)...]
    guard rest.hasPrefix("//"), !rest.hasPrefix("///"), !rest.hasPrefix("//\\") else {
      return "the URL is spelled \(scheme): without exactly two slashes before its host "
        + "(write \(scheme)://host/…); its host and user info would be read differently by libcurl and Foundation"
    }
    guard let host = url.host, !host.isEmpty else {
      return "the URL has no host; write \(scheme)://host/…"
    }
    #if canImport(CCurl)
    if let curl = curlParts(text), curl != foundationParts(url) {
      return "libcurl and Foundation read the URL's host, port or user info differently; "
        + "write it as \(scheme)://[user:password@]host[:port]/…"
    }
    #endif
    return nil
  }
}

#if canImport(CCurl)
/// Host, port, user and password as one parser reads them (lowercased host, no brackets).
private struct URLParts: Equatable {
  var host: String
  var port: Int?
  var user: String?
  var password: String?
}

private func foundationParts(_ url: URL) -> URLParts {
  let components = URLComponents(url: url, resolvingAgainstBaseURL: false)
  return URLParts(
    host: (components?.percentEncodedHost ?? "").lowercased().trimmingCharacters(
      in: CharacterSet(charactersIn: "[]")),
    port: components?.port, user: components?.percentEncodedUser.flatMap { $0.isEmpty ? nil : $0 },
    password: components?.percentEncodedPassword)
}

private func curlParts(_ text: String) -> URLParts? {
  guard let handle = curl_url() else { return nil }
  defer { curl_url_cleanup(handle) }
  guard curl_url_set(handle, CURLUPART_URL, text, 0) == CURLUE_OK else { return nil }
  func part(_ which: CURLUPart) -> String? {
    var value: UnsafeMutablePointer<CChar>?
    guard curl_url_get(handle, which, &value, 0) == CURLUE_OK, let value else { return nil }
    defer { curl_free(value) }
    return String(cString: value)
  }
  return URLParts(
    host: (part(CURLUPART_HOST) ?? "").lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]")),
    port: part(CURLUPART_PORT).flatMap { Int($0) },
    user: part(CURLUPART_USER).flatMap { $0.isEmpty ? nil : $0 },
    password: part(CURLUPART_PASSWORD))
}
#endif
