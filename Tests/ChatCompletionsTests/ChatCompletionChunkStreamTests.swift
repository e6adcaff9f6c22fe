import ChatCompletions
import Foundation
import Testing

@Suite("The end of a chat completion stream", .timeLimit(.minutes(10))) struct ChatCompletionChunkStreamTests
{
  @Test func `data: [DONE] without the blank line after it ends the stream complete`() async throws {
    // No finish reason either: only the [DONE] line says the stream is complete.
    let outcome = try await streamThrough(InMemoryTransport(.stream(sseChunk("Hello") + "data: [DONE]\n")))
    #expect(outcome.error == nil)
    #expect(outcome.text == "Hello")
  }

  @Test func `data: [DONE] as the last bytes, without a line break, ends the stream complete`() async throws {
    let outcome = try await streamThrough(InMemoryTransport(.stream(sseChunk("Hello") + "data: [DONE]")))
    #expect(outcome.error == nil)
    #expect(outcome.text == "Hello")
  }

  @Test(arguments: ["data:  [DONE]\n\n", "data: [DONE] \n\n", "data:\t[DONE]\t\n\n"])
  func `whitespace around [DONE] is allowed`(ending: String) async throws {
    // Anything after [DONE] would be read as another chunk; the stream must stop there.
    let outcome = try await streamThrough(
      InMemoryTransport(.stream(sseChunk("Hello") + ending + "data: not json\n\n")))
    #expect(outcome.error == nil)
    #expect(outcome.text == "Hello")
  }

  @Test func `whitespace around a [DONE] the stream ends in, without a blank line, is allowed`() async throws
  {
    let outcome = try await streamThrough(InMemoryTransport(.stream(sseChunk("Hello") + "data:   [DONE]  ")))
    #expect(outcome.error == nil)
    #expect(outcome.text == "Hello")
  }

  @Test func `a partial JSON event after the finish reason is still a truncated stream`() async throws {
    let outcome = try await streamThrough(
      InMemoryTransport(.stream(sseChunk("Hello", finish: "stop") + #"data: {"id":"c","choi"#)))
    #expect(outcome.chatError?.kind == .truncatedStream)
  }

  @Test func `a cancelled reader gets CancellationError, though the rest of the stream is already read`()
    async throws
  {
    // The whole body, [DONE] included, arrives in one piece: after the first
    // chunk, the rest waits in the stream's buffer, and no further read from
    // the body (which would notice the cancel) is needed to reach the end.
    let body = sseChunk("Hello") + sseChunk(" there", finish: "stop") + "data: [DONE]\n\n"
    let stream = ChatCompletionChunkStream(
      body: AsyncThrowingStream { continuation in
        continuation.yield(Data(body.utf8))
        continuation.finish()
      })
    let reader = Task {
      var iterator = stream.makeAsyncIterator()
      let first = try await iterator.next()
      withUnsafeCurrentTask { $0?.cancel() }
      do {
        let after = try await iterator.next()
        return (first: first != nil, afterCancel: after == nil ? "end" : "chunk")
      } catch is CancellationError {
        return (first: first != nil, afterCancel: "CancellationError")
      }
    }
    let outcome = try await reader.value
    #expect(outcome.first)
    #expect(outcome.afterCancel == "CancellationError")
  }

  @Test func `a data line that only starts like [DONE] is not the end`() async throws {
    let outcome = try await streamThrough(InMemoryTransport(.stream(sseChunk("Hello") + "data: [DONE")))
    #expect(outcome.chatError?.kind == .truncatedStream)
  }
}
