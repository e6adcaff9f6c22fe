import AgentSkills
import Foundation
import Testing

/// `Codable` round trips of the AgentSkills types with a hand-written decoder:
/// every field set to a value other than its default comes back equal.
@Suite("AgentSkills Codable round trips", .timeLimit(.minutes(10))) struct AgentSkillsCodableRoundTripTests {
  @Test func `front matter with every field set comes back equal`() throws {
    let frontMatter = SkillFrontMatter(
      name: "pdf-tools", description: "Reads PDF files.", license: "MIT", compatibility: "Needs poppler",
      metadata: ["activation": "instructions", "allows-deactivation": "true"],
      allowedTools: ["Read", "Bash(pdftotext:*)"], allowsModelInvocation: false)
    let decoded = try JSONDecoder().decode(SkillFrontMatter.self, from: JSONEncoder().encode(frontMatter))
    #expect(decoded == frontMatter)
    #expect(decoded.license == "MIT")
    #expect(decoded.compatibility == "Needs poppler")
  }
}
