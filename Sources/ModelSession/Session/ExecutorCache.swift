import Synchronization

/// The executors of a session: one per distinct model type and configuration,
/// created on first use and released with the session.
final class ExecutorCache: Sendable {
  private struct Key: Hashable {
    var modelType: ObjectIdentifier
    var configuration: AnyHashable
  }

  private let executors = Mutex<[Key: any Sendable]>([:])

  /// The executor for `model`, created when there is none yet.
  func executor<Model: LanguageModel>(for model: Model) throws -> Model.Executor {
    try executors.withLock { executors in
      let key = Key(
        modelType: ObjectIdentifier(Model.self), configuration: AnyHashable(model.executorConfiguration))
      if let existing = executors[key] as? Model.Executor { return existing }
      let created = try Model.Executor(configuration: model.executorConfiguration)
      executors[key] = created
      return created
    }
  }
}
