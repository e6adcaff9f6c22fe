import Foundation
import Testing

@testable import ChatCompletions
@testable import HTTPStreaming

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

  @Test
  func
    `the defaults: 16 MiB a line and an event, 256 MiB and an hour a stream, 1 MiB and 10 s an error body`()
    throws
  {
    let limits = ResponseLimits()
    // 16 MiB = 16 × 1,048,576 = 16,777,216 bytes; 256 MiB = 268,435,456; 1 MiB = 1,048,576.
    #expect(limits.maximumLineBytes == 16_777_216)
    #expect(limits.maximumEventBytes == 16_777_216)
    #expect(limits.maximumStreamBytes == 268_435_456)
    #expect(limits.maximumStreamDuration == 3_600)
    #expect(limits.maximumErrorBodyBytes == 1_048_576)
    #expect(limits.errorBodyTimeLimit == 10)
    // An endpoint starts with them.
    let endpoint = EndpointConfiguration(baseURL: try #require(URL(string: "http://localhost:8080/v1")))
    #expect(endpoint.responseLimits == limits)
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

  @Test func `a duration reads in whole seconds, or with at most three decimals, in every message`() {
    #expect(ResponseLimits.describe(seconds: 3600) == "3600 s")
    #expect(ResponseLimits.describe(seconds: 0.5) == "0.5 s")
    // Four significant digits are kept: 1234.5, not 1.23e+03.
    #expect(ResponseLimits.describe(seconds: 1234.5) == "1234.5 s")
    // 1/3 = 0.3333…: three decimals.
    #expect(ResponseLimits.describe(seconds: 1.0 / 3) == "0.333 s")
    // 0.1 + 0.2 = 0.30000000000000004 in binary; it reads as 0.3.
    #expect(ResponseLimits.describe(seconds: 0.1 + 0.2) == "0.3 s")
    // Under a millisecond, three decimals would read 0: the digits are kept.
    #expect(ResponseLimits.describe(seconds: 0.0001) == "0.0001 s")
    #expect(ResponseLimits.describe(seconds: .infinity) == "inf s")
    // The transport's and the body reader's messages read durations the same way.
    let idle = TransportFailure.idleTimeout(seconds: 1234.5, url: "http://h/v1").description
    #expect(idle == "http://h/v1 sent nothing for 1234.5 s (the idle timeout) in the middle of its answer")
    let connect = TransportFailure.connectTimeout(seconds: 2.5, url: "http://h/v1").description
    #expect(connect == "could not connect to http://h/v1 within the 2.5 s connect timeout")
    let firstByte = TransportFailure.firstByteTimeout(seconds: 90, url: "http://h/v1").description
    #expect(firstByte == "http://h/v1 sent no answer within the 90 s first-byte timeout")
    let body = ErrorBody(data: Data(), stop: .timeLimit(1234.5))
    #expect(
      body.stopNote == "the server was still sending the body after 1234.5 s, when the client stopped reading"
    )
  }
}
