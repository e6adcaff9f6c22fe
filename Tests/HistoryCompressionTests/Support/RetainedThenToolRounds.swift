import HistoryCompression
import ModelSession
import TestSupport

/// Instructions; a first turn (prompt `conversation`) that delivers a retained skill body
/// (call c1, output o1, key "skill:style"); a turn p2 with two tool rounds (c2a/a, c2b/b, r2);
/// then p3 with one tool round (c3, c): 14 entries, cut points at 1, 5 (p2) and 11 (p3).
func retainedThenToolRounds(_ instructions: String, conversation: String) -> [Transcript.Entry] {
  [Make.instructions(instructions), Make.prompt(conversation)]
    + retainedDelivery(callsID: "c1", callID: "o1", body: Make.text("Use tabs."))
    + [
      Make.response("r1"), Make.prompt("p2"), Make.calls("c2a", ["a"]), Make.output("a"),
      Make.calls("c2b", ["b"]), Make.output("b"), Make.response("r2"), Make.prompt("p3"),
      Make.calls("c3", ["c"]), Make.output("c"),
    ]
}
