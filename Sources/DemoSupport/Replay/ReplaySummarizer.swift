import ModelSession
import Synchronization

/// An offline summarizer model for replays: it answers every request with a
/// deterministic digest of the text it was asked to condense (the first
/// words of each line, up to a fixed length), and counts its calls.
///
/// Its summaries are short and stable, like a good summarizer's: the same
/// input always gives the same summary, and a summary never grows past
/// ``wordLimit`` words.
///
/// ```swift
/// let summarizer = ReplaySummarizer()
/// let profile = base.summarizeHistory(threshold: .tokens(8_000), model: summarizer)
/// // after the run
/// print(summarizer.callCount)
/// ```
public struct ReplaySummarizer: LanguageModel {
  /// The executor that writes the digests.
  public struct Executor: LanguageModelExecutor {
    /// The call counter, compared by identity.
    public typealias Configuration = ReplayCallCounter
    /// The model type.
    public typealias Model = ReplaySummarizer

    /// Creates the executor.
    public init(configuration: ReplayCallCounter) {}

    /// Streams the digest of the request's last prompt.
    public func respond(
      to request: LanguageModelExecutorGenerationRequest, model: ReplaySummarizer,
      streamingInto channel: LanguageModelExecutorGenerationChannel
    ) async throws {
      model.counter.increment()
      var text = ""
      if case .prompt(let prompt) = request.transcript.entries.last {
        text = prompt.segments.joinedText
      }
      let summary = ReplaySummarizer.digest(of: text, wordLimit: model.wordLimit)
      let tokens = ReplayLanguageModel.Executor.estimate(summary)
      await channel.send(.response(entryID: "summary", action: .appendText(summary, tokenCount: tokens)))
      await channel.send(
        .response(
          entryID: "summary",
          action: .updateUsage(input: .init(totalTokenCount: 0), output: .init(totalTokenCount: tokens))))
    }
  }

  /// Counts the summaries written.
  public let counter: ReplayCallCounter
  /// The most words in a summary.
  public let wordLimit: Int
  /// Text only.
  public var capabilities: LanguageModelCapabilities { [] }
  /// The counter: each summarizer gets its own executor.
  public var executorConfiguration: ReplayCallCounter { counter }

  /// Creates a summarizer with a fresh counter.
  public init(wordLimit: Int = 160) {
    counter = ReplayCallCounter()
    self.wordLimit = max(1, wordLimit)
  }

  /// The calls made so far.
  public var callCount: Int { counter.count }

  /// The first words of each non-empty line of `text`, a few per line, up to `wordLimit` words.
  static func digest(of text: String, wordLimit: Int) -> String {
    var words: [Substring] = []
    for line in text.split(separator: "\n") where words.count < wordLimit {
      let lineWords = line.split(separator: " ").prefix(6)
      words.append(contentsOf: lineWords.prefix(wordLimit - words.count))
    }
    return words.isEmpty ? "Nothing to summarize." : words.joined(separator: " ")
  }
}

/// A shared count of calls, safe to bump from any task.
public final class ReplayCallCounter: Sendable, Hashable {
  private let value = Mutex(0)

  /// Starts at zero.
  public init() {}

  /// The count.
  public var count: Int { value.withLock { $0 } }

  /// Adds one.
  func increment() {
    value.withLock { $0 += 1 }
  }

  /// Counters are equal when they are the same object.
  public static func == (lhs: ReplayCallCounter, rhs: ReplayCallCounter) -> Bool { lhs === rhs }

  /// Hashes the object's identity.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(ObjectIdentifier(self))
  }
}
