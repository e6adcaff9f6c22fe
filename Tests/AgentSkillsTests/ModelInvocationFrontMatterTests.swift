import AgentSkills
import Foundation
import Testing

@Suite("disable-model-invocation in front matter", .timeLimit(.minutes(10)))
struct ModelInvocationFrontMatterTests {
  @Test func `at the top level it is read, with a warning when lenient and an error when strict`() throws {
    let fixture = try SkillFixture()
    let folder = try fixture.skill(
      "deploying", frontMatter: "name: deploying\ndescription: Deploys.\ndisable-model-invocation: true")
    let skill = try SkillLoader().load(folder: folder)
    #expect(!skill.allowsModelInvocation)
    #expect(!skill.frontMatter.allowsModelInvocation)
    #expect(skill.diagnostics.map(\.severity) == [.warning])
    #expect(skill.diagnostics.first?.line == 4)
    #expect(skill.diagnostics.first?.column == 1)
    #expect(
      skill.diagnostics.first?.message.hasPrefix("disable-model-invocation is not an Agent Skills field")
        == true)
    let error = #expect(throws: SkillLoadingError.self) {
      try SkillLoader(mode: .strict).load(folder: folder)
    }
    #expect(error?.diagnostic.severity == .error)
    #expect(error?.diagnostic.line == 4)
    #expect(error?.diagnostic.message.contains("write it under metadata") == true)
  }

  @Test func `under metadata it is valid in strict mode`() throws {
    let fixture = try SkillFixture()
    let hidden = try fixture.skill(
      "deploying",
      frontMatter: "name: deploying\ndescription: Deploys.\nmetadata:\n  disable-model-invocation: \"true\"")
    let skill = try SkillLoader(mode: .strict).load(folder: hidden)
    #expect(!skill.allowsModelInvocation)
    #expect(skill.diagnostics.isEmpty)

    let shown = try fixture.skill(
      "shown",
      frontMatter: "name: shown\ndescription: Shown.\nmetadata:\n  disable-model-invocation: \"false\"")
    #expect(try SkillLoader(mode: .strict).load(folder: shown).allowsModelInvocation)
    let plain = try fixture.skill("plain")
    #expect(try SkillLoader(mode: .strict).load(folder: plain).allowsModelInvocation)
  }

  @Test func `a value other than true or false is questionable, and says where`() throws {
    let fixture = try SkillFixture()
    let top = try fixture.skill(
      "top", frontMatter: "name: top\ndescription: Ok.\ndisable-model-invocation: sometimes")
    let typeError = inspect(top, mode: .strict).diagnostics.first {
      $0.message.hasPrefix("disable-model-invocation must be")
    }
    #expect(typeError?.message == "disable-model-invocation must be true or false, not a string")
    #expect(typeError?.severity == .error)
    #expect(typeError?.line == 4)
    #expect(typeError?.column == 27)
    #expect(inspect(top).skill?.allowsModelInvocation == true)

    let nested = try fixture.skill(
      "nested", frontMatter: "name: nested\ndescription: Ok.\nmetadata:\n  disable-model-invocation: \"yes\"")
    #expect(
      errors(inspect(nested, mode: .strict)) == [
        "metadata.disable-model-invocation is \"yes\"; use \"true\" or \"false\""
      ])
    #expect(inspect(nested).diagnostics.first?.line == 5)
  }

  @Test func `both places must agree`() throws {
    let fixture = try SkillFixture()
    let folder = try fixture.skill(
      "both",
      frontMatter:
        "name: both\ndescription: Ok.\ndisable-model-invocation: true\nmetadata:\n  disable-model-invocation: \"false\""
    )
    #expect(
      inspect(folder).diagnostics.filter { $0.message.hasPrefix("disable-model-invocation is true") }.map(
        \.message)
        == ["disable-model-invocation is true here but \"false\" under metadata; keep one"])
    #expect(inspect(folder).skill?.allowsModelInvocation == false)
  }

  @Test func `front matter written before the field existed still decodes`() throws {
    let json = #"{"name":"a","description":"b","metadata":{},"allowedTools":[]}"#
    let decoded = try JSONDecoder().decode(SkillFrontMatter.self, from: Data(json.utf8))
    #expect(decoded.allowsModelInvocation)
    let hidden = SkillFrontMatter(name: "a", description: "b", allowsModelInvocation: false)
    let roundTrip = try JSONDecoder().decode(SkillFrontMatter.self, from: JSONEncoder().encode(hidden))
    #expect(roundTrip == hidden)
  }
}
