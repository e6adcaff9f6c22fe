import Foundation
import ModelSession
import Testing

@Suite(.timeLimit(.minutes(10))) struct `A generation note` {
  @Test func `prints as its source, its kind in parentheses, then its message`() {
    let note = GenerationNote(source: "rollingWindow", kind: .historyRewritten, message: "dropped 2 entries")
    #expect(note.description == "rollingWindow (historyRewritten): dropped 2 entries")
    #expect(
      "\(GenerationNote(source: "skills", kind: .contextLeftOut, message: "tone"))"
        == "skills (contextLeftOut): tone")
  }
}
