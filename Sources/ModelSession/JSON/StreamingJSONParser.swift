/// Parses JSON text that arrives in pieces, such as a streamed model
/// response, without reading again what came before.
///
/// Each call to `append(_:)` returns the value so far, with the same rules as
/// `GeneratedContent(partialJSON:)`: the result after appending equals parsing
/// the whole text so far with `GeneratedContent(partialJSON:)`, but costs
/// about as much as the new text (plus copying the open containers' members)
/// instead of the whole text. A token cut by the end of a piece (a string, a
/// number) is read again from its start when the next piece arrives.
///
/// ```swift
/// var parser = StreamingJSONParser()
/// _ = try parser.append(#"{"title": "Du"#)   // {"title":"Du"}, incomplete
/// let done = try parser.append(#"ne"}"#)     // {"title":"Dune"}, complete
/// ```
public struct StreamingJSONParser: Sendable {
  private var bytes: [UInt8] = []
  private var checkpoint = JSONParser.Checkpoint()
  private var failure: JSONParsingError?

  /// The value parsed so far: an incomplete `null` before any text arrives.
  public private(set) var content = GeneratedContent(storage: .null, isComplete: false)

  /// Creates a parser that has seen no text.
  public init() {}

  /// Appends the next piece of text and returns the value so far.
  ///
  /// - Throws: `JSONParsingError` (with offsets into the whole text) as soon
  ///   as the text can never become valid JSON. After an error, every later
  ///   call throws it again.
  @discardableResult
  public mutating func append(_ text: String) throws(JSONParsingError) -> GeneratedContent {
    if let failure { throw failure }
    bytes.append(contentsOf: text.utf8)
    let checkpoint = self.checkpoint
    let outcome = bytes.withUnsafeBufferPointer { buffer in
      var parser = JSONParser(bytes: buffer, resumingFrom: checkpoint)
      return Result { () throws(JSONParsingError) in (try parser.parseDocument(), parser.checkpoint) }
    }
    switch outcome {
    case .success(let (value, next)):
      // A complete document resumes after its value: only whitespace may follow.
      self.checkpoint =
        next ?? JSONParser.Checkpoint(position: bytes.count, step: .afterValue, values: [value])
      content = value
      return value
    case .failure(let error):
      failure = error
      throw error
    }
  }
}
