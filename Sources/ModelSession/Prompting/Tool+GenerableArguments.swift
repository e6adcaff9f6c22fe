extension Tool where Arguments: Generable {
  /// The arguments' schema, `Arguments.generationSchema`: as in the
  /// framework, a tool whose arguments are `Generable` needs no `parameters`
  /// of its own.
  ///
  /// ```swift
  /// struct NoteTool: Tool {
  ///   let description = "Saves a note."
  ///   struct Arguments: Generable { … }  // the hand conformance (see `Generable`)
  ///   func call(arguments: Arguments) async throws -> String { … }
  /// }
  /// ```
  ///
  /// `parameters` cannot throw. When `Arguments.generationSchema` does (a
  /// hand conformance whose schema refers to a definition it does not carry,
  /// say), the tool offers an object with no properties, titled with the
  /// type's name, and a call whose arguments do not fit `Arguments` fails
  /// as a tool error. Check a conformance with `try Arguments.generationSchema`.
  public var parameters: GenerationSchema {
    (try? Arguments.generationSchema)
      ?? GenerationSchema(node: SchemaNode(title: String(describing: Arguments.self), kind: .object([])))
  }
}
