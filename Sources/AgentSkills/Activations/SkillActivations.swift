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
/// The sets live under one `Mutex`: changes (``activate(_:)``,
/// ``deactivate(_:)``, ``restore(_:)``) and reads (``isActive(_:)``,
/// ``activeSkillNames``, ``isLoaded(_:)``, ``loadedSkillNames``,
/// ``snapshot()``) are synchronous, as in the companion package, and take it;
/// every change replaces the published snapshot as a whole and hands it to
/// the subscribers of ``changes`` before it lets go, so two reads in a row
/// never see half of a change and subscribers see changes in order. The
/// actor keeps what the catalog tracks between generations, and saves and
/// loads files one at a time. For SwiftUI, ``ObservedSkillActivations``
/// is an `@Observable` view of the same state.
///
/// Watch ``changes`` to follow both, and save them to restore a conversation later:
///
/// ```swift
/// let activations = SkillActivations()
/// activations.activate("reviewing-swift-concurrency")   // no await
/// if activations.isActive("reviewing-swift-concurrency") { … }   // no await
/// try await activations.save(to: stateFolder.appendingPathComponent("skills.json"))
/// ```
public actor SkillActivations {
  /// Both sets and the snapshot the reads see, changed together under one lock.
  private struct Sets: Sendable {
    var active: Set<String>
    var loaded: Set<String>
    var published: SkillActivationsSnapshot
  }

  /// The store. Every change takes the lock, updates both sets, replaces the
  /// published snapshot whole and hands it to the subscribers before it lets
  /// go, so that changes from several threads reach every subscriber in the
  /// order they were made.
  private let sets: Mutex<Sets>
  /// The live subscribers to ``changes``; behind a lock of their own so that a
  /// subscriber that stops iterating is removed at once. Taken only inside
  /// `sets`'s lock or alone, never the other way round.
  private let subscribers = Mutex<[UUID: AsyncStream<SkillActivationsSnapshot>.Continuation]>([:])
  /// What the skill catalog tracks between generations (see `SkillDeliveryState`).
  var delivery = SkillDeliveryState()

  /// Creates a store in which `names` are active.
  public init(active names: some Sequence<String> = []) {
    let active = Set(names)
    sets = Mutex(
      Sets(active: active, loaded: [], published: SkillActivationsSnapshot(activeSkillNames: active)))
  }

  /// Creates a store from a snapshot.
  public init(_ snapshot: SkillActivationsSnapshot) {
    let active = Set(snapshot.activeSkillNames)
    let loaded = Set(snapshot.loadedSkillNames)
    sets = Mutex(
      Sets(
        active: active, loaded: loaded,
        published: SkillActivationsSnapshot(activeSkillNames: active, loadedSkillNames: loaded)))
  }

  /// Marks a skill active; returns `false` when it already was (and nothing is announced).
  ///
  /// Synchronous, as in the companion package: the change is made, published
  /// to the reads and handed to the subscribers of ``changes`` before it returns.
  @discardableResult
  public nonisolated func activate(_ name: String) -> Bool {
    change { $0.active.insert(name).inserted }
  }

  /// Marks a skill inactive; returns `false` when it was not active (and nothing is announced).
  ///
  /// Synchronous, like ``activate(_:)``.
  @discardableResult
  public nonisolated func deactivate(_ name: String) -> Bool {
    change { $0.active.remove(name) != nil }
  }

  /// Whether a skill is active. Synchronous: reads the latest snapshot.
  public nonisolated func isActive(_ name: String) -> Bool {
    sets.withLock { $0.published.activeSkillNames.contains(name) }
  }

  /// The active skills' names, sorted. Synchronous: reads the latest snapshot.
  public nonisolated var activeSkillNames: [String] {
    sets.withLock { $0.published.activeSkillNames }
  }

  /// Whether a prompt skill's body is in the history the model sees.
  /// Synchronous: reads the latest snapshot.
  public nonisolated func isLoaded(_ name: String) -> Bool {
    sets.withLock { $0.published.loadedSkillNames.contains(name) }
  }

  /// The names of the prompt skills whose body is in the history the model
  /// sees (delivered and not dropped), sorted. Synchronous: reads the latest snapshot.
  public nonisolated var loadedSkillNames: [String] {
    sets.withLock { $0.published.loadedSkillNames }
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
    sets.withLock { $0.published }
  }

  /// Makes both sets equal to `snapshot`'s, announcing it if they differ.
  ///
  /// The loaded set is a record of what the model saw; the catalog replaces it
  /// with what is really in the history at the next generation.
  public nonisolated func restore(_ snapshot: SkillActivationsSnapshot) {
    let restoredActive = Set(snapshot.activeSkillNames)
    let restoredLoaded = Set(snapshot.loadedSkillNames)
    change { sets in
      guard restoredActive != sets.active || restoredLoaded != sets.loaded else { return false }
      sets.active = restoredActive
      sets.loaded = restoredLoaded
      return true
    }
  }

  /// Records the prompt skills whose body is in the history the model sees,
  /// announcing the change if there is one. The catalog calls it.
  nonisolated func setLoaded(_ names: Set<String>) {
    change { sets in
      guard names != sets.loaded else { return false }
      sets.loaded = names
      return true
    }
  }

  /// Records that a prompt skill's body was just delivered; returns `false`
  /// when it already was loaded (a second, parallel call), and nothing changes.
  nonisolated func markLoaded(_ name: String) -> Bool {
    change { $0.loaded.insert(name).inserted }
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

  /// Makes a change under the lock; when `body` says it changed something,
  /// publishes the new state to the synchronous reads and then to every
  /// subscriber, still under the lock. Every change ends here, once, after
  /// all of its sets are updated. Returns what `body` returned.
  @discardableResult
  private nonisolated func change(_ body: (inout Sets) -> Bool) -> Bool {
    sets.withLock { sets in
      guard body(&sets) else { return false }
      sets.published = SkillActivationsSnapshot(activeSkillNames: sets.active, loadedSkillNames: sets.loaded)
      let state = sets.published
      let continuations = subscribers.withLock { Array($0.values) }
      for continuation in continuations { continuation.yield(state) }
      return true
    }
  }

  private nonisolated func unsubscribe(_ id: UUID) {
    _ = subscribers.withLock { $0.removeValue(forKey: id) }
  }

  /// The number of live subscribers to ``changes``.
  nonisolated var subscriberCount: Int { subscribers.withLock { $0.count } }
}
