extension GeneratedContent {
  /// Parses a complete JSON document (RFC 8259), keeping the order of object keys.
  ///
  /// A key repeated in an object keeps its first position and takes its last
  /// value. Nesting deeper than 10,000 arrays and objects is rejected, as are
  /// numbers beyond the range of `Double` (`1e400`).
  ///
  /// ```swift
  /// let content = try GeneratedContent(json: #"{"b": 1, "a": [true, null]}"#)
  /// content.orderedKeys  // ["b", "a"]
  /// ```
  ///
  /// - Throws: `JSONParsingError` with the offset, line, column and reason.
  public init(json: String) throws(JSONParsingError) {
    self = try JSONParser.parse(json, isPartial: false)
  }

  /// Parses the beginning of a JSON document that is still arriving, such as a
  /// streamed model response.
  ///
  /// Every container that is still open, and every value cut short, has
  /// `isComplete == false`:
  /// - a string cut short holds the text so far (less an escape cut in half);
  /// - a number cut short holds its longest valid prefix (`1.` reads as `1`,
  ///   a lone `-` as nothing); a number that reaches the end of the input is
  ///   incomplete, since more digits may follow, and is left out while it is
  ///   out of range without an exponent (a negative exponent may follow);
  /// - a literal cut short (`tr`) is left out, as is an object key whose value
  ///   has not started;
  /// - an empty input, or one cut inside a top-level literal, reads as an
  ///   incomplete `null`.
  ///
  /// ```swift
  /// let partial = try GeneratedContent(partialJSON: #"{"title": "Du"#)
  /// partial.jsonString   // {"title":"Du"}
  /// partial.isComplete   // false
  /// ```
  ///
  /// To parse a response as it grows, `StreamingJSONParser` gives the same
  /// results without reading the start again for every piece.
  ///
  /// - Throws: `JSONParsingError` only when the text can never become valid
  ///   JSON, whatever follows.
  public init(partialJSON: String) throws(JSONParsingError) {
    self = try JSONParser.parse(partialJSON, isPartial: true)
  }

  /// The compact JSON text of the value: no whitespace, keys in order.
  ///
  /// The text is byte-stable (the same value always gives the same bytes).
  /// Strings escape only `"`, `\` and control characters; other characters,
  /// including `/` and non-ASCII ones, are written as they are. Whole numbers
  /// below 2^53 in magnitude print without a fraction (`3`), other numbers in
  /// their shortest form that reads back to the same `Double` (`0.1`, `1e+300`);
  /// infinities and NaN print as `null`.
  public var jsonString: String {
    jsonString(prettyPrinted: false)
  }

  /// The JSON text of the value, optionally indented by two spaces per level
  /// with one member or element per line.
  ///
  /// ```swift
  /// print(content.jsonString(prettyPrinted: true))
  /// // {
  /// //   "city": "Paris",
  /// //   "days": 3
  /// // }
  /// ```
  public func jsonString(prettyPrinted: Bool) -> String {
    var writer = JSONWriter(prettyPrinted: prettyPrinted)
    writer.write(self)
    return String(decoding: writer.bytes, as: UTF8.self)
  }

  /// The compact JSON text as UTF-8 bytes.
  var jsonBytes: [UInt8] {
    var writer = JSONWriter(prettyPrinted: false)
    writer.write(self)
    return writer.bytes
  }
}
