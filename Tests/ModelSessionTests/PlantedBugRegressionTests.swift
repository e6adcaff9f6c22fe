import Foundation
import ModelSession
import Testing

/// Behaviours that once survived a planted bug: each test fails when its bug is back.
@Suite(.timeLimit(.minutes(10)))
struct PlantedBugRegressionTests {
  @Test func `a finished escape at the end of an unterminated string is kept`() throws {
    // The text is: quote, a, b, backslash, n — the escape is whole, the string is not.
    let newline = try GeneratedContent(partialJSON: "\"ab\\n")
    #expect(newline == GeneratedContent(kind: .string("ab\n")))
    #expect(!newline.isComplete)
    let accent = try GeneratedContent(partialJSON: "{\"k\": \"caf\\u00e9")
    #expect(accent[property: "k"] == GeneratedContent(kind: .string("café")))
    // An escape cut in the middle is left out until the rest arrives.
    #expect(try GeneratedContent(partialJSON: "\"ab\\") == GeneratedContent(kind: .string("ab")))
    #expect(try GeneratedContent(partialJSON: "\"ab\\u00") == GeneratedContent(kind: .string("ab")))
    var streaming = StreamingJSONParser()
    _ = try streaming.append("\"x\\t")
    #expect(streaming.content == GeneratedContent(kind: .string("x\t")))
  }

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
