import Foundation
import ModelSession
import Testing

@testable import AgentSkills

/// Reading a loaded skill's text resources: byte windows over multi-byte text,
/// and text with a NUL inside.
@Suite(.timeLimit(.minutes(10))) struct LoadedSkillTests {
  /// `ab€cd日本\n`: a, b at 0 and 1, € at 2...4, c, d at 5 and 6, 日 at
  /// 7...9, 本 at 10...12, the line feed at 13; 14 bytes.
  private func skillWithText() throws -> (SkillFixture, LoadedSkill) {
    let fixture = try SkillFixture()
    let folder = try fixture.skill("texts")
    try fixture.write("ab€cd日本\n", to: "texts/references/mixed.md")
    return (fixture, try SkillLoader().load(folder: folder))
  }

  @Test func `a byte window starts at its offset and never splits a character`() throws {
    let (fixture, skill) = try skillWithText()
    defer { _ = fixture }
    let path = "references/mixed.md"
    let cases: [(offset: Int, limit: Int, text: String, start: Int, end: Int)] = [
      (5, 2, "cd", 5, 7),  // from an offset, not from the start
      (0, 3, "ab", 0, 2),  // a limit inside € ends before it
      (3, 4, "cd", 5, 7),  // an offset inside € starts after it; the window ends before 日
      (7, 1, "日", 7, 10),  // a limit smaller than one character still gives that character
      (10, 100, "本\n", 10, 14),  // to the end of the file
    ]
    for expected in cases {
      let excerpt = try skill.readTextResource(path, offset: expected.offset, limit: expected.limit)
      #expect(excerpt.text == expected.text, "offset \(expected.offset), limit \(expected.limit)")
      #expect(excerpt.offset == expected.start, "offset \(expected.offset), limit \(expected.limit)")
      #expect(excerpt.endOffset == expected.end, "offset \(expected.offset), limit \(expected.limit)")
      #expect(excerpt.totalSize == 14)
    }
  }

  @Test func `a file with a NUL byte after its start is binary, whatever its first byte`() throws {
    let fixture = try SkillFixture()
    let folder = try fixture.skill("nul")
    // A `.md` file is listed as text by its extension, but its bytes are checked when read;
    // a file without an extension is sniffed when the skill loads.
    try fixture.write(Data("text\u{0}more\n".utf8), to: "nul/references/data.md")
    try fixture.write(Data("text\u{0}more\n".utf8), to: "nul/references/data")
    let skill = try SkillLoader().load(folder: folder)
    #expect(throws: SkillResourceError.binary("references/data.md", skill: "nul", size: 10)) {
      try skill.readTextResource("references/data.md")
    }
    #expect(skill.resources.first { $0.path == "references/data" }?.isText == false)
    #expect(skill.resources.first { $0.path == "references/data.md" }?.isText == true)
  }
}
