import Testing

@testable import contextkit

@Suite(.timeLimit(.minutes(10))) struct `Argument parser` {
  @Test func `flags, options and positionals are read in any order`() throws {
    var parser = CommandLineArguments([
      "validate", "--json", "a", "--block-size=16", "b", "--html", "out.html",
    ])
    let action = parser.nextPositional()
    let json = parser.flag("--json")
    let strict = parser.flag("--strict")
    let blockSize = try parser.integerOption("--block-size")
    let html = try parser.option("--html")
    let positionals = parser.remainingPositionals()
    #expect(action == "validate")
    #expect(json && !strict)
    #expect(blockSize == 16)
    #expect(html == "out.html")
    #expect(positionals == ["a", "b"])
    try parser.finish()
  }

  @Test func `a missing value, a bad number and a leftover are usage errors that name them`() throws {
    func usageError(_ body: (inout CommandLineArguments) throws -> Void, _ arguments: [String]) -> String? {
      var parser = CommandLineArguments(arguments)
      do {
        try body(&parser)
        return nil
      } catch let error as CommandLineArguments.UsageError {
        return error.description
      } catch {
        return "\(error)"
      }
    }
    #expect(usageError({ _ = try $0.option("--html") }, ["--html"]) == "--html needs a value")
    // A flag right after the option is not its value.
    #expect(usageError({ _ = try $0.option("--html") }, ["--html", "--json"]) == "--html needs a value")
    #expect(
      usageError({ _ = try $0.integerOption("--block-size") }, ["--block-size", "big"])
        == "--block-size takes a whole number, not \"big\"")
    let leftover = CommandLineArguments(["--verbose"])
    #expect(throws: CommandLineArguments.UsageError(description: "unknown option --verbose")) {
      try leftover.finish()
    }
  }

  @Test func `a double dash ends options`() {
    var parser = CommandLineArguments(["--", "--not-a-flag"])
    let positional = parser.nextPositional()
    #expect(positional == "--not-a-flag")
  }

  @Test func `every argument after a double dash is positional, in order`() throws {
    var parser = CommandLineArguments(["--strict", "a", "--", "--b", "--json", "c"])
    // Positionals before the double dash come first; "--json" after it is not the flag.
    let first = parser.nextPositional()
    let json = parser.flag("--json")
    let strict = parser.flag("--strict")
    let rest = parser.remainingPositionals()
    #expect(first == "a")
    #expect(!json && strict)
    #expect(rest == ["--b", "--json", "c"])
    try parser.finish()
    let unread = CommandLineArguments(["--", "--b"])
    #expect(throws: CommandLineArguments.UsageError(description: "unexpected argument \"--b\"")) {
      try unread.finish()
    }
  }
}

@Suite(.timeLimit(.minutes(10))) struct `contextkit command` {
  @Test func `help, version and an unknown command give their exit codes`() async {
    let command = ContextKitCommand(commands: [SkillsCommand()])
    #expect(await command.run(["--help"], console: .capturing()) == .success)
    #expect(await command.run(["--version"], console: .capturing()) == .success)
    #expect(await command.run(["frobnicate"], console: .capturing()) == .usage)
    #expect(await command.run(["skills", "bogus"], console: .capturing()) == .usage)
  }
}
