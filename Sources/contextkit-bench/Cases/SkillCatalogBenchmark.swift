import AgentSkills

/// Fitting the catalog of 1,000 skills in a 2,000-token budget, from a cold
/// budget every run (no remembered fit), against rendering the same catalog
/// in full with no budget.
///
/// The skills have descriptions of a few sentences, as real ones do, so the
/// fit takes every step: descriptions shortened, names only, then skills left
/// out (1,000 names-only lines take more than 2,000 tokens). The goal is
/// under 5 ms a fit; the note says which steps the fit took and how many
/// skills it listed, so a change in the fit shows in the report.
enum SkillCatalogBenchmark {
  static let name = "skills/catalog/1000-in-2000-tokens"

  static func make(count: Int = 1000, budgetTokens: Int = 2000) throws -> BenchmarkCase {
    let skills = (0..<count).map { index in
      Skill(
        name: "generated-skill-\(index)",
        description:
          "Reviews changes of kind \(index) for missing fields and unsafe defaults. Use it before a "
          + "merge that touches module \(index % 37), and when a reviewer asks for a second look. "
          + "It explains each finding in one sentence.",
        prompt: "Body of skill \(index).")
    }
    let catalog = Skills(activations: SkillActivations(), skills: skills)
    let active: Set<String> = ["generated-skill-7", "generated-skill-500"]
    let probe = try AsyncBenchmarkRunner.run {
      let listing = try await catalog.catalogBudget(SkillCatalogBudget(tokens: budgetTokens))
        .catalog(active: active)
      return listing.listedSkillNames.count
    }
    guard probe > 0, probe < count else {
      throw BenchmarkSetupError(
        description:
          "the fit listed \(probe) of \(count) skills; the case needs a budget that leaves some out")
    }
    return BenchmarkCase(
      name: name,
      run: {
        try AsyncBenchmarkRunner.run {
          // A new budget each run: its memo of earlier fits starts empty.
          let listing = try await catalog.catalogBudget(SkillCatalogBudget(tokens: budgetTokens))
            .catalog(active: active)
          return listing.text.utf8.count + listing.listedSkillNames.count
        }
      },
      baseline: BenchmarkCase.Operation(
        name: "full catalog, no budget", run: { catalog.catalogText(active: active).utf8.count }),
      unit: BenchmarkUnit(name: "skill", countPerOperation: count),
      note:
        "a cold fit lists \(probe) of \(count) skills (descriptions shortened, names only, the rest left out)"
    )
  }
}
