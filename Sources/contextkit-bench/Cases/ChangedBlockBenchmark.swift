import CacheAnalysis
import Foundation
import ModelSession
import Synchronization

/// The cache report of a generation whose instructions changed (an
/// instructions skill switched on), token-granular against block-granular:
/// what counting the changed block's common token prefix costs per generation.
///
/// One operation analyzes two generations of a 1,000-entry conversation from
/// a fresh analyzer that shares the warm model, as `cache/report/*-entries`
/// does; the second one's instructions (2 KB) keep their start and change
/// their end. Both instructions texts are new in every operation, so the
/// token-granular side tokenizes both every time (with an in-process word
/// tokenizer: a server's `/tokenize` adds a request per text, which this
/// does not measure). The baseline compares whole blocks only.
enum ChangedBlockBenchmark {
  static let name = "cache/report/changed-block/token"

  static var registrations: [BenchmarkRegistration] {
    [BenchmarkRegistration(name: name) { try make() }]
  }

  /// Gives each operation texts of its own.
  private final class Serial: Sendable {
    private let value = Mutex(0)
    func next() -> Int {
      value.withLock {
        $0 += 1; return $0
      }
    }
  }

  /// A token per space-separated word: its bytes folded (FNV-1a), the same
  /// for the same word; one pass over the bytes, about as fast as a real
  /// tokenizer's pre-split, so that the case measures ContextKit's work.
  private struct WordTokenizer: TextTokenizer {
    func tokens(of text: String) -> [Int]? {
      var tokens: [Int] = []
      tokens.reserveCapacity(text.utf8.count / 4)
      var hash: UInt32 = 2_166_136_261
      var inWord = false
      for byte in text.utf8 {
        if byte == 0x20 || byte == 0x0A {
          if inWord { tokens.append(Int(hash)) }
          hash = 2_166_136_261
          inWord = false
        } else {
          hash = (hash ^ UInt32(byte)) &* 16_777_619
          inWord = true
        }
      }
      if inWord { tokens.append(Int(hash)) }
      return tokens
    }
  }

  static func make() throws -> BenchmarkCase {
    let (previous, next) = CacheReportBenchmark.records(entryCount: 1_000)
    var tokenModel = try PromptCacheModel(blockSize: 16)
    tokenModel.tokenizer = WordTokenizer()
    var blockModel = tokenModel
    blockModel.granularity = .block
    let token = tokenModel
    let block = blockModel
    let serial = Serial()
    let analyze: @Sendable (PromptCacheModel) async throws -> Int = { model in
      let operation = serial.next()
      var analyzer = CacheImpactAnalyzer(model: model)
      _ = try await analyzer.analyze(withInstructions(previous, instructionsText(operation, skill: false)))
      return try await analyzer.analyze(withInstructions(next, instructionsText(operation, skill: true)))
        .reusedTokenCount
    }
    // Renders every entry once in each model, as the generations before would have.
    let blockReused = try AsyncBenchmarkRunner.run { try await analyze(block) }
    let tokenReused = try AsyncBenchmarkRunner.run { try await analyze(token) }
    guard tokenReused > blockReused else {
      throw BenchmarkSetupError(
        description:
          "the token-granular report reused \(tokenReused), no more than the block's \(blockReused)")
    }
    return BenchmarkCase(
      name: name, run: { try AsyncBenchmarkRunner.run { try await analyze(token) } },
      baseline: .init(name: "block", run: { try AsyncBenchmarkRunner.run { try await analyze(block) } }),
      unit: BenchmarkUnit(name: "generation", countPerOperation: 2),
      note:
        "reused in the changed generation: \(tokenReused) tokens token-granular, \(blockReused) block-granular"
    )
  }

  /// About 2 KB of instructions; with the skill, the same text and a skill's paragraph after it.
  private static func instructionsText(_ operation: Int, skill: Bool) -> String {
    let base = (0..<40).map { "Rule \($0) of run \(operation): answer briefly and cite the file you read." }
      .joined(separator: " ")
    return skill
      ? base + " Skill writing-commit-messages: subject under 50 characters, body wrapped at 72." : base
  }

  private static func withInstructions(_ record: GenerationRecord, _ text: String) -> GenerationRecord {
    var record = record
    let instructions = Transcript.Instructions(
      id: "instructions", segments: [.text(.init(id: "i", content: text))], toolDefinitions: [])
    record.sentTranscript = Transcript(
      entries: [.instructions(instructions)] + record.sentTranscript.entries.dropFirst())
    record.instructions = instructions
    return record
  }
}
