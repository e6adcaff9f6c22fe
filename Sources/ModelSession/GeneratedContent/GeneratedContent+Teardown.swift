import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension GeneratedContent {
  /// How a value is held: a scalar inline, an array or object in a node.
  enum Representation: Sendable {
    case scalar(Storage)
    case container(ContainerNode)

    init(_ storage: Storage) {
      switch storage {
      case .array, .structure: self = .container(ContainerNode(storage))
      case .null, .bool, .number, .string: self = .scalar(storage)
      }
    }
  }

  /// An array or object. Destroying a value nested thousands of levels deep
  /// would otherwise recurse once per level in the runtime (each array
  /// releasing its elements, which release their arrays…) and overflow a
  /// small thread stack at 2,000–5,000 levels, although the parser accepts
  /// 10,000. A node's `deinit` instead takes its elements out, queues the
  /// nodes among them behind the teardown already running on its thread (or
  /// runs one), and so the nested values are released one after another in
  /// a loop, never more than two `deinit`s deep.
  ///
  /// The storage sits in a `Mutex` only so that `deinit` can take it out: the
  /// node is never mutated while anyone else can see it.
  final class ContainerNode: Sendable {
    private let state: Mutex<Storage>

    init(_ storage: Storage) {
      state = Mutex(storage)
    }

    var storage: Storage {
      state.withLock { $0 }
    }

    deinit {
      var children: [ContainerNode] = []
      do {
        let elements = state.withLock { storage in
          defer { storage = .null }
          return storage
        }
        switch elements {
        case .array(let values), .structure(_, let values):
          for value in values {
            if case .container(let node) = value.representation { children.append(node) }
          }
        case .null, .bool, .number, .string: break
        }
      }
      guard !children.isEmpty else { return }
      ContainerTeardown.release(&children)
    }
  }
}

/// The nodes waiting to be released by the teardown running on the current
/// thread. Each thread has its own list (a POSIX thread-specific value), so
/// no lock is needed and values destroyed on different threads do not meet.
private final class ContainerTeardown {
  private var pending: [GeneratedContent.ContainerNode] = []

  /// The key of the current thread's running teardown; the value is set only
  /// while a teardown runs.
  private static let key: pthread_key_t = {
    var key = pthread_key_t()
    pthread_key_create(&key, nil)
    return key
  }()

  /// Releases `nodes`: queued behind the teardown already running on this
  /// thread, or by a new teardown that loops until nothing is left.
  /// `nodes` is emptied, so that the queue holds the only references.
  static func release(_ nodes: inout [GeneratedContent.ContainerNode]) {
    if let running = pthread_getspecific(key) {
      Unmanaged<ContainerTeardown>.fromOpaque(running).takeUnretainedValue().pending.append(contentsOf: nodes)
      nodes.removeAll()
      return
    }
    let teardown = ContainerTeardown()
    swap(&teardown.pending, &nodes)
    pthread_setspecific(key, Unmanaged.passUnretained(teardown).toOpaque())
    // Dropping a node runs its deinit, which queues its own nodes here.
    while let node = teardown.pending.popLast() {
      _ = node
    }
    pthread_setspecific(key, nil)
  }
}
