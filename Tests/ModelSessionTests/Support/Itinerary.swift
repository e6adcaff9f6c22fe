import Foundation
import ModelSession
import TestSupport

struct Itinerary: Generable, Equatable {
  var city: String
  var days: Int

  static var generationSchema: GenerationSchema {
    (try? GenerationSchema(
      root: DynamicGenerationSchema(
        name: "Itinerary",
        properties: [
          .init(name: "city", schema: DynamicGenerationSchema(type: String.self)),
          .init(name: "days", schema: DynamicGenerationSchema(type: Int.self)),
        ]), dependencies: [])) ?? String.generationSchema
  }

  init(city: String, days: Int) {
    self.city = city
    self.days = days
  }

  init(_ content: GeneratedContent) throws {
    city = try content.value(forProperty: "city")
    days = try content.value(forProperty: "days")
  }

  var generatedContent: GeneratedContent { GeneratedContent(properties: ["city": city, "days": days]) }
}
