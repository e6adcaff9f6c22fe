import Foundation

extension Transcript {
  /// A response from the model.
  public struct Response: Sendable, Equatable, Identifiable {
    /// The entry's stable identifier.
    public var id: String
    /// Identifiers of assets the response refers to.
    public var assetIDs: [String]
    /// The response's text, structured content and attachments.
    public var segments: [Segment]
    /// Provider-specific data about the response.
    public var metadata: [String: GeneratedContent]

    /// Creates a response entry.
    public init(
      id: String = UUID().uuidString, assetIDs: [String], segments: [Segment],
      metadata: [String: GeneratedContent] = [:]
    ) {
      self.id = id
      self.assetIDs = assetIDs
      self.segments = segments
      self.metadata = metadata
    }
  }

  /// Reasoning the model did, kept so a provider can send it back.
  public struct Reasoning: Sendable, Equatable, Identifiable {
    /// The entry's stable identifier.
    public var id: String
    /// The reasoning text.
    public var segments: [Segment]
    /// An opaque signature some providers require to accept the reasoning back.
    public var signature: Data?
    /// Provider-specific data about the reasoning.
    public var metadata: [String: GeneratedContent]

    /// Creates a reasoning entry.
    public init(
      id: String = UUID().uuidString, segments: [Segment], signature: Data? = nil,
      metadata: [String: GeneratedContent] = [:]
    ) {
      self.id = id
      self.segments = segments
      self.signature = signature
      self.metadata = metadata
    }
  }
}
