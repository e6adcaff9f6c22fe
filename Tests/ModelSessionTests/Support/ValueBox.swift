import ModelSession
import Synchronization

/// Values shared with another thread, emptied by the owner when done.
final class ValueBox: Sendable {
  let contents: Mutex<[GeneratedContent]>

  init(_ values: [GeneratedContent]) {
    contents = Mutex(values)
  }
}
