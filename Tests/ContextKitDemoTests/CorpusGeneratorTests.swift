import ContextKitDemo
import Testing

@Suite("Corpus generator", .timeLimit(.minutes(10))) struct CorpusGeneratorTests {
  @Test func `the same seed gives the same corpus, another seed another`() {
    let first = CorpusGenerator(seed: 11).corpus(count: 3)
    let again = CorpusGenerator(seed: 11).corpus(count: 3)
    let other = CorpusGenerator(seed: 12).corpus(count: 3)
    #expect(first == again)
    #expect(first != other)
  }

  @Test func `conversations have 20 to 400 turns, tool loops, reasoning and both skill flavours`() {
    let corpus = CorpusGenerator(seed: 2026).corpus(count: 12)
    #expect(corpus.count == 12)
    #expect(corpus.allSatisfy { (20...400).contains($0.turns.count) })
    let generations = corpus.flatMap(\.turns).flatMap(\.generations)
    let calls = generations.flatMap(\.toolCalls)
    #expect(generations.contains { $0.reasoning != nil })
    #expect(calls.contains { $0.tool == "read_file" } && calls.contains { $0.tool == "run_tests" })
    let skills = Set(calls.filter { $0.tool == CorpusGenerator.skillToolName }.map(\.value))
    #expect(skills.contains(CorpusGenerator.toggledSkill))
    #expect(!skills.isDisjoint(with: CorpusGenerator.promptSkills))
    // Every tool call has a recorded output.
    for conversation in corpus {
      let outputs = Dictionary(uniqueKeysWithValues: conversation.tools.map { ($0.name, $0.outputs) })
      for call in conversation.turns.flatMap(\.generations).flatMap(\.toolCalls)
      where call.tool != CorpusGenerator.skillToolName {
        #expect(outputs[call.tool]?[call.value] != nil)
      }
    }
  }
}
