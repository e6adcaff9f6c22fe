import Foundation
import ModelSession
import Testing

@Suite("EncodingStability's repetitions", .timeLimit(.minutes(10))) struct EncodingStabilityRepetitionsTests {
  /// How many times `check` encodes for `repetitions` (nil: the default).
  private func encodeCount(repetitions: Int?) throws -> Int {
    var count = 0
    let encode = { () -> Data in
      count += 1
      return Data("{}".utf8)
    }
    if let repetitions {
      try EncodingStability.check(repetitions: repetitions, encode)
    } else {
      try EncodingStability.check(encode)
    }
    return count
  }

  @Test func `it encodes exactly the number of repetitions asked, 24 by default`() throws {
    #expect(try encodeCount(repetitions: nil) == 24)
    #expect(try encodeCount(repetitions: 3) == 3)
    #expect(try encodeCount(repetitions: 2) == 2)
  }

  @Test(arguments: [1, 0, -4])
  func `fewer than 2 repetitions are raised to 2`(repetitions: Int) throws {
    #expect(try encodeCount(repetitions: repetitions) == 2)
  }

  @Test func `an encode that differs only at the last repetition is caught`() throws {
    var count = 0
    let error = try #require(throws: EncodingStabilityError.self) {
      try EncodingStability.check(repetitions: 5) { () -> Data in
        count += 1
        return Data(count == 5 ? "{ }".utf8 : "{}".utf8)
      }
    }
    #expect(error.repetition == 5)
    #expect(error.offset == 1)
  }
}
