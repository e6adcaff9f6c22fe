import Foundation
import ModelSession
import Synchronization
import Testing

/// Arrays nested `depth` levels around `null`.
private func nestedArrays(depth: Int) -> GeneratedContent {
  var value = GeneratedContent(kind: .null)
  for _ in 0..<depth { value = GeneratedContent(kind: .array([value])) }
  return value
}

/// Objects nested `depth` levels around `1`.
private func nestedObjects(depth: Int) -> GeneratedContent {
  var value = GeneratedContent(1)
  for _ in 0..<depth { value = GeneratedContent(orderedProperties: [("a", value)]) }
  return value
}

/// How many objects wrap each other down the `a` property, walked with a loop.
private func objectDepth(_ content: GeneratedContent) -> Int {
  var depth = 0
  var node = content
  while case .structure(let properties, _) = node.kind, let inner = properties["a"] {
    depth += 1
    node = inner
  }
  return depth
}

// These run inside async tests, on Swift concurrency's cooperative threads,
// where a recursive walk over 10,000 levels would overflow a small stack.

/// Runs `work` on a new thread whose stack is `stackSize` bytes (Apple
/// platforms give secondary threads 512 KB) and waits for it to finish.
private func onSmallStack(
  _ stackSize: Int = 512 * 1024, _ work: @escaping @Sendable () -> Void
) async {
  await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
    let thread = Thread {
      work()
      continuation.resume()
    }
    thread.stackSize = stackSize
    thread.start()
  }
}

@Suite(.timeLimit(.minutes(10))) struct DeepGeneratedContentTests {
  @Test(.timeLimit(.minutes(10))) func `deeply nested values compare and hash without recursion`()
    async throws
  {
    let first = nestedArrays(depth: 10_000)
    let second = nestedArrays(depth: 10_000)
    #expect(first == second)
    #expect(first.hashValue == second.hashValue)
    #expect(first != nestedArrays(depth: 9_999))
    let objects = nestedObjects(depth: 10_000)
    #expect(objects == nestedObjects(depth: 10_000))
    #expect(objects.hashValue == nestedObjects(depth: 10_000).hashValue)
    #expect(Set([first, second, objects]).count == 2)
  }

  @Test(.timeLimit(.minutes(10))) func `deeply nested values serialize and parse back`() async throws {
    let objects = nestedObjects(depth: 10_000)
    let text = objects.jsonString
    #expect(text.hasPrefix(#"{"a":{"a":"#))
    #expect(try GeneratedContent(json: text) == objects)
    // Pretty text grows with the square of the depth (indentation), so a shallower value.
    let shallower = nestedObjects(depth: 1_000)
    #expect(try GeneratedContent(json: shallower.jsonString(prettyPrinted: true)) == shallower)
  }

  @Test(.timeLimit(.minutes(10))) func `deeply nested values are destroyed without overflowing the stack`()
    async throws
  {
    for _ in 0..<3 {
      var parsed: GeneratedContent? = try GeneratedContent(json: nestedObjects(depth: 10_000).jsonString)
      // The parse kept every level (counted with a loop, not the code under test), so freeing it frees 10,000.
      #expect(parsed.map(objectDepth) == 10_000)
      parsed = nil
      var arrays: GeneratedContent? = nestedArrays(depth: 10_000)
      #expect(arrays?.isComplete == true)
      arrays = nil
    }
  }

  @Test(.timeLimit(.minutes(10))) func `equality ignores completeness but not key order`() throws {
    let complete = try GeneratedContent(json: #"{"a":1}"#)
    let partial = try GeneratedContent(partialJSON: #"{"a":1"#)
    #expect(complete == partial)
    #expect(complete.hashValue == partial.hashValue)
    #expect(try GeneratedContent(json: #"{"a":1,"b":2}"#) != GeneratedContent(json: #"{"b":2,"a":1}"#))
    #expect(try GeneratedContent(json: "[1,2]") != GeneratedContent(json: "[1]"))
    #expect(try GeneratedContent(json: "0") == GeneratedContent(json: "-0"))
  }

  @Test(.timeLimit(.minutes(10)))
  func `a 10,000-level value is built, compared, encoded and dropped on a 512 KB stack`() async throws {
    let outcome = Mutex<[String]>([])
    await onSmallStack {
      var arrays: GeneratedContent? = nestedArrays(depth: 10_000)
      var objects: GeneratedContent? = nestedObjects(depth: 10_000)
      var parsed: GeneratedContent? = try? GeneratedContent(json: objects?.jsonString ?? "")
      let equal = parsed == objects && arrays != nestedArrays(depth: 9_999)
      let call = Transcript.ToolCall(
        id: "c", toolName: "deep", arguments: objects ?? GeneratedContent(kind: .null))
      var transcript: Transcript? = Transcript(entries: [.toolCalls(Transcript.ToolCalls(id: "t", [call]))])
      let encoded = (try? JSONEncoder().encode(transcript)).map(\.count) ?? 0
      let decoded = (try? JSONEncoder().encode(transcript)).flatMap {
        try? JSONDecoder().decode(Transcript.self, from: $0)
      }
      let roundTrips = decoded == transcript
      arrays = nil
      objects = nil
      parsed = nil
      transcript = nil
      outcome.withLock {
        $0 = ["equal: \(equal)", "encoded: \(encoded > 60_000)", "round trip: \(roundTrips)"]
      }
    }
    #expect(outcome.withLock { $0 } == ["equal: true", "encoded: true", "round trip: true"])
  }
}
