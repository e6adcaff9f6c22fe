import Foundation

/// Reads when a rate limit ends from a 429 response's headers.
///
/// `Retry-After` may be delay seconds (`"120"`) or an HTTP date
/// (`"Wed, 21 Oct 2015 07:28:00 GMT"`); `retry-after-ms`, sent by some hosted
/// endpoints, is milliseconds and wins when present.
enum RetryAfter {
  static func date(from headers: HTTPHeaderFields, now: Date) -> Date? {
    if let milliseconds = headers["retry-after-ms"].flatMap({
      Double($0.trimmingCharacters(in: .whitespaces))
    }),
      milliseconds >= 0
    {
      return now.addingTimeInterval(milliseconds / 1_000)
    }
    guard let value = headers["retry-after"]?.trimmingCharacters(in: .whitespaces) else { return nil }
    if let seconds = Double(value), seconds >= 0 {
      return now.addingTimeInterval(seconds)
    }
    return httpDate(value)
  }

  /// Parses the three date formats that HTTP allows (RFC 9110 §5.6.7).
  static func httpDate(_ text: String) -> Date? {
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
