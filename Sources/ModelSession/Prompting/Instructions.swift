/// Instructions for the model: what it is for, how to behave, what to avoid.
///
/// ```swift
/// let instructions = Instructions {
///   "You are a travel planner."
///   if concise { "Answer in three sentences or fewer." }
/// }
/// ```
public struct Instructions: Sendable, Equatable {
  /// The instruction content, in order.
  public var segments: [Transcript.Segment]

  /// Creates instructions from segments.
  public init(segments: [Transcript.Segment]) {
    self.segments = segments
  }

  /// Creates instructions from anything that represents them, such as a string.
  public init(_ content: some InstructionsRepresentable) {
    self = content.instructionsRepresentation
  }

  /// Creates instructions with a builder.
  public init(@InstructionsBuilder _ content: () throws -> Instructions) rethrows {
    self = try content()
  }

  /// The text of the text segments, joined by newlines.
  public var text: String { segments.joinedText }
}

/// A type that can be written into instructions.
public protocol InstructionsRepresentable {
  /// The value as instructions.
  var instructionsRepresentation: Instructions { get }
}

extension Instructions: InstructionsRepresentable {
  /// The instructions themselves.
  public var instructionsRepresentation: Instructions { self }
}

extension String: InstructionsRepresentable {
  /// The string as one text segment.
  public var instructionsRepresentation: Instructions {
    Instructions(segments: [.text(Transcript.TextSegment(content: self))])
  }
}

extension Transcript.Segment: InstructionsRepresentable, PromptRepresentable {
  /// The segment as instructions.
  public var instructionsRepresentation: Instructions { Instructions(segments: [self]) }
  /// The segment as a prompt.
  public var promptRepresentation: Prompt { Prompt(segments: [self]) }
}

extension Array: InstructionsRepresentable where Element: InstructionsRepresentable {
  /// The elements' instructions, concatenated.
  public var instructionsRepresentation: Instructions {
    Instructions(segments: flatMap(\.instructionsRepresentation.segments))
  }
}

/// Builds instructions from strings, segments and other representable values,
/// with `if`, `if`/`else` and `for`.
@resultBuilder
public enum InstructionsBuilder {
  /// Joins the parts in order.
  public static func buildBlock(_ components: Instructions...) -> Instructions {
    Instructions(segments: components.flatMap(\.segments))
  }

  /// Reads one part.
  public static func buildExpression(_ expression: some InstructionsRepresentable) -> Instructions {
    expression.instructionsRepresentation
  }

  /// An `if` without `else`.
  public static func buildOptional(_ component: Instructions?) -> Instructions {
    component ?? Instructions(segments: [])
  }

  /// The first branch of an `if`/`else`.
  public static func buildEither(first component: Instructions) -> Instructions { component }

  /// The second branch of an `if`/`else`.
  public static func buildEither(second component: Instructions) -> Instructions { component }

  /// A `for` loop.
  public static func buildArray(_ components: [Instructions]) -> Instructions {
    Instructions(segments: components.flatMap(\.segments))
  }

  /// An availability check.
  public static func buildLimitedAvailability(_ component: Instructions) -> Instructions { component }
}
