import Foundation
import TestSupport
import Testing

@testable import AgentSkills

/// Hostile markdown bodies within the 1 MiB file limit: libcmark builds
/// trees as deep as the text asks, and a body can hold tens of thousands of
/// links. Reading the outline must neither recurse with that depth nor do
/// work that grows with the square of the file.
@Suite(.timeLimit(.minutes(10)))
struct MarkdownBoundsTests {
  /// Loads `body` as the body of skill `name` on a thread with a 512 KB stack;
  /// `nil` when it has not finished within `seconds`.
  private func load(_ name: String, body: String, seconds: Int) throws -> LoadedSkill? {
    let fixture = try SkillFixture()
    let folder = try fixture.skill(name, body: body)
    #expect(try Data(contentsOf: folder.appendingPathComponent("SKILL.md")).count <= 1 << 20)
    return DeadlineThread.run(stackSize: 512 << 10, deadline: .seconds(seconds)) {
      try? SkillLoader().load(folder: folder)
    } ?? nil
  }

  @Test func `a link whose text nests emphasis 150,000 levels deep loads on a small stack`() throws {
    // `[*a *a … x … a* a*](missing.md)`: every `*a ` opens one more emphasis inside the link.
    let depth = 150_000
    let body =
      "[" + String(repeating: "*a ", count: depth) + "x" + String(repeating: " a*", count: depth)
      + "](missing.md)\n"
    let skill = try #require(try load("deep-emphasis", body: body, seconds: 120))
    #expect(skill.links.isEmpty)
  }

  @Test func `images nested 100,000 levels deep load on a small stack, in time linear in the file`() throws {
    // `![![![…a](r.md)](r.md)](r.md)`: image descriptions may hold images.
    let depth = 100_000
    let body = String(repeating: "![", count: depth) + "a" + String(repeating: "](r.md)", count: depth) + "\n"
    let skill = try #require(try load("deep-images", body: body, seconds: 120))
    #expect(skill.links.isEmpty)
  }

  @Test func `65,000 links on one line load in time linear in the file`() throws {
    // Each destination is written once, so finding it from the start of the line is quadratic.
    let count = 65_000
    let body = (0..<count).map { "[a](d\($0).md)" }.joined(separator: " ") + "\n"
    let fixture = try SkillFixture()
    let folder = try fixture.skill("many-links", body: body)
    let report = DeadlineThread.run(stackSize: 512 << 10, deadline: .seconds(120)) {
      SkillLoader().inspect(folder: folder)
    }
    let diagnostics = try #require(report?.diagnostics)
    let missing = diagnostics.filter { $0.message.contains("does not exist in the skill folder") }
    #expect(missing.count == count)
    // The first links are still located exactly: line 5 of the file (after the front matter), by column.
    #expect(missing.first?.line == 5 && missing.first?.column == 5)
    #expect(missing.dropFirst().first?.line == 5 && missing.dropFirst().first?.column == 16)
  }

  @Test func `50,000 reference links after 25,000 definitions load in time linear in the file`() throws {
    let count = 25_000
    let definitions = (0..<count).map { "[l\($0)]: d\($0).md" }.joined(separator: "\n")
    let uses = (0..<count).map { "[l\($0)] [l\($0)]" }.joined(separator: "\n")
    let fixture = try SkillFixture()
    let folder = try fixture.skill("references", body: definitions + "\n" + uses + "\n")
    let report = DeadlineThread.run(stackSize: 512 << 10, deadline: .seconds(120)) {
      SkillLoader().inspect(folder: folder)
    }
    let diagnostics = try #require(report?.diagnostics)
    #expect(
      diagnostics.filter { $0.message.contains("does not exist in the skill folder") }.count == 2 * count)
  }
}
