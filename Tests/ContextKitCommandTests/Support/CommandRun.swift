import Foundation
import Testing

@testable import contextkit

/// What one `contextkit` invocation gave: its exit status and both streams.
struct CommandRun {
  var code: ExitCode
  var output: String
  var error: String

  /// Runs `contextkit` with `arguments` and every subcommand, capturing its output.
  static func run(_ arguments: [String]) async -> CommandRun {
    let console = Console.capturing()
    let command = ContextKitCommand(commands: [
      SkillsCommand(), AnalyzeCommand(), DemoCommand(), CheckCacheCommand(),
    ])
    let code = await command.run(arguments, console: console)
    return CommandRun(code: code, output: console.output, error: console.error)
  }

  /// Standard output parsed as a JSON object.
  func jsonObject() throws -> [String: Any] {
    let value = try JSONSerialization.jsonObject(with: Data(output.utf8))
    return try #require(value as? [String: Any], "not a JSON object: \(output)")
  }

  /// The sorted keys of a JSON object.
  static func keys(_ object: Any?) -> [String] {
    (object as? [String: Any])?.keys.sorted() ?? []
  }
}

/// The repository, for its SkillsLibrary (this file is Tests/ContextKitCommandTests/Support/CommandRun.swift).
let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
  .deletingLastPathComponent().deletingLastPathComponent()

/// Writes a skill folder `name` under `root` with this SKILL.md text.
@discardableResult
func writeSkill(_ name: String, under root: URL, _ text: String) throws -> URL {
  let folder = root.appendingPathComponent(name)
  try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  try Data(text.utf8).write(to: folder.appendingPathComponent("SKILL.md"))
  return folder
}
