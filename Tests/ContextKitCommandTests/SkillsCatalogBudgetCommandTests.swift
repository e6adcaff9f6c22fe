import Foundation
import TestSupport
import Testing

@testable import contextkit

/// Three skills whose catalog sizes follow from the estimate's rule, tokens =
/// UTF-8 bytes / 4 rounded up, applied to the texts written out below: the
/// full catalog is 415 bytes (104 tokens), with first sentences 364 (91),
/// names only 224 (56), and with no skill listed 203 (51). Keeping one skill
/// of the names-only listing with the paragraph for the other two takes 235
/// bytes (59), more than names only: only a budget under 56 leaves skills
/// out, and then all three.
@Suite("contextkit skills catalog --budget", .timeLimit(.minutes(10))) struct SkillsCatalogBudgetCommandTests
{
  static let lead =
    "If a skill below fits the user's request, silently activate it before responding. "
    + "Otherwise, respond normally without calling tools."
  static let namesOnly =
    lead + """


      Skill: alpha-notes [on demand]

      Skill: beta-sql [on demand]

      Skill: gamma-tone [on demand]
      """
  static let noneListed =
    lead + """


      (3 more skills are not listed; activate_skill takes their names too.)
      """

  static func estimate(_ text: String) -> Int { (text.utf8.count + 3) / 4 }

  static func writeSkills(in folder: TemporaryFolder) throws -> URL {
    let root = folder.url
    let skills = [
      ("alpha-notes", "Tidies meeting notes into actions. Use it after every meeting."),
      ("beta-sql", "Reviews SQL for injection. Use it before a merge."),
      ("gamma-tone", "Keeps release notes in the house tone."),
    ]
    for (name, description) in skills {
      try writeSkill(
        name, under: root, "---\nname: \(name)\ndescription: \(description)\n---\nBody of \(name).\n")
    }
    return root
  }

  @Test func `the texts above have the sizes the suite's comment says`() {
    #expect(Self.namesOnly.utf8.count == 224 && Self.estimate(Self.namesOnly) == 56)
    #expect(Self.noneListed.utf8.count == 203 && Self.estimate(Self.noneListed) == 51)
  }

  @Test func `text output: what the model sees, then the budget and each step taken`() async throws {
    let temporary = try TemporaryFolder(named: "ck-cli")
    defer { temporary.remove() }
    let root = try Self.writeSkills(in: temporary)
    let run = await CommandRun.run(["skills", "catalog", "--budget", "80", root.path])
    #expect(run.code == .success)
    #expect(run.output.hasPrefix(Self.namesOnly + "\n\ntool activate_skill: "))
    #expect(
      run.output.hasSuffix(
        """

        budget: 80 tokens (estimated at 4 bytes a token)
        the catalog takes 56 tokens, 104 in full
        step 1: 2 descriptions shortened to the first sentence and at most 80 characters
        step 2: names only

        """))
    let fits = await CommandRun.run(["skills", "catalog", "--budget=104", root.path])
    #expect(
      fits.output.contains(
        "Skill: beta-sql [on demand]\nDescription: Reviews SQL for injection. Use it before a merge.\n"))
    #expect(fits.output.hasSuffix("the catalog fits in full: 104 tokens; no step taken\n"))
    let shortened = await CommandRun.run(["skills", "catalog", "--budget", "100", root.path])
    #expect(
      shortened.output.contains("Skill: beta-sql [on demand]\nDescription: Reviews SQL for injection.\n"))
    #expect(shortened.output.contains("the catalog takes 91 tokens, 104 in full\n"))
  }

  @Test func `JSON: the budget object names the steps and the skills left out, which the tool still takes`()
    async throws
  {
    let temporary = try TemporaryFolder(named: "ck-cli")
    defer { temporary.remove() }
    let root = try Self.writeSkills(in: temporary)
    let run = await CommandRun.run(["skills", "catalog", "--json", "--budget", "55", root.path])
    #expect(run.code == .success)
    let object = try run.jsonObject()
    #expect(
      CommandRun.keys(object) == ["budget", "diagnostics", "hiddenSkills", "instructions", "skills", "tools"])
    #expect(object["instructions"] as? String == Self.noneListed)
    let budget = try #require(object["budget"] as? [String: Any])
    #expect(
      CommandRun.keys(budget) == [
        "catalogTokens", "fullCatalogTokens", "leftOutSkills", "listedSkills", "note", "overBudget",
        "shortenedDescriptions", "steps", "tokens",
      ])
    #expect(budget["tokens"] as? Int == 55)
    #expect(budget["catalogTokens"] as? Int == Self.estimate(Self.noneListed))
    #expect(budget["fullCatalogTokens"] as? Int == 104)
    #expect(budget["overBudget"] as? Bool == false)
    #expect(budget["steps"] as? [String] == ["descriptionsShortened", "namesOnly", "skillsLeftOut"])
    #expect(budget["shortenedDescriptions"] as? Int == 2)
    #expect(budget["listedSkills"] as? [String] == [])
    #expect(budget["leftOutSkills"] as? [String] == ["alpha-notes", "beta-sql", "gamma-tone"])
    #expect(
      (budget["note"] as? String)?.contains(
        "3 skills left out, the last in catalog order from alpha-notes on")
        == true)
    let tools = try #require(object["tools"] as? [[String: Any]])
    let parameters = try JSONSerialization.data(withJSONObject: tools.first?["parameters"] ?? [:])
    for name in ["alpha-notes", "beta-sql", "gamma-tone"] {
      #expect(String(decoding: parameters, as: UTF8.self).contains("\"\(name)\""))
    }
  }

  @Test func `without --budget the key is null; a budget below the lead instruction is still over`()
    async throws
  {
    let temporary = try TemporaryFolder(named: "ck-cli")
    defer { temporary.remove() }
    let root = try Self.writeSkills(in: temporary)
    let plain = try await CommandRun.run(["skills", "catalog", "--json", root.path]).jsonObject()
    #expect(plain["budget"] is NSNull)
    let tiny = try await CommandRun.run(["skills", "catalog", "--json", "--budget", "10", root.path])
      .jsonObject()
    let budget = try #require(tiny["budget"] as? [String: Any])
    #expect(budget["overBudget"] as? Bool == true)
    #expect(budget["catalogTokens"] as? Int == 51)
    #expect(tiny["instructions"] as? String == Self.noneListed)
  }

  @Test func `a budget that is not a whole number of 0 or more is a usage error`() async {
    for value in ["-1", "many", "1.5"] {
      let run = await CommandRun.run(["skills", "catalog", "--budget", value, "SkillsLibrary"])
      #expect(run.code == .usage, "\(value)")
      #expect(run.error.contains("--budget"), "\(value)")
    }
    #expect(await CommandRun.run(["skills", "catalog", "--budget"]).code == .usage)
  }

  @Test func `a budget of 0 tokens is allowed: the catalog lists no skill and is over it`() async throws {
    let temporary = try TemporaryFolder(named: "ck-cli")
    defer { temporary.remove() }
    let root = try Self.writeSkills(in: temporary)
    let run = await CommandRun.run(["skills", "catalog", "--json", "--budget", "0", root.path])
    #expect(run.code == .success)
    #expect(run.error.isEmpty)
    let budget = try #require(try run.jsonObject()["budget"] as? [String: Any])
    #expect(budget["tokens"] as? Int == 0)
    #expect(budget["overBudget"] as? Bool == true)
    #expect(budget["catalogTokens"] as? Int == 51)
    #expect(budget["leftOutSkills"] as? [String] == ["alpha-notes", "beta-sql", "gamma-tone"])
    let minusOne = await CommandRun.run(["skills", "catalog", "--budget", "-1", root.path])
    #expect(minusOne.error.contains("--budget takes 0 or more tokens, not -1"))
  }
}
