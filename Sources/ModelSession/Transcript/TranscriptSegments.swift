import Foundation

extension Transcript {
  /// A piece of an entry's content.
  public enum Segment: Sendable, Equatable, Identifiable {
    /// Plain text.
    case text(TextSegment)
    /// Structured content, such as the output of guided generation.
    case structure(StructuredSegment)
    /// An attachment, such as an image.
    case attachment(AttachmentSegment)
    /// A segment of an application-defined type.
    case custom(any CustomSegment)

    /// The segment's stable identifier.
    public var id: String {
      switch self {
      case .text(let segment): segment.id
      case .structure(let segment): segment.id
      case .attachment(let segment): segment.id
      case .custom(let segment): segment.id
      }
    }

    /// Compares two segments; custom segments compare through `CustomSegment.isEqual(to:)`.
    public static func == (lhs: Segment, rhs: Segment) -> Bool {
      switch (lhs, rhs) {
      case (.text(let left), .text(let right)): left == right
      case (.structure(let left), .structure(let right)): left == right
      case (.attachment(let left), .attachment(let right)): left == right
      case (.custom(let left), .custom(let right)): left.isEqual(to: right)
      default: false
      }
    }
  }

  /// A segment of plain text.
  public struct TextSegment: Sendable, Equatable, Hashable, Identifiable {
    /// The segment's stable identifier.
    public var id: String
    /// The text.
    public var content: String

    /// Creates a text segment.
    public init(id: String = UUID().uuidString, content: String) {
      self.id = id
      self.content = content
    }
  }

  /// A segment of structured content.
  public struct StructuredSegment: Sendable, Equatable, Hashable, Identifiable {
    /// The segment's stable identifier.
    public var id: String
    /// Where the content came from, such as the name of the schema that guided it.
    public var source: String
    /// The content.
    public var content: GeneratedContent

    /// Creates a structured segment.
    public init(id: String = UUID().uuidString, source: String = "", content: GeneratedContent) {
      self.id = id
      self.source = source
      self.content = content
    }
  }

  /// A segment that carries an attachment, such as an image.
  public struct AttachmentSegment: Sendable, Equatable, Hashable, Identifiable {
    /// The segment's stable identifier.
    public var id: String
    /// The attached content.
    public var content: Attachment
    /// An optional caption or alternative text.
    public var label: String?

    /// Creates an attachment segment.
    public init(id: String = UUID().uuidString, content: Attachment, label: String? = nil) {
      self.id = id
      self.content = content
      self.label = label
    }
  }

  /// Content attached to an entry.
  public enum Attachment: Sendable, Equatable, Hashable {
    /// An image.
    case image(ImageAttachment)
  }

  /// An image, given by its bytes or by a URL.
  public struct ImageAttachment: Sendable, Equatable, Hashable {
    /// Where the image is.
    public enum Source: Sendable, Equatable, Hashable {
      /// The encoded image bytes and their MIME type (`image/png`, `image/jpeg`, …).
      case data(Data, mimeType: String)
      /// A URL the model's server can fetch, or a `data:` URL.
      case url(URL)
    }

    /// Where the image is.
    public var source: Source

    /// Creates an image from encoded bytes.
    public init(data: Data, mimeType: String) {
      source = .data(data, mimeType: mimeType)
    }

    /// Creates an image from a URL.
    public init(url: URL) {
      source = .url(url)
    }

    /// Creates an image from a URL (the framework's unlabelled spelling).
    ///
    /// ```swift
    /// Transcript.ImageAttachment(URL(fileURLWithPath: "diagram.png"))
    /// ```
    public init(_ url: URL) {
      self.init(url: url)
    }
  }
}
