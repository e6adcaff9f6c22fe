import ChatCompletions
import Foundation
import HistoryCompression
import ModelSession
import TestSupport
import Testing

/// Waits until the session's turn has wound down (a cancelled stream ends
/// its loop before the turn has rolled back).
func waitUntilIdle(_ session: LanguageModelSession) async throws {
  #expect(
    try await eventually(within: .seconds(60)) { !session.isResponding },
    "the session still responds 60 seconds after its turn was cancelled")
}
