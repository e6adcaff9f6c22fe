import Foundation

/// The one redaction pass of this module: every text about to leave it
/// (error messages, descriptions, dumps, and through the errors the session's
/// generation records) goes through ``apply(to:)`` or ``excerpt(of:limit:inputWasCut:)``,
/// always before it is cut to length.
///
/// It replaces with `<redacted>`:
/// - every secret the endpoint was configured with (see ``init(endpoint:)``),
///   in its plain, percent-encoded and JSON-escaped spellings;
/// - the user info of any URL in the text (`https://user:pass@host` →
///   `https://<redacted>@host`), known or not;
/// - the value of any query parameter whose name looks secret (``isSecretName(_:)``),
///   in any URL in the text (`?api_key=…`, `&access_token=…`).
///
/// The pass holds the secrets themselves, so its own description, debug
/// description and mirror show only how many it knows: dumping any value
/// that carries one (a client, an executor, a tokenizer, a chunk stream)
/// shows no secret.
package struct Redaction: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible,
  CustomReflectable
{
  /// What secrets are replaced with.
  package static let marker = "<redacted>"

  /// Secrets shorter than this are not searched for: they would match ordinary text.
  package static let minimumSecretLength = 4

  /// The secrets to hide, each in all its spellings, longest first.
  private(set) var secrets: [String]

  /// A pass that knows these secrets (and their spellings); short ones are ignored.
  package init(secrets: [String]) {
    var spellings: Set<String> = []
    for secret in secrets where secret.count >= Self.minimumSecretLength {
      spellings.formUnion(Self.spellings(of: secret))
    }
    self.secrets = spellings.sorted { ($0.count, $0) > ($1.count, $1) }
  }

  /// A pass that knows an endpoint's secrets: the API key; the value of every
  /// header whose name is secret (``isSecretName(_:)``), the credential after its
  /// scheme (`Bearer …`, `Basic …` and the user and password inside it), and
  /// each cookie's value; the base URL's user info and its secret query values.
  package init(endpoint: EndpointConfiguration) {
    var secrets: [String] = []
    if let apiKey = endpoint.apiKey {
      secrets.append(apiKey.revealed)
    }
    for field in endpoint.additionalHeaders.fields.fields where Self.isSecretName(field.name) {
      secrets += Self.credentials(inHeaderValue: field.value)
    }
    secrets += Self.credentials(in: endpoint.baseURL)
    self.init(secrets: secrets)
  }

  /// `Redaction(3 secrets)`: how many spellings it knows, never one of them.
  package var description: String { "Redaction(\(secrets.count) secrets)" }

  /// The same as ``description``.
  package var debugDescription: String { description }

  /// A mirror without children: the secrets stay out of `dump`.
  package var customMirror: Mirror { Mirror(self, children: ["secrets": "\(secrets.count), not shown"]) }

  /// The text with every known secret, URL user info and secret query value replaced.
  package func apply(to text: String) -> String {
    var result = text
    for secret in secrets where result.contains(secret) {
      result = result.replacingOccurrences(of: secret, with: Self.marker)
    }
    return Self.redactingURLParts(result)
  }

  /// At most `limit` characters of the redacted text, with `…` where it was cut.
  ///
  /// Redaction runs first, on a window a little longer than what is kept, so
  /// that a secret straddling the cut is replaced whole instead of leaking its
  /// first characters. When the text itself was already cut (`inputWasCut`,
  /// such as an error body stopped at its size limit), a start of a known
  /// secret at its very end is replaced too.
  package func excerpt(of text: String, limit: Int, inputWasCut: Bool = false) -> String {
    let margin = max(2_048, (secrets.first?.count ?? 0) + 1)
    let window = text.prefix(limit + margin)
    var redacted = apply(to: String(window))
    if inputWasCut || window.endIndex < text.endIndex {
      redacted = redactingSecretStart(atEndOf: redacted)
    }
    guard redacted.count > limit else { return redacted }
    return String(redacted.prefix(limit)) + "…"
  }

  /// A URL as text without its user info and with secret query values replaced,
  /// to say where a request went.
  package func describe(_ url: URL) -> String {
    apply(to: url.absoluteString)
  }

  /// Whether a header or query parameter name says its value is a credential:
  /// `Authorization`, `Proxy-Authorization`, `Cookie`, `Set-Cookie`, any name
  /// that contains `key`, `token`, `secret`, `auth`, `pass`, `session`,
  /// `signature` or `credential` in any case (`X-API-Key`,
  /// `Ocp-Apim-Subscription-Key`, `X-Auth`, `apikey`, `access_token`,
  /// `password`, `X-Amz-Credential`), and the short names `sig` (an Azure
  /// shared access signature) and `code` (an Azure Functions key).
  package static func isSecretName(_ name: String) -> Bool {
    let lowered = name.lowercased()
    return secretNames.contains(lowered) || secretNameParts.contains { lowered.contains($0) }
  }

  private static let secretNameParts = [
    "key", "token", "secret", "auth", "cookie", "pass", "session", "signature", "credential",
  ]

  private static let secretNames: Set<String> = ["sig", "code"]

  /// The credentials in a secret header's value: the whole value; the part
  /// after an auth scheme (`Bearer abc` → `abc`); for `Basic`, the decoded
  /// `user:password` and the password; for cookies, each cookie's value.
  package static func credentials(inHeaderValue value: String) -> [String] {
    let trimmed = value.trimmingCharacters(in: .whitespaces)
    var found = [trimmed]
    let words = trimmed.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
    if words.count == 2 {
      let token = words[1].trimmingCharacters(in: .whitespaces)
      found.append(token)
      if words[0].lowercased() == "basic", let decoded = Data(base64Encoded: token),
        let pair = String(data: decoded, encoding: .utf8)
      {
        found.append(pair)
        if let colon = pair.firstIndex(of: ":") {
          found.append(String(pair[pair.index(after: colon)...]))
        }
      }
    }
    for cookie in trimmed.split(separator: ";") {
      if let equals = cookie.firstIndex(of: "=") {
        found.append(cookie[cookie.index(after: equals)...].trimmingCharacters(in: .whitespaces))
      }
    }
    return found
  }

  /// The credentials in a URL: its password (and `user:password`), and the
  /// values of its secret-looking query parameters.
  package static func credentials(in url: URL) -> [String] {
    guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return [] }
    var found: [String] = []
    if let password = components.password {
      found.append(password)
      found.append((components.user ?? "") + ":" + password)
    }
    if let user = components.user, components.password == nil {
      found.append(user)  // A token given as the user name, as in https://<token>@host.
    }
    for item in components.queryItems ?? [] where isSecretName(item.name) {
      if let value = item.value {
        found.append(value)
      }
    }
    return found
  }

  /// A secret as it may appear in text: as given, percent-encoded, and escaped in a JSON string.
  private static func spellings(of secret: String) -> Set<String> {
    var spellings: Set<String> = [secret]
    if let encoded = secret.addingPercentEncoding(withAllowedCharacters: unreservedCharacters) {
      spellings.insert(encoded)
    }
    let escaped = secret.replacingOccurrences(of: "\\", with: "\\\\")
      .replacingOccurrences(of: "\"", with: "\\\"").replacingOccurrences(of: "/", with: "\\/")
    spellings.insert(escaped)
    return spellings.filter { $0.count >= minimumSecretLength }
  }

  /// The characters a URL never percent-encodes (RFC 3986 §2.3).
  private static let unreservedCharacters = CharacterSet(
    charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

  /// Replaces a start of a known secret (4 characters or more) that ends the text.
  private func redactingSecretStart(atEndOf text: String) -> String {
    for secret in secrets {
      let longest = min(secret.count - 1, text.count)
      guard longest >= Self.minimumSecretLength else { continue }
      for length in stride(from: longest, through: Self.minimumSecretLength, by: -1)
      where text.hasSuffix(secret.prefix(length)) {
        return String(text.dropLast(length)) + Self.marker
      }
    }
    return text
  }

  /// Replaces the user info of every `scheme://user@` in the text, and the
  /// value of every secret-looking `name=value` that follows `?`, `&` or `;`.
  private static func redactingURLParts(_ text: String) -> String {
    guard text.contains("@") || text.contains("=") else { return text }
    var result = text.replacing(userInfoPattern) { match in
      match.output.1 + marker + "@"
    }
    result = result.replacing(queryParameterPattern) { match in
      isSecretName(String(match.output.2)) ? match.output.1 + match.output.2 + "=" + marker : match.output.0
    }
    return result
  }

  /// `scheme://` then user info (no `/`, `@` or white space) then `@`; for
  /// `http` and `https` also the spellings libcurl reads as user info and
  /// Foundation does not: `http:user:pw@`, `http:/user:pw@`, `http:///user:pw@`.
  nonisolated(unsafe) private static let userInfoPattern =
    #/((?i:https?):/{0,3}|[A-Za-z][A-Za-z0-9+.\-]*://)[^/\s@<>"']+@/#

  /// `?name=value`, `&name=value` or `;name=value`; the value ends at `&`, `#`, white space or a quote.
  nonisolated(unsafe) private static let queryParameterPattern =
    #/([?&;])([A-Za-z0-9_.\-]+)=[^&#\s"'<>;]*/#
}
