import ModelSession
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

// These run inside async tests, on Swift concurrency's cooperative threads,
// where a recursive walk over 10,000 levels would overflow a small stack.

@Test func `deeply nested values compare and hash without recursion`() async throws {
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

@Test func `deeply nested values serialize and parse back`() async throws {
  let objects = nestedObjects(depth: 10_000)
  let text = objects.jsonString
  #expect(text.hasPrefix(#"{"a":{"a":"#))
  #expect(try GeneratedContent(json: text) == objects)
  // Pretty text grows with the square of the depth (indentation), so a shallower value.
  let shallower = nestedObjects(depth: 1_000)
  #expect(try GeneratedContent(json: shallower.jsonString(prettyPrinted: true)) == shallower)
}

@Test func `deeply nested values are destroyed without overflowing the stack`() async throws {
  for _ in 0..<3 {
    var parsed: GeneratedContent? = try GeneratedContent(json: nestedObjects(depth: 10_000).jsonString)
    #expect(parsed != nil)
    parsed = nil
    var arrays: GeneratedContent? = nestedArrays(depth: 10_000)
    #expect(arrays?.isComplete == true)
    arrays = nil
  }
}

@Test func `equality ignores completeness but not key order`() throws {
  let complete = try GeneratedContent(json: #"{"a":1}"#)
  let partial = try GeneratedContent(partialJSON: #"{"a":1"#)
  #expect(complete == partial)
  #expect(complete.hashValue == partial.hashValue)
  #expect(try GeneratedContent(json: #"{"a":1,"b":2}"#) != GeneratedContent(json: #"{"b":2,"a":1}"#))
  #expect(try GeneratedContent(json: "[1,2]") != GeneratedContent(json: "[1]"))
  #expect(try GeneratedContent(json: "0") == GeneratedContent(json: "-0"))
}
