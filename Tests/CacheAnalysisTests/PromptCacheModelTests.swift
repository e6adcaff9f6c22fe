import CacheAnalysis
import Foundation
import ModelSession
import TestSupport
import Testing

// Hand-computed cases. With `WordTokenCounter`: the tool is 100 tokens, the
// instructions 10, p1 20, r1 30, p2 5. The previous generation sent
// [tools, I, p1] (130 tokens) and produced r1 (30): the cache holds 160.
private let search = toolDefinition("search")
private let instructions = instructionsEntry(words(10, tag: "i"), tools: [search])
private let p1 = promptEntry(words(20, tag: "p"))
private let r1 = responseEntry(words(30, tag: "r"))
private let p2 = promptEntry(words(5, tag: "q"))
private let first = record(sent: [instructions, p1], tools: [search], output: [r1])

@Suite(.timeLimit(.minutes(10))) struct PromptCacheModelTests {
  @Suite("Prompt cache model, by hand") struct ByHand {
    @Test func `the first generation is a cold start`() async throws {
      let report = try #require(try await reports([first]).first)
      #expect(report.promptTokenCount == 130)
      #expect(report.reusedTokenCount == 0)
      #expect(report.cause.kind == .coldStart)
      #expect(report.divergence == nil)
    }

    @Test func `append only reuses the previous request and its output`() async throws {
      let next = record(sent: [instructions, p1, r1, p2], tools: [search], turn: 1)
      let report = try #require(try await reports([first, next]).last)
      #expect(report.promptTokenCount == 165)
      #expect(report.reusedTokenCount == 160)
      #expect(report.reprocessedTokenCount == 5)
      #expect(report.match.sharedBlockCount == 4)
      #expect(report.divergence == nil)
      #expect(report.cause == .appendOnly)
    }

    @Test func `a request the cached stream already holds whole is append only`() async throws {
      // The same request again (a retry): the prompt runs out before the cached stream [tools, I, p1, r1].
      let again = record(sent: [instructions, p1], tools: [search], turn: 1)
      let report = try #require(try await reports([first, again]).last)
      #expect(report.promptTokenCount == 130)
      #expect(report.reusedTokenCount == 130)
      #expect(report.match.sharedBlockCount == 3)
      #expect(report.divergence == nil)
      #expect(report.cause == .appendOnly)
    }

    @Test func `the summary's prediction beside the server's counts only the generations it reported`()
      async throws
    {
      // The first generation is reported (130 prompt tokens, 0 cached; 0 predicted), the second
      // is not (the server said nothing of its cache), though 160 of it are predicted reused.
      var reported = first
      reported.usage = GenerationUsage(input: .init(totalTokenCount: 130, reportedCachedTokenCount: 0))
      var unreported = record(sent: [instructions, p1, r1, p2], tools: [search], turn: 1)
      unreported.usage = GenerationUsage(input: .init(totalTokenCount: 165))
      let summary = CacheImpactSummary(reports: try await reports([reported, unreported]))
      #expect(summary.reusedTokenCount == 160)
      #expect(summary.serverReportedGenerationCount == 1)
      #expect(summary.serverInputTokenCount == 130)
      #expect(summary.predictedReusedTokenCountWhereReported == 0)
      #expect(
        summary.description.split(separator: "\n").dropFirst().first
          == "server: 0/130 cached (0%) over 1 generations; predicted 0 there")
    }

    @Test func `a template that leaves tools out renders no tool blocks`() async throws {
      // llama-cpp-python's generic template: the instructions (10) and p1 (20) only.
      var model = PromptCacheModel(tokenCounter: WordTokenCounter(toolDefinitionTokens: 100))
      model.toolsInPrompt = false
      let prompt = try await model.render(
        PromptRequest(toolDefinitions: [search], transcript: Transcript(entries: [instructions, p1])))
      #expect(prompt.blocks.map(\.location) == [.instructions, .entry(index: 1, kind: "prompt")])
      #expect(prompt.tokenCount == 30)
    }

    @Test func `a shared prefix shorter than the minimum cacheable length is not reused`() async throws {
      // The append-only case shares 160 tokens: reused at a minimum of 160, not at 161.
      let next = record(sent: [instructions, p1, r1, p2], tools: [search], turn: 1)
      let atMinimum = try #require(try await reports([first, next], minimum: 160).last)
      #expect(atMinimum.reusedTokenCount == 160)
      let underMinimum = try #require(try await reports([first, next], minimum: 161).last)
      #expect(underMinimum.reusedTokenCount == 0)
      #expect(underMinimum.reprocessedTokenCount == 165)
      // In blocks of 16 the 160 shared tokens are 10 whole blocks: 160 reusable, so a minimum of
      // 150 allows them; a minimum of 176 does not.
      #expect(try await reports([first, next], blockSize: 16, minimum: 150).last?.reusedTokenCount == 160)
      #expect(try await reports([first, next], blockSize: 16, minimum: 176).last?.reusedTokenCount == 0)
    }

    @Test func `rewritten instructions leave only the tools reused`() async throws {
      let rewritten = instructionsEntry(words(10, tag: "j"), tools: [search])
      let note = GenerationNote(
        source: "skills", kind: .instructionsChanged, message: "(not read)", names: [.activated: ["tone"]])
      let next = record(sent: [rewritten, p1, r1, p2], tools: [search], notes: [note], turn: 1)
      let report = try #require(try await reports([first, next]).last)
      #expect(report.reusedTokenCount == 100)
      #expect(
        report.divergence
          == CacheImpactReport.Divergence(blockIndex: 1, location: .instructions, tokenOffset: 100))
      #expect(report.cause.kind == .instructionsChanged)
      #expect(report.cause.source == "skills")
      #expect(report.cause.detail == "activated tone")
    }

    @Test func `a changed tool schema leaves nothing reused`() async throws {
      let changed = Transcript.ToolDefinition(
        name: "search", description: "A tool.", parameters: Int.generationSchema)
      let next = record(
        sent: [instructionsEntry(words(10, tag: "i"), tools: [changed]), p1, r1, p2], tools: [changed],
        turn: 1)
      let report = try #require(try await reports([first, next]).last)
      #expect(report.reusedTokenCount == 0)
      #expect(report.reprocessedTokenCount == 165)
      #expect(report.divergence?.blockIndex == 0)
      #expect(report.divergence?.location == .tool(name: "search"))
      #expect(report.cause.kind == .toolsChanged)
      #expect(report.cause.detail == "the tool list changed the definition of search")
    }

    @Test func `one entry dropped in the middle keeps the prefix before it`() async throws {
      let r2 = responseEntry(words(7, tag: "s"))
      let p3 = promptEntry(words(3, tag: "t"))
      let sent0 = [instructions, p1, r1, p2]
      let before = record(
        sent: sent0, tools: [search], output: [r2],
        stages: [GenerationRecord.Stage(name: "dropper", transcript: Transcript(entries: sent0))])
      let sent1 = [instructions, p1, p2, r2, p3]
      let after = record(
        sent: sent1, tools: [search], stored: sent0 + [r2, p3],
        stages: [GenerationRecord.Stage(name: "dropper", transcript: Transcript(entries: sent1))], turn: 1)
      let report = try #require(try await reports([before, after]).last)
      #expect(report.promptTokenCount == 145)
      #expect(report.reusedTokenCount == 130)
      #expect(
        report.divergence
          == CacheImpactReport.Divergence(
            blockIndex: 3, location: .entry(index: 2, kind: "prompt"), tokenOffset: 130))
      #expect(report.cause.kind == .historyRewritten)
      #expect(report.cause.source == "dropper")
    }

    @Test(arguments: [(1, 160), (16, 160), (100, 100), (128, 128), (256, 0)])
    func `reuse is rounded down to whole cache blocks`(blockSize: Int, reused: Int) async throws {
      let next = record(sent: [instructions, p1, r1, p2], tools: [search], turn: 1)
      let report = try #require(try await reports([first, next], blockSize: blockSize).last)
      #expect(report.match.sharedTokenCount == 160)
      #expect(report.reusedTokenCount == reused)
    }

    @Test(arguments: [(1, 0, 160), (1, 160, 160), (1, 161, 0), (128, 128, 128), (128, 129, 0)])
    func `a reuse below the minimum cacheable length counts as none`(
      blockSize: Int, minimum: Int, reused: Int
    ) async throws {
      let next = record(sent: [instructions, p1, r1, p2], tools: [search], turn: 1)
      let report = try #require(
        try await reports([first, next], blockSize: blockSize, minimum: minimum).last)
      #expect(report.reusedTokenCount == reused)
    }

    @Test func `a longer look-back finds an older request that shares more`() async throws {
      let rewritten = instructionsEntry(words(10, tag: "j"), tools: [search])
      let detour = record(sent: [rewritten, p1], tools: [search], output: [responseEntry("other")], turn: 1)
      let back = record(sent: [instructions, p1, r1, p2], tools: [search], turn: 2)
      let previousOnly = try #require(try await reports([first, detour, back]).last)
      #expect(previousOnly.reusedTokenCount == 100)
      #expect(previousOnly.match.sourceDistance == 1)
      let radix = try #require(try await reports([first, detour, back], lookback: 2).last)
      #expect(radix.reusedTokenCount == 160)
      #expect(radix.match.sourceDistance == 2)
      #expect(radix.cause.kind == .instructionsChanged)
    }

    @Test func `of two requests that share as much, the nearer is the source`() async throws {
      // Each later request changes the prompt: it shares the tool and the
      // instructions (110 tokens) with the previous request and with the one before.
      let second = record(
        sent: [instructions, promptEntry(words(4, tag: "a"))], tools: [search], output: [r1], turn: 1)
      let third = record(sent: [instructions, promptEntry(words(6, tag: "b"))], tools: [search], turn: 2)
      let report = try #require(try await reports([first, second, third], lookback: 2).last)
      #expect(report.match.sharedTokenCount == 110)
      #expect(report.match.sourceDistance == 1)
    }

    @Test func `an entry rewritten under the same id is rendered again`() async throws {
      // p1 keeps its id but now holds 3 words: 100 + 10 + 3 + 30 + 5 = 148 tokens, of which
      // the tool and the instructions (110) are still cached.
      let rewritten = Transcript.Entry.prompt(
        Transcript.Prompt(id: p1.id, segments: [textSegment(words(3, tag: "x"))]))
      let atItsPlace = try #require(
        try await reports([first, record(sent: [instructions, rewritten, r1, p2], tools: [search], turn: 1)])
          .last)
      #expect(atItsPlace.promptTokenCount == 148)
      #expect(atItsPlace.reusedTokenCount == 110)
      // Further back than the previous request reached: found by id, not by position.
      let moved = try #require(
        try await reports([first, record(sent: [instructions, p2, r1, rewritten], tools: [search], turn: 1)])
          .last)
      #expect(moved.promptTokenCount == 148)
    }

    @Test func `an entry rewritten at the place the previous request held it is rendered again`()
      async throws
    {
      // The second request finds p1 rendered (by id); the third has p1 rewritten under the same id
      // at the same place: 100 + 10 + 3 + 30 + 5 = 148 tokens, of which the tool and the
      // instructions (110) are still cached.
      let rewritten = Transcript.Entry.prompt(
        Transcript.Prompt(id: p1.id, segments: [textSegment(words(3, tag: "x"))]))
      let second = record(sent: [instructions, p1, r1, p2], tools: [search], turn: 1)
      let third = record(sent: [instructions, rewritten, r1, p2], tools: [search], turn: 2)
      let runs = try await reports([first, second, third])
      try #require(runs.count == 3)
      #expect(runs[1].reusedTokenCount == 160)
      #expect(runs[2].promptTokenCount == 148)
      #expect(runs[2].reusedTokenCount == 110)
    }

    @Test func `blocks come in server order and ignore entry ids`() async throws {
      let model = PromptCacheModel(tokenCounter: WordTokenCounter(toolDefinitionTokens: 100))
      let schema = Int.generationSchema
      let request = PromptRequest(
        toolDefinitions: [search], contextOptions: ContextOptions(reasoningLevel: .high), schema: schema,
        transcript: Transcript(entries: [instructions, p1]))
      let prompt = try await model.render(request)
      #expect(
        prompt.blocks.map(\.location) == [
          .tool(name: "search"), .settings, .responseSchema, .instructions, .entry(index: 1, kind: "prompt"),
        ])
      let again = try await model.render(
        PromptRequest(
          toolDefinitions: [search], contextOptions: ContextOptions(reasoningLevel: .high), schema: schema,
          transcript: Transcript(entries: [
            instructionsEntry(words(10, tag: "i")), promptEntry(words(20, tag: "p")),
          ])))
      #expect(prompt.commonBlockCount(with: again) == prompt.blocks.count)
    }

    @Test func `a tool call's id and an image's bytes are part of their blocks, the entry ids are not`()
      async throws
    {
      // One model renders all of them, as it does a session's generations: a block
      // rendered before must not stand in for one the server would read differently.
      let model = PromptCacheModel(tokenCounter: WordTokenCounter(toolDefinitionTokens: 100))
      func render(_ entries: [Transcript.Entry]) async throws -> RenderedPrompt {
        try await model.render(PromptRequest(toolDefinitions: [], transcript: Transcript(entries: entries)))
      }
      func calls(entryID: String, callID: String) -> Transcript.Entry {
        .toolCalls(
          Transcript.ToolCalls(
            id: entryID,
            [
              Transcript.ToolCall(
                id: callID, toolName: "search", arguments: GeneratedContent(properties: [:]))
            ])
        )
      }
      func image(entryID: String, bytes: [UInt8]) -> Transcript.Entry {
        .prompt(
          Transcript.Prompt(
            id: entryID,
            segments: [
              .attachment(
                Transcript.AttachmentSegment(
                  id: entryID + "-image",
                  content: .image(Transcript.ImageAttachment(data: Data(bytes), mimeType: "image/png"))))
            ]))
      }
      let called = try await render([instructions, p1, calls(entryID: "t1", callID: "call-1")])
      #expect(called.blocks.count == 3)
      // Another call id (same tool, same arguments): the server reads another call.
      let recalled = try await render([instructions, p1, calls(entryID: "t2", callID: "call-2")])
      #expect(called.commonBlockCount(with: recalled) == 2)
      // The same call under another entry id: the server reads the same tokens.
      let copied = try await render([instructions, p1, calls(entryID: "t3", callID: "call-1")])
      #expect(called.commonBlockCount(with: copied) == 3)

      let shown = try await render([instructions, image(entryID: "i1", bytes: [1, 2, 3])])
      #expect(shown.blocks.count == 2)
      // Other bytes of the same size and type: another image.
      let other = try await render([instructions, image(entryID: "i2", bytes: [3, 2, 1])])
      #expect(shown.commonBlockCount(with: other) == 1)
      let same = try await render([instructions, image(entryID: "i3", bytes: [1, 2, 3])])
      #expect(shown.commonBlockCount(with: same) == 2)
    }

    @Test func `bad settings are rejected with a typed error`() {
      #expect(throws: CacheAnalysisError.invalidBlockSize(0)) { try PromptCacheModel(blockSize: 0) }
      #expect(throws: CacheAnalysisError.invalidMinimumCacheableTokens(-1)) {
        try PromptCacheModel(blockSize: 16, minimumCacheableTokens: -1)
      }
      #expect(throws: CacheAnalysisError.invalidLookback(0)) {
        try PromptCacheModel(blockSize: 16, lookback: 0)
      }
    }

    @Test func `each bad setting's message names the setting, its value and its unit`() {
      #expect(
        CacheAnalysisError.invalidBlockSize(0).description
          == "PromptCacheModel: the block size is 0 tokens, it must be at least 1")
      #expect(
        CacheAnalysisError.invalidMinimumCacheableTokens(-1).description
          == "PromptCacheModel: the minimum cacheable length is -1 tokens, it must be 0 or more")
      #expect(
        CacheAnalysisError.invalidLookback(0).description
          == "PromptCacheModel: the look-back is 0 requests, it must be at least 1")
    }

    @Test func `the agreement tolerance is one block: 16 by default, the block size when one is given`()
      throws
    {
      #expect(PromptCacheModel().serverTolerance == 16)
      #expect(PromptCacheModel().blockSize == 16)
      #expect(PromptCacheModel().lookback == 1)
      #expect(PromptCacheModel().minimumCacheableTokens == 0)
      #expect(try PromptCacheModel(blockSize: 128).serverTolerance == 128)
      #expect(try PromptCacheModel(blockSize: 1).serverTolerance == 1)
      #expect(
        try PromptCacheModel(blockSize: 16, minimumCacheableTokens: 1_024, lookback: 4).serverTolerance == 16)
    }

    @Test func `the summary adds up the reports and groups invalidations by cause`() async throws {
      let rewritten = instructionsEntry(words(10, tag: "j"), tools: [search])
      let all = try await reports([
        first, record(sent: [instructions, p1, r1, p2], tools: [search], turn: 1),
        record(sent: [rewritten, p1, r1, p2], tools: [search], turn: 2),
      ])
      let summary = CacheImpactSummary(reports: all)
      #expect(summary.generationCount == 3)
      #expect(summary.promptTokenCount == 130 + 165 + 165)
      #expect(summary.reusedTokenCount == 160 + 100)
      #expect(
        summary.invalidations == [.init(cause: "instructionsChanged", count: 1, reprocessedTokenCount: 65)])
    }
  }

  /// The texts the cache model compares: what a server would read, so that two
  /// requests share a block exactly when they send the same thing.
  @Suite("Prompt cache model block texts") struct BlockTexts {
    @Test func `images, tool calls and tool output render with what the server reads`() async throws {
      let url = try #require(URL(string: "https://example.com/cat.png"))
      let entries: [Transcript.Entry] = [
        .prompt(
          Transcript.Prompt(segments: [
            textSegment("What is this?"),
            .attachment(
              .init(content: .image(.init(data: Data([1, 2, 3]), mimeType: "image/png")), label: "cat")),
            .attachment(.init(content: .image(.init(url: url)))),
          ])),
        .toolCalls(
          Transcript.ToolCalls([
            Transcript.ToolCall(
              id: "c1", toolName: "weather", arguments: try GeneratedContent(json: #"{"city": "Oslo"}"#)),
            Transcript.ToolCall(id: "c2", toolName: "time", arguments: GeneratedContent(properties: [:])),
          ])),
        .toolOutput(Transcript.ToolOutput(id: "c1", toolName: "weather", segments: [textSegment("21°C")])),
      ]
      let prompt = try await PromptCacheModel(tokenCounter: WordTokenCounter(toolDefinitionTokens: 100))
        .render(PromptRequest(toolDefinitions: [], transcript: Transcript(entries: entries)))
      #expect(
        prompt.blocks.map(\.text) == [
          "prompt\nWhat is this?\n[image image/png 3 bytes d0aa6218672cf5ab cat]\n[image https://example.com/cat.png]",
          "toolCalls\ncall c1 weather {\"city\":\"Oslo\"}\ncall c2 time {}",
          "toolOutput c1 weather\n21°C",
        ])
    }

    @Test func `tools, settings, schema and instructions render with what the server reads`() async throws {
      let tool = toolDefinition("search", description: "Finds pages.")
      let prompt = try await PromptCacheModel(tokenCounter: WordTokenCounter(toolDefinitionTokens: 100))
        .render(
          PromptRequest(
            toolDefinitions: [tool], contextOptions: ContextOptions(reasoningLevel: .custom("deep")),
            schema: Int.generationSchema,
            transcript: Transcript(entries: [instructionsEntry("Be brief.", tools: [tool])])))
      #expect(
        prompt.blocks.map(\.text) == [
          "tool search\nFinds pages.\n" + String.generationSchema.jsonSchema.jsonString, "reasoning deep",
          "responseSchema\n" + Int.generationSchema.jsonSchema.jsonString, "instructions\nBe brief.",
        ])
    }
  }
}
