import Foundation

/// A type whose values have a fixed schema, so that
/// `DynamicGenerationSchema(type:guides:)` can describe it.
///
/// `String`, `Int`, `Double`, `Decimal`, `Bool` and arrays of conforming types
/// conform. The framework spells this requirement on its `Generable` protocol;
/// a type that conforms here with the same `generationSchema` property reads
/// the same way.
///
/// ```swift
/// struct Celsius: GenerationSchemaProviding {
///   static var generationSchema: GenerationSchema { Double.generationSchema }
/// }
/// let reading = DynamicGenerationSchema(type: Celsius.self)
/// ```
public protocol GenerationSchemaProviding {
  /// The schema of every value of the type.
  static var generationSchema: GenerationSchema { get }
}

extension String: GenerationSchemaProviding {
  /// A JSON string.
  public static var generationSchema: GenerationSchema {
    GenerationSchema(node: SchemaNode(kind: .string(.init())))
  }
}

extension Int: GenerationSchemaProviding {
  /// A JSON integer.
  public static var generationSchema: GenerationSchema {
    GenerationSchema(node: SchemaNode(kind: .integer(.init())))
  }
}

extension Double: GenerationSchemaProviding {
  /// A JSON number.
  public static var generationSchema: GenerationSchema {
    GenerationSchema(node: SchemaNode(kind: .number(.init())))
  }
}

extension Decimal: GenerationSchemaProviding {
  /// A JSON number.
  public static var generationSchema: GenerationSchema {
    GenerationSchema(node: SchemaNode(kind: .number(.init())))
  }
}

extension Bool: GenerationSchemaProviding {
  /// A JSON boolean.
  public static var generationSchema: GenerationSchema {
    GenerationSchema(node: SchemaNode(kind: .boolean))
  }
}

extension Array: GenerationSchemaProviding where Element: GenerationSchemaProviding {
  /// A JSON array whose items follow the element type's schema.
  public static var generationSchema: GenerationSchema {
    let (items, definitions) = Element.generationSchema.embeddable
    return GenerationSchema(
      node: SchemaNode(kind: .array(items: items, minimumCount: nil, maximumCount: nil)),
      definitions: definitions)
  }
}
