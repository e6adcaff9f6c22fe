import ContextKitDemo
import TestSupport

/// Eight turns of a 34-byte prompt and a 35-byte answer after "Be brief.",
/// with a budget of 100 tokens. Estimated (4 bytes a token, 4 of framing an
/// entry): the instructions 7 tokens, every prompt and answer 13; counted
/// half, 3 and 6. Turn t's request is 7 + 26t + 13 = 20 + 26t tokens.
let halfCountedConversation = ReplayConversation(
  name: "half-counted", instructions: "Be brief.", budget: 100, tools: [], usesSkills: false,
  turns: (0..<8).map { turn in
    ReplayTurn(
      prompt: "Turn \(turn): tell me about lighthouses.",
      generations: [.answer("Lighthouse \(turn) guides the ships home.")])
  })
