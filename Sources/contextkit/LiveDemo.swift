/// `contextkit demo --endpoint URL --model NAME`: the demo against a live
/// OpenAI-compatible server.
///
/// PLUG-IN POINT for the ChatCompletions provider (branch `chat`), which is
/// not on this branch yet. When it lands: build its `LanguageModel` for
/// `endpoint` and `model` here, and play each scenario's prompts through a
/// session on it under `baselineRollingWindow` and `compactingHistory`,
/// comparing the server's cached tokens and prompt-processing time. Until
/// then the flag fails with a message that says what is missing.
enum LiveDemo {
  /// The live demo cannot run in this build.
  struct Unavailable: Error, CustomStringConvertible {
    var endpoint: String
    var model: String

    var description: String {
      "demo --endpoint \(endpoint) --model \(model): this build has no OpenAI-compatible provider "
        + "(the ChatCompletions module, from the chat completions work, is not in it yet); "
        + "run 'contextkit demo' without --endpoint for the offline replay"
    }
  }

  static func run(endpoint: String, model: String) throws(Unavailable) {
    throw Unavailable(endpoint: endpoint, model: model)
  }
}
