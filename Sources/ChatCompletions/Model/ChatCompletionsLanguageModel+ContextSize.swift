import Foundation
import ModelSession

extension ChatCompletionsLanguageModel: ContextSizeProviding {
  /// The model's context window, in tokens: prompt and response together.
  ///
  /// In order: the size the app declared (``declaredContextSize``); the size
  /// learned earlier in this process for this server and model name (from
  /// the server, or from a context-length error that gave it); otherwise the
  /// server is asked once: llama.cpp's `GET /props`, then `GET /v1/models`
  /// (vLLM's `max_model_len`). See ``learnedContextSize`` for where it came from.
  ///
  /// ```swift
  /// let window = try await model.contextSize  // 4096 from llama-server's /props
  /// ```
  ///
  /// - Throws: ``ContextSizeUnknownError`` when the server does not report
  ///   it (llama-cpp-python, Ollama) and no error has given it yet; the
  ///   server's error when it cannot be reached.
  public var contextSize: Int {
    get async throws {
      if let declaredContextSize { return declaredContextSize }
      let key = contextSizeKey
      switch ContextSizeRegistry.shared.entry(for: key) {
      case .learned(let learned):
        return learned.size
      case .notReported(let reason):
        throw ContextSizeUnknownError(reason: reason)
      case nil:
        let client = ChatCompletionsClient(endpoint: endpoint, timeouts: timeouts)
        let discovery = ContextSizeDiscovery(client: client, model: name)
        let answer: Result<LearnedContextSize, ContextSizeDiscovery.NotReported>
        do {
          answer = try await discovery.discover()
        } catch {
          throw ErrorBoundary.publicError(for: error, mapper: client.mapper)
        }
        switch answer {
        case .success(let learned):
          ContextSizeRegistry.shared.learn(learned, for: key)
          return learned.size
        case .failure(let notReported):
          ContextSizeRegistry.shared.markNotReported(notReported.reason, for: key)
          // An error may have taught the window meanwhile.
          if case .learned(let learned) = ContextSizeRegistry.shared.entry(for: key) { return learned.size }
          throw ContextSizeUnknownError(reason: notReported.reason)
        }
      }
    }
  }

  /// The window known without asking the server, and where it came from: the
  /// declared size, or what this process learned for this server and model
  /// name (from `/props`, `/v1/models` or a context-length error); `nil`
  /// when nothing is known yet.
  public var learnedContextSize: LearnedContextSize? {
    if let declaredContextSize { return LearnedContextSize(size: declaredContextSize, source: .declared) }
    if case .learned(let learned) = ContextSizeRegistry.shared.entry(for: contextSizeKey) { return learned }
    return nil
  }

  /// Remembers the window a context-length error gave.
  func learnContextSize(from error: any Error) {
    guard case .contextSizeExceeded(let refusal) = error as? LanguageModelError, refusal.contextSize > 0
    else {
      return
    }
    ContextSizeRegistry.shared.learn(
      LearnedContextSize(size: refusal.contextSize, source: .contextLengthError), for: contextSizeKey)
  }

  private var contextSizeKey: ContextSizeRegistry.Key {
    ContextSizeRegistry.Key(baseURL: endpoint.baseURL.absoluteString, model: name)
  }
}

/// The model's window is not known: the server does not report it and no
/// context-length error has given it yet.
public struct ContextSizeUnknownError: Error, Sendable, Hashable, CustomStringConvertible {
  /// Why, naming the server (without its secrets) and what was asked.
  public var reason: String

  /// `<reason>; declare it with ChatCompletionsLanguageModel(contextSize:), or it is learned from the first context-length error`.
  public var description: String {
    "\(reason); declare it with ChatCompletionsLanguageModel(contextSize:), or it is learned from the first "
      + "context-length error"
  }
}
