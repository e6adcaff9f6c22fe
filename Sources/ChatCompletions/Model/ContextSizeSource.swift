import Foundation
import Synchronization

/// Where a ``ChatCompletionsLanguageModel`` learned its context window.
public enum ContextSizeSource: String, Sendable, Hashable, Codable {
  /// The app gave it (`ChatCompletionsLanguageModel(contextSize:)`).
  case declared
  /// llama.cpp's `GET /props` (`default_generation_settings.n_ctx`).
  case serverProperties
  /// vLLM's `GET /v1/models` (the model's `max_model_len`).
  case modelList
  /// A context-length error that gave the window ("maximum context length is 2048 tokens").
  case contextLengthError
}

/// A context window and where it came from.
public struct LearnedContextSize: Sendable, Hashable {
  /// The window, in tokens: prompt and response together.
  public var size: Int
  /// Where it came from.
  public var source: ContextSizeSource

  /// Creates the value.
  public init(size: Int, source: ContextSizeSource) {
    self.size = size
    self.source = source
  }
}

/// The windows learned in this process, by server and model name, so that
/// every model value that names the same model on the same server shares
/// them: the session's executor learns from errors, the history modifiers
/// read through `contextSize`.
final class ContextSizeRegistry: Sendable {
  struct Key: Hashable, Sendable {
    var baseURL: String
    var model: String
  }

  enum Entry: Sendable {
    case learned(LearnedContextSize)
    /// The server was asked and did not say; an error may still tell.
    case notReported(String)
  }

  static let shared = ContextSizeRegistry()

  private let entries = Mutex<[Key: Entry]>([:])

  func entry(for key: Key) -> Entry? {
    entries.withLock { $0[key] }
  }

  /// Keeps `size` unless a window is already known from a source at least as
  /// direct (an error's number replaces what a listing said: it is what the
  /// server enforced).
  func learn(_ size: LearnedContextSize, for key: Key) {
    guard size.size > 0 else { return }
    entries.withLock { entries in
      if case .learned(let known) = entries[key], known.source == .contextLengthError,
        size.source != .contextLengthError
      {
        return
      }
      entries[key] = .learned(size)
    }
  }

  func markNotReported(_ reason: String, for key: Key) {
    entries.withLock { entries in
      if case .learned = entries[key] { return }
      entries[key] = .notReported(reason)
    }
  }
}
