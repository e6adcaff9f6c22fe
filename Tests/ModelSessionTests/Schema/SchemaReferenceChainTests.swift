import Foundation
import TestSupport
import Testing

@testable import ModelSession

/// A JSON Schema document whose root refers to `D0`, `D0` to `D1`, and so
/// on: `count` definitions, the last of which is `last`. A records file given
/// to `contextkit analyze` holds schemas like this one, written by anyone.
private func referenceChain(_ count: Int, last: String = ##"{"type":"string"}"##) -> String {
  var text = ##"{"$ref":"#/$defs/D0","$defs":{"##
  for index in 0..<count - 1 {
    text += ##""D\##(index)":{"$ref":"#/$defs/D\##(index + 1)"},"##
  }
  return text + ##""D\##(count - 1)":\##(last)}}"##
}

@Suite("reading a schema is linear in its references", .timeLimit(.minutes(10)))
struct SchemaReferenceChainTests {
  @Test func `a chain of 30,000 references reads, validates and writes back on a small stack`() throws {
    let document = try GeneratedContent(json: referenceChain(30_000))
    let outcome = DeadlineThread.run(stackSize: 512 << 10, deadline: .seconds(120)) { () -> String in
      do {
        let schema = try GenerationSchema(jsonSchema: document)
        try schema.validate(GeneratedContent("text"))
        _ = schema.jsonSchema.jsonString
        return schema.definitions.count == 30_000 ? "read" : "\(schema.definitions.count) definitions"
      } catch {
        return "\(error)"
      }
    }
    // Before: every definition walked the rest of the chain to look for a loop (30,000² / 2 steps).
    #expect(outcome == "read", "nil: not done within 120 s")
  }

  @Test func `a loop at the end of a long chain is found and named`() throws {
    // D0 → … → D1999 → D1998: the loop is between the last two.
    let document = try GeneratedContent(json: referenceChain(2_000, last: ##"{"$ref":"#/$defs/D1998"}"##))
    let outcome = DeadlineThread.run(stackSize: 512 << 10, deadline: .seconds(120)) { () -> String in
      do {
        _ = try GenerationSchema(jsonSchema: document)
        return "read"
      } catch {
        return "\(error)"
      }
    }
    let message = try #require(outcome, "not done within 120 s")
    #expect(message.contains("\"D1998\" refers back to itself"), "\(message)")
  }
}
