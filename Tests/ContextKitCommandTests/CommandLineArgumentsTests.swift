import Foundation
import TestSupport
import Testing

@testable import contextkit

@Suite(.timeLimit(.minutes(10))) struct CommandLineArgumentsTests {
  @Suite("Argument parser") struct Parser {
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

  @Suite("Whole-number options at the boundaries") struct WholeNumbers {
    @Test func `an integer option takes ±2^53 and refuses more, a fraction or a word, saying which`() throws {
      func parsed(_ text: String) -> Result<Int?, CommandLineArguments.UsageError> {
        var parser = CommandLineArguments(["--budget", text])
        return Result { () throws(CommandLineArguments.UsageError) in try parser.integerOption("--budget") }
      }
      for (text, value) in [
        ("0", 0), ("-5", -5), ("+7", 7), ("9007199254740992", 9_007_199_254_740_992),
        ("-9007199254740992", -9_007_199_254_740_992),
      ] {
        #expect(try parsed(text).get() == value, "\(text)")
      }
      let range = "takes a whole number from -9007199254740992 to 9007199254740992 (2^53)"
      for text in [
        "9007199254740993", "9223372036854775807", "-9223372036854775808", "99999999999999999999999",
      ] {
        #expect(throws: CommandLineArguments.UsageError(description: "--budget \(range), not \(text)")) {
          try parsed(text).get()
        }
      }
      for text in ["1.5", "1e3", "ten", "-", "0x10", " 5"] {
        #expect(
          throws: CommandLineArguments.UsageError(
            description: "--budget takes a whole number, not \"\(text)\"")
        ) {
          try parsed(text).get()
        }
      }
    }

    @Test func `every whole-number option of the built contextkit exits 2 at the boundaries, never traps`()
      throws
    {
      let recordsFolder = try TemporaryFolder(named: "ck-records")
      defer { recordsFolder.remove() }
      let records = try smallRecordsFile(in: recordsFolder)
      let cases: [(arguments: [String], message: String)] = [
        (["demo", "--budget", "9223372036854775807"], "--budget takes a whole number from"),
        (["demo", "--budget", "-9223372036854775808"], "--budget takes a whole number from"),
        (["demo", "--budget", "0"], "--budget takes 1 or more tokens, not 0"),
        (
          ["demo", "--budget", "-9007199254740992"], "--budget takes 1 or more tokens, not -9007199254740992"
        ),
        (["demo", "--answer-tokens", "9223372036854775807"], "--answer-tokens takes a whole number from"),
        (["demo", "--answer-tokens", "-1"], "--answer-tokens takes 1 or more tokens, not -1"),
        (["demo", "--budget", "1.5"], "--budget takes a whole number, not \"1.5\""),
        (
          ["analyze", "--block-size", "9223372036854775807", records.path],
          "--block-size takes a whole number from"
        ),
        (
          ["analyze", "--block-size", "-9223372036854775808", records.path],
          "--block-size takes a whole number from"
        ),
        (["skills", "catalog", "--budget", "9223372036854775807"], "--budget takes a whole number from"),
        (["skills", "catalog", "--budget", "-9223372036854775808"], "--budget takes a whole number from"),
      ]
      for (arguments, message) in cases {
        let ending = try contextKitEnding(arguments)
        #expect(!ending.signaled && ending.status == 2, "\(arguments): \(ending)")
        #expect(ending.error.contains(message), "\(arguments): \(ending)")
      }
    }
  }
}
