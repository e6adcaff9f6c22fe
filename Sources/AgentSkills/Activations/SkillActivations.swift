import Foundation

/// Which skills are active, shared safely between a session, its tools and the app.
///
/// Instructions skills are recorded here when the model activates them; their
/// bodies join the instructions while they are active. Watch ``changes`` to
/// follow the active set, and save it to restore a conversation later:
///
/// ```swift
/// let activations = SkillActivations()
/// await activations.activate("reviewing-swift-concurrency")
/// try await activations.save(to: stateFolder.appendingPathComponent("skills.json"))
/// ```
public actor SkillActivations {
  private var active: Set<String>
  private var subscribers: [UUID: AsyncStream<Set<String>>.Continuation] = [:]
  /// What the skill catalog tracks between generations (see `SkillDeliveryState`).
  var delivery = SkillDeliveryState()

  /// Creates a store in which `names` are active.
  public init(active names: some Sequence<String> = []) {
    active = Set(names)
  }

  /// Creates a store from a snapshot.
  public init(_ snapshot: SkillActivationsSnapshot) {
    active = Set(snapshot.activeSkillNames)
  }

  /// Marks a skill active; returns `false` when it already was (and nothing is announced).
  @discardableResult
  public func activate(_ name: String) -> Bool {
    guard active.insert(name).inserted else { return false }
    announce()
    return true
  }

  /// Marks a skill inactive; returns `false` when it was not active (and nothing is announced).
  @discardableResult
  public func deactivate(_ name: String) -> Bool {
    guard active.remove(name) != nil else { return false }
    announce()
    return true
  }

  /// Whether a skill is active.
  public func isActive(_ name: String) -> Bool {
    active.contains(name)
  }

  /// The active skills' names, sorted.
  public var activeSkillNames: [String] {
    active.sorted()
  }

  /// A new stream of the active set, delivering the whole set after every change.
  ///
  /// Each access makes an independent subscriber. A change that changes nothing
  /// (activating an active skill) delivers nothing. The stream buffers every
  /// change, and ends when the subscriber stops iterating.
  public var changes: AsyncStream<Set<String>> {
    let (stream, continuation) = AsyncStream<Set<String>>.makeStream(bufferingPolicy: .unbounded)
    let id = UUID()
    subscribers[id] = continuation
    continuation.onTermination = { [weak self] _ in
      Task { await self?.unsubscribe(id) }
    }
    return stream
  }

  /// The active set now.
  public func snapshot() -> SkillActivationsSnapshot {
    SkillActivationsSnapshot(activeSkillNames: active)
  }

  /// Makes the active set equal to `snapshot`'s, announcing it if it differs.
  public func restore(_ snapshot: SkillActivationsSnapshot) {
    let restored = Set(snapshot.activeSkillNames)
    guard restored != active else { return }
    active = restored
    announce()
  }

  /// Writes the active set to `url` as JSON, atomically: the bytes go to a
  /// temporary file in the same folder, which is flushed and then renamed over
  /// `url`, so a crash never leaves a partial or empty file.
  public func save(to url: URL) throws(SkillActivationsError) {
    let data: Data
    do {
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
      data = try encoder.encode(snapshot())
    } catch {
      throw .cannotWrite(path: url.path, reason: "\(error)")
    }
    try AtomicFileWriter.replace(url, with: data)
  }

  /// Replaces the active set with the one saved at `url` (see ``save(to:)``).
  public func load(from url: URL) throws(SkillActivationsError) {
    let data: Data
    do {
      data = try Data(contentsOf: url)
    } catch {
      throw .cannotRead(path: url.path, reason: error.localizedDescription)
    }
    let snapshot: SkillActivationsSnapshot
    do {
      snapshot = try JSONDecoder().decode(SkillActivationsSnapshot.self, from: data)
    } catch {
      throw .corrupt(path: url.path, reason: "\(error)")
    }
    guard snapshot.version <= SkillActivationsSnapshot.currentVersion else {
      throw .unsupportedVersion(path: url.path, version: snapshot.version)
    }
    restore(snapshot)
  }

  private func announce() {
    for continuation in subscribers.values { continuation.yield(active) }
  }

  private func unsubscribe(_ id: UUID) {
    subscribers[id] = nil
  }

  /// The number of live subscribers to ``changes``.
  var subscriberCount: Int { subscribers.count }
}
