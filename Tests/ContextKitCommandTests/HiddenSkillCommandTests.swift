import Foundation
import Testing

@testable import contextkit

@Suite(.timeLimit(.minutes(10))) struct `contextkit skills and hidden skills` {
  @Test func `list and show say a skill is hidden from the model; the catalog leaves it out`() async throws {
    let root = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: root) }
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
    #expect(instructions.contains("- tidy-notes (on demand): Tidies notes."))
    #expect(!instructions.contains("deploying"))
    let tools = try #require(catalog["tools"] as? [[String: Any]])
    let toolsJSON = String(decoding: try JSONSerialization.data(withJSONObject: tools), as: UTF8.self)
    #expect(toolsJSON.contains("tidy-notes") && !toolsJSON.contains("deploying"))
  }
}
