import Foundation
import ModelSession
import TestSupport
import Testing

@Suite("Transcript JSON form", .timeLimit(.minutes(10))) struct TranscriptCodingTests {
  static func sample() throws -> Transcript {
    Transcript.registerCustomSegmentType(Citation.self)
    let schema = Itinerary.generationSchema
    return Transcript(entries: [
      .instructions(
        Transcript.Instructions(
          id: "i", segments: [.text(Transcript.TextSegment(id: "i1", content: "Be concise."))],
          toolDefinitions: [Transcript.ToolDefinition(tool: WeatherTool())])),
      .prompt(
        Transcript.Prompt(
          id: "p",
          segments: [
            .text(Transcript.TextSegment(id: "p1", content: "Plan a trip. ünïcödé ✈️")),
            .attachment(
              Transcript.AttachmentSegment(
                id: "p2", content: .image(.init(data: Data([0x89, 0x50]), mimeType: "image/png")),
                label: "map")),
            .attachment(
              Transcript.AttachmentSegment(
                id: "p3",
                content: .image(.init(url: URL(string: "https://example.com/a.jpg") ?? URL(filePath: "/")))
              )),
          ],
          options: GenerationOptions(
            sampling: .random(top: 40, seed: 7), temperature: 0.5, maximumResponseTokens: 100,
            toolCallingMode: .required),
          responseFormat: Transcript.ResponseFormat(schema: schema))),
      .reasoning(
        Transcript.Reasoning(
          id: "r", segments: [.text(Transcript.TextSegment(id: "r1", content: "Thinking."))],
          signature: Data([9]),
          metadata: ["effort": GeneratedContent(kind: .number(2))])),
      .toolCalls(
        Transcript.ToolCalls(
          id: "t",
          [
            Transcript.ToolCall(
              id: "c1", toolName: "weather",
              arguments: try GeneratedContent(json: #"{"zeta":1,"city":"Oslo","alpha":[true,null]}"#),
              metadata: ["k": GeneratedContent(kind: .string("v"))])
          ])),
      .toolOutput(
        Transcript.ToolOutput(
          id: "c1", toolName: "weather", segments: [.text(Transcript.TextSegment(id: "o1", content: "21°C"))])
      ),
      .response(
        Transcript.Response(
          id: "a", assetIDs: ["x"],
          segments: [
            .structure(
              Transcript.StructuredSegment(
                id: "s1", source: "Itinerary",
                content: try GeneratedContent(json: #"{"days":3,"city":"Lisbon"}"#))),
            .custom(Citation(id: "cit", url: "https://example.com")),
          ], metadata: ["searchResults": GeneratedContent(properties: ["title": "A", "rank": 1])])),
    ])
  }

  @Test func `encode, decode, equal`() throws {
    let transcript = try Self.sample()
    let decoded = try Transcript(jsonData: transcript.jsonData())
    #expect(decoded == transcript)
    guard case .toolCalls(let calls) = decoded[3] else { Issue.record("no calls"); return }
    #expect(calls[0].arguments.orderedKeys == ["zeta", "city", "alpha"])
  }

  @Test func `encoding twice gives the same bytes`() throws {
    let transcript = try Self.sample()
    #expect(try transcript.jsonData() == transcript.jsonData())
    let decoded = try Transcript(jsonData: transcript.jsonData())
    #expect(try decoded.jsonData() == transcript.jsonData())
  }

  @Test func `the documented form holds its discriminators and JSON-text content`() throws {
    let text = String(decoding: try Self.sample().jsonData(), as: UTF8.self)
    #expect(text.contains(#""type":"toolCalls""#))
    #expect(text.contains(#""arguments":"{\"zeta\":1,\"city\":\"Oslo\",\"alpha\":[true,null]}""#))
    #expect(text.contains(#""customType":"test.citation""#))
    #expect(text.hasPrefix(#"{"entries":[{"id":"i","#))
  }

  /// Every optional field of docs/transcript-format.md set, in the compact form `jsonData()` writes.
  static let documentedJSON =
    #"{"entries":["#
    + #"{"id":"E2","options":{"temperature":0.5},"segments":[{"content":"Weather in Oslo?","id":"S2","type":"text"},"#
    + #"{"id":"S5","image":{"data":"iVA=","mimeType":"image\/png"},"label":"map","type":"attachment"}],"#
    + #""type":"prompt"},"#
    + #"{"id":"E3","metadata":{"effort":"\"high\""},"segments":[{"content":"Thinking.","id":"S6","type":"text"}],"#
    + #""signature":"CQ==","type":"reasoning"},"#
    + #"{"calls":[{"arguments":"{\"city\":\"Oslo\"}","id":"call-1","metadata":{"k":"\"v\""},"#
    + #""toolName":"weather"}],"id":"E4","type":"toolCalls"},"#
    + #"{"id":"call-1","metadata":{"error":"\"none\""},"segments":[{"content":"21°C","id":"S3","type":"text"}],"#
    + #""toolName":"weather","type":"toolOutput"},"#
    + #"{"assetIDs":["x"],"id":"E5","segments":[{"content":"{\"days\":3}","id":"S7","source":"Itinerary","#
    + #""type":"structure"}],"type":"response"}"#
    + "]}"

  static func documentedTranscript() throws -> Transcript {
    Transcript(entries: [
      .prompt(
        Transcript.Prompt(
          id: "E2",
          segments: [
            .text(Transcript.TextSegment(id: "S2", content: "Weather in Oslo?")),
            .attachment(
              Transcript.AttachmentSegment(
                id: "S5", content: .image(.init(data: Data([0x89, 0x50]), mimeType: "image/png")),
                label: "map")),
          ],
          options: GenerationOptions(temperature: 0.5))),
      .reasoning(
        Transcript.Reasoning(
          id: "E3", segments: [.text(Transcript.TextSegment(id: "S6", content: "Thinking."))],
          signature: Data([9]), metadata: ["effort": GeneratedContent(kind: .string("high"))])),
      .toolCalls(
        Transcript.ToolCalls(
          id: "E4",
          [
            Transcript.ToolCall(
              id: "call-1", toolName: "weather", arguments: try GeneratedContent(json: #"{"city":"Oslo"}"#),
              metadata: ["k": GeneratedContent(kind: .string("v"))])
          ])),
      .toolOutput(
        Transcript.ToolOutput(
          id: "call-1", toolName: "weather",
          segments: [.text(Transcript.TextSegment(id: "S3", content: "21°C"))],
          metadata: ["error": GeneratedContent(kind: .string("none"))])),
      .response(
        Transcript.Response(
          id: "E5", assetIDs: ["x"],
          segments: [
            .structure(
              Transcript.StructuredSegment(
                id: "S7", source: "Itinerary", content: try GeneratedContent(json: #"{"days":3}"#)))
          ])),
    ])
  }

  @Test func `hand-written JSON in the documented form decodes, and encoding writes exactly it`() throws {
    let transcript = try Self.documentedTranscript()
    #expect(try Transcript(jsonData: Data(Self.documentedJSON.utf8)) == transcript)
    #expect(String(decoding: try transcript.jsonData(), as: UTF8.self) == Self.documentedJSON)
  }

  @Test func `a response format's own name survives a round trip`() throws {
    var format = Transcript.ResponseFormat(schema: Itinerary.generationSchema)
    format.name = "trip-plan"
    let transcript = Transcript(entries: [
      .prompt(
        Transcript.Prompt(
          id: "p", segments: [.text(Transcript.TextSegment(id: "p1", content: "Plan."))],
          responseFormat: format))
    ])
    let decoded = try Transcript(jsonData: transcript.jsonData())
    #expect(decoded == transcript)
    guard case .prompt(let prompt) = decoded.first else {
      Issue.record("no prompt")
      return
    }
    #expect(prompt.responseFormat?.name == "trip-plan")
  }

  @Test func `an unknown entry type and an unregistered custom segment are clear errors`() throws {
    let badEntry = Data(#"{"entries":[{"type":"memo","id":"m"}]}"#.utf8)
    #expect {
      try Transcript(jsonData: badEntry)
    } throws: { error in
      "\(error)".contains("unknown entry type \"memo\"")
    }
    let badCustom = Data(
      #"{"entries":[{"type":"response","id":"r","segments":[{"type":"custom","id":"x","customType":"nobody.knows","value":{}}]}]}"#
        .utf8)
    #expect {
      try Transcript(jsonData: badCustom)
    } throws: { error in
      "\(error)".contains("nobody.knows") && "\(error)".contains("registerCustomSegmentType")
    }
  }

  @Test func `a transcript is a range-replaceable collection`() throws {
    var transcript = try Self.sample()
    transcript.removeSubrange(1..<3)
    transcript.insert(.prompt(Transcript.Prompt(id: "q", segments: [])), at: 1)
    #expect(transcript.map(\.id) == ["i", "q", "t", "c1", "a"])
    #expect(transcript.last?.kindName == "response")
  }
}
