import AgentSkills
import Foundation
import ModelSession
import TestSupport
import Testing

/// A body written on a case-insensitive disk names `FORMS.md` for `forms.md`:
/// the one file that matches with case ignored is read, and the answer says
/// which; several matches are listed, never guessed.
@Suite("Resource names in another letter case", .timeLimit(.minutes(10)))
struct SkillResourceMatchTests {
  private static func formsSkill() throws -> SkillFixture {
    let fixture = try SkillFixture()
    try fixture.skill(
      "pdf", in: "skills", body: "# PDF\n\nRead [the forms](FORMS.md), then see REFERENCE.md.\n")
    try fixture.write("# Forms\nFill in order.\n", to: "skills/pdf/forms.md")
    try fixture.write("# Reference\n", to: "skills/pdf/reference.md")
    try fixture.write("upper\n", to: "skills/pdf/notes/Todo.md")
    try fixture.write("lower\n", to: "skills/pdf/notes/todo.md")
    return fixture
  }

  @Test func `matchResource finds the exact file, the one file ignoring case, or lists the candidates`()
    throws
  {
    let fixture = try Self.formsSkill()
    let skill = try SkillLoader().load(folder: fixture.url("skills/pdf"))
    let forms = SkillResource(path: "forms.md", size: 23, content: .text)
    #expect(skill.matchResource("forms.md") == .exact(forms))
    #expect(skill.matchResource("./FORMS.md") == .ignoringCase(forms))
    #expect(
      skill.matchResource("NOTES/TODO.md")
        == .ambiguous([
          SkillResource(path: "notes/Todo.md", size: 6, content: .text),
          SkillResource(path: "notes/todo.md", size: 6, content: .text),
        ]))
    #expect(skill.matchResource("missing.md") == .none)
    #expect(skill.matchResource("../forms.md") == .none)
  }

  @Test func `a body's link in another case resolves to the one file, with a warning in both modes`()
    throws
  {
    let fixture = try Self.formsSkill()
    let skill = try SkillLoader().load(folder: fixture.url("skills/pdf"))
    #expect(skill.links.map(\.path) == ["forms.md"])
    #expect(skill.links.map(\.destination) == ["FORMS.md"])
    #expect(skill.diagnostics.map(\.severity) == [.warning])
    #expect(skill.diagnostics.map(\.line) == [7])
    let strict = try SkillLoader(mode: .strict).load(folder: fixture.url("skills/pdf"))
    #expect(strict.links.map(\.path) == ["forms.md"])
    #expect(strict.diagnostics.map(\.severity) == [.warning])
  }

  @Test func `read_skill_resource reads the one file that matches ignoring case and says which it read`()
    async throws
  {
    let fixture = try Self.formsSkill()
    let library = try SkillsLibrary(root: fixture.url("skills"))
    let read = Skills.readResourceToolName
    let script = ModelScript([
      .toolCall(name: Skills.activateToolName, arguments: #"{"skill":"pdf"}"#),
      .toolCall(name: read, arguments: #"{"skill":"pdf","path":"FORMS.md"}"#),
      .toolCall(name: read, arguments: #"{"skill":"pdf","path":"TODO.md"}"#),
      .toolCall(name: read, arguments: #"{"skill":"pdf","path":"Reference.MD"}"#),
      .text("Done."),
    ])
    let session = LanguageModelSession(
      model: ScriptedLanguageModel(script: script),
      profile: Profile { Skills(activations: SkillActivations(), skills: library.skills) })
    try await session.respond(to: "Fill the PDF form.")
    let outputs = session.transcript.compactMap { entry -> String? in
      if case .toolOutput(let output) = entry { output.segments.joinedText } else { nil }
    }
    #expect(outputs.count == 4)
    #expect(
      outputs[1] == """
        No file is named "FORMS.md"; read "forms.md", the one file that matches it when case is ignored.
        <skill_resource skill="pdf" path="forms.md" bytes="0-23 of 23">
        # Forms
        Fill in order.
        </skill_resource>
        """)
    #expect(
      outputs[2] == #"Error: skill "pdf": no file is named "TODO.md", and several match it when case is "#
        + "ignored: notes/Todo.md, notes/todo.md. Call again with one of these paths.")
    #expect(outputs[3].contains(#"path="reference.md""#))
    #expect(outputs[3].hasPrefix(#"No file is named "Reference.MD"; read "reference.md""#))
  }
}
