import Foundation
import TestSupport
import Testing

@testable import contextkit

/// `skills show NAME --resource PATH`: one text file of a skill, a path in
/// another letter case naming the one file that matches it.
@Suite("contextkit skills show --resource", .timeLimit(.minutes(10))) struct SkillResourceDisplayTests {
  @Test func `a path in another case reads the one matching file and says which; several matches are listed`()
    async throws
  {
    let temporary = try TemporaryFolder(named: "ck-cli")
    defer { temporary.remove() }
    let root = temporary.url
    let skill = try writeSkill(
      "pdf", under: root, "---\nname: pdf\ndescription: Fills PDF forms.\n---\nRead FORMS.md first.\n")
    try Data("# Forms\nFill in order.\n".utf8).write(to: skill.appendingPathComponent("forms.md"))
    try FileManager.default.createDirectory(
      at: skill.appendingPathComponent("notes"), withIntermediateDirectories: true)
    try Data("a\n".utf8).write(to: skill.appendingPathComponent("notes/Todo.md"))
    try Data("b\n".utf8).write(to: skill.appendingPathComponent("notes/todo.md"))

    let exact = await CommandRun.run(["skills", "show", "pdf", "--resource", "forms.md", root.path])
    #expect(exact.code == .success)
    #expect(exact.output == "# Forms\nFill in order.\n")
    #expect(exact.error.isEmpty)

    let other = await CommandRun.run(["skills", "show", "pdf", "--resource", "FORMS.md", root.path])
    #expect(other.code == .success)
    #expect(other.output == "# Forms\nFill in order.\n")
    #expect(
      other.error
        == #"contextkit: no file is named "FORMS.md"; read "forms.md", the one file that matches it when case is ignored"#
        + "\n")

    let json = await CommandRun.run(["skills", "show", "--json", "pdf", "--resource", "FORMS.md", root.path])
    let object = try json.jsonObject()
    #expect(object["path"] as? String == "forms.md")
    #expect(object["requestedPath"] as? String == "FORMS.md")
    #expect(object["matchedIgnoringCase"] as? Bool == true)

    let ambiguous = await CommandRun.run(["skills", "show", "pdf", "--resource", "NOTES/TODO.md", root.path])
    #expect(ambiguous.code == .invalidInput)
    #expect(
      ambiguous.error
        == #"contextkit: skill "pdf": no file is named "NOTES/TODO.md", and several match it when case is "#
        + "ignored: notes/Todo.md, notes/todo.md; give one of them\n")

    let missing = await CommandRun.run(["skills", "show", "pdf", "--resource", "nope.md", root.path])
    #expect(missing.code == .invalidInput)
    #expect(missing.error.contains(#"no file "nope.md" in the skill folder; its resources: forms.md"#))
  }
}
