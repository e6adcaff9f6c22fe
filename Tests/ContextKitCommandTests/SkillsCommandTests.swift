import Foundation
import Testing

@testable import contextkit

@Suite struct `contextkit skills validate` {
  static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  func temporaryFolder() throws -> URL {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ck-cli-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
  }

  @Test func `the shipped library is valid in strict mode`() throws {
    let library = Self.repository.appendingPathComponent("SkillsLibrary").path
    #expect(try SkillValidation(paths: [library], strict: true).run(json: false) == 0)
  }

  @Test func `a path with no skill, and a skill folder without SKILL.md, are errors`() throws {
    let empty = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: empty) }
    try FileManager.default.createDirectory(
      at: empty.appendingPathComponent("my-skill/references"), withIntermediateDirectories: true)
    #expect(try SkillValidation(paths: [empty.path], strict: false).run(json: true) == 1)
    #expect(
      try SkillValidation(paths: [empty.appendingPathComponent("my-skill").path], strict: false).run(
        json: false) == 1)
    #expect(try SkillValidation(paths: ["/no/such/place"], strict: false).run(json: false) == 1)
  }

  @Test func `an unknown key is a warning when lenient and an error when strict`() throws {
    let root = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: root) }
    let skill = root.appendingPathComponent("tidy-notes")
    try FileManager.default.createDirectory(at: skill, withIntermediateDirectories: true)
    try Data("---\nname: tidy-notes\ndescription: Tidies notes.\ncolour: blue\n---\nBody.\n".utf8)
      .write(to: skill.appendingPathComponent("SKILL.md"))
    #expect(try SkillValidation(paths: [skill.path], strict: false).run(json: false) == 0)
    #expect(try SkillValidation(paths: [skill.path], strict: true).run(json: false) == 1)
  }
}
