import Testing

@testable import AgentSkills

@Suite("Slash command grammar", .timeLimit(.minutes(10))) struct SlashCommandScannerTests {
  @Test(arguments: [
    ("/reviewing-sql", ["reviewing-sql"]),
    ("Please /reviewing-sql this query", ["reviewing-sql"]),
    ("Use /reviewing-sql.", ["reviewing-sql"]),
    ("(/reviewing-sql) and \"/swift-style\", then /a1!", ["reviewing-sql", "swift-style", "a1"]),
    ("first /b then /a then /b again", ["b", "a"]),
    ("tab\t/x\nnewline /y:", ["x", "y"]),
    // Every opening bracket and quote, and every closing punctuation mark, of the grammar.
    ("[/a] {/b} '/c' /d? /e; /f, \"/g\"", ["a", "b", "c", "d", "e", "f", "g"]),
  ])
  func `a slash name standing alone names a skill`(text: String, names: [String]) {
    #expect(SlashCommandScanner.names(in: text) == names)
  }

  @Test(arguments: [
    "src/reviewing-sql",
    "/reviewing-sql/references",
    "/reviewing-sql.md",
    "https://example.org/reviewing-sql",
    "/Reviewing-SQL",
    "/reviewing--sql",
    "/-reviewing",
    "/reviewing-",
    "/ reviewing-sql",
    "/",
    "//reviewing-sql",
    "/reviewing_sql",
    "/réviewing",
    "a/b /c/d",
  ])
  func `anything else names nothing`(text: String) {
    #expect(SlashCommandScanner.names(in: text) == [])
  }

  @Test func `names are at most 64 characters`() {
    let longest = String(repeating: "a", count: 64)
    #expect(SlashCommandScanner.names(in: "/" + longest) == [longest])
    #expect(SlashCommandScanner.names(in: "/" + longest + "a") == [])
  }
}
