extension GenerationSchema: Codable {
  /// Encodes the schema as the JSON Schema document of `jsonSchema`.
  ///
  /// Keys are handed to the encoder in `jsonSchema`'s fixed order, but
  /// Foundation's `JSONEncoder` does not keep the order of keys it is given
  /// (it writes them in a hash order that changes between encodes), and no
  /// `encode(to:)` can make it. For the same bytes every time, encode with
  /// ``StableJSONEncoder``, which keeps the order (the properties as
  /// declared), or give `JSONEncoder` the `.sortedKeys` option.
  ///
  /// ```swift
  /// let data = try StableJSONEncoder().encode(schema)  // same schema, same bytes
  /// // the same bytes as Data(schema.jsonSchema.jsonString.utf8)
  /// ```
  public func encode(to encoder: any Encoder) throws {
    try SchemaJSONValue(jsonSchema).encode(to: encoder)
  }

  /// Decodes a JSON Schema document, as `init(jsonSchema:)` reads it.
  ///
  /// A `Decoder` does not report the order of an object's keys, so the
  /// properties of each object come back with the required ones first, in
  /// the order of `required`, then the optional ones by name; definitions come
  /// back by name. A schema whose properties are declared that way (all
  /// required, for instance) decodes to an equal value. To keep any order,
  /// parse the JSON into `GeneratedContent` and use `init(jsonSchema:)`.
  ///
  /// - Throws: `DecodingError.dataCorrupted` whose underlying error is the
  ///   `SchemaError` that names the part at fault.
  public init(from decoder: any Decoder) throws {
    let value = try SchemaJSONValue(from: decoder)
    do {
      self = try JSONSchemaReader(ordersPropertiesByRequired: true).read(value.content)
    } catch {
      throw DecodingError.dataCorrupted(
        .init(codingPath: decoder.codingPath, debugDescription: error.description, underlyingError: error))
    }
  }
}
