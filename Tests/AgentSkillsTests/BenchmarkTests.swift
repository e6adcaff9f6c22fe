import AgentSkills
import Foundation
import Testing

@Test func `the benchmark generates valid skills and measures them`() throws {
  let fixture = try SkillFixture()
  try AgentSkillsBenchmark.generateLibrary(at: fixture.root, count: 20, bodyBytes: 5 * 1024)
  let library = try SkillsLibrary(root: fixture.root, mode: .strict)
  #expect(library.loadedSkills.count == 20)
  #expect(library.loadedSkills.allSatisfy { $0.body.utf8.count >= 5 * 1024 - 400 && $0.links.count == 1 })
  #expect(library.loadedSkills.filter { $0.activation == .instructions }.count == 2)
  let result = try AgentSkillsBenchmark.measure(root: fixture.root, iterations: 1)
  #expect(result.skillCount == 20)
  #expect(result.totalBytes > 20 * 5 * 1024)
  #expect(result.description.hasPrefix("20 skills, "))
}
