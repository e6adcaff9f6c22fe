#if canImport(CCurl)
import CCurl
import Foundation

/// The state of the event-loop thread: the multi handle and the transfers on
/// it. Created on that thread and never shared.
final class CurlLoopThread {
  private let loop: CurlEventLoop
  private let multi: UnsafeMutableRawPointer?
  private var transfers: [Int: CurlTransfer] = [:]
  private var transfersByHandle: [UnsafeMutableRawPointer: CurlTransfer] = [:]

  init(loop: CurlEventLoop) {
    self.loop = loop
    self.multi = curl_multi_init()
  }

  /// Runs forever: commands, transfers, timers, then sleep until something happens.
  func run() {
    guard let multi else {
      failEverything(TransportFailure.connectionFailed("libcurl could not create its multi handle"))
      return
    }
    var running: Int32 = 0
    while true {
      ck_drain_wake(loop.wakeDescriptor)
      for command in loop.takeCommands() {
        handle(command, multi: multi)
      }
      curl_multi_perform(multi, &running)
      collectFinished(multi: multi)
      let now = ContinuousClock.now
      var nextDeadline: ContinuousClock.Instant?
      for transfer in Array(transfers.values) {
        if let failure = transfer.expiredTimeout(at: now) {
          end(transfer, multi: multi, result: .failure(failure))
        } else if let deadline = transfer.nextDeadline {
          nextDeadline = min(nextDeadline ?? deadline, deadline)
        }
      }
      var waitMilliseconds: Int32 = 60_000
      if let nextDeadline {
        let remaining = nextDeadline - now
        let milliseconds =
          remaining.components.seconds * 1_000 + remaining.components.attoseconds / 1_000_000_000_000_000
        waitMilliseconds = Int32(clamping: max(0, milliseconds + 1))
      }
      var wake = curl_waitfd(fd: loop.wakeDescriptor, events: Int16(CURL_WAIT_POLLIN), revents: 0)
      curl_multi_poll(multi, &wake, 1, waitMilliseconds, nil)
    }
  }

  private func handle(_ command: CurlCommand, multi: UnsafeMutableRawPointer) {
    switch command {
    case .start(let start):
      if start.token.isCancelled {
        start.head.resume(throwing: CancellationError())
        start.buffer.finish(throwing: CancellationError())
        start.finished()
        return
      }
      do {
        let transfer = try CurlTransfer(start: start)
        transfers[start.token.id] = transfer
        transfersByHandle[transfer.easy] = transfer
        let code = curl_multi_add_handle(multi, transfer.easy)
        if code != CURLM_OK {
          end(
            transfer, multi: multi,
            result: .failure(
              TransportFailure.connectionFailed("libcurl refused the transfer (CURLMcode \(code.rawValue))")))
        }
      } catch {
        start.head.resume(throwing: error)
        start.buffer.finish(throwing: error)
        start.finished()
      }
    case .cancel(let id):
      if let transfer = transfers[id] {
        end(transfer, multi: multi, result: .failure(CancellationError()))
      }
    case .resume(let id):
      transfers[id]?.resume()
    }
  }

  /// Ends the transfers that libcurl reports done.
  private func collectFinished(multi: UnsafeMutableRawPointer) {
    var remaining: Int32 = 0
    while let message = curl_multi_info_read(multi, &remaining) {
      guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle,
        let transfer = transfersByHandle[easy]
      else { continue }
      let code = message.pointee.data.result
      if transfer.shouldSendAgain(after: code) {
        sendAgain(transfer, multi: multi)
      } else {
        end(transfer, multi: multi, result: transfer.outcome(of: code))
      }
    }
  }

  /// Sends a transfer's request again, on a new connection.
  private func sendAgain(_ transfer: CurlTransfer, multi: UnsafeMutableRawPointer) {
    curl_multi_remove_handle(multi, transfer.easy)
    do {
      try transfer.prepareToSendAgain()
      let code = curl_multi_add_handle(multi, transfer.easy)
      guard code == CURLM_OK else {
        throw TransportFailure.connectionFailed("libcurl refused the transfer (CURLMcode \(code.rawValue))")
      }
    } catch {
      end(transfer, multi: multi, result: .failure(error))
    }
  }

  /// Removes a transfer from the multi handle (closing its connection when
  /// it is not complete), frees it, and delivers its outcome.
  private func end(_ transfer: CurlTransfer, multi: UnsafeMutableRawPointer, result: Result<Void, any Error>)
  {
    transfers[transfer.id] = nil
    transfersByHandle[transfer.easy] = nil
    curl_multi_remove_handle(multi, transfer.easy)
    transfer.finish(result)
  }

  private func failEverything(_ error: any Error) {
    while true {
      for command in loop.takeCommands() {
        if case .start(let start) = command {
          start.head.resume(throwing: error)
          start.buffer.finish(throwing: error)
          start.finished()
        }
      }
      var wake = pollfd(fd: loop.wakeDescriptor, events: Int16(POLLIN), revents: 0)
      poll(&wake, 1, -1)
      ck_drain_wake(loop.wakeDescriptor)
    }
  }
}
#endif
