import Foundation
import Synchronization

/// The bytes of one response body between a transport (the producer) and
/// the task that reads them (the consumer), with back-pressure.
///
/// The producer offers each piece it receives; once ``highWaterMark`` bytes
/// or more are buffered the buffer asks it to pause, and once the consumer has
/// drained it to ``lowWaterMark`` bytes or fewer it calls `resumeProducer` (at
/// most once per pause). When the consumer goes away (its task is cancelled, or it
/// drops the body), the buffer discards what it holds and calls
/// `cancelProducer`, once.
package final class HTTPBodyBuffer: Sendable {
  /// What the producer should do after offering a piece.
  package enum Offer: Sendable, Equatable {
    /// The piece is buffered (or handed to the waiting consumer); go on.
    case accepted
    /// The piece is buffered, but the buffer is full: pause before the next one.
    case acceptedThenPause
    /// The buffer is full and did not take the piece: pause and offer it again later.
    case refused
    /// Nobody reads any more: stop the transfer.
    case consumerGone
  }

  private struct State {
    var chunks: [Data] = []
    var head = 0
    var bufferedBytes = 0
    var end: Result<Void, any Error>?
    var waiting: CheckedContinuation<Data?, any Error>?
    var producerPaused = false
    var consumerGone = false
  }

  /// Buffered bytes at or past which the producer is asked to pause.
  package let highWaterMark: Int
  /// Buffered bytes at or below which a paused producer is resumed: a quarter
  /// of ``highWaterMark``, rounded down.
  package let lowWaterMark: Int
  private let state = Mutex(State())
  private let resumeProducer: @Sendable () -> Void
  private let cancelProducer: @Sendable () -> Void

  /// Creates an empty buffer (a high-water mark below 1 counts as 1).
  package init(
    highWaterMark: Int = 256 * 1024, resumeProducer: @escaping @Sendable () -> Void = {},
    cancelProducer: @escaping @Sendable () -> Void = {}
  ) {
    self.highWaterMark = max(1, highWaterMark)
    self.lowWaterMark = max(1, highWaterMark) / 4
    self.resumeProducer = resumeProducer
    self.cancelProducer = cancelProducer
  }

  /// The number of bytes received and not yet read.
  package var bufferedByteCount: Int {
    state.withLock { $0.bufferedBytes }
  }

  /// Offers a piece of the body. A producer that can hold on to the piece
  /// (libcurl) passes `canRefuse: true` and gets `.refused` when full; one
  /// that cannot (URLSession) gets `.acceptedThenPause`.
  package func offer(_ data: Data, canRefuse: Bool) -> Offer {
    guard !data.isEmpty else { return .accepted }
    let (offer, waiting) = state.withLock { state -> (Offer, CheckedContinuation<Data?, any Error>?) in
      if state.consumerGone || state.end != nil {
        return (.consumerGone, nil)
      }
      if let waiting = state.waiting {
        state.waiting = nil
        return (.accepted, waiting)
      }
      if canRefuse && state.bufferedBytes >= highWaterMark {
        state.producerPaused = true
        return (.refused, nil)
      }
      state.chunks.append(data)
      state.bufferedBytes += data.count
      if state.bufferedBytes >= highWaterMark {
        state.producerPaused = true
        return (.acceptedThenPause, nil)
      }
      return (.accepted, nil)
    }
    waiting?.resume(returning: data)
    return offer
  }

  /// Ends the body: the consumer reads what is buffered, then the end (or the error).
  package func finish(throwing error: (any Error)? = nil) {
    let waiting = state.withLock { state -> CheckedContinuation<Data?, any Error>? in
      guard state.end == nil else { return nil }
      state.end = error.map { .failure($0) } ?? .success(())
      defer { state.waiting = nil }
      return state.waiting
    }
    if let error {
      waiting?.resume(throwing: error)
    } else {
      waiting?.resume(returning: nil)
    }
  }

  /// The next piece, waiting for one when none is buffered; `nil` at the end.
  ///
  /// Throws the transport's error, or `CancellationError` when the calling
  /// task is cancelled (which also stops the transfer).
  package func next() async throws -> Data? {
    if let ready = takeReady() {
      return try ready.get()
    }
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Data?, any Error>) in
        enum Step {
          case deliver(Result<Data?, any Error>, resume: Bool)
          case wait(resume: Bool)
        }
        let step = state.withLock { state -> Step in
          if state.head < state.chunks.count {
            return .deliver(.success(take(&state)), resume: releasePause(&state))
          }
          if state.consumerGone {
            return .deliver(.failure(CancellationError()), resume: false)
          }
          if let end = state.end {
            return .deliver(end.map { nil }, resume: false)
          }
          state.waiting = continuation
          return .wait(resume: releasePause(&state))
        }
        switch step {
        case .deliver(let result, let resume):
          if resume { resumeProducer() }
          continuation.resume(with: result)
        case .wait(let resume):
          if resume { resumeProducer() }
        }
      }
    } onCancel: {
      consumerDidLeave()
    }
  }

  /// The consumer stops reading: drop what is buffered, fail a waiting read
  /// with `CancellationError`, and stop the producer unless the body had ended.
  package func consumerDidLeave() {
    let (waiting, cancel) = state.withLock { state -> (CheckedContinuation<Data?, any Error>?, Bool) in
      guard !state.consumerGone else { return (nil, false) }
      state.consumerGone = true
      state.chunks = []
      state.head = 0
      state.bufferedBytes = 0
      defer { state.waiting = nil }
      return (state.waiting, state.end == nil)
    }
    waiting?.resume(throwing: CancellationError())
    if cancel {
      cancelProducer()
    }
  }

  /// A buffered piece, or the end, without waiting; `nil` when the consumer must wait.
  private func takeReady() -> Result<Data?, any Error>? {
    let (ready, resume) = state.withLock { state -> (Result<Data?, any Error>?, Bool) in
      if state.head < state.chunks.count {
        return (.success(take(&state)), releasePause(&state))
      }
      if state.consumerGone {
        return (.failure(CancellationError()), false)
      }
      return (state.end.map { $0.map { nil } }, false)
    }
    if resume {
      resumeProducer()
    }
    return ready
  }

  private func take(_ state: inout State) -> Data {
    let data = state.chunks[state.head]
    state.head += 1
    state.bufferedBytes -= data.count
    if state.head == state.chunks.count {
      state.chunks.removeAll(keepingCapacity: true)
      state.head = 0
    } else if state.head >= 64 && state.head * 2 >= state.chunks.count {
      state.chunks.removeFirst(state.head)
      state.head = 0
    }
    return data
  }

  /// Whether a paused producer should resume now (and marks it resumed).
  private func releasePause(_ state: inout State) -> Bool {
    guard state.producerPaused, state.bufferedBytes <= lowWaterMark else { return false }
    state.producerPaused = false
    return true
  }
}
