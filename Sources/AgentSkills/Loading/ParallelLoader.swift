import Dispatch
import Foundation

#if canImport(Synchronization)
import Synchronization
#endif

/// Loads many skill folders on every core, returning the reports in the folders' order.
enum ParallelLoader {
  /// Below this many folders, loading on one thread is as fast.
  static let minimumParallelCount = 16

  static func inspect(_ folders: [SkillDiscovery.Found], with loader: SkillLoader) -> [SkillLoadReport] {
    let report: @Sendable (SkillDiscovery.Found) -> SkillLoadReport = { folder in
      loader.inspect(
        folder: URL(fileURLWithPath: folder.path, isDirectory: true), canonicalFolder: folder.canonical)
    }
    #if canImport(Synchronization)
    if folders.count >= minimumParallelCount, #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    {
      let slots = Mutex<[SkillLoadReport?]>(Array(repeating: nil, count: folders.count))
      DispatchQueue.concurrentPerform(iterations: folders.count) { index in
        let result = report(folders[index])
        slots.withLock { $0[index] = result }
      }
      return slots.withLock { reports in
        zip(folders, reports).map { folder, slot in slot ?? report(folder) }
      }
    }
    #endif
    return folders.map(report)
  }
}
