import Foundation
import ModelSession
import Testing

/// Pure tests of `StableJSONEncoder`: every expected text below is written by hand.
@Suite("StableJSONEncoder writes what the value wrote, in its order", .timeLimit(.minutes(10)))
struct StableJSONEncoderTests {
  private struct Key: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }
    init(_ name: String) { stringValue = name }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }

  /// Writes its members in the order given, whatever their names.
  private struct Members: Encodable {
    var pairs: [(String, Int)]
    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: Key.self)
      for (name, value) in pairs { try container.encode(value, forKey: Key(name)) }
    }
  }

  private func text(_ value: some Encodable) throws -> String {
    String(decoding: try StableJSONEncoder().encode(value), as: UTF8.self)
  }

  @Test func `members come out in the order encode(to:) wrote them`() throws {
    let members = Members(pairs: [("zeta", 1), ("alpha", 2), ("mid", 3), ("beta", 4)])
    #expect(try text(members) == #"{"zeta":1,"alpha":2,"mid":3,"beta":4}"#)
  }

  @Test func `a key written twice keeps its first place and its last value`() throws {
    let members = Members(pairs: [("a", 1), ("b", 2), ("a", 3)])
    #expect(try text(members) == #"{"a":3,"b":2}"#)
  }

  @Test func `dictionaries come out sorted by key, sets by element`() throws {
    #expect(try text(["b": 1, "a": 2, "c": 3, "B": 4]) == #"{"B":4,"a":2,"b":1,"c":3}"#)
    // Integer keys are written as strings, and sorted as the strings they are.
    #expect(try text([10: "x", 2: "y", 1: "z"]) == #"{"1":"z","10":"x","2":"y"}"#)
    #expect(try text(Set(["pear", "apple", "fig"])) == #"["apple","fig","pear"]"#)
    // Keys that are neither strings nor integers: key, value, key, value…, pairs sorted by the
    // key's JSON text ("[1,5]" before "[1]": "," is 0x2C, "]" is 0x5D).
    let byPair: [[Int]: String] = [[2]: "two", [1, 5]: "one-five", [1]: "one"]
    #expect(try text(byPair) == #"[[1,5],"one-five",[1],"one",[2],"two"]"#)
    // Nested inside ordered members, each dictionary is sorted and the members are not.
    struct Holder: Encodable {
      var zeta = ["y": 1, "x": 2]
      var alpha = ["k": ["q": true, "p": false]]
    }
    #expect(try text(Holder()) == #"{"zeta":{"x":2,"y":1},"alpha":{"k":{"p":false,"q":true}}}"#)
  }

  @Test func `scalars are written as JSONEncoder writes them by default`() throws {
    #expect(try text([1.0, 0.1, -2.5, 1e300, 1e-7]) == "[1,0.1,-2.5,1e+300,1e-07]")
    #expect(try text([Float(0.1), Float(3)]) == "[0.1,3]")
    #expect(try text([Int64.min]) == "[-9223372036854775808]")
    #expect(try text([UInt64.max]) == "[18446744073709551615]")
    #expect(try text(Data([1, 2, 3])) == #""AQID""#)
    #expect(try text(URL(string: "https://example.com/a?b=1")) == #""https://example.com/a?b=1""#)
    #expect(try text(Decimal(string: "12.75")) == "12.75")
    #expect(try text([true, false]) == "[true,false]")
    #expect(try text([nil, 1] as [Int?]) == "[null,1]")
    #expect(try text("a\"b\\c\nd\u{01}é/") == #""a\"b\\c\nd\u0001é/""#)
    // Every control character is escaped, those from 0x10 to 0x1F too; DEL (0x7F) is not a control character in JSON.
    #expect(
      try text("\u{1F}\u{10}\u{0B}\r\t\u{08}\u{0C}\u{7F}") == #""\u001f\u0010\u000b\r\t\b\f\#u{7F}""#)
  }

  @Test func `nested, unkeyed and super encoders write in place`() throws {
    struct Nested: Encodable {
      func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        var list = container.nestedUnkeyedContainer(forKey: Key("list"))
        try list.encode(1)
        var inner = list.nestedContainer(keyedBy: Key.self)
        try inner.encode("v", forKey: Key("k"))
        try list.encodeNil()
        var object = container.nestedContainer(keyedBy: Key.self, forKey: Key("object"))
        try object.encode(2, forKey: Key("z"))
        try object.encode(1, forKey: Key("a"))
        try ["s"].encode(to: container.superEncoder())
        try 7.encode(to: container.superEncoder(forKey: Key("seven")))
      }
    }
    #expect(
      try text(Nested()) == #"{"list":[1,{"k":"v"},null],"object":{"z":2,"a":1},"super":["s"],"seven":7}"#)
  }

  @Test func `a non-finite number is an error at its path`() throws {
    struct Reading: Encodable { var values = ["x": [1.0, .nan]] }
    let error = try #require(throws: EncodingError.self) { try StableJSONEncoder().encode(Reading()) }
    guard case .invalidValue(_, let context) = error else {
      Issue.record("expected invalidValue, got \(error)")
      return
    }
    #expect(context.codingPath.map(\.stringValue) == ["values", "x", "1"])
  }

  @Test func `a value that encodes nothing, or two kinds of container, is an error`() throws {
    struct Nothing: Encodable { func encode(to encoder: any Encoder) throws {} }
    #expect(throws: EncodingError.self) { try StableJSONEncoder().encode(Nothing()) }
    struct Both: Encodable {
      func encode(to encoder: any Encoder) throws {
        var single = encoder.singleValueContainer()
        try single.encode(1)
        var keyed = encoder.container(keyedBy: Key.self)
        try keyed.encode(2, forKey: Key("two"))
      }
    }
    let error = try #require(throws: EncodingError.self) { try StableJSONEncoder().encode([Both()]) }
    #expect("\(error)".contains("keyed container") && "\(error)".contains("$[0]"))
    // Inside a container, a value that wrote nothing is an empty object, as with JSONEncoder.
    #expect(try text([Nothing()]) == "[{}]")
  }

  @Test func `a schema comes out as its JSON Schema text, in its declared order`() throws {
    let schema = try GenerationSchema(
      root: DynamicGenerationSchema(
        name: "Trip",
        properties: [
          .init(name: "zone", schema: .init(type: String.self)),
          .init(name: "days", schema: .init(type: Int.self), isOptional: true),
          .init(name: "after", schema: .init(type: Bool.self)),
        ]),
      dependencies: [])
    let written = try text(schema)
    // An independent writer: GeneratedContent's own.
    #expect(written == schema.jsonSchema.jsonString)
    let properties = try #require(written.range(of: #""properties":{"zone""#))
    #expect(written[properties.upperBound...].contains(#""days""#))
    // It decodes to what the sorted-key form of JSONEncoder decodes to (a decoder does not
    // report key order, so both come back with the required properties first).
    let sorted = JSONEncoder()
    sorted.outputFormatting = .sortedKeys
    let decoded = try JSONDecoder().decode(GenerationSchema.self, from: StableJSONEncoder().encode(schema))
    #expect(decoded == (try JSONDecoder().decode(GenerationSchema.self, from: sorted.encode(schema))))
    #expect(decoded.jsonSchema.jsonString.contains(#""properties":{"zone":{"type":"string"},"after""#))
  }

  @Test func `a transcript comes out in its documented field order and decodes back`() throws {
    let transcript = Transcript(entries: [
      .instructions(
        Transcript.Instructions(
          id: "i", segments: [.text(Transcript.TextSegment(id: "t", content: "Be brief."))],
          toolDefinitions: [])),
      .response(
        Transcript.Response(
          id: "r", assetIDs: [], segments: [.text(Transcript.TextSegment(id: "u", content: "Hi"))],
          metadata: ["zz": GeneratedContent(kind: .number(1)), "aa": GeneratedContent(kind: .string("x"))])),
    ])
    let expected =
      #"{"entries":[{"type":"instructions","id":"i","segments":[{"type":"text","id":"t","content":"Be brief."}],"#
      + #""toolDefinitions":[]},{"type":"response","id":"r","assetIDs":[],"segments":[{"type":"text","id":"u","#
      + #""content":"Hi"}],"metadata":{"aa":"\"x\"","zz":"1"}}]}"#
    #expect(try text(transcript) == expected)
    let full = try TranscriptCodingTests.sample()
    #expect(try JSONDecoder().decode(Transcript.self, from: StableJSONEncoder().encode(full)) == full)
    #expect(try Transcript(jsonData: StableJSONEncoder().encode(full)).jsonData() == full.jsonData())
  }
}
