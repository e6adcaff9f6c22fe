import Foundation
import Testing

@testable import ChatCompletions

/// ``ResponseLimits``' floors (values below 1 count as 1 byte, or as 0.001 s)
/// and how its bounds read in messages.
@Suite(.timeLimit(.minutes(10)))
struct ResponseLimitsTests {
  @Test func `byte bounds below 1 count as 1, and 1 and 2 stay as given`() {
    let zero = ResponseLimits(
      maximumLineBytes: 0, maximumEventBytes: 0, maximumStreamBytes: 0, maximumErrorBodyBytes: 0)
    #expect(zero.maximumLineBytes == 1 && zero.maximumEventBytes == 1)
    #expect(zero.maximumStreamBytes == 1 && zero.maximumErrorBodyBytes == 1)
    let negative = ResponseLimits(maximumLineBytes: -7, maximumErrorBodyBytes: -7)
    #expect(negative.maximumLineBytes == 1 && negative.maximumErrorBodyBytes == 1)
    let two = ResponseLimits(
      maximumLineBytes: 2, maximumEventBytes: 2, maximumStreamBytes: 2, maximumErrorBodyBytes: 2)
    #expect(two.maximumLineBytes == 2 && two.maximumEventBytes == 2)
    #expect(two.maximumStreamBytes == 2 && two.maximumErrorBodyBytes == 2)
  }

  @Test func `durations below a millisecond count as one, and a non-finite error-body limit as 10 s`() {
    let tiny = ResponseLimits(maximumStreamDuration: 0.0004, errorBodyTimeLimit: 0)
    #expect(tiny.maximumStreamDuration == 0.001 && tiny.errorBodyTimeLimit == 0.001)
    let atFloor = ResponseLimits(maximumStreamDuration: 0.001, errorBodyTimeLimit: 0.002)
    #expect(atFloor.maximumStreamDuration == 0.001 && atFloor.errorBodyTimeLimit == 0.002)
    #expect(ResponseLimits(errorBodyTimeLimit: .infinity).errorBodyTimeLimit == 10)
    #expect(ResponseLimits(errorBodyTimeLimit: .nan).errorBodyTimeLimit == 10)
  }

  @Test func `a byte bound reads in MiB or KiB only when it is a whole number of them`() {
    #expect(ResponseLimits.describe(bytes: 1 << 20) == "1 MiB")
    #expect(ResponseLimits.describe(bytes: 16 << 20) == "16 MiB")
    // 1 MiB + 1 KiB = 1,049,600 bytes = 1,025 KiB, not a whole MiB.
    #expect(ResponseLimits.describe(bytes: (1 << 20) + 1024) == "1025 KiB")
    // 1 MiB - 1 KiB = 1,047,552 bytes = 1,023 KiB: under 1 MiB.
    #expect(ResponseLimits.describe(bytes: (1 << 20) - 1024) == "1023 KiB")
    #expect(ResponseLimits.describe(bytes: 1024) == "1 KiB")
    #expect(ResponseLimits.describe(bytes: 1023) == "1023 bytes")
    // 1,536 bytes = 1.5 KiB: not a whole KiB.
    #expect(ResponseLimits.describe(bytes: 1536) == "1536 bytes")
    #expect(ResponseLimits.describe(bytes: (1 << 20) + 1) == "1048577 bytes")
  }
}
