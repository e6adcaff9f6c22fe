import ContextKit
import ContextKitDemo
import Foundation

/// One run of the cache check against a live server, for `contextkit
/// check-cache` and `contextkit demo --cache-check`: the prompts under
/// `compactingHistory` with the skills catalog, the instructions skill
/// `writing-commit-messages` switched on at turn 10 and off at turn 25, and
/// every generation's predicted reuse next to the server's (``LiveCacheCheck``).
struct CacheCheckRun {
  /// The instructions skill the check switches.
  static let switchedSkill = "writing-commit-messages"

  var endpoint: URL
  var model: String
  var budget: Int
  var maximumResponseTokens: Int
  var requestStyle: ChatCompletionsRequestStyle
  /// llama-cpp-python's log, where that server reports its reuse.
  var serverLog: URL?
  var skills: [Skill]

  func run(instructions: String, prompts: [String]) async throws -> LiveCacheCheck.Result {
    let languageModel = ChatCompletionsLanguageModel(
      name: model, baseURL: endpoint, timeout: 300, requestStyle: requestStyle)
    let check = LiveCacheCheck(
      model: languageModel, instructions: instructions, skills: skills,
      skillSwitches: [10: (Self.switchedSkill, true), 25: (Self.switchedSkill, false)],
      budget: budget, maximumResponseTokens: maximumResponseTokens, serverLog: serverLog,
      templateRendersTools: requestStyle != .llamaCppPython)
    return try await check.run(prompts: prompts)
  }
}
