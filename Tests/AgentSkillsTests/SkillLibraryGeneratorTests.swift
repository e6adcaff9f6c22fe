import AgentSkills
import Foundation
import TestSupport
import Testing

@Suite(.timeLimit(.minutes(10))) struct SkillLibraryGeneratorTests {
  @Test(.timeLimit(.minutes(10))) func `the library generator writes valid skills`() throws {
    let fixture = try SkillFixture()
    try SkillLibraryGenerator.generateLibrary(at: fixture.root, count: 20, bodyBytes: 5 * 1024)
    let library = try SkillsLibrary(root: fixture.root, mode: .strict)
    #expect(library.loadedSkills.count == 20)
    #expect(library.loadedSkills.allSatisfy { $0.body.utf8.count >= 5 * 1024 - 400 && $0.links.count == 1 })
    #expect(library.loadedSkills.filter { $0.activation == .instructions }.count == 2)
  }
}
