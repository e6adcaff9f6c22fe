import AgentSkills
import Foundation
import TestSupport
import Testing

/// Seeded random `SKILL.md` files, built from YAML fragments that have broken
/// readers before (deep nesting, aliases, tags, odd scalars, control bytes,
/// invalid UTF-8) and from byte mutations of a valid skill. Every one must load
/// or fail with located diagnostics, quickly, and never crash.
@Suite("front matter fuzz", .timeLimit(.minutes(20)))
struct FrontMatterFuzzTests {
  static let fragments: [String] = [
    "name: fuzz\n", "description: Does fuzz things.\n", "license: MIT\n",
    "metadata:\n  activation: instructions\n",
    "metadata:\n  allows-deactivation: \"true\"\n", "allowed-tools: [a, b]\n", "name: [x]\n",
    "description: |\n  two\n  lines\n",
    "a: &x [1, 2]\nb: [*x, *x, *x]\n", "c: *undefined\n", "!!binary d: e\n", "? complex\n: key\n",
    "e: 'quoted ''x'''\n",
    "f: \"esc \\e[2J \\u0000 \\x41\"\n", "g: 1e400\n", "h: 0x1F\n", "i: ~\n", "j: {k: {l: {m: n}}}\n",
    "\t: tab\n",
    "%YAML 1.1\n", "--- \n", "...\n", "- list\n", ":\n", "name: fuzz\nname: again\n", "k: \u{1B}[31m\n",
    "l: \u{202E}rtl\n", String(repeating: "[", count: 80) + "\n", String(repeating: "{a: ", count: 70) + "\n",
  ]

  /// Builds a random file: front matter from fragments, a body, sometimes mutated bytes.
  static func file(_ random: inout SeededGenerator) -> [UInt8] {
    var text = random.next(below: 10) == 0 ? "\u{FEFF}---\r\n" : "---\n"
    // Half start as a valid skill, so that mutations after a good start are tried too.
    if random.next(below: 2) == 0 { text += "name: fuzz\ndescription: Does fuzz things.\n" }
    for _ in 0..<random.next(below: 8) { text += fragments[random.next(below: fragments.count)] }
    if random.next(below: 4) != 0 {
      text += "---\n# Use\n\nBody [link](references/x.md) [r][ref]\n\n[ref]: ../out\n"
    }
    var bytes = Array(text.utf8)
    for _ in 0..<random.next(below: 4) where !bytes.isEmpty {
      let index = random.next(below: bytes.count)
      switch random.next(below: 3) {
      case 0: bytes[index] = UInt8(truncatingIfNeeded: random.next())
      case 1: bytes.remove(at: index)
      default: bytes.insert([0x00, 0xFF, 0xC3, 0x0A, 0x3A, 0x22][random.next(below: 6)], at: index)
      }
    }
    return bytes
  }

  @Test(arguments: [UInt64(11), 12, 13])
  func `every random SKILL.md loads or fails with located diagnostics`(seed: UInt64) throws {
    var random = SeededGenerator(seed: seed)
    let fixture = try SkillFixture()
    let clock = ContinuousClock()
    let end = clock.now + .seconds(5)
    var checked = 0
    var loaded = 0
    while checked < 400 && clock.now < end {
      let bytes = Self.file(&random)
      try fixture.write(Data(bytes), to: "fuzz/SKILL.md")
      let lines = bytes.filter { $0 == 0x0A }.count + 1
      for mode in [SkillValidationMode.lenient, .strict] {
        let report = SkillLoader(mode: mode).inspect(folder: fixture.url("fuzz"))
        #expect((report.skill == nil) == report.diagnostics.contains { $0.isError }, "seed \(seed)")
        for diagnostic in report.diagnostics {
          #expect((0...lines).contains(diagnostic.line), "seed \(seed): \(diagnostic) in \(lines) lines")
          #expect(!diagnostic.message.isEmpty)
        }
        if let skill = report.skill {
          #expect(skill.name == "fuzz")
          #expect(skill.body.utf8.count <= bytes.count)
          loaded += 1
        }
      }
      checked += 1
    }
    #expect(checked >= 50)
    #expect(loaded > 0)
  }

  @Test func `a billion-laughs alias bomb and deep nesting stay small and fast`() throws {
    let fixture = try SkillFixture()
    var bomb = "---\nname: bomb\ndescription: x\nmetadata:\n  a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n"
    for level in 1..<12 {
      bomb +=
        "  a\(level): &a\(level) [" + Array(repeating: "*a\(level - 1)", count: 10).joined(separator: ", ")
        + "]\n"
    }
    try fixture.write(bomb + "---\nBody\n", to: "bomb/SKILL.md")
    let report = SkillLoader(mode: .strict).inspect(folder: fixture.url("bomb"))
    #expect(report.diagnostics.contains { $0.isError })
    // Lenient keeps the lists as written: an alias is its name, never expanded.
    let lenient = try #require(SkillLoader().inspect(folder: fixture.url("bomb")).skill)
    let aliasNames: String = Array(repeating: #""*a10""#, count: 10).joined(separator: ",")
    #expect(lenient.frontMatter.metadataValues["a11"]?.jsonString == "[\(aliasNames)]")
    try fixture.write("---\n" + String(repeating: "- ", count: 50_000) + "x\n---\n", to: "deep/SKILL.md")
    let deep = SkillLoader().inspect(folder: fixture.url("deep"))
    let error = try #require(deep.firstError, "50,000 nested sequences loaded without an error")
    #expect(
      error.message.contains("nested more than"),
      "the error does not say the YAML is too deep: \(error.message)")
    #expect(error.line == 2, "the error points at line \(error.line), not the nested line 2")
  }
}
