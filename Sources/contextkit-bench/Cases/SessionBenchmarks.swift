import Foundation
import ModelSession
import TestSupport

/// The session's own costs, with a scripted model so that only ContextKit is measured.
enum SessionBenchmarks {
  /// One response streamed as `count` text deltas, assembled by `respond`.
  static func streamedDeltas(count: Int) -> BenchmarkCase {
    let entryID = "response"
    let step = ScriptStep { _, channel in
      for index in 0..<count {
        await channel.send(
          .response(entryID: entryID, action: .appendText(index % 10 == 0 ? " word" : "abc", tokenCount: 1)))
      }
    }
    return BenchmarkCase(
      name: "session/assemble/\(count)-deltas",
      run: {
        try AsyncBenchmarkRunner.run {
          let session = LanguageModelSession(model: ScriptedLanguageModel(script: ModelScript([step])))
          return try await session.respond(to: "Go").content.utf8.count
        }
      },
      baseline: BenchmarkCase.Operation(
        name: "String appends only",
        run: {
          var text = ""
          for index in 0..<count { text += index % 10 == 0 ? " word" : "abc" }
          return text.utf8.count
        }), unit: BenchmarkUnit(name: "event", countPerOperation: count))
  }

  /// A turn in which the model calls a tool `rounds` times before answering.
  static func toolLoop(rounds: Int) throws -> BenchmarkCase {
    let weather = WeatherTool()
    return BenchmarkCase(
      name: "session/tool-loop/\(rounds)-rounds",
      run: {
        try AsyncBenchmarkRunner.run {
          var steps = (0..<rounds).map { index in
            ScriptStep.toolCall(name: "weather", arguments: #"{"city":"City \#(index)"}"#)
          }
          steps.append(.text("Done."))
          let session = LanguageModelSession(
            model: ScriptedLanguageModel(script: ModelScript(steps)), tools: [weather],
            maximumToolRounds: rounds)
          try await session.respond(to: "Check every city.")
          return session.transcript.count
        }
      }, unit: BenchmarkUnit(name: "round", countPerOperation: rounds))
  }
}
