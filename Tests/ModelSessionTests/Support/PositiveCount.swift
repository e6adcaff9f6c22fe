import Foundation
import ModelSession
import TestSupport

/// A type whose schema accepts any count, but which refuses negative ones when read.
struct PositiveCount: Generable {
  var count: Int

  static var generationSchema: GenerationSchema {
    (try? GenerationSchema(
      root: DynamicGenerationSchema(
        name: "PositiveCount",
        properties: [.init(name: "count", schema: DynamicGenerationSchema(type: Int.self))]),
      dependencies: [])) ?? Int.generationSchema
  }

  init(_ content: GeneratedContent) throws {
    count = try content.value(forProperty: "count")
    guard count >= 0 else {
      throw GeneratedContentError(.numberOutOfRange(Double(count), type: "PositiveCount"))
    }
  }

  var generatedContent: GeneratedContent { GeneratedContent(properties: ["count": count]) }
}
