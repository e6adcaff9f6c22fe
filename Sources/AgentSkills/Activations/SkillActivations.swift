import Foundation
import ModelSession
import Synchronization

/// Which skills are in play, shared safely between a session, its tools and the app.
///
/// Two sets:
/// - ``activeSkillNames``: instructions skills the model (or the app, or the
///   user with `/name`) activated; their bodies join the instructions while
///   they are active. A prompt skill the app activates stays here until the
///   catalog has delivered its body, before the next generation.
/// - ``loadedSkillNames``: prompt skills whose body is in the history the
///   model sees: delivered, and not dropped by a history modifier (or put
///   back after a compaction). The catalog updates it before every generation.
///
/// The actor is the store: changes go through it, in order. Reads do not
/// wait for it: ``isActive(_:)``, ``activeSkillNames``, ``isLoaded(_:)``,
/// ``loadedSkillNames`` and ``snapshot()`` are synchronous and read a snapshot
/// that every change replaces as a whole (under a `Mutex`), so two reads in a
/// row never see half of a change. For SwiftUI, ``ObservedSkillActivations``
/// is an `@Observable` view of the same state.
///
/// Watch ``changes`` to follow both, and save them to restore a conversation later:
///
/// ```swift
/// let activations = SkillActivations()
/// await activations.activate("reviewing-swift-concurrency")
/// if activations.isActive("reviewing-swift-concurrency") { … }   // no await
/// try await activations.save(to: stateFolder.appendingPathComponent("skills.json"))
/// ```
public actor SkillActivations {
  private var active: Set<String>
  private var loaded: Set<String>
  /// The state the synchronous reads see, replaced whole after every change.
  private let published: Mutex<SkillActivationsSnapshot>
  /// The live subscribers to ``changes``; behind a lock so that a subscriber
  /// that stops iterating is removed at once, without waiting for the actor.
  private let subscribers = Mutex<[UUID: AsyncStream<SkillActivationsSnapshot>.Continuation]>([:])
  /// What the skill catalog tracks between generations (see `SkillDeliveryState`).
  var delivery = SkillDeliveryState()

  /// Creates a store in which `names` are active.
  public init(active names: some Sequence<String> = []) {
    active = Set(names)
    loaded = []
    published = Mutex(SkillActivationsSnapshot(activeSkillNames: names))
  }

  /// Creates a store from a snapshot.
  public init(_ snapshot: SkillActivationsSnapshot) {
    active = Set(snapshot.activeSkillNames)
    loaded = Set(snapshot.loadedSkillNames)
    published = Mutex(
      SkillActivationsSnapshot(
        activeSkillNames: snapshot.activeSkillNames, loadedSkillNames: snapshot.loadedSkillNames))
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

  /// Whether a skill is active. Synchronous: reads the latest snapshot.
  public nonisolated func isActive(_ name: String) -> Bool {
    published.withLock { $0.activeSkillNames.contains(name) }
  }

  /// The active skills' names, sorted. Synchronous: reads the latest snapshot.
  public nonisolated var activeSkillNames: [String] {
    published.withLock { $0.activeSkillNames }
  }

  /// Whether a prompt skill's body is in the history the model sees.
  /// Synchronous: reads the latest snapshot.
  public nonisolated func isLoaded(_ name: String) -> Bool {
    published.withLock { $0.loadedSkillNames.contains(name) }
  }

  /// The names of the prompt skills whose body is in the history the model
  /// sees (delivered and not dropped), sorted. Synchronous: reads the latest snapshot.
  public nonisolated var loadedSkillNames: [String] {
    published.withLock { $0.loadedSkillNames }
  }

  /// A new stream of the skills in play, delivering both sets after every change.
  ///
  /// Each access makes an independent subscriber. A change that changes nothing
  /// (activating an active skill) delivers nothing. The stream buffers every
  /// change, and ends when the subscriber stops iterating.
  ///
  /// ```swift
  /// for await state in await activations.changes {
  ///   badge.show(active: state.activeSkillNames, loaded: state.loadedSkillNames)
  /// }
  /// ```
  public var changes: AsyncStream<SkillActivationsSnapshot> {
    let (stream, continuation) = AsyncStream<SkillActivationsSnapshot>.makeStream(bufferingPolicy: .unbounded)
    let id = UUID()
    subscribers.withLock { $0[id] = continuation }
    continuation.onTermination = { [weak self] _ in
      self?.unsubscribe(id)
    }
    return stream
  }

  /// Both sets now, as one consistent snapshot. Synchronous.
  public nonisolated func snapshot() -> SkillActivationsSnapshot {
    published.withLock { $0 }
  }

  /// Replaces the published snapshot with the current sets.
  private func publish() {
    let state = SkillActivationsSnapshot(activeSkillNames: active, loadedSkillNames: loaded)
    published.withLock { $0 = state }
  }

  /// Makes both sets equal to `snapshot`'s, announcing it if they differ.
  ///
  /// The loaded set is a record of what the model saw; the catalog replaces it
  /// with what is really in the history at the next generation.
  public func restore(_ snapshot: SkillActivationsSnapshot) {
    let restoredActive = Set(snapshot.activeSkillNames)
    let restoredLoaded = Set(snapshot.loadedSkillNames)
    guard restoredActive != active || restoredLoaded != loaded else { return }
    active = restoredActive
    loaded = restoredLoaded
    announce()
  }

  /// Records the prompt skills whose body is in the history the model sees,
  /// announcing the change if there is one. The catalog calls it.
  func setLoaded(_ names: Set<String>) {
    guard names != loaded else { return }
    loaded = names
    announce()
  }

  /// Records that a prompt skill's body was just delivered; returns `false`
  /// when it already was loaded (a second, parallel call), and nothing changes.
  func markLoaded(_ name: String) -> Bool {
    guard loaded.insert(name).inserted else { return false }
    announce()
    return true
  }

  /// The largest state file ``load(from:)`` reads: 16 MiB.
  public static let maximumFileSize = 16 << 20

  /// Writes both sets to `url` as JSON through `FileWriter`, atomically: the
  /// bytes go to a temporary file in the same folder, which is flushed and then
  /// renamed over `url`, so a crash never leaves a partial or empty file. An
  /// existing file keeps its permissions and owner; a symbolic link is
  /// followed (its target is replaced); a device or FIFO is written in place,
  /// never replaced.
  public func save(to url: URL) throws(SkillActivationsError) {
    let data: Data
    do {
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
      data = try encoder.encode(snapshot())
    } catch {
      throw .cannotWrite(path: url.path, reason: "\(error)")
    }
    do {
      try FileWriter.write(data, to: url.path)
    } catch {
      throw .cannotWrite(path: url.path, reason: error.explanation)
    }
  }

  /// Replaces both sets with those saved at `url` (see ``save(to:)``).
  public func load(from url: URL) throws(SkillActivationsError) {
    let data: Data
    do {
      data = try FileReader.read(url.path, limit: Self.maximumFileSize)
    } catch {
      throw .cannotRead(path: url.path, reason: error.explanation)
    }
    let snapshot: SkillActivationsSnapshot
    do {
      snapshot = try JSONDecoder().decode(SkillActivationsSnapshot.self, from: data)
    } catch {
      throw .corrupt(path: url.path, reason: "\(error)")
    }
    try snapshot.validate(path: url.path)
    restore(snapshot)
  }

  /// Publishes the new state to the synchronous reads, then to every subscriber.
  /// Every change ends here, once, after all of its sets are updated.
  private func announce() {
    publish()
    let state = snapshot()
    let continuations = subscribers.withLock { Array($0.values) }
    for continuation in continuations { continuation.yield(state) }
  }

  private nonisolated func unsubscribe(_ id: UUID) {
    _ = subscribers.withLock { $0.removeValue(forKey: id) }
  }

  /// The number of live subscribers to ``changes``.
  nonisolated var subscriberCount: Int { subscribers.withLock { $0.count } }
}
