import Foundation

let command = ContextKitCommand(commands: [SkillsCommand()])
exit(await command.run(Array(CommandLine.arguments.dropFirst())))
