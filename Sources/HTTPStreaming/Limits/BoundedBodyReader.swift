import Foundation

/// The start of a response body, read under a size bound and a time bound.
package struct ErrorBody: Sendable, Hashable {
  /// Why reading stopped before the end of the body.
  package enum Stop: Sendable, Hashable {
    /// The body reached the size bound (in bytes).
    case sizeLimit(Int)
    /// The time bound (in seconds) ran out while the body was still arriving.
    case timeLimit(TimeInterval)
    /// The connection failed part way (the failure's description).
    case failed(String)
  }

  /// The bytes read.
  package var data: Data

  /// Why reading stopped early, or `nil` when the whole body was read.
  package var stop: Stop?

  package init(data: Data, stop: Stop? = nil) {
    self.data = data
    self.stop = stop
  }

  /// Whether `data` is the whole body.
  package var isComplete: Bool { stop == nil }

  /// What an error message says about a body that was not read to its end.
  package var stopNote: String? {
    switch stop {
    case nil: nil
    case .sizeLimit(let bytes):
      "the body was cut off at \(ResponseLimits.describe(bytes: bytes)), where the client stopped reading"
    case .timeLimit(let seconds):
      "the server was still sending the body after \(ResponseLimits.describe(seconds: seconds)), when the client stopped reading"
    case .failed(let reason): "the body broke off: \(reason)"
    }
  }
}

/// Reads a response body into memory under a size bound and a time bound,
/// for the bodies that are read whole: error bodies, and small JSON answers
/// such as a tokenizer's.
///
/// It stops at the size bound instead of skipping what follows, and when the
/// time bound runs out, even if bytes keep coming (each of which would reset
/// an idle timeout). Stopping ends the iteration, so the transport closes the
/// connection once the response is dropped.
package enum BoundedBodyReader {
  /// Reads `body` until its end, `maximumBytes`, or `timeLimit` seconds.
  ///
  /// Never throws: a failure part way is reported in ``ErrorBody/stop``
  /// with the bytes read before it. Cancelling the calling task stops the read.
  package static func read<Body: AsyncSequence & Sendable>(
    _ body: Body, maximumBytes: Int, timeLimit: TimeInterval
  ) async -> ErrorBody where Body.Element == Data {
    await withTaskGroup(of: ErrorBody?.self) { group in
      group.addTask { await collect(body, maximumBytes: maximumBytes) }
      group.addTask {
        try? await Task.sleep(for: .seconds(timeLimit))
        return nil
      }
      var result: ErrorBody?
      var timedOut = false
      while let finished = await group.next() {
        if let finished {
          result = finished
          group.cancelAll()
        } else if result == nil, !Task.isCancelled {
          timedOut = true
          group.cancelAll()
        }
      }
      var body = result ?? ErrorBody(data: Data())
      if timedOut, body.stop == nil || body.stop == .failed("cancelled") {
        body.stop = .timeLimit(timeLimit)
      }
      return body
    }
  }

  private static func collect<Body: AsyncSequence>(_ body: Body, maximumBytes: Int) async -> ErrorBody
  where Body.Element == Data {
    var collected = Data()
    do {
      for try await piece in body {
        let room = maximumBytes - collected.count
        if piece.count >= room {
          collected.append(piece.prefix(room))
          if piece.count > room {
            return ErrorBody(data: collected, stop: .sizeLimit(maximumBytes))
          }
        } else {
          collected.append(piece)
        }
        if Task.isCancelled {
          return ErrorBody(data: collected, stop: .failed("cancelled"))
        }
      }
    } catch is CancellationError {
      return ErrorBody(data: collected, stop: .failed("cancelled"))
    } catch {
      return ErrorBody(data: collected, stop: .failed(String(describing: error)))
    }
    if Task.isCancelled {
      // The stream ends early, without an error, when the reading task is cancelled.
      return ErrorBody(data: collected, stop: .failed("cancelled"))
    }
    return ErrorBody(data: collected)
  }
}
