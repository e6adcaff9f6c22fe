/// A prompt for the model: text, images and structured content.
///
/// ```swift
/// let prompt = Prompt {
///   "Describe this picture."
///   Transcript.Segment.attachment(.init(content: .image(.init(url: pictureURL))))
/// }
/// ```
public struct Prompt: Sendable, Equatable {
  /// The prompt content, in order.
  public var segments: [Transcript.Segment]

  /// Creates a prompt from segments.
  public init(segments: [Transcript.Segment]) {
    self.segments = segments
  }

  /// Creates a prompt from anything that represents one, such as a string.
  public init(_ content: some PromptRepresentable) {
    self = content.promptRepresentation
  }

  /// Creates a prompt with a builder.
  public init(@PromptBuilder _ content: () throws -> Prompt) rethrows {
    self = try content()
  }

  /// The text of the text segments, joined by newlines.
  public var text: String { segments.joinedText }
}

/// A type that can be written into a prompt (and so returned by a tool).
public protocol PromptRepresentable {
  /// The value as a prompt.
  var promptRepresentation: Prompt { get }
}

extension Prompt: PromptRepresentable {
  /// The prompt itself.
  public var promptRepresentation: Prompt { self }
}

extension String: PromptRepresentable {
  /// The string as one text segment.
  public var promptRepresentation: Prompt { Prompt(segments: [.text(Transcript.TextSegment(content: self))]) }
}

extension Array: PromptRepresentable where Element: PromptRepresentable {
  /// The elements' prompts, concatenated.
  public var promptRepresentation: Prompt { Prompt(segments: flatMap(\.promptRepresentation.segments)) }
}

/// Builds a prompt from strings, segments and other representable values,
/// with `if`, `if`/`else` and `for`.
@resultBuilder
public enum PromptBuilder {
  /// Joins the parts in order.
  public static func buildBlock(_ components: Prompt...) -> Prompt {
    Prompt(segments: components.flatMap(\.segments))
  }

  /// Reads one part.
  public static func buildExpression(_ expression: some PromptRepresentable) -> Prompt {
    expression.promptRepresentation
  }

  /// An `if` without `else`.
  public static func buildOptional(_ component: Prompt?) -> Prompt { component ?? Prompt(segments: []) }

  /// The first branch of an `if`/`else`.
  public static func buildEither(first component: Prompt) -> Prompt { component }

  /// The second branch of an `if`/`else`.
  public static func buildEither(second component: Prompt) -> Prompt { component }

  /// A `for` loop.
  public static func buildArray(_ components: [Prompt]) -> Prompt {
    Prompt(segments: components.flatMap(\.segments))
  }

  /// An availability check.
  public static func buildLimitedAvailability(_ component: Prompt) -> Prompt { component }
}

extension [Transcript.Segment] {
  /// The text of the text segments (and the JSON of structured ones), joined by newlines.
  public var joinedText: String {
    compactMap { segment in
      switch segment {
      case .text(let text): text.content
      case .structure(let structure): structure.content.jsonString
      case .attachment, .custom: nil
      }
    }.joined(separator: "\n")
  }
}
