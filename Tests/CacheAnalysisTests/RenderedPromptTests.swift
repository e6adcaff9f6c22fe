import CacheAnalysis
import Foundation
import ModelSession
import TestSupport
import Testing

// A prompt keeps its blocks as interned rendering ids; these tests hold it to
// the meaning of its public shape: blocks with locations, texts and token counts.
@Suite("Rendered prompt", .timeLimit(.minutes(10))) struct RenderedPromptTests {
  private let blocks = [
    PromptBlock(location: .tool(name: "search"), text: "tool search", tokenCount: 100),
    PromptBlock(location: .settings, text: "reasoning high", tokenCount: 2),
    PromptBlock(location: .instructions, text: "instructions\nBe brief.", tokenCount: 3),
    PromptBlock(location: .entry(index: 1, kind: "prompt"), text: "prompt\nHi", tokenCount: 1),
    PromptBlock(location: .entry(index: 2, kind: "custom"), text: "custom", tokenCount: 4),
  ]

  @Test func `blocks come back as they were given`() {
    let prompt = RenderedPrompt(blocks: blocks)
    #expect(prompt.blocks == blocks)
    #expect(prompt.tokenCount == 110)
    #expect(prompt.tokenCount(ofFirst: 2) == 102)
  }

  @Test func `prompts of a model and prompts built from blocks compare by text`() async throws {
    let model = PromptCacheModel(tokenCounter: WordTokenCounter(toolDefinitionTokens: 100))
    let rendered = try await model.render(
      PromptRequest(
        toolDefinitions: [],
        transcript: Transcript(entries: [promptEntry(words(3)), responseEntry(words(4))])))
    let rebuilt = RenderedPrompt(blocks: rendered.blocks)
    #expect(rebuilt == rendered)
    #expect(rebuilt.hashValue == rendered.hashValue)
    #expect(rebuilt.commonBlockCount(with: rendered) == 2)
    var changed = rendered
    changed.blocks[1].text += " more"
    #expect(changed.commonBlockCount(with: rendered) == 1)
    #expect(rendered.commonBlockCount(with: changed) == 1)
    #expect(changed != rendered)
  }

  @Test func `the same text with another token count does not render the same`() {
    let one = RenderedPrompt(blocks: blocks)
    let other = one.appending([])
    var recounted = blocks
    recounted[3].tokenCount = 9
    #expect(one.commonBlockCount(with: other) == 5)
    #expect(one.commonBlockCount(with: RenderedPrompt(blocks: recounted)) == 3)
    #expect(one.appending(recounted).commonBlockCount(with: one.appending(blocks)) == 5 + 3)
  }

  @Test func `locations must match for equality, not for reuse`() {
    var moved = blocks
    moved[3].location = .entry(index: 7, kind: "prompt")
    #expect(RenderedPrompt(blocks: moved) != RenderedPrompt(blocks: blocks))
    #expect(RenderedPrompt(blocks: moved).commonBlockCount(with: RenderedPrompt(blocks: blocks)) == 5)
  }

  @Test func `the JSON form is the list of blocks`() throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    let prompt = RenderedPrompt(blocks: blocks)
    let json = try #require(String(data: try encoder.encode(prompt), encoding: .utf8))
    let blocksJSON = try #require(String(data: try encoder.encode(blocks), encoding: .utf8))
    #expect(json == #"{"blocks":"# + blocksJSON + "}")
    #expect(try JSONDecoder().decode(RenderedPrompt.self, from: Data(json.utf8)) == prompt)
  }

  @Test func `the cached stream numbers the output after the prompt's last entry`() async throws {
    let model = PromptCacheModel(tokenCounter: WordTokenCounter(toolDefinitionTokens: 100))
    // Built by hand (not by the model): its last entry is number 2.
    let stream = try await model.cachedStream(
      after: RenderedPrompt(blocks: blocks), output: [responseEntry(words(6))])
    #expect(stream.blocks.count == 6)
    #expect(stream.blocks[5].location == .entry(index: 3, kind: "response"))
    #expect(stream.blocks[5].tokenCount == 6)
    #expect(stream.tokenCount == 116)
    #expect(stream.commonBlockCount(with: RenderedPrompt(blocks: blocks)) == 5)
    let empty = try await model.cachedStream(
      after: RenderedPrompt(blocks: []), output: [responseEntry(words(2))])
    #expect(empty.blocks.map(\.location) == [.entry(index: 1, kind: "response")])
  }
}
