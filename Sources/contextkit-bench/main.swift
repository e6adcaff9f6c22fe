import Foundation

print("bench")
let arguments = CommandLine.arguments.dropFirst()
if let flag = arguments.firstIndex(of: "--chat-stream-url"), arguments.indices.contains(flag + 1),
  let url = URL(string: arguments[flag + 1])
{
  try await ChatCompletionsEndToEndBenchmark.run(baseURL: url)
} else {
  try await ChatCompletionsStreamBenchmark.run()
}
