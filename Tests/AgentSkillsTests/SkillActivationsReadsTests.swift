import Foundation
import ModelSession
import Observation
import Synchronization
import TestSupport
import Testing

@testable import AgentSkills

@Suite("SkillActivations for apps", .timeLimit(.minutes(10))) struct SkillActivationsReadsTests {
  @Test func `isActive and activeSkillNames read without await and see every change at once`() async {
    let activations = SkillActivations(active: ["a"])
    #expect(activations.isActive("a"))
    #expect(activations.activeSkillNames == ["a"])
    activations.activate("b")
    #expect(activations.activeSkillNames == ["a", "b"])
    activations.deactivate("a")
    #expect(!activations.isActive("a"))
    activations.restore(
      SkillActivationsSnapshot(activeSkillNames: ["x", "y"], loadedSkillNames: ["z"]))
    #expect(
      activations.snapshot()
        == SkillActivationsSnapshot(activeSkillNames: ["x", "y"], loadedSkillNames: ["z"]))
    #expect(activations.isLoaded("z"))
  }

  @Test func `a reader on another thread never sees half of a restore`() async {
    // Every restore swaps two consistent states: {a1,a2 | l1} and {b1 | l2,l3}.
    let first = SkillActivationsSnapshot(activeSkillNames: ["a1", "a2"], loadedSkillNames: ["l1"])
    let second = SkillActivationsSnapshot(activeSkillNames: ["b1"], loadedSkillNames: ["l2", "l3"])
    let activations = SkillActivations(first)
    let torn = Atomic<Int>(0)
    let done = Atomic<Bool>(false)
    let reader = Thread {
      while !done.load(ordering: .acquiring) {
        let seen = activations.snapshot()
        if seen != first && seen != second { torn.add(1, ordering: .relaxed) }
      }
    }
    reader.start()
    for round in 0..<2_000 {
      activations.restore(round.isMultiple(of: 2) ? second : first)
    }
    done.store(true, ordering: .releasing)
    #expect(torn.load(ordering: .relaxed) == 0)
  }

  @MainActor @Test func `the observable view follows the store and notifies observers`() async throws {
    let activations = SkillActivations(active: ["kept"])
    let observed = ObservedSkillActivations(activations)
    #expect(observed.activeSkillNames == ["kept"])
    let notified = Mutex(0)
    withObservationTracking {
      _ = observed.activeSkillNames
    } onChange: {
      notified.withLock { $0 += 1 }
    }
    activations.activate("swift-style")
    let deadline = ContinuousClock.now + .seconds(60)
    while observed.activeSkillNames != ["kept", "swift-style"], ContinuousClock.now < deadline {
      await Task.yield()
    }
    #expect(observed.activeSkillNames == ["kept", "swift-style"])
    #expect(observed.isActive("swift-style"))
    #expect(notified.withLock { $0 } == 1)
  }

  @MainActor @Test func `the observable view follows a prompt skill's body into the history and out of it`()
    async throws
  {
    let activations = SkillActivations()
    let observed = ObservedSkillActivations(activations)
    let script = ModelScript([
      .toolCall(name: Skills.activateToolName, arguments: #"{"skill":"swift-style"}"#), .text("One."),
      .text("Two."),
    ])
    let profile = Profile {
      Skills(activations: activations) {
        Skill(name: "swift-style", description: "Style rules", prompt: "Use guard.")
      }
    }
    .historyTransform(currentTurnOnly(fromTurn: 2))
    let session = LanguageModelSession(model: ScriptedLanguageModel(script: script), profile: profile)
    #expect(observed.loadedSkillNames == [])
    try await session.respond(to: "First")
    let deadline = ContinuousClock.now + .seconds(60)
    while observed.loadedSkillNames != ["swift-style"], ContinuousClock.now < deadline { await Task.yield() }
    #expect(observed.loadedSkillNames == ["swift-style"])
    #expect(observed.isLoaded("swift-style"))
    try await session.respond(to: "Second")
    while observed.loadedSkillNames != [], ContinuousClock.now < deadline { await Task.yield() }
    #expect(observed.loadedSkillNames == [])
    #expect(!observed.isLoaded("swift-style"))
    #expect(observed.activeSkillNames == [])
  }

  @MainActor @Test func `the observable view lets go of the store when released`() async throws {
    let activations = SkillActivations()
    var observed: ObservedSkillActivations? = ObservedSkillActivations(activations)
    weak let released = observed
    let deadline = ContinuousClock.now + .seconds(60)
    while activations.subscriberCount == 0, ContinuousClock.now < deadline { await Task.yield() }
    #expect(activations.subscriberCount == 1)
    observed = nil
    #expect(released == nil)
    while activations.subscriberCount > 0, ContinuousClock.now < deadline {
      await Task.yield()
      try await Task.sleep(for: .milliseconds(1))
    }
    #expect(activations.subscriberCount == 0)
  }
}
