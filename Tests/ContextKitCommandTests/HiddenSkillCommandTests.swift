import Foundation
import TestSupport
import Testing

@testable import contextkit

@Suite("contextkit skills and hidden skills", .timeLimit(.minutes(10))) struct HiddenSkillCommandTests {
  @Test func `list and show say a skill is hidden from the model; the catalog leaves it out`() async throws {
    let temporary = try TemporaryFolder(named: "ck-cli")
    defer { temporary.remove() }
    let root = temporary.url
    try writeSkill(
      "deploying", under: root,
      "---\nname: deploying\ndescription: Steps to deploy.\nmetadata:\n  disable-model-invocation: \"true\"\n---\n"
        + "Tag the release.\n")
    try writeSkill(
      "tidy-notes", under: root, "---\nname: tidy-notes\ndescription: Tidies notes.\n---\nBody.\n")

    let text = await CommandRun.run(["skills", "list", root.path])
    #expect(text.code == .success)
    let rows = text.output.split(separator: "\n").map {
      $0.split(separator: " ", omittingEmptySubsequences: true)
    }
    #expect(
      rows.map { $0.prefix(4).joined(separator: " ") } == [
        "NAME FLAVOUR DEACTIVATABLE MODEL", "deploying prompt no hidden", "tidy-notes prompt no invokes",
      ])

    let json = try await CommandRun.run(["skills", "list", "--json", root.path]).jsonObject()
    let skills = try #require(json["skills"] as? [[String: Any]])
    #expect(skills.map { $0["allowsModelInvocation"] as? Bool } == [false, true])

    let show = await CommandRun.run(["skills", "show", "deploying", root.path])
    #expect(show.code == .success)
    #expect(
      show.output.contains(
        "\nmodel invocation: no, hidden from the model (disable-model-invocation); "
          + "the app and the user with /deploying activate it\n"))
    let shown = await CommandRun.run(["skills", "show", "tidy-notes", root.path])
    #expect(
      shown.output.contains("\nmodel invocation: yes (the model, the app, and the user with /tidy-notes)\n"))
    let showJSON = try await CommandRun.run(["skills", "show", "--json", "deploying", root.path]).jsonObject()
    #expect(showJSON["allowsModelInvocation"] as? Bool == false)

    let catalog = try await CommandRun.run(["skills", "catalog", "--json", root.path]).jsonObject()
    #expect(catalog["skills"] as? [String] == ["tidy-notes"])
    #expect(catalog["hiddenSkills"] as? [String] == ["deploying"])
    let instructions = try #require(catalog["instructions"] as? String)
    #expect(instructions.contains("Skill: tidy-notes [on demand]\nDescription: Tidies notes."))
    #expect(!instructions.contains("deploying"))
    let tools = try #require(catalog["tools"] as? [[String: Any]])
    let toolsJSON = String(decoding: try JSONSerialization.data(withJSONObject: tools), as: UTF8.self)
    #expect(toolsJSON.contains("tidy-notes") && !toolsJSON.contains("deploying"))
  }

  @Test func `list and show say which instructions skills may be deactivated, in text and JSON`() async throws
  {
    let temporary = try TemporaryFolder(named: "ck-cli")
    defer { temporary.remove() }
    let root = temporary.url
    try writeSkill(
      "house-tone", under: root,
      "---\nname: house-tone\ndescription: Tone.\nmetadata:\n  activation: instructions\n---\nBe brief.\n")
    try writeSkill(
      "on-call", under: root,
      "---\nname: on-call\ndescription: Paging.\nmetadata:\n  activation: instructions\n"
        + "  allows-deactivation: \"true\"\n---\nPage the lead.\n")

    let text = await CommandRun.run(["skills", "list", root.path])
    #expect(text.code == .success)
    let rows = text.output.split(separator: "\n").map {
      $0.split(separator: " ", omittingEmptySubsequences: true).prefix(4).joined(separator: " ")
    }
    #expect(
      rows == [
        "NAME FLAVOUR DEACTIVATABLE MODEL", "house-tone instructions no invokes",
        "on-call instructions yes invokes",
      ])
    let json = try await CommandRun.run(["skills", "list", "--json", root.path]).jsonObject()
    let skills = try #require(json["skills"] as? [[String: Any]])
    #expect(skills.map { $0["flavour"] as? String } == ["instructions", "instructions"])
    #expect(skills.map { $0["allowsDeactivation"] as? Bool } == [false, true])

    let tone = await CommandRun.run(["skills", "show", "house-tone", root.path])
    #expect(tone.output.contains("\nactivation: instructions\n"))
    let onCall = await CommandRun.run(["skills", "show", "on-call", root.path])
    #expect(onCall.output.contains("\nactivation: instructions (allows deactivation)\n"))
    let onCallJSON = try await CommandRun.run(["skills", "show", "--json", "on-call", root.path]).jsonObject()
    #expect(onCallJSON["allowsDeactivation"] as? Bool == true)
  }
}
