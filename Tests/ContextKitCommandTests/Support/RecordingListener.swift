import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A local HTTP listener, inside the test process, that keeps the head of
/// every request it gets and answers each with a 500: what reached the
/// network, for tests of what `contextkit` sends.
///
/// It runs on a thread of its own (blocking `accept` must not occupy a
/// thread of the concurrency pool) and stops when the listener is released:
/// shutting the listening socket down ends the blocked `accept`.
final class RecordingListener: Sendable {
  struct SetupError: Error, CustomStringConvertible {
    var description: String
  }

  /// The port it listens on, at 127.0.0.1.
  let port: Int
  private let listeningSocket: Int32
  private let heads = RequestHeads()

  init() throws {
    let socket = Self.makeSocket()
    guard socket >= 0 else { throw SetupError(description: "socket: errno \(errno)") }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = 0
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
        bind(socket, address, length) == 0 && listen(socket, 16) == 0
          && getsockname(socket, address, &length) == 0
      }
    }
    guard bound else {
      close(socket)
      throw SetupError(description: "bind, listen or getsockname: errno \(errno)")
    }
    listeningSocket = socket
    port = Int(UInt16(bigEndian: address.sin_port))
    Thread.detachNewThread { [heads] in
      Self.serve(socket, into: heads)
    }
  }

  /// Every request head received so far, each followed by a `=====` line.
  var received: String {
    heads.all.withLock { $0.map { $0 + "\n=====\n" }.joined() }
  }

  deinit {
    shutdown(listeningSocket, Int32(SHUT_RDWR))
    close(listeningSocket)
  }

  private static func makeSocket() -> Int32 {
    #if canImport(Glibc)
    socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    #else
    socket(AF_INET, SOCK_STREAM, 0)
    #endif
  }

  /// Accepts connections one at a time until the socket is shut down.
  private static func serve(_ socket: Int32, into heads: RequestHeads) {
    let answer = Array(
      "HTTP/1.1 500 Internal Server Error\r\nContent-Length: 2\r\nConnection: close\r\n\r\nno".utf8)
    let endOfHead = Array("\r\n\r\n".utf8)
    while true {
      let connection = accept(socket, nil, nil)
      guard connection >= 0 else {
        if errno == EINTR { continue }
        return
      }
      var head: [UInt8] = []
      var buffer = [UInt8](repeating: 0, count: 4096)
      while head.count < 65_536, head.firstRange(of: endOfHead) == nil {
        let count = read(connection, &buffer, buffer.count)
        guard count > 0 else { break }
        head.append(contentsOf: buffer[0..<count])
      }
      heads.all.withLock { $0.append(String(decoding: head, as: UTF8.self)) }
      _ = answer.withUnsafeBytes { write(connection, $0.baseAddress, $0.count) }
      close(connection)
    }
  }
}

/// The request heads a ``RecordingListener`` received, shared with its thread.
private final class RequestHeads: Sendable {
  let all = Mutex<[String]>([])
}
