import Foundation

/// This process's open descriptors and threads, and its TCP sockets to one
/// port, read from `/proc` (Linux).
struct ProcessResources: CustomStringConvertible {
  /// Open file descriptors of any kind.
  var descriptors: Int
  /// Threads.
  var threads: Int
  /// Open TCP sockets whose remote end is the port the count was made for,
  /// in any state: connections that another test running beside this one
  /// cannot open, so a leak of them is this test's own.
  var socketsToPort: Int

  /// Counts now, with `port` as the remote port of the sockets counted.
  static func now(socketsTo port: Int) throws -> ProcessResources {
    let descriptorNames = try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")
    let threads = try FileManager.default.contentsOfDirectory(atPath: "/proc/self/task").count
    // A socket's descriptor links to "socket:[inode]"; /proc/self/net/tcp lists every socket of
    // the network namespace with its inode, so the two together say which are this process's.
    var inodes: Set<Substring> = []
    for name in descriptorNames {
      guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(name)"),
        target.hasPrefix("socket:["), target.hasSuffix("]")
      else { continue }
      inodes.insert(Substring(target.dropFirst("socket:[".count).dropLast()))
    }
    var sockets = 0
    for table in ["/proc/self/net/tcp", "/proc/self/net/tcp6"] {
      guard let text = try? String(contentsOfFile: table, encoding: .utf8) else { continue }
      for line in text.split(separator: "\n").dropFirst() {
        // sl local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid timeout inode
        let fields = line.split(separator: " ", omittingEmptySubsequences: true)
        guard fields.count > 9, let remotePort = fields[2].split(separator: ":").last,
          Int(remotePort, radix: 16) == port, inodes.contains(fields[9])
        else { continue }
        sockets += 1
      }
    }
    return ProcessResources(descriptors: descriptorNames.count, threads: threads, socketsToPort: sockets)
  }

  var description: String {
    "\(descriptors) descriptors, \(threads) threads, \(socketsToPort) sockets to the port"
  }
}
