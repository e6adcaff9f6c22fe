import Foundation

/// The errors a language model reports, the same for every provider so that
/// apps can handle them once.
///
/// ```swift
/// do { try await session.respond(to: prompt) }
/// catch LanguageModelError.rateLimited(let info) { retry(after: info.resetDate) }
/// ```
public enum LanguageModelError: Error, Sendable, CustomStringConvertible {
  /// The prompt does not fit in the model's context window.
  case contextSizeExceeded(ContextSizeExceeded)
  /// Too many requests; try again after `resetDate`.
  case rateLimited(RateLimited)
  /// The provider's safety system blocked the request or the response.
  case guardrailViolation(GuardrailViolation)
  /// The model refused to answer.
  case refusal(Refusal)
  /// The request needs a capability the model does not have.
  case unsupportedCapability(UnsupportedCapability)
  /// The transcript holds content the model cannot take.
  case unsupportedTranscriptContent(UnsupportedTranscriptContent)
  /// The schema uses a guide the model cannot enforce.
  case unsupportedGenerationGuide(UnsupportedGenerationGuide)
  /// The model does not support the language or locale.
  case unsupportedLanguageOrLocale(UnsupportedLanguageOrLocale)
  /// The request did not finish in time.
  case timeout(Timeout)

  /// The payload's developer-facing message.
  public var debugDescription: String {
    switch self {
    case .contextSizeExceeded(let payload): payload.debugDescription
    case .rateLimited(let payload): payload.debugDescription
    case .guardrailViolation(let payload): payload.debugDescription
    case .refusal(let payload): payload.debugDescription
    case .unsupportedCapability(let payload): payload.debugDescription
    case .unsupportedTranscriptContent(let payload): payload.debugDescription
    case .unsupportedGenerationGuide(let payload): payload.debugDescription
    case .unsupportedLanguageOrLocale(let payload): payload.debugDescription
    case .timeout(let payload): payload.debugDescription
    }
  }

  /// The case name and its message.
  public var description: String {
    switch self {
    case .contextSizeExceeded: "contextSizeExceeded: \(debugDescription)"
    case .rateLimited: "rateLimited: \(debugDescription)"
    case .guardrailViolation: "guardrailViolation: \(debugDescription)"
    case .refusal: "refusal: \(debugDescription)"
    case .unsupportedCapability: "unsupportedCapability: \(debugDescription)"
    case .unsupportedTranscriptContent: "unsupportedTranscriptContent: \(debugDescription)"
    case .unsupportedGenerationGuide: "unsupportedGenerationGuide: \(debugDescription)"
    case .unsupportedLanguageOrLocale: "unsupportedLanguageOrLocale: \(debugDescription)"
    case .timeout: "timeout: \(debugDescription)"
    }
  }
}

extension LanguageModelError {
  /// The prompt does not fit in the context window.
  public struct ContextSizeExceeded: Sendable {
    /// The model's context size, in tokens.
    public var contextSize: Int
    /// The prompt's size, in tokens.
    public var tokenCount: Int
    /// A developer-facing message, with the provider's own words.
    public var debugDescription: String
    /// Extra context, such as the provider's error code.
    public var metadata: [String: any Sendable]

    /// Creates the payload.
    public init(
      contextSize: Int, tokenCount: Int, debugDescription: String, metadata: [String: any Sendable] = [:]
    ) {
      self.contextSize = contextSize
      self.tokenCount = tokenCount
      self.debugDescription = debugDescription
      self.metadata = metadata
    }
  }

  /// Too many requests.
  public struct RateLimited: Sendable {
    /// When requests will be accepted again, when known.
    public var resetDate: Date?
    /// A developer-facing message, with the provider's own words.
    public var debugDescription: String
    /// Extra context, such as the provider's error code.
    public var metadata: [String: any Sendable]

    /// Creates the payload.
    public init(resetDate: Date?, debugDescription: String, metadata: [String: any Sendable] = [:]) {
      self.resetDate = resetDate
      self.debugDescription = debugDescription
      self.metadata = metadata
    }
  }

  /// The provider's safety system blocked the content.
  public struct GuardrailViolation: Sendable {
    /// A developer-facing message, with the provider's own words.
    public var debugDescription: String
    /// Extra context, such as the provider's error code.
    public var metadata: [String: any Sendable]

    /// Creates the payload.
    public init(debugDescription: String, metadata: [String: any Sendable] = [:]) {
      self.debugDescription = debugDescription
      self.metadata = metadata
    }
  }

  /// The model refused to answer.
  public struct Refusal: Sendable {
    /// A developer-facing message, with the model's explanation when there is one.
    public var debugDescription: String
    /// Extra context, such as the provider's error code.
    public var metadata: [String: any Sendable]

    /// Creates the payload.
    public init(debugDescription: String, metadata: [String: any Sendable] = [:]) {
      self.debugDescription = debugDescription
      self.metadata = metadata
    }
  }

  /// A capability the model does not have.
  public struct UnsupportedCapability: Sendable {
    /// The capability the request needed.
    public var capability: LanguageModelCapabilities.Capability
    /// A developer-facing message.
    public var debugDescription: String
    /// Extra context.
    public var metadata: [String: any Sendable]

    /// Creates the payload.
    public init(
      capability: LanguageModelCapabilities.Capability, debugDescription: String,
      metadata: [String: any Sendable] = [:]
    ) {
      self.capability = capability
      self.debugDescription = debugDescription
      self.metadata = metadata
    }
  }

  /// Transcript content the model cannot take.
  public struct UnsupportedTranscriptContent: Sendable {
    /// The entries that hold the content.
    public var unsupportedContent: [Transcript.Entry]
    /// A developer-facing message.
    public var debugDescription: String
    /// Extra context.
    public var metadata: [String: any Sendable]

    /// Creates the payload.
    public init(
      unsupportedContent: [Transcript.Entry], debugDescription: String, metadata: [String: any Sendable] = [:]
    ) {
      self.unsupportedContent = unsupportedContent
      self.debugDescription = debugDescription
      self.metadata = metadata
    }
  }

  /// A generation guide the model cannot enforce.
  public struct UnsupportedGenerationGuide: Sendable {
    /// The schema that uses the guide.
    public var schemaName: String
    /// A developer-facing message.
    public var debugDescription: String
    /// Extra context.
    public var metadata: [String: any Sendable]

    /// Creates the payload.
    public init(schemaName: String, debugDescription: String, metadata: [String: any Sendable] = [:]) {
      self.schemaName = schemaName
      self.debugDescription = debugDescription
      self.metadata = metadata
    }
  }

  /// A language or locale the model does not support.
  public struct UnsupportedLanguageOrLocale: Sendable {
    /// The language asked for, when known.
    public var languageCode: Locale.LanguageCode?
    /// A developer-facing message.
    public var debugDescription: String
    /// Extra context.
    public var metadata: [String: any Sendable]

    /// Creates the payload.
    public init(
      languageCode: Locale.LanguageCode?, debugDescription: String, metadata: [String: any Sendable] = [:]
    ) {
      self.languageCode = languageCode
      self.debugDescription = debugDescription
      self.metadata = metadata
    }
  }

  /// The request did not finish in time.
  public struct Timeout: Sendable {
    /// A developer-facing message.
    public var debugDescription: String
    /// Extra context.
    public var metadata: [String: any Sendable]

    /// Creates the payload.
    public init(debugDescription: String, metadata: [String: any Sendable] = [:]) {
      self.debugDescription = debugDescription
      self.metadata = metadata
    }
  }
}
