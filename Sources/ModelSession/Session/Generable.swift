/// A type the model can generate: it has a schema, and reads from and writes
/// to generated content.
///
/// Without macros, conformance is written by hand:
///
/// ```swift
/// struct Itinerary: Generable {
///   var city: String
///   var days: Int
///   static var generationSchema: GenerationSchema {
///     get throws {
///       try GenerationSchema(root: DynamicGenerationSchema(name: "Itinerary", properties: [
///         .init(name: "city", schema: DynamicGenerationSchema(type: String.self)),
///         .init(name: "days", schema: DynamicGenerationSchema(type: Int.self)),
///       ]), dependencies: [])
///     }
///   }
///   init(_ content: GeneratedContent) throws {
///     city = try content.value(forProperty: "city")
///     days = try content.value(forProperty: "days")
///   }
///   var generatedContent: GeneratedContent { GeneratedContent(properties: ["city": city, "days": days]) }
/// }
/// ```
public protocol Generable: ConvertibleFromGeneratedContent, ConvertibleToGeneratedContent, Sendable {
  /// The schema the model's output must follow.
  static var generationSchema: GenerationSchema { get throws }
}
