import AgentSkills
import Foundation
import ModelSession
import TestSupport
import Testing

private let deploySteps = "# Deploying\n1. Tag the release."

@Suite("Skills hidden from the model", .timeLimit(.minutes(10))) struct SkillModelInvocationTests {
  private func catalog(_ activations: SkillActivations) -> Skills {
    Skills(activations: activations) {
      Skill(name: "swift-style", description: "The team's Swift style rules", prompt: "Use guard.")
      Skill(name: "deploying", description: "Steps to deploy", prompt: deploySteps).allowingModelInvocation(
        false)
      Skill(
        name: "on-call", description: "On-call rules", instructions: "Page the lead.",
        allowsDeactivation: true
      )
      .allowingModelInvocation(false)
    }
    .slashCommandActivation()
  }

  @Test func `are absent from the catalog and the tool's enum, and the tool keeps its plain name`()
    async throws
  {
    let activations = SkillActivations()
    let script = ModelScript([.text("ok")])
    let session = LanguageModelSession(
      model: ScriptedLanguageModel(script: script), profile: Profile { catalog(activations) })
    try await session.respond(to: "hello")
    let instructions = requestInstructions(script.requests[0])
    #expect(
      instructions.contains("Skill: swift-style [on demand]\nDescription: The team's Swift style rules"))
    #expect(!instructions.contains("deploying") && !instructions.contains("on-call"))
    #expect(script.requests[0].enabledToolDefinitions.map(\.name) == [Skills.activateToolName])
    #expect(activationEnum(script.requests[0]) == ["swift-style"])
  }

  @Test func `the model cannot activate one by guessing its name`() async throws {
    let activations = SkillActivations()
    let script = ModelScript([
      .toolCall(name: Skills.activateToolName, arguments: #"{"skill":"deploying"}"#), .text("ok"),
    ])
    let session = LanguageModelSession(
      model: ScriptedLanguageModel(script: script), profile: Profile { catalog(activations) })
    try await session.respond(to: "deploy")
    let output = try #require(toolOutputTexts(session.transcript).first)
    #expect(output.hasPrefix("Error: the arguments for \"activate_skill\" do not match its schema"))
    #expect(!output.contains(deploySteps))
    #expect(activations.loadedSkillNames.isEmpty)
  }

  @Test func `the user and the app can still activate them`() async throws {
    let activations = SkillActivations()
    let script = ModelScript([.text("Deploying."), .text("Paging.")])
    let session = LanguageModelSession(
      model: ScriptedLanguageModel(script: script), profile: Profile { catalog(activations) })
    try await session.respond(to: "/deploying now")
    #expect(toolOutputTexts(script.requests[0].transcript) == [deploySteps])
    #expect(activations.loadedSkillNames == ["deploying"])

    activations.activate("on-call")
    try await session.respond(to: "Who is on call?")
    let instructions = requestInstructions(script.requests[1])
    // Active, its block is in the catalog, though the model cannot switch it itself.
    #expect(instructions.contains("Skill: on-call [active]\nPage the lead."))
    #expect(!instructions.contains("on-call [inactive]"))
    // Activations never change the tool definitions.
    #expect(toolDefinitionsJSON(script.requests[0]) == toolDefinitionsJSON(script.requests[1]))
  }

  @Test func `with no skill the model may activate, no tool and no catalog are offered`() async throws {
    let activations = SkillActivations()
    let script = ModelScript([.text("Deploying.")])
    let profile = Profile {
      "You deploy."
      Skills(activations: activations) {
        Skill(name: "deploying", description: "Steps to deploy", prompt: deploySteps).allowingModelInvocation(
          false)
      }
      .slashCommandActivation()
    }
    let session = LanguageModelSession(model: ScriptedLanguageModel(script: script), profile: profile)
    try await session.respond(to: "/deploying please")
    #expect(script.requests[0].enabledToolDefinitions.isEmpty)
    #expect(requestInstructions(script.requests[0]) == "You deploy.")
    #expect(toolOutputTexts(script.requests[0].transcript) == [deploySteps])
    #expect(activations.loadedSkillNames == ["deploying"])
  }

  @Test func `the model reads the resources of a hidden skill the user activated`() async throws {
    let fixture = try SkillFixture()
    try fixture.skill(
      "deploying",
      frontMatter:
        "name: deploying\ndescription: Steps to deploy.\nmetadata:\n  disable-model-invocation: \"true\"",
      body: "Follow [the steps](references/steps.md).\n")
    try fixture.write("1. Tag the release.\n", to: "deploying/references/steps.md")
    let library = try SkillsLibrary(root: fixture.root, mode: .strict)
    let activations = SkillActivations()
    let script = ModelScript([
      .toolCall(
        name: Skills.readResourceToolName, arguments: #"{"skill":"deploying","path":"references/steps.md"}"#),
      .text("Tagged."),
    ])
    let profile = Profile {
      Skills(activations: activations, skills: library.skills).slashCommandActivation()
    }
    let session = LanguageModelSession(model: ScriptedLanguageModel(script: script), profile: profile)
    try await session.respond(to: "/deploying")
    // Only the read tool is offered: no skill is left for the model to activate.
    #expect(script.requests[0].enabledToolDefinitions.map(\.name) == [Skills.readResourceToolName])
    let outputs = toolOutputTexts(session.transcript)
    #expect(outputs.count == 2)
    #expect(outputs[0].contains("<skill_resources name=\"deploying\">"))
    #expect(outputs[1].contains("1. Tag the release."))
    #expect(!outputs[1].hasPrefix("Error:"))
  }

  @Test func `a skill loaded with disable-model-invocation under metadata is hidden`() async throws {
    let fixture = try SkillFixture()
    try fixture.skill(
      "deploying",
      frontMatter:
        "name: deploying\ndescription: Steps to deploy.\nmetadata:\n  disable-model-invocation: \"true\"",
      body: deploySteps + "\n")
    try fixture.skill("swift-style")
    let library = try SkillsLibrary(root: fixture.root, mode: .strict)
    let activations = SkillActivations()
    let script = ModelScript([.text("ok")])
    let profile = Profile {
      Skills(activations: activations, skills: library.skills).slashCommandActivation()
    }
    let session = LanguageModelSession(model: ScriptedLanguageModel(script: script), profile: profile)
    try await session.respond(to: "/deploying")
    #expect(!requestInstructions(script.requests[0]).contains("deploying"))
    #expect(activationEnum(script.requests[0]) == ["swift-style"])
    #expect(toolOutputTexts(script.requests[0].transcript) == [deploySteps + "\n"])
  }
}
