import Foundation
import TestSupport
import Testing

@testable import contextkit

@Suite("terminal output escapes control characters", .timeLimit(.minutes(10))) struct TerminalOutputTests {
  @Test func `escape sequences, C1 controls and bidirectional overrides are shown escaped`() {
    #expect(TerminalText.escaped("a\u{1B}[2Jb") == "a\\u{1B}[2Jb")
    #expect(TerminalText.escaped("title\u{1B}]0;pwned\u{07}") == "title\\u{1B}]0;pwned\\u{7}")
    #expect(TerminalText.escaped("csi\u{9B}31m del\u{7F}") == "csi\\u{9B}31m del\\u{7F}")
    #expect(TerminalText.escaped("abc\u{202E}fed") == "abc\\u{202E}fed")
    // An isolate opened by U+2066 and closed by U+2069: both ends are escaped.
    #expect(TerminalText.escaped("\u{2066}lfe\u{2069}") == "\\u{2066}lfe\\u{2069}")
    #expect(TerminalText.escaped("over\rwrite") == "over\\rwrite")
    #expect(TerminalText.escaped("two\nlines\tand tab") == "two\nlines\tand tab")
    #expect(TerminalText.escaped("two\nlines", keepingNewlines: false) == "two\\nlines")
    #expect(TerminalText.escaped("café ✓ 日本") == "café ✓ 日本")
  }

  @Test func `every end of the escaped ranges is escaped, and the characters just outside are not`() {
    // C1 from U+0080 to U+009F; embeddings and overrides U+202A to U+202E; isolates U+2066 to U+2069.
    #expect(TerminalText.escaped("a\u{80}b\u{9F}c\u{A0}d") == "a\\u{80}b\\u{9F}c\u{A0}d")
    #expect(TerminalText.escaped("\u{2029}x\u{202A}y\u{202F}") == "\\u{2029}x\\u{202A}y\u{202F}")
    #expect(
      TerminalText.escaped("\u{2065}p\u{2066}q\u{2069}r\u{206A}") == "\u{2065}p\\u{2066}q\\u{2069}r\u{206A}")
    // The line and paragraph separators start a new line on some terminals, like a newline.
    #expect(TerminalText.escaped("one\u{2028}two") == "one\\u{2028}two")
    #expect(TerminalText.escaped("one\u{2029}two", keepingNewlines: false) == "one\\u{2029}two")
    #expect(TerminalText.escaped("\u{2027}\u{202A}") == "\u{2027}\\u{202A}")
  }

  @Test func `skills list, show, catalog and validate never print raw escapes from SKILL.md`() throws {
    let temporary = try TemporaryFolder(named: "ck-esc")
    defer { temporary.remove() }
    let root = temporary.url
    let folder = root.appendingPathComponent("sneaky")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let skill = """
      ---
      name: sneaky
      description: "Clears the screen \\e[2J\\e]0;title\\a and more \\u009B31m red"
      colour: "\\e[31m"
      ---
      # Use \u{1B}[5m

      Body \u{1B}[8mhidden\u{1B}[0m and [a link](references/\u{1B}[2Jx.md).

      """
    try Data(skill.utf8).write(to: folder.appendingPathComponent("SKILL.md"))
    for arguments in [
      ["skills", "list", root.path], ["skills", "show", "--root", root.path, "sneaky"],
      ["skills", "catalog", "--root", root.path], ["skills", "validate", "--strict", root.path],
    ] {
      let (output, error, _) = try runContextKit(arguments)
      #expect(!output.contains(0x1B), "\(arguments)")
      #expect(!error.contains(0x1B), "\(arguments)")
      #expect(!String(decoding: output, as: UTF8.self).unicodeScalars.contains("\u{9B}"), "\(arguments)")
      #expect(String(decoding: output + error, as: UTF8.self).contains("\\u{1B}"), "\(arguments)")
    }
  }

  @Test func `a newline in a description or a file name cannot forge a line of skills show or list`() throws {
    let temporary = try TemporaryFolder(named: "ck-nl")
    defer { temporary.remove() }
    let root = temporary.url
    let folder = root.appendingPathComponent("forger")
    try FileManager.default.createDirectory(
      at: folder.appendingPathComponent("references"), withIntermediateDirectories: true)
    let skill = """
      ---
      name: forger
      description: "Looks harmless.\\nactivation: spoofed by the description"
      ---
      # Use

      Read the notes.

      """
    try Data(skill.utf8).write(to: folder.appendingPathComponent("SKILL.md"))
    try Data("notes".utf8).write(
      to: folder.appendingPathComponent("references/notes\nname: spoofed by a file name.md"))
    let (output, _, status) = try runContextKit(["skills", "show", "--root", root.path, "forger"])
    #expect(status == 0)
    let lines = String(decoding: output, as: UTF8.self).split(separator: "\n").map(String.init)
    #expect(!lines.contains { $0.hasPrefix("activation: spoofed") }, "\(lines)")
    #expect(!lines.contains { $0.hasPrefix("name: spoofed") }, "\(lines)")
    #expect(
      lines.contains("description: Looks harmless.\\nactivation: spoofed by the description"), "\(lines)")
    #expect(
      lines.contains { $0.hasPrefix("  references/notes\\nname: spoofed by a file name.md (") }, "\(lines)")
    // skills list prints one line a skill, the description's newline shown as \n.
    let (listed, _, listStatus) = try runContextKit(["skills", "list", root.path])
    #expect(listStatus == 0)
    let rows = String(decoding: listed, as: UTF8.self).split(separator: "\n").map(String.init)
    #expect(rows.count == 2, "\(rows)")
    let escaped = "  Looks harmless.\\nactivation: spoofed by the description"
    #expect(rows.last?.hasSuffix(escaped) == true, "\(rows)")
  }
}
