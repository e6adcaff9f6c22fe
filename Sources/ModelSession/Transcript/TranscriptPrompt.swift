import Foundation

extension Transcript {
  /// A prompt from the user, with the options of the generation it started.
  public struct Prompt: Sendable, Equatable, Identifiable {
    /// The entry's stable identifier.
    public var id: String
    /// The prompt's text, images and other content.
    public var segments: [Segment]
    /// The options the generation used.
    public var options: GenerationOptions
    /// The schema the response had to follow, if any.
    public var responseFormat: ResponseFormat?

    /// Creates a prompt entry.
    public init(
      id: String = UUID().uuidString, segments: [Segment], options: GenerationOptions = GenerationOptions(),
      responseFormat: ResponseFormat? = nil
    ) {
      self.id = id
      self.segments = segments
      self.options = options
      self.responseFormat = responseFormat
    }
  }

  /// The format a response was asked to follow.
  public struct ResponseFormat: Sendable, Equatable, Hashable {
    /// What the format is.
    public enum Kind: Sendable, Equatable, Hashable {
      /// Content that follows a JSON schema.
      case schema(GenerationSchema)
    }

    /// What the format is.
    public var kind: Kind
    /// The format's name (the schema's title).
    public var name: String

    /// A response format that follows `schema`.
    public init(schema: GenerationSchema) {
      kind = .schema(schema)
      name = schema.name
    }
  }
}
