import ContextKit
import Foundation

// README.md's `swift` blocks, in order, each between `// README begin` and
// `// README end` exactly as the README shows it (indented by two spaces here,
// its `import` lines at the top of this file). `README.md's examples are
// these` fails when the two part. The parameters are what the README's text
// assumes: the server's base URL, a loaded library, the activations store.

/// "A session with skills".
func readmeSessionWithSkills(serverURL: URL) async throws -> LanguageModelSession {
  // README begin
  let model = ChatCompletionsLanguageModel(name: "smollm2", url: serverURL)
  let library = try SkillsLibrary(root: URL(fileURLWithPath: "SkillsLibrary"))
  let activations = SkillActivations()
  let session = LanguageModelSession(
    profile: Profile {
      Instructions("You help Swift developers build apps on language models.")
      Skills(activations: activations, skills: library.skills)
    }
    .model(model))  // the profile names the model, as in the framework
  let answer = try await session.respond(to: "Review this actor for data races: …")
  print(answer.content)
  let usage = answer.usage.input
  print("prompt:", usage.totalTokenCount, "tokens, from cache:", usage.cachedTokenCount)
  // README end
  return session
}

/// "Keeping a long conversation in the window": the cache-aware compaction.
func readmeCompaction(library: SkillsLibrary, activations: SkillActivations) -> some DynamicProfile {
  // README begin
  let profile = Profile {
    Instructions("You are a support agent for the Acme router.")
    Skills(activations: activations, skills: library.skills)
  }
  .reportingCacheImpact { report in print(report) }  // written first, so it runs last and sees what is sent
  .compactingHistory(tokenBudget: 3_000)  // drops old turns in one large step, rarely
  .droppingCompletedToolCalls()  // written last, so it runs first (outside-in)
  // README end
  return profile
}

/// "Keeping a long conversation in the window": the companion package's spellings.
func readmeCompanionModifiers() -> (windowed: some DynamicProfile, summarized: some DynamicProfile) {
  // README begin
  let windowed = Profile { Instructions("You are a support agent for the Acme router.") }
    .rollingWindow(entries: 20)  // whole turns only; the instructions always stay
  let summarized = Profile { Instructions("You are a support agent for the Acme router.") }
    .summarizeHistory(entryThreshold: 40)  // no model given: the session's model summarizes
  // README end
  return (windowed, summarized)
}
