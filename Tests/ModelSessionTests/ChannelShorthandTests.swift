import Foundation
import ModelSession
import TestSupport
import Testing

private struct VoiceNote: Transcript.CustomSegment {
  var id: String
  var content: URL
}

@Suite("Provider shorthands in the documented spelling", .timeLimit(.minutes(10)))
struct ChannelShorthandTests {
  @Test func `response(action:) and appendText(token) build one response with metadata and usage`()
    async throws
  {
    let script = ModelScript([
      .events([
        .response(action: .updateMetadata(["modelID": "m-1"])),
        .response(
          action: .updateUsage(
            input: .init(totalTokenCount: 12, cachedTokenCount: 4),
            output: .init(totalTokenCount: 0, reasoningTokenCount: 0))),
        .response(action: .appendText("Hel")),
        .response(action: .appendText("lo")),
      ])
    ])
    let session = LanguageModelSession(model: ScriptedLanguageModel(script: script))
    let response = try await session.respond(to: "Hi")
    #expect(response.content == "Hello")
    #expect(response.usage.input.cachedTokenCount == 4)
    #expect(session.transcript.map(\.kindName) == ["prompt", "response"])
    guard case .response(let entry) = session.transcript.last else { Issue.record("no response"); return }
    #expect(entry.metadata["modelID"] == GeneratedContent(kind: .string("m-1")))
  }

  @Test func `appendText without a count estimates it when no usage is reported`() async throws {
    let script = ModelScript([
      .events([.response(action: .appendText("12345678")), .reasoning(action: .appendText("abcd"))])
    ])
    let session = LanguageModelSession(model: ScriptedLanguageModel(script: script))
    let response = try await session.respond(to: "Hi")
    // 8 bytes at 4 bytes a token, plus 4 bytes of reasoning: output counts reasoning too.
    #expect(response.usage.output.totalTokenCount == 3)
  }

  @Test func `an unlabelled image URL and a custom segment go into a prompt`() async throws {
    let script = ModelScript([.text("ok")])
    let session = LanguageModelSession(model: ScriptedLanguageModel(script: script))
    let url = try #require(URL(string: "https://example.com/a.png"))
    let note = VoiceNote(id: "v1", content: try #require(URL(string: "file:///tmp/note.m4a")))
    #expect(Transcript.ImageAttachment(url) == Transcript.ImageAttachment(url: url))
    _ = try await session.respond {
      "Where was this recorded?"
      note
    }
    let sent = try #require(script.requests.first?.transcript.last)
    guard case .prompt(let prompt) = sent else { Issue.record("no prompt"); return }
    #expect(prompt.segments.count == 2)
    guard case .custom(let custom) = prompt.segments.last else { Issue.record("no custom segment"); return }
    #expect(custom.isEqual(to: note))
    #expect(!custom.isEqual(to: VoiceNote(id: "v2", content: note.content)))
    #expect(VoiceNote.typeIdentifier.hasSuffix("VoiceNote"))
  }
}
