import Foundation
import Testing

@testable import ModelSession

@Suite(.timeLimit(.minutes(10))) struct GenerationNoteTests {
  @Suite("A generation note") struct Values {
    @Test func `prints as its source, its kind in parentheses, then its message`() {
      let note = GenerationNote(
        source: "rollingWindow", kind: .historyRewritten, message: "dropped 2 entries")
      #expect(note.description == "rollingWindow (historyRewritten): dropped 2 entries")
      #expect(
        "\(GenerationNote(source: "skills", kind: .contextLeftOut, message: "tone"))"
          == "skills (contextLeftOut): tone")
    }

    @Test func `a record written before notes carried fields decodes, with no names and no counts`() throws {
      // Written by hand in the shape records had before `names` and `counts`.
      let old = #"{"kind":"historyRewritten","message":"dropped 2 entries","source":"rollingWindow"}"#
      let note = try JSONDecoder().decode(GenerationNote.self, from: Data(old.utf8))
      #expect(
        note == GenerationNote(source: "rollingWindow", kind: .historyRewritten, message: "dropped 2 entries")
      )
      #expect(note.names.isEmpty && note.counts.isEmpty)
    }

    @Test func `fields are written as JSON objects keyed by name, and left out when empty`() throws {
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.sortedKeys]
      let note = GenerationNote(
        source: "skills", kind: .instructionsChanged, message: "m", names: [.activated: ["tone", "terse"]],
        counts: [.entriesDropped: 3])
      let json = String(decoding: try encoder.encode(note), as: UTF8.self)
      #expect(
        json
          == #"{"counts":{"entriesDropped":3},"kind":"instructionsChanged","message":"m","names":{"activated":["tone","terse"]},"source":"skills"}"#
      )
      #expect(try JSONDecoder().decode(GenerationNote.self, from: Data(json.utf8)) == note)
      let bare = GenerationNote(source: "app", kind: .information, message: "m")
      #expect(
        String(decoding: try encoder.encode(bare), as: UTF8.self)
          == #"{"kind":"information","message":"m","source":"app"}"#)
    }

    @Test func `a field of another module's own round-trips by its name`() throws {
      let mine = GenerationNote.Field(rawValue: "myGauge")
      let note = GenerationNote(source: "mine", kind: .information, message: "m", counts: [mine: 7])
      let decoded = try JSONDecoder().decode(GenerationNote.self, from: try JSONEncoder().encode(note))
      #expect(decoded.counts[mine] == 7)
    }
  }

  /// The messages of the notes ModelSession writes, rendered from their fields;
  /// behaviour tests compare the fields.
  @Suite("Generation note texts") struct Texts {
    @Test func `a context overflow recovery gives the model's numbers and its words`() {
      let overflow = ContextOverflow(
        contextSize: 2_048, promptTokenCount: 2_300, reservedResponseTokens: 100,
        refusedTranscript: Transcript(),
        message: "maximum context length is 2048 tokens")
      #expect(
        ContextOverflowRecovery.note(for: overflow).message
          == "the model refused a prompt of 2300 tokens for a window of 2048 tokens, with 100 tokens reserved "
          + "for the response (maximum context length is 2048 tokens); compacted the history and retried once"
      )
      let unknown = ContextOverflow(
        contextSize: nil, promptTokenCount: nil, reservedResponseTokens: 0, refusedTranscript: Transcript(),
        message: "too long")
      #expect(
        ContextOverflowRecovery.note(for: unknown).message
          == "the model refused the prompt for a window of unknown size (too long); "
          + "compacted the history and retried once")
    }

    @Test func `an item left out says its key, its tokens and why, with the number`() {
      func message(_ reason: Reattachment.LeftOut.Reason) -> String {
        Reattachment.LeftOut(key: "skill:b", tokens: 215, reason: reason).note(source: "mine").message
      }
      let head = "\"skill:b\" (215 tokens) was not put back after the cut: "
      #expect(message(.noRoom(room: 120)) == head + "the history after the cut leaves room for only 120 more")
      #expect(
        message(.overShare(share: 150)) == head
          + "the re-attached context would pass its share of what the cut keeps (150)")
      #expect(
        message(.overItemLimit(limit: 150)) == head + "it is larger than the limit of 150 tokens for one item"
      )
    }

    @Test func `what was put back is named with its size`() {
      let note = GenerationNote(
        source: "mine", kind: .information, message: "", names: [.putBack: ["skill:a", "skill:c"]],
        counts: [.kept: 130])
      #expect(
        Reattachment.putBackMessage(for: note)
          == "put back after the cut: \"skill:a\", \"skill:c\" (130 of the budget)")
    }
  }
}
