import Foundation
import TestSupport
import Testing

@testable import AgentSkills

@Suite(.timeLimit(.minutes(10))) struct CountFormattingTests {
  @Test func `counts are grouped by thousands`() {
    #expect(CountFormatting.grouped(1_048_576) == "1,048,576")
    #expect(CountFormatting.grouped(999) == "999")
  }
}
