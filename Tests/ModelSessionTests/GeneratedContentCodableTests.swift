import Foundation
import ModelSession
import Testing

private struct Trip: Codable, Equatable {
  var city: String
  var days: Int
  var stops: [Stop]
  var note: String?
}

private struct Stop: Codable, Equatable {
  var name: String
  var hours: Double
}

@Suite(.timeLimit(.minutes(10))) struct GeneratedContentCodableTests {
  @Test(.timeLimit(.minutes(10))) func `content encodes as one string of its compact JSON`() throws {
    let content = try GeneratedContent(json: #"{"z": 1, "a": [true, "x"]}"#)
    let data = try JSONEncoder().encode([content])
    #expect(String(decoding: data, as: UTF8.self) == #"["{\"z\":1,\"a\":[true,\"x\"]}"]"#)
    let decoded = try JSONDecoder().decode([GeneratedContent].self, from: data)
    #expect(decoded == [content])
    #expect(decoded[0].orderedKeys == ["z", "a"])
    #expect(decoded[0].jsonString == content.jsonString)
  }

  @Test(.timeLimit(.minutes(10)))
  func `decoding invalid JSON text is data corruption with the parser's message`() throws {
    let data = Data(#"["{\"a\":}"]"#.utf8)
    let error = try #require(throws: DecodingError.self) {
      try JSONDecoder().decode([GeneratedContent].self, from: data)
    }
    guard case .dataCorrupted(let context) = error else {
      Issue.record("expected dataCorrupted, got \(error)")
      return
    }
    #expect(context.debugDescription.contains("line 1, column 6: expected a value, found '}'"))
  }

  @Test(.timeLimit(.minutes(10))) func `any Codable value bridges through content`() throws {
    let trip = Trip(city: "Paris", days: 3, stops: [Stop(name: "Louvre", hours: 2.5)], note: nil)
    let content = try GeneratedContent(encoding: trip)
    #expect(content.jsonString == #"{"city":"Paris","days":3,"stops":[{"hours":2.5,"name":"Louvre"}]}"#)
    #expect(try content.decoded(as: Trip.self) == trip)
    #expect(try content.value(Int.self, forProperty: "days") == 3)
  }

  @Test(.timeLimit(.minutes(10))) func `bridge errors say what failed and where`() throws {
    let content = try GeneratedContent(
      json: #"{"city": "Paris", "days": 3, "stops": [{"name": "Louvre", "hours": "two"}]}"#)
    let mismatch = try #require(throws: GeneratedContentError.self) { try content.decoded(as: Trip.self) }
    #expect(mismatch.path == "$.stops[0].hours")
    guard case .decodingFailed(let message) = mismatch.reason else {
      Issue.record("expected decodingFailed, got \(mismatch)")
      return
    }
    #expect(message.hasPrefix("cannot decode Trip: expected Double"))

    let missing = try #require(throws: GeneratedContentError.self) {
      try GeneratedContent(json: #"{"city": "Paris"}"#).decoded(as: Trip.self)
    }
    #expect(missing.reason == .decodingFailed(#"cannot decode Trip: missing property "days""#))

    let unencodable = try #require(throws: GeneratedContentError.self) {
      try GeneratedContent(encoding: [Double.nan])
    }
    guard case .decodingFailed(let encodingMessage) = unencodable.reason else {
      Issue.record("expected decodingFailed, got \(unencodable)")
      return
    }
    #expect(encodingMessage.hasPrefix("cannot encode Array<Double> as JSON"))
  }
}
