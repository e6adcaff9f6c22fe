import ChatCompletions
import Foundation
import Testing

@Suite(.timeLimit(.minutes(10))) struct ChatCompletionsTimeoutsTests {
  /// `ChatCompletionsTimeouts(seconds)`: `seconds` for the first byte and
  /// between reads, and at most 15 s to connect.
  @Test(.timeLimit(.minutes(10)))
  func `one number gives its seconds to connect up to exactly 15, and 15 past that`() {
    #expect(
      ChatCompletionsTimeouts(14.5) == ChatCompletionsTimeouts(connect: 14.5, firstByte: 14.5, idle: 14.5))
    #expect(ChatCompletionsTimeouts(15) == ChatCompletionsTimeouts(connect: 15, firstByte: 15, idle: 15))
    #expect(
      ChatCompletionsTimeouts(15.5) == ChatCompletionsTimeouts(connect: 15, firstByte: 15.5, idle: 15.5))
    #expect(ChatCompletionsTimeouts(120) == ChatCompletionsTimeouts(connect: 15, firstByte: 120, idle: 120))
  }

  @Test(.timeLimit(.minutes(10)))
  func `the default timeouts are 15 s to connect and 60 s to the first byte and between reads`() {
    let timeouts = ChatCompletionsTimeouts()
    #expect(timeouts.connect == 15)
    #expect(timeouts.firstByte == 60)
    #expect(timeouts.idle == 60)
  }

  @Test(.timeLimit(.minutes(10)))
  func `a model's one timeout sets all three as one number does, replacing custom ones`() throws {
    let url = try #require(URL(string: "http://127.0.0.1:8080"))
    var model = ChatCompletionsLanguageModel(name: "m", baseURL: url, timeout: 5)
    #expect(model.timeouts == ChatCompletionsTimeouts(connect: 5, firstByte: 5, idle: 5))
    model.timeouts = ChatCompletionsTimeouts(connect: 1, firstByte: 2, idle: 3)
    model.timeout = 30
    #expect(model.timeouts == ChatCompletionsTimeouts(connect: 15, firstByte: 30, idle: 30))
    #expect(model.timeout == 30)
  }
}
