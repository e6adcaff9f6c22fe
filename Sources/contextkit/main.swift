import Foundation

let command = ContextKitCommand(commands: [
  SkillsCommand(), AnalyzeCommand(), DemoCommand(), CheckCacheCommand(),
])
exit(await command.run(Array(CommandLine.arguments.dropFirst()), console: .standard).rawValue)
