import Foundation

let command = ContextKitCommand(commands: [])
exit(await command.run(Array(CommandLine.arguments.dropFirst())))
