import Foundation
import ModelSession
import Testing

@Suite("Count range", .timeLimit(.minutes(10))) struct CountRangeTests {
  private struct Counted: Decodable {
    var count: Int?
    private enum CodingKeys: String, CodingKey { case count }
    init(from decoder: any Decoder) throws {
      count = try decoder.container(keyedBy: CodingKeys.self).decodeCountIfPresent(forKey: .count)
    }
  }

  @Test func `a count is a whole number from 0 to 2^53; text that is anything else is not one`() {
    #expect(CountRange.maximum == 9_007_199_254_740_992)
    for (text, accepted) in [
      ("0", 0), ("42", 42), ("9007199254740992", 9_007_199_254_740_992), ("9007199254740993", nil),
      ("9223372036854775807", nil), ("99999999999999999999999", nil), ("-1", nil), ("+1", nil), ("1.5", nil),
      ("1e3", nil), ("", nil), (" 1", nil), ("٣", nil),
    ] as [(String, Int?)] {
      #expect(CountRange.parse(text) == accepted, "\(text)")
    }
    #expect(CountRange.contains(0) && CountRange.contains(1 << 53))
    #expect(!CountRange.contains(-1) && !CountRange.contains((1 << 53) + 1) && !CountRange.contains(.max))
  }

  @Test func `every boundary value decodes as the count it is, or fails at its key saying what was found`()
    throws
  {
    for (text, accepted) in countBoundaryLiterals {
      let data = Data(#"{"count": \#(text)}"#.utf8)
      do {
        let decoded = try JSONDecoder().decode(Counted.self, from: data)
        #expect(decoded.count == accepted, "\(text) read as \(String(describing: decoded.count))")
      } catch let error as DecodingError {
        #expect(accepted == nil, "\(text) was refused: \(error)")
        // A number past what a double holds (1e400) may be the JSON parser's to report.
        if text == "1e400" { continue }
        guard case .dataCorrupted(let context) = error else {
          Issue.record("\(text): \(error)")
          continue
        }
        #expect(context.codingPath.map(\.stringValue) == ["count"], "\(text)")
        #expect(error.locatedDescription.hasPrefix("count: "), "\(error.locatedDescription)")
        #expect(error.locatedDescription.contains("not a whole number from 0 to 9007199254740992"))
      }
    }
  }

  @Test func `the message names the value found: a fraction, a negative, the top of Int`() throws {
    for (text, shown) in [("1.5", "1.5"), ("-5", "-5"), ("9223372036854775807", "9223372036854775807")] {
      let data = Data(#"{"count": \#(text)}"#.utf8)
      let error = try #require(throws: DecodingError.self) {
        try JSONDecoder().decode(Counted.self, from: data)
      }
      #expect(error.locatedDescription == "count: \(shown) is not a whole number from 0 to 9007199254740992")
    }
    #expect(try JSONDecoder().decode(Counted.self, from: Data(#"{"count": null}"#.utf8)).count == nil)
  }

  @Test func `sums, differences and products saturate at the ends of Int instead of trapping`() {
    #expect(Int.max.addingSaturated(1) == .max)
    #expect(Int.min.addingSaturated(-1) == .min)
    #expect(Int.max.addingSaturated(Int.min) == -1)
    #expect(Int.min.subtractingSaturated(1) == .min)
    #expect(Int.max.subtractingSaturated(-1) == .max)
    #expect(0.subtractingSaturated(Int.min) == .max)
    #expect(Int.max.multipliedSaturated(by: 3) == .max)
    #expect(Int.min.multipliedSaturated(by: 3) == .min)
    #expect(Int.min.multipliedSaturated(by: -1) == .max)
    #expect(Int.min.saturatedMagnitude == .max && (-5).saturatedMagnitude == 5)
    #expect([Int.max, 1, 2].saturatedSum() == .max)
    #expect([3, 4].saturatedSum() == 7)
    #expect(Int(saturating: 1e300) == .max && Int(saturating: -1e300) == .min)
    #expect(Int(saturating: .nan) == 0 && Int(saturating: 2.9) == 2 && Int(saturating: -2.9) == -2)
    #expect(Int(saturating: 0x1p63) == .max && Int(saturating: -0x1p63) == .min)
  }

  @Test func `usages at the top of Int add up to Int.max, and an unknown cached count stays unknown`() {
    let huge = GenerationUsage(
      input: .init(totalTokenCount: .max, cachedTokenCount: .max),
      output: .init(totalTokenCount: .max, reasoningTokenCount: .max))
    let sum = huge + huge + GenerationUsage(input: .init(totalTokenCount: 1, cachedTokenCount: 1))
    #expect(sum == huge)
    let unknown = huge + GenerationUsage(input: .init(totalTokenCount: 5))
    #expect(unknown.input.totalTokenCount == .max && unknown.input.reportedCachedTokenCount == nil)
  }

  @Test func `usage in a record refuses a negative, fractional or too large count at its key`() throws {
    for (field, json) in [
      ("input.cachedTokenCount", #"{"input":{"totalTokenCount":100,"cachedTokenCount":-5}}"#),
      ("input.totalTokenCount", #"{"input":{"totalTokenCount":9223372036854775807}}"#),
      ("output.totalTokenCount", #"{"output":{"totalTokenCount":1.5,"reasoningTokenCount":0}}"#),
      (
        "output.reasoningTokenCount",
        #"{"output":{"totalTokenCount":1,"reasoningTokenCount":-9223372036854775808}}"#
      ),
      ("inputTokenCount", #"{"inputTokenCount":-1}"#),
      ("cachedInputTokenCount", #"{"inputTokenCount":10,"cachedInputTokenCount":9007199254740993}"#),
    ] {
      let error = try #require(throws: DecodingError.self) {
        try JSONDecoder().decode(GenerationUsage.self, from: Data(json.utf8))
      }
      #expect(error.locatedDescription.hasPrefix("\(field): "), "\(error.locatedDescription)")
      #expect(error.locatedDescription.contains("is not a whole number from 0 to 9007199254740992"))
    }
    let largest = #"{"input":{"totalTokenCount":9007199254740992,"cachedTokenCount":9007199254740992}}"#
    let usage = try JSONDecoder().decode(GenerationUsage.self, from: Data(largest.utf8))
    #expect(usage.input.totalTokenCount == 1 << 53 && usage.input.cachedTokenCount == 1 << 53)
  }
}
