import Foundation
import ModelSession
import TestSupport
import Testing

@Suite(.timeLimit(.minutes(10))) struct `Transcript JSON form` {
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
