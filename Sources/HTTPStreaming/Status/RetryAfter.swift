import Foundation

/// Reads when a rate limit ends from a 429 response's headers.
///
/// `Retry-After` may be delay seconds (`"120"`) or an HTTP date
/// (`"Wed, 21 Oct 2015 07:28:00 GMT"`); `retry-after-ms`, sent by some hosted
/// endpoints, is milliseconds and wins when present.
///
/// The server's hint is untrusted input, so it is bounded:
/// - a delay is decimal digits with an optional fraction; anything else
///   (`inf`, `nan`, `1e400`, `-5`, `0x10`) is ignored, as if the header were absent;
/// - a delay or date further away than ``maximumDelay`` (one hour) is clamped
///   to it, and a date in the past means "now".
///
/// So a `resetDate` is always finite and at most an hour away: converting it
/// to a `Duration` or sleeping until it cannot trap or hang for days.
package enum RetryAfter {
  /// The longest wait a server can ask for: one hour. Longer hints are clamped to it.
  package static let maximumDelay: TimeInterval = 3_600

  package static func date(from headers: HTTPHeaderFields, now: Date) -> Date? {
    if let milliseconds = headers["retry-after-ms"].flatMap(delay) {
      return now.addingTimeInterval(clamped(milliseconds / 1_000))
    }
    guard let value = headers["retry-after"]?.trimmingCharacters(in: .whitespaces) else { return nil }
    if let seconds = delay(value) {
      return now.addingTimeInterval(clamped(seconds))
    }
    guard let date = httpDate(value), date.timeIntervalSince1970.isFinite else { return nil }
    return now.addingTimeInterval(clamped(date.timeIntervalSince(now)))
  }

  /// A delay written as decimal digits with an optional fraction (`"7"`,
  /// `"1.5"`), or `nil` for any other text; the value is finite and not negative.
  package static func delay(_ text: String) -> Double? {
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    let parts = trimmed.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
    guard let whole = parts.first, !whole.isEmpty, whole.allSatisfy(\.isASCIIDigit),
      parts.count == 1 || (!parts[1].isEmpty && parts[1].allSatisfy(\.isASCIIDigit))
    else { return nil }
    // Digits only: the value is finite unless it has hundreds of digits.
    guard let value = Double(trimmed), value.isFinite else { return nil }
    return value
  }

  /// A wait between zero and ``maximumDelay``.
  package static func clamped(_ seconds: TimeInterval) -> TimeInterval {
    guard seconds.isFinite else { return 0 }
    return min(max(seconds, 0), maximumDelay)
  }

  /// Parses the three date formats that HTTP allows (RFC 9110 §5.6.7).
  package static func httpDate(_ text: String) -> Date? {
    for format in [
      "EEE, dd MMM yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz", "EEE MMM d HH:mm:ss yyyy",
    ] {
      let formatter = DateFormatter()
      formatter.locale = Locale(identifier: "en_US_POSIX")
      formatter.timeZone = TimeZone(identifier: "GMT")
      formatter.dateFormat = format
      if let date = formatter.date(from: text) {
        return date
      }
    }
    return nil
  }
}

extension Character {
  fileprivate var isASCIIDigit: Bool {
    isASCII && isNumber
  }
}
