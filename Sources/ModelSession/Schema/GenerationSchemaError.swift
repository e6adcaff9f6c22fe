extension GenerationSchema {
  /// Why a `GenerationSchema` could not be built or read.
  ///
  /// Each case names the schema at fault (its name, or the name of the schema
  /// that contains the offending part) and says more in its context.
  public enum SchemaError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Two schemas have the same name but differ.
    case duplicateType(schema: String?, type: String, context: Context)
    /// An object lists a property name twice.
    case duplicateProperty(schema: String, property: String, context: Context)
    /// An `anyOf` schema has no choices.
    case emptyTypeChoices(schema: String, context: Context)
    /// References point to names that no dependency defines.
    case undefinedReferences(schema: String?, references: [String], context: Context)
    /// A guide cannot hold or does not apply to its value.
    case invalidGuide(schema: String, context: Context)
    /// A dependency has no name to be referenced by.
    case unnamedDependency(context: Context)
    /// References only lead to each other, never to a value.
    case circularReference(schema: String, context: Context)
    /// A JSON Schema document uses something this type does not read, at
    /// `pointer` (a JSON Pointer such as `#/properties/age`).
    case invalidJSONSchema(pointer: String, context: Context)

    /// More about an error.
    public struct Context: Sendable, Equatable {
      /// A message for developers.
      public let debugDescription: String

      /// Creates a context.
      public init(debugDescription: String) {
        self.debugDescription = debugDescription
      }
    }

    /// The error's context.
    public var context: Context {
      switch self {
      case .duplicateType(_, _, let context), .duplicateProperty(_, _, let context),
        .emptyTypeChoices(_, let context), .undefinedReferences(_, _, let context),
        .invalidGuide(_, let context), .unnamedDependency(let context),
        .circularReference(_, let context), .invalidJSONSchema(_, let context):
        context
      }
    }

    /// A message that names the schema and the problem.
    public var description: String { context.debugDescription }
  }
}
