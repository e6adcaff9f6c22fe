import CacheAnalysis
import Foundation
import ModelSession
import TestSupport
import Testing

@Suite("A response schema outside the prompt", .timeLimit(.minutes(10))) struct ResponseSchemaCauseTests {
  /// Two generations: plain, then with a schema (sent in the prompt or not) and other instructions.
  private func secondCause(schemaInPrompt: Bool) async throws -> CacheImpactCause.Kind? {
    let plain = record(sent: [instructionsEntry("You count."), promptEntry("one")])
    var guided = record(
      sent: [
        instructionsEntry("You count carefully."), promptEntry("one"), responseEntry("1"), promptEntry("two"),
      ],
      turn: 1)
    guided.schema = Int.generationSchema
    guided.contextOptions = ContextOptions(includeSchemaInPrompt: schemaInPrompt)
    return try await reports([plain, guided]).last?.cause.kind
  }

  @Test func `is not blamed for a divergence: the instructions that changed are`() async throws {
    // The server reads the schema before the instructions, so when it is in the prompt it is
    // the first difference; when it is not, the instructions are.
    #expect(try await secondCause(schemaInPrompt: true) == .responseSchemaChanged)
    #expect(try await secondCause(schemaInPrompt: false) == .instructionsChanged)
  }
}
