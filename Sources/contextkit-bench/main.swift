print("bench")
try await ChatCompletionsStreamBenchmark.run()
