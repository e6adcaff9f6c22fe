import Foundation
import Testing

@testable import ChatCompletions
@testable import HTTPStreaming

/// A complete stream in two pieces: one chunk of content, then the finish and `[DONE]`.
private let firstPiece = sseChunk("a")
private let secondPiece = sseChunk(finish: "stop") + "data: [DONE]\n\n"

/// Reads the two pieces under a total bound; returns the contents read and the error.
private func read(maximumStreamBytes: Int) async -> (contents: [String], error: ChatCompletionsError?) {
  let body = AsyncThrowingStream<Data, any Error> { continuation in
    continuation.yield(Data(firstPiece.utf8))
    continuation.yield(Data(secondPiece.utf8))
    continuation.finish()
  }
  let stream = ChatCompletionChunkStream(
    body: body, limits: ResponseLimits(maximumStreamBytes: maximumStreamBytes))
  var contents: [String] = []
  do {
    for try await chunk in stream {
      contents.append(chunk.choices.first?.delta.content ?? "")
    }
  } catch {
    return (contents, error as? ChatCompletionsError)
  }
  return (contents, nil)
}

@Suite(.timeLimit(.minutes(10)))
struct StreamByteBoundTests {
  /// The stream's size: the bytes of both pieces, counted from the test's own text.
  private let total = firstPiece.utf8.count + secondPiece.utf8.count

  @Test func `a stream of exactly maximumStreamBytes is read whole`() async {
    let outcome = await read(maximumStreamBytes: total)
    #expect(outcome.error == nil, "\(String(describing: outcome.error))")
    #expect(outcome.contents == ["a", ""])
  }

  @Test func `a stream one byte past maximumStreamBytes fails after the chunks before the bound`() async {
    let outcome = await read(maximumStreamBytes: total - 1)
    #expect(outcome.error?.kind == .limitExceeded, "\(String(describing: outcome.error))")
    #expect(outcome.error?.message.contains("maximumStreamBytes") == true)
    // The first piece is within the bound and its chunk is delivered; the second crosses it.
    #expect(outcome.contents == ["a"])
  }
}
