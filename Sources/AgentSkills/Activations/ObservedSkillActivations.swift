import Observation

/// An `@Observable` view of a ``SkillActivations`` store, for SwiftUI: a view
/// that reads ``activeSkillNames`` or ``loadedSkillNames`` is redrawn when the
/// model (or the app) activates or unloads a skill.
///
/// It lives on the main actor, where views read it. It starts from the store's
/// current snapshot (read without waiting for the actor) and then follows the
/// store's ``SkillActivations/changes`` stream; it never calls into the actor
/// and so never blocks it or waits for it. It stops following when it is
/// released.
///
/// ```swift
/// @Observable final class Assistant {
///   let activations = SkillActivations()
///   @ObservationIgnored lazy var skillsInPlay = ObservedSkillActivations(activations)
/// }
///
/// // In a view:
/// ForEach(assistant.skillsInPlay.activeSkillNames, id: \.self) { Text($0) }
/// ```
@MainActor @Observable
public final class ObservedSkillActivations {
  /// The active skills' names, sorted.
  public private(set) var activeSkillNames: [String]
  /// The prompt skills whose body is in the history the model sees, sorted.
  public private(set) var loadedSkillNames: [String]

  /// The store observed.
  @ObservationIgnored public let activations: SkillActivations
  @ObservationIgnored private let follower: Task<Void, Never>

  /// Starts observing `activations`.
  public init(_ activations: SkillActivations) {
    self.activations = activations
    let start = activations.snapshot()
    activeSkillNames = start.activeSkillNames
    loadedSkillNames = start.loadedSkillNames
    let box = WeakObserved()
    follower = Task { @MainActor in
      let changes = await activations.changes
      // A change between the first snapshot and the subscription would be
      // missed; reading the snapshot again once subscribed closes that gap.
      box.value?.apply(activations.snapshot())
      for await state in changes {
        guard let observed = box.value else { return }
        observed.apply(state)
      }
    }
    box.value = self
  }

  deinit {
    follower.cancel()
  }

  /// Whether a skill is active.
  public func isActive(_ name: String) -> Bool {
    activeSkillNames.contains(name)
  }

  /// Whether a prompt skill's body is in the history the model sees.
  public func isLoaded(_ name: String) -> Bool {
    loadedSkillNames.contains(name)
  }

  private func apply(_ state: SkillActivationsSnapshot) {
    if activeSkillNames != state.activeSkillNames { activeSkillNames = state.activeSkillNames }
    if loadedSkillNames != state.loadedSkillNames { loadedSkillNames = state.loadedSkillNames }
  }
}

/// A weak reference the follower task holds, so the view can be released.
@MainActor
private final class WeakObserved {
  weak var value: ObservedSkillActivations?
}
