import Foundation
import Testing

@testable import AgentSkills

/// Every documented limit of loading a skill, pinned on both sides: a value
/// exactly at the limit is accepted whole, one unit past it is refused or cut
/// (and says so). The expected numbers are counted by hand in the comments.
@Suite("Skill loading limits", .timeLimit(.minutes(10))) struct SkillLoadingLimitTests {
  // MARK: - Front matter lengths (Agent Skills spec: name 64, description 1,024, compatibility 500)

  @Test func `a name of exactly 64 characters loads`() throws {
    let fixture = try SkillFixture()
    let name = String(repeating: "a", count: 64)
    let skill = try SkillLoader(mode: .strict).load(folder: try fixture.skill(name))
    #expect(skill.name == name)
    #expect(skill.diagnostics.isEmpty)
  }

  @Test func `a description of exactly 1,024 characters loads; 1,025 is refused when strict`() throws {
    let fixture = try SkillFixture()
    let atLimit = String(repeating: "x", count: 1024)
    let accepted = try SkillLoader(mode: .strict).load(
      folder: try fixture.skill("at-limit", frontMatter: "name: at-limit\ndescription: \(atLimit)"))
    #expect(accepted.description == atLimit)
    let refused = try fixture.skill("past-limit", frontMatter: "name: past-limit\ndescription: \(atLimit)x")
    #expect(
      errors(inspect(refused, mode: .strict)) == ["description is 1,025 characters; the limit is 1,024"])
    #expect(inspect(refused).diagnostics.map(\.severity) == [.warning])
  }

  @Test func `the limits count the text after trimming: a block scalar's newline and quoted blanks are free`()
    throws
  {
    let fixture = try SkillFixture()
    let atLimit = String(repeating: "x", count: 1024)
    // `description: |` keeps a final line break: YAML gives 1,025 characters, 1,024 once trimmed.
    let literal = try SkillLoader(mode: .strict).load(
      folder: try fixture.skill("literal", frontMatter: "name: literal\ndescription: |\n  \(atLimit)"))
    #expect(literal.description == atLimit)
    #expect(literal.diagnostics.isEmpty)
    // A quoted compatibility of 500 characters between two blanks on each side: 504, then 500.
    let compatibility = String(repeating: "c", count: 500)
    let quoted = try SkillLoader(mode: .strict).load(
      folder: try fixture.skill(
        "quoted", frontMatter: "name: quoted\ndescription: Ok.\ncompatibility: \"  \(compatibility)  \""))
    #expect(quoted.frontMatter.compatibility == compatibility)
    #expect(quoted.diagnostics.isEmpty)
    // One character more is still refused, the newline not counted.
    let past = try fixture.skill("past", frontMatter: "name: past\ndescription: |\n  \(atLimit)x")
    #expect(errors(inspect(past, mode: .strict)) == ["description is 1,025 characters; the limit is 1,024"])
  }

  @Test func `the description limit counts characters, not bytes`() throws {
    let fixture = try SkillFixture()
    // 1,024 × "é" (U+00E9, two bytes in UTF-8): 1,024 characters, 2,048 bytes.
    let accented = String(repeating: "\u{E9}", count: 1024)
    let skill = try SkillLoader(mode: .strict).load(
      folder: try fixture.skill("accents", frontMatter: "name: accents\ndescription: \(accented)"))
    #expect(skill.description == accented)
  }

  @Test func `a compatibility of exactly 500 characters loads`() throws {
    let fixture = try SkillFixture()
    let atLimit = String(repeating: "c", count: 500)
    let skill = try SkillLoader(mode: .strict).load(
      folder: try fixture.skill(
        "compat", frontMatter: "name: compat\ndescription: Ok.\ncompatibility: \(atLimit)"))
    #expect(skill.frontMatter.compatibility == atLimit)
  }

  // MARK: - The limits themselves

  @Test func `the default limits: 1 MiB a file, 6 levels, 25,000 folders a root, 2,000 resources a skill`() {
    for limits in [SkillLoaderLimits(), SkillLoaderLimits.standard] {
      // 1 MiB = 1,048,576 bytes.
      #expect(limits.maximumFileSize == 1_048_576)
      #expect(limits.maximumDepth == 6)
      #expect(limits.maximumFolders == 25_000)
      #expect(limits.maximumResources == 2_000)
    }
    // The smallest values themselves are kept.
    let smallest = SkillLoaderLimits(
      maximumFileSize: 1, maximumDepth: 0, maximumFolders: 1, maximumResources: 0)
    #expect(smallest.maximumFileSize == 1 && smallest.maximumFolders == 1)
    #expect(smallest.maximumDepth == 0 && smallest.maximumResources == 0)
  }

  @Test func `limits below their smallest values are raised to them: 1 for size and folders, 0 for the rest`()
  {
    let limits = SkillLoaderLimits(
      maximumFileSize: 0, maximumDepth: -1, maximumFolders: 0, maximumResources: -1)
    #expect(limits.maximumFileSize == 1)
    #expect(limits.maximumDepth == 0)
    #expect(limits.maximumFolders == 1)
    #expect(limits.maximumResources == 0)
  }

  @Test func `a depth of 0 searches only the root; a resource count of 0 lists no file and says so`() throws {
    let fixture = try SkillFixture()
    let folder = try fixture.skill("top")
    try fixture.write("x", to: "top/notes.md")
    let limits = SkillLoaderLimits(maximumDepth: 0, maximumResources: 0)
    // The skill folder is 1 level below the root: not searched with a depth of 0.
    let library = try SkillsLibrary(root: fixture.root, limits: limits)
    #expect(library.names == [])
    #expect(library.diagnostics.first?.message.hasPrefix("1 folder(s) are more than 0 levels below") == true)
    // Given as the root itself, it loads, with no resource listed.
    let skill = try SkillLoader(limits: limits).load(folder: folder)
    #expect(skill.resources.isEmpty)
    #expect(
      skill.diagnostics.map(\.message) == [
        "the skill folder holds more than 0 files; only the first are listed as resources"
      ])
  }

  // MARK: - SKILL.md size

  @Test func `a SKILL.md of exactly maximumFileSize bytes loads; one byte more is refused`() throws {
    let fixture = try SkillFixture()
    // "---\n" 4 + "name: sized\n" 12 + "description: Exactly sized.\n" 28 + "---\n" 4
    // + "# Use\n" 6 + "\n" 1 + "Do the thing.\n" 14 = 69 bytes.
    let text = "---\nname: sized\ndescription: Exactly sized.\n---\n# Use\n\nDo the thing.\n"
    #expect(text.utf8.count == 69)
    try fixture.write(text, to: "sized/SKILL.md")
    let folder = fixture.url("sized")
    let fits = SkillLoader(mode: .strict, limits: SkillLoaderLimits(maximumFileSize: 69))
    #expect(try fits.load(folder: folder).name == "sized")
    let report = SkillLoader(limits: SkillLoaderLimits(maximumFileSize: 68)).inspect(folder: folder)
    #expect(report.skill == nil)
    let message = try #require(errors(report).first)
    #expect(message.hasPrefix("SKILL.md is 69 bytes; the limit is 68 bytes."), "\(message)")
  }

  // MARK: - Resources

  @Test func `exactly maximumResources files are all listed without a warning; one more is cut`() throws {
    let fixture = try SkillFixture()
    let exact = try fixture.skill("exact")
    let over = try fixture.skill("over")
    for index in 1...3 { try fixture.write("x", to: "exact/references/\(index).md") }
    for index in 1...4 { try fixture.write("x", to: "over/references/\(index).md") }
    let loader = SkillLoader(limits: SkillLoaderLimits(maximumResources: 3))
    let whole = try loader.load(folder: exact)
    #expect(whole.resources.map(\.path) == ["references/1.md", "references/2.md", "references/3.md"])
    #expect(whole.diagnostics.isEmpty, "\(whole.diagnostics)")
    let cut = try loader.load(folder: over)
    #expect(cut.resources.count == 3)
    #expect(
      cut.diagnostics.map(\.message) == [
        "the skill folder holds more than 3 files; only the first are listed as resources"
      ])
  }

  @Test func `resources are listed down to maximumDepth levels below the skill folder, not one more`() throws
  {
    let fixture = try SkillFixture()
    let folder = try fixture.skill("deep")
    // Levels below the skill folder: a 1, b 2, c 3, d 4, e 5, the file in e 6;
    // f is 6, so the file in f is 7. The default depth is 6.
    try fixture.write("six\n", to: "deep/a/b/c/d/e/six.md")
    try fixture.write("seven\n", to: "deep/a/b/c/d/e/f/seven.md")
    let skill = try SkillLoader().load(folder: folder)
    #expect(skill.resources.map(\.path) == ["a/b/c/d/e/six.md"])
    // What is left out is said, once, naming the folder not walked.
    #expect(
      skill.diagnostics.map(\.message).filter { $0.contains("depth limit") } == [
        "the folder \"a/b/c/d/e/f\" is at the depth limit: its files, more than 6 levels below the "
          + "skill folder, are not resources"
      ])
    // With a depth of 2: references/guide.md (2 levels) is listed, references/old/guide.md (3) is not.
    let shallow = try fixture.skill("shallow")
    try fixture.write("two\n", to: "shallow/references/guide.md")
    try fixture.write("three\n", to: "shallow/references/old/guide.md")
    let limited = SkillLoader(limits: SkillLoaderLimits(maximumDepth: 2))
    let shallowSkill = try limited.load(folder: shallow)
    #expect(shallowSkill.resources.map(\.path) == ["references/guide.md"])
    #expect(
      shallowSkill.diagnostics.contains { $0.message.contains("\"references/old\" is at the depth limit") })
  }

  @Test func `a chain of exactly 40 symbolic links is read; 41 links are refused`() throws {
    let fixture = try SkillFixture()
    let folder = try fixture.skill("chains")
    try fixture.write("end\n", to: "chains/assets/end.md")
    // link-1 → link-2 → … → link-41 → end.md: reading link-k follows 42 - k links,
    // so link-2 takes exactly 40 and link-1 takes 41.
    for index in 1...41 {
      try fixture.link(
        "chains/assets/link-\(index).md", to: index == 41 ? "end.md" : "link-\(index + 1).md")
    }
    let skill = try SkillLoader().load(folder: folder)
    #expect(SkillFolderReader.maximumLinks == 40)
    #expect(try skill.contentsOfResource("assets/link-2.md") == Data("end\n".utf8))
    #expect(
      throws: SkillResourceError.unreadable(
        "assets/link-1.md", skill: "chains", reason: "it goes through more than 40 symbolic links")
    ) {
      try skill.contentsOfResource("assets/link-1.md")
    }
  }

  @Test func `a file without an extension is sniffed in its first 1,024 bytes exactly`() throws {
    let fixture = try SkillFixture()
    let folder = try fixture.skill("sniffed")
    let filler = [UInt8](repeating: UInt8(ascii: "a"), count: 1023)
    // A NUL at index 1,023 is the 1,024th byte: seen. At index 1,024 it is the 1,025th: not seen.
    try fixture.write(Data(filler + [0, 0x62]), to: "sniffed/assets/nul-inside")
    try fixture.write(Data(filler + [0x61, 0, 0x62]), to: "sniffed/assets/nul-outside")
    // 日 is E6 97 A5. 1,023 bytes and all of 日 is 1,026 bytes: the sniff sees only E6,
    // the start of a character cut by the window, which is forgiven.
    try fixture.write(Data(filler + [0xE6, 0x97, 0xA5]), to: "sniffed/assets/cut-by-window")
    // 1,023 bytes and a lone E6 is 1,024 bytes: the whole file, so the lone E6 is not cut but broken.
    try fixture.write(Data(filler + [0xE6]), to: "sniffed/assets/broken-at-end")
    let skill = try SkillLoader().load(folder: folder)
    let kinds = Dictionary(uniqueKeysWithValues: skill.resources.map { ($0.path, $0.isText) })
    #expect(
      kinds == [
        "assets/nul-inside": false, "assets/nul-outside": true, "assets/cut-by-window": true,
        "assets/broken-at-end": false,
      ])
  }

  // MARK: - Reading windows

  @Test func `a read without a limit returns exactly 32 KiB and says one byte remains`() throws {
    let fixture = try SkillFixture()
    let folder = try fixture.skill("long")
    // 32 × 1,024 = 32,768 bytes, then one more.
    try fixture.write(String(repeating: "a", count: 32_769), to: "long/references/long.md")
    let skill = try SkillLoader().load(folder: folder)
    let first = try skill.readTextResource("references/long.md")
    #expect(first.text.utf8.count == 32_768)
    #expect((first.offset, first.endOffset, first.remainingBytes) == (0, 32_768, 1))
    let rest = try skill.readTextResource("references/long.md", offset: first.endOffset)
    #expect(rest.text == "a")
    #expect((rest.offset, rest.endOffset, rest.remainingBytes) == (32_768, 32_769, 0))
  }

  @Test func `offsets and limits at the ends of Int read a window or nothing, never trap`() throws {
    let fixture = try SkillFixture()
    let folder = try fixture.skill("ends")
    try fixture.write("héllo", to: "ends/references/short.md")
    let skill = try SkillLoader().load(folder: folder)
    // `window + 4` and `start + window` overflowed for a limit of Int.max.
    let whole = try skill.readTextResource("references/short.md", offset: 0, limit: .max)
    #expect(whole.text == "héllo" && whole.remainingBytes == 0)
    let past = try skill.readTextResource("references/short.md", offset: .max, limit: .max)
    #expect(past.text.isEmpty && past.remainingBytes == 0)
    let before = try skill.readTextResource("references/short.md", offset: .min, limit: .min)
    #expect(before.text == "h" && before.offset == 0)
  }
}
