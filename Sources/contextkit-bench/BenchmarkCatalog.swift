/// Every benchmark case. To add one: write its file under `Cases/` and add
/// one line here.
enum BenchmarkCatalog {
  static var registrations: [BenchmarkRegistration] {
    [
      .init(name: "json/parse/1KB") { try ParseJSONBenchmark.make(size: .oneKilobyte) },
      .init(name: "json/parse/100KB") { try ParseJSONBenchmark.make(size: .hundredKilobytes) },
      .init(name: "json/parse/10MB") { try ParseJSONBenchmark.make(size: .tenMegabytes) },
      .init(name: "json/serialize/1KB") { try SerializeJSONBenchmark.make(size: .oneKilobyte) },
      .init(name: "json/serialize/100KB") { try SerializeJSONBenchmark.make(size: .hundredKilobytes) },
      .init(name: "json/serialize/10MB") { try SerializeJSONBenchmark.make(size: .tenMegabytes) },
      .init(name: "session/assemble/100000-deltas") { SessionBenchmarks.streamedDeltas(count: 100_000) },
      .init(name: "session/tool-loop/200-rounds") { try SessionBenchmarks.toolLoop(rounds: 200) },
      .init(name: "session/stream-tool-arguments/1MB-text") {
        try StreamToolArgumentsBenchmark.make(shape: .text)
      },
      .init(name: "session/stream-tool-arguments/1MB-records") {
        try StreamToolArgumentsBenchmark.make(shape: .records)
      },
      .init(name: "skills/load/1000") { try SkillsLibraryBenchmark.make() },
      .init(name: "skills/load/10000") { try SkillsLibraryBenchmark.makeLarge() },
      .init(name: "skills/load/wild-2000") { try SkillsLibraryBenchmark.makeWild() },
      .init(name: SkillCatalogBenchmark.name) { try SkillCatalogBenchmark.make() },
      .init(name: "skills/front-matter/1MiB-flow-sequence") { try FrontMatterBenchmark.make(.flowSequence) },
      .init(name: "skills/front-matter/1MiB-block-mapping") { try FrontMatterBenchmark.make(.blockMapping) },
      .init(name: "json/stream-partial/10KB") { try StreamPartialJSONBenchmark.make(size: .tenKilobytes) },
      .init(name: "cache/strategies/compactingHistory-100-turns") { try StrategyBenchmark.timed() },
      .init(name: "chat/stream-translate/10MB") {
        try ChatStreamTranslationBenchmark.make(measure: .megabytes)
      },
      .init(name: "chat/stream-translate/events") {
        try ChatStreamTranslationBenchmark.make(measure: .events)
      },
      .init(name: "chat/tokenizer-answer/4MiB") { try TokenizerAnswerBenchmark.make() },
    ] + HistoryBenchmarks.registrations + CacheReportBenchmark.registrations
      + ChangedBlockBenchmark.registrations
      + SchemaValidationBenchmark.registrations
  }
}
