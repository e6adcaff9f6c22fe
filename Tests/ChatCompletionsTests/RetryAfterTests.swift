import Foundation
import Testing

@testable import ChatCompletions
@testable import HTTPStreaming

private let now = Date(timeIntervalSince1970: 1_000_000)

private func resetDate(_ headers: [String: String]) -> Date? {
  RetryAfter.date(from: HTTPHeaderFields(headers), now: now)
}

@Suite(.timeLimit(.minutes(10))) struct RetryAfterTests {
  @Test(
    .timeLimit(.minutes(10)),
    arguments: [
      ["Retry-After": "inf"], ["Retry-After": "nan"], ["Retry-After": "1e400"], ["Retry-After": "-5"],
      ["Retry-After": "0x10"], ["Retry-After": "+7"], ["Retry-After": "7."],
      ["Retry-After": String(repeating: "9", count: 400)],
      ["retry-after-ms": "inf"], ["retry-after-ms": "1e400"], ["retry-after-ms": "-1500"],
      ["retry-after-ms": "NaN"],
    ])
  func `a Retry-After that is not a finite, non-negative decimal is ignored`(headers: [String: String]) {
    #expect(resetDate(headers) == nil)
  }

  @Test(.timeLimit(.minutes(10))) func `an ignored retry-after-ms falls back to Retry-After`() {
    #expect(resetDate(["retry-after-ms": "inf", "Retry-After": "12"]) == now.addingTimeInterval(12))
  }

  @Test(
    .timeLimit(.minutes(10)),
    arguments: [
      ["Retry-After": "999999999"], ["Retry-After": "3601"], ["retry-after-ms": "1000000000000000"],
      ["retry-after-ms": "99999999999999999999999"], ["Retry-After": "Fri, 31 Dec 9999 23:59:59 GMT"],
    ])
  func `a wait longer than an hour is clamped to an hour`(headers: [String: String]) throws {
    let date = try #require(resetDate(headers))
    #expect(date == now.addingTimeInterval(3_600))
    // What an app does with the date: a Duration, which traps on an infinite interval.
    let wait = Duration.seconds(date.timeIntervalSince(now))
    #expect(wait == .seconds(3_600))
  }

  @Test(.timeLimit(.minutes(10))) func `a date in the past means now, and fractions of a second are kept`() {
    #expect(resetDate(["Retry-After": "Thu, 01 Jan 1970 00:00:00 GMT"]) == now)
    #expect(resetDate(["Retry-After": " 2.5 "]) == now.addingTimeInterval(2.5))
    #expect(resetDate(["retry-after-ms": "250"]) == now.addingTimeInterval(0.25))
    #expect(resetDate(["Retry-After": "3600"]) == now.addingTimeInterval(3_600))
  }

  @Test(.timeLimit(.minutes(10)), arguments: [".5", "", " ", "1.2.3", "1,5", "١٢"])
  func `a delay without whole digits before an optional fraction is ignored`(value: String) {
    #expect(resetDate(["Retry-After": value]) == nil)
    #expect(RetryAfter.delay(value) == nil)
  }

  @Test(.timeLimit(.minutes(10))) func `retry-after-ms is divided by 1,000 exactly and clamped at an hour`() {
    // 1,500 ms = 1.5 s, not rounded to 1 or 2.
    #expect(resetDate(["retry-after-ms": "1500"]) == now.addingTimeInterval(1.5))
    // 3,600,000 ms = 3,600 s, exactly the hour; 3,600,001 ms = 3,600.001 s, clamped to it.
    #expect(resetDate(["retry-after-ms": "3600000"]) == now.addingTimeInterval(3_600))
    #expect(resetDate(["retry-after-ms": "3600001"]) == now.addingTimeInterval(3_600))
    #expect(resetDate(["retry-after-ms": "3599999"]) == now.addingTimeInterval(3_599.999))
    // A fraction just under the hour is kept; just over it is clamped.
    #expect(resetDate(["Retry-After": "3599.5"]) == now.addingTimeInterval(3_599.5))
    #expect(resetDate(["Retry-After": "3600.5"]) == now.addingTimeInterval(3_600))
    #expect(resetDate(["Retry-After": "0"]) == now)
  }

  @Test(.timeLimit(.minutes(10))) func `a valid retry-after-ms wins over a valid Retry-After`() {
    #expect(resetDate(["retry-after-ms": "1500", "Retry-After": "30"]) == now.addingTimeInterval(1.5))
    #expect(
      resetDate(["Retry-After": "Thu, 01 Jan 1970 00:00:00 GMT", "retry-after-ms": "250"])
        == now.addingTimeInterval(0.25))
  }
}
