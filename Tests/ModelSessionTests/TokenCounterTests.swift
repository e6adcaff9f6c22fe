import Foundation
import ModelSession
import TestSupport
import Testing

@Suite("Estimating token counter", .timeLimit(.minutes(10))) struct TokenCounterTests {
  @Test func `text is about four bytes a token, rounded up, plus framing`() {
    let counter = EstimatingTokenCounter(cache: TokenCountCache())
    #expect(counter.tokenCount(of: Make.text(String(repeating: "a", count: 9))) == 3)
    #expect(counter.tokenCount(of: Make.prompt("p", String(repeating: "a", count: 8))) == 2 + 4)
    #expect(counter.tokens(forByteCount: 0) == 0)
    // Bytes, not characters: five "é" are 10 bytes of UTF-8, 3 tokens (5 characters would be 2).
    #expect(counter.tokenCount(of: Make.text(String(repeating: "é", count: 5))) == 3)
  }

  @Test func `an exact multiple of bytesPerToken is not rounded up further`() {
    let counter = EstimatingTokenCounter(bytesPerToken: 3, cache: TokenCountCache())
    // 5 / 3 = 1.67 → 2; 6 / 3 = 2 exactly → 2; 7 / 3 = 2.33 → 3.
    #expect(counter.tokens(forByteCount: 5) == 2)
    #expect(counter.tokens(forByteCount: 6) == 2)
    #expect(counter.tokens(forByteCount: 7) == 3)
  }

  @Test func `settings below their minimum are raised to it, and the minimum itself is kept`() {
    // The minimum: 1 byte a token (7 bytes → 7 tokens), 0 tokens an image and a frame.
    let atMinimum = EstimatingTokenCounter(
      bytesPerToken: 1, imageTokenCount: 0, framingTokenCount: 0, cache: TokenCountCache())
    #expect(atMinimum.bytesPerToken == 1)
    #expect(atMinimum.tokens(forByteCount: 7) == 7)
    for below in [0, -3] {
      let counter = EstimatingTokenCounter(
        bytesPerToken: below, imageTokenCount: below - 1, framingTokenCount: below - 1,
        cache: TokenCountCache())
      #expect(counter.bytesPerToken == 1)
      #expect(counter.imageTokenCount == 0)
      #expect(counter.framingTokenCount == 0)
      #expect(counter.tokens(forByteCount: 7) == 7)
    }
  }

  @Test func `an image costs a fixed amount whatever its size`() {
    let counter = EstimatingTokenCounter(imageTokenCount: 500, framingTokenCount: 0, cache: TokenCountCache())
    let small = Make.image("i1")
    let big = Transcript.Entry.prompt(
      Transcript.Prompt(
        id: "i2",
        segments: [
          Make.text("what is this?"),
          .attachment(
            Transcript.AttachmentSegment(
              content: .image(Transcript.ImageAttachment(data: Data(count: 1_000_000), mimeType: "image/png"))
            )),
        ]))
    #expect(counter.tokenCount(of: small) == counter.tokenCount(of: big))
    #expect(counter.tokenCount(of: small) == 500 + 4)
  }

  @Test func `an image's label is counted on top of its fixed cost`() {
    let counter = EstimatingTokenCounter(imageTokenCount: 500, framingTokenCount: 0, cache: TokenCountCache())
    let image = Transcript.ImageAttachment(data: Data([1]), mimeType: "image/png")
    let unlabelled = Transcript.Segment.attachment(
      Transcript.AttachmentSegment(id: "a", content: .image(image)))
    let labelled = Transcript.Segment.attachment(
      Transcript.AttachmentSegment(id: "b", content: .image(image), label: "A red bicycle"))
    #expect(counter.tokenCount(of: unlabelled) == 500)
    // "A red bicycle" is 13 bytes: 4 tokens.
    #expect(counter.tokenCount(of: labelled) == 504)
  }

  @Test func `a custom segment counts by the length of its JSON form`() {
    let counter = EstimatingTokenCounter(framingTokenCount: 0, cache: TokenCountCache())
    // {"id":"c1","url":"a.example"} is 29 bytes (the key order does not change it): 8 tokens.
    #expect(counter.tokenCount(of: .custom(Citation(id: "c1", url: "a.example"))) == 8)
  }

  @Test func `a tool output counts its tool's name and its segments`() {
    let counter = EstimatingTokenCounter(framingTokenCount: 0, cache: TokenCountCache())
    // "weather" is 7 bytes (2 tokens) and "21°C" 5 bytes (2 tokens).
    #expect(counter.tokenCount(of: Make.output("c")) == 4)
  }

  @Test func `a tool call's name and arguments are one text, rounded up once`() {
    let counter = EstimatingTokenCounter(framingTokenCount: 0, cache: TokenCountCache())
    let call = Transcript.ToolCall(id: "c", toolName: "clock", arguments: GeneratedContent(properties: [:]))
    // "clock" (5 bytes) + {} (2 bytes) = 7 bytes: 2 tokens (rounded apart, 2 + 1 would be 3).
    #expect(counter.tokenCount(of: .toolCalls(Transcript.ToolCalls(id: "t", [call]))) == 2)
  }

  @Test func `tool calls count by their JSON text`() {
    let counter = EstimatingTokenCounter(framingTokenCount: 0, cache: TokenCountCache())
    // "weather" (7 bytes) + {"city":"Oslo"} (15 bytes) = 22 bytes → 6 tokens.
    #expect(counter.tokenCount(of: Make.calls("t", ["c"])) == 6)
    #expect(counter.tokenCount(of: Make.calls("t", ["c", "d"])) == 12)
  }

  @Test func `a request counts entries, tools not already listed, and the schema`() throws {
    let counter = EstimatingTokenCounter(cache: TokenCountCache())
    let tool = Transcript.ToolDefinition(
      name: "lookup", description: "Looks things up.", parameters: String.generationSchema)
    let entries = [Make.instructions(), Make.prompt("p1")]
    let plain = LanguageModelExecutorGenerationRequest(
      transcript: Transcript(entries: entries), enabledToolDefinitions: [])
    let withTool = LanguageModelExecutorGenerationRequest(
      transcript: Transcript(entries: entries), enabledToolDefinitions: [tool])
    let withSchema = LanguageModelExecutorGenerationRequest(
      transcript: Transcript(entries: entries), enabledToolDefinitions: [tool],
      schema: String.generationSchema)
    let listed = LanguageModelExecutorGenerationRequest(
      transcript: Transcript(entries: [
        .instructions(
          Transcript.Instructions(
            id: "instructions", segments: [Make.text("Be helpful.")], toolDefinitions: [tool])),
        Make.prompt("p1"),
      ]),
      enabledToolDefinitions: [tool])
    // By hand, at 4 bytes a token rounded up and 4 framing tokens an entry or tool:
    // "Be helpful." and "question p1" are 11 bytes (3 tokens) each: 7 + 7 = 14.
    #expect(counter.tokenCount(of: plain) == 14)
    // The tool: "lookup" (6 bytes) + "Looks things up." (16) + its schema {"type":"string"} (17)
    // = 39 bytes, 10 tokens, + 4 framing = 14.
    #expect(
      try String(decoding: JSONEncoder().encode(String.generationSchema), as: UTF8.self)
        == #"{"type":"string"}"#)
    #expect(counter.tokenCount(of: withTool) == 14 + 14)
    // The schema: 17 bytes, 5 tokens, no framing.
    #expect(counter.tokenCount(of: withSchema) == 14 + 14 + 5)
    // A tool the instructions already list is counted once, with the instructions.
    #expect(counter.tokenCount(of: listed) == 14 + 14)
  }

  @Test
  func `counts that need JSON are cached by entry id, so a growing transcript only encodes what is new`() {
    let cache = TokenCountCache()
    let counter = EstimatingTokenCounter(cache: cache)
    var entries = [Make.instructions()] + (1...50).flatMap { Make.toolTurn($0, callCount: 2) }
    let first = counter.tokenCounts(of: entries)
    #expect(cache.count == 50)  // the tool-calls entries; text is cheaper to count than to look up
    entries += Make.toolTurn(51)
    let second = counter.tokenCounts(of: entries)
    #expect(cache.count == 51)
    #expect(Array(second.prefix(first.count)) == first)
    #expect(second == entries.map { counter.tokenCount(of: $0) })
  }

  @Test func `a cached count is reused even if the entry changed, which is why ids must change with content`()
  {
    let cache = TokenCountCache()
    let counter = EstimatingTokenCounter(cache: cache)
    let short = counter.tokenCounts(of: [Make.calls("same", ["a"])])
    let long = counter.tokenCounts(of: [Make.calls("same", ["a", "b", "c"])])
    #expect(short == long)
  }

  @Test func `instructions are counted afresh, because the session keeps their id while they change`() {
    let counter = EstimatingTokenCounter(cache: TokenCountCache())
    let short = counter.tokenCounts(of: [Make.instructions("hi")])
    let long = counter.tokenCounts(of: [Make.instructions(String(repeating: "x", count: 400))])
    #expect(short[0] < long[0])
  }

  @Test func `the cache is bounded and keeps ids it sees again`() {
    let cache = TokenCountCache(capacity: 2)
    cache.store([("a", 1), ("b", 2)])
    #expect(cache.counts(for: ["a"]) == [1])
    cache.store([("c", 3)])
    #expect(cache.counts(for: ["a", "b", "c"]) == [1, 2, 3])
    cache.store([("d", 4), ("e", 5), ("f", 6)])
    #expect(cache.count <= 4)
    #expect(cache.counts(for: ["f"]) == [6])
  }

  @Test func `an id looked up again is remembered once, so the count stays the number of ids`() {
    let cache = TokenCountCache(capacity: 2)
    cache.store([("a", 1), ("b", 2)])
    // The newer generation was full: a and b become the older one, c starts the newer one.
    cache.store([("c", 3)])
    #expect(cache.count == 3)
    // a moves to the newer generation: still three ids, not a fourth copy of a.
    #expect(cache.counts(for: ["a"]) == [1])
    #expect(cache.count == 3)
    // b is stored again with another count: the newer generation (c, a) was full, so it becomes
    // the older one and b starts the newer one; b's old count is gone.
    cache.store([("b", 20)])
    #expect(cache.count == 3)
    #expect(cache.counts(for: ["a", "b", "c"]) == [1, 20, 3])
  }

  @Test func `a cache holds 100,000 ids a generation by default, and a capacity below 1 is taken as 1`() {
    #expect(TokenCountCache().capacity == 100_000)
    for below in [0, -5] { #expect(TokenCountCache(capacity: below).capacity == 1) }
    #expect(TokenCountCache(capacity: 1).capacity == 1)
    #expect(TokenCountCache(capacity: 2).capacity == 2)
    // A capacity of 1 still remembers the id just stored, and the one before it.
    let one = TokenCountCache(capacity: 0)
    one.store([("a", 1)])
    one.store([("b", 2)])
    #expect(one.counts(for: ["a", "b"]) == [1, 2])
  }

  @Test func `the estimate's defaults: 4 bytes a token, 768 tokens an image, 4 tokens of framing`() {
    let counter = EstimatingTokenCounter(cache: TokenCountCache())
    #expect(counter.bytesPerToken == 4)
    #expect(counter.imageTokenCount == 768)
    #expect(counter.framingTokenCount == 4)
  }

  @Test func `counters with the same settings share one cache`() {
    #expect(EstimatingTokenCounter().cache === EstimatingTokenCounter().cache)
    #expect(EstimatingTokenCounter().cache !== EstimatingTokenCounter(bytesPerToken: 3).cache)
  }

  @Test func `counters that differ only in framing do not give each other their cached counts`() {
    // The shared caches are process-wide: an id of its own keeps other tests' counts out.
    let calls = Make.calls("framing-\(UUID().uuidString)", ["c"])
    // "weather" + {"city":"Oslo"} = 22 bytes → 6 tokens; framing 4 adds 4 for the entry and 4 for the call.
    #expect(EstimatingTokenCounter(framingTokenCount: 0).tokenCounts(of: [calls]) == [6])
    #expect(EstimatingTokenCounter(framingTokenCount: 4).tokenCounts(of: [calls]) == [14])
    #expect(EstimatingTokenCounter(framingTokenCount: 0).tokenCounts(of: [calls]) == [6])
  }

  @Test func `counters that differ only in image cost do not give each other their cached counts`() {
    // A prompt with structured content goes through the cache: "hi" as JSON ("hi", 4 bytes) is 1 token.
    let prompt = Transcript.Entry.prompt(
      Transcript.Prompt(
        id: "image-cost-\(UUID().uuidString)",
        segments: [
          .structure(Transcript.StructuredSegment(id: "s", content: GeneratedContent(kind: .string("hi")))),
          .attachment(
            Transcript.AttachmentSegment(
              id: "a", content: .image(Transcript.ImageAttachment(data: Data([1]), mimeType: "image/png")))),
        ]))
    #expect(
      EstimatingTokenCounter(imageTokenCount: 100, framingTokenCount: 0).tokenCounts(of: [prompt]) == [101])
    #expect(
      EstimatingTokenCounter(imageTokenCount: 200, framingTokenCount: 0).tokenCounts(of: [prompt]) == [201])
  }
}

extension TokenCounterTests {
  @Test func `the token-count cache keeps an id that is looked up again`() {
    // Two generations of two ids: storing a third id retires the first two to the older generation.
    let cache = TokenCountCache(capacity: 2)
    cache.store([(id: "a", count: 1), (id: "b", count: 2), (id: "c", count: 3)])
    // Looking `a` up brings it back to the newer generation…
    #expect(cache.counts(for: ["a"]) == [1])
    // …so after two more ids, `a` is still there and `b` (never looked up) is not.
    cache.store([(id: "d", count: 4), (id: "e", count: 5)])
    #expect(cache.counts(for: ["a", "b", "e"]) == [1, nil, 5])
  }
}
