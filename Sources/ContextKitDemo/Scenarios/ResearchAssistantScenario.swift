import DemoSupport

/// A research assistant on a small on-device model with a 4,096-token
/// context over 30 turns: web searches and page fetches with large outputs,
/// and the hand-off summary skill (a prompt skill) at the end. The budget
/// is tight, so every strategy has to drop or summarize often.
enum ResearchAssistantScenario {
  static var script: ScenarioScript {
    typealias Call = ScenarioScript.Call
    typealias Turn = ScenarioScript.Turn
    return ScenarioScript(
      name: "research-assistant",
      instructions:
        "You help the user research a topic. Search, read the pages you cite, and keep notes short. "
        + "Say when sources disagree.",
      budget: 4_096,
      tools: [
        ReplayToolSpec(
          name: "web_search", description: "Searches the web and returns titles, addresses and snippets.",
          parameter: "query", parameterDescription: "The search terms."),
        ReplayToolSpec(
          name: "fetch_page", description: "Returns the readable text of a web page.", parameter: "url",
          parameterDescription: "The page's address."),
      ],
      usesSkills: true,
      turns: [
        Turn(
          "I'm researching how LLM servers reuse the KV cache between requests. Where do I start?",
          [[Call("web_search", "prefix caching KV cache reuse LLM serving", tokens: 450)]]),
        Turn(
          "Read the vLLM one.",
          [[Call("fetch_page", "https://docs.vllm.ai/automatic-prefix-caching", tokens: 800)]]),
        Turn("So blocks of 16 tokens? Why blocks?", thinks: true),
        Turn(
          "How does SGLang do it differently?", [[Call("web_search", "SGLang RadixAttention", tokens: 400)]]),
        Turn(
          "Fetch the paper's summary.",
          [[Call("fetch_page", "https://arxiv.org/abs/2312.07104", tokens: 850)]]),
        Turn("Radix tree versus hash of blocks: which wins for chat?", thinks: true),
        Turn(
          "What do hosted APIs do?", [[Call("web_search", "OpenAI prompt caching 1024 tokens", tokens: 400)]]),
        Turn(
          "Read OpenAI's page.",
          [[Call("fetch_page", "https://platform.openai.com/docs/guides/prompt-caching", tokens: 700)]]),
        Turn(
          "And Anthropic?", [[Call("fetch_page", "https://docs.anthropic.com/prompt-caching", tokens: 750)]]),
        Turn("Make a table: provider, granularity, minimum length, lifetime."),
        Turn("What invalidates the cache in each?", thinks: true),
        Turn("Does changing the tool list invalidate everything?"),
        Turn(
          "Find a source that measures the speed-up.",
          [[Call("web_search", "prefix caching time to first token benchmark", tokens: 400)]]),
        Turn(
          "Read the first result.", [[Call("fetch_page", "https://example.org/ttft-benchmark", tokens: 800)]]),
        Turn("How big was the speed-up for long prompts?"),
        Turn("Is that consistent with the vLLM numbers?", thinks: true),
        Turn(
          "What about on-device models with small contexts?",
          [[Call("web_search", "on-device LLM 4096 context KV cache", tokens: 450)]]),
        Turn("Read that.", [[Call("fetch_page", "https://example.org/on-device-kv", tokens: 800)]]),
        Turn("So with 4,096 tokens, how often would a rolling window trim?", thinks: true),
        Turn("And what would that cost in re-processing?"),
        Turn(
          "Is there research on cache-aware context compression?",
          [[Call("web_search", "cache-aware context compression LLM agents", tokens: 450)]]),
        Turn(
          "Read the most relevant one.",
          [[Call("fetch_page", "https://example.org/cache-aware-compaction", tokens: 850)]]),
        Turn("How does it choose when to compact?"),
        Turn("Compare that with summarizing every turn.", thinks: true),
        Turn("Which sources disagree, and on what?"),
        Turn("List the open questions."),
        Turn(
          "Load the hand-off summary guidance.",
          [[Call(CorpusGenerator.skillToolName, "summarizing-for-handoff")]]),
        Turn("Write the hand-off summary for my colleague."),
        Turn("Add the sources with one line each."),
        Turn("Thanks, that's it for today."),
      ],
      answerTokens: 60...240)
  }
}
