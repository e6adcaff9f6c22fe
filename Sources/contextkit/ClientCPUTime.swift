import Foundation

/// The CPU time this process has used, user and system, from `getrusage`.
enum ClientCPUTime {
  /// Seconds of CPU used so far.
  static func seconds() -> Double {
    var usage = rusage()
    getrusage(Int32(RUSAGE_SELF.rawValue), &usage)
    return Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
      + Double(usage.ru_stime.tv_sec)
      + Double(usage.ru_stime.tv_usec) / 1e6
  }
}
