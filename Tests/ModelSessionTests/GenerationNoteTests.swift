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
}
