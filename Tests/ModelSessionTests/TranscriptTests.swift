import ModelSession
import Testing

@Test func `a transcript keeps its entries`() {
  let transcript = Transcript(entries: [.prompt(.init(segments: [.text(.init(content: "hi"))]))])
  #expect(transcript.count == 1)
}
