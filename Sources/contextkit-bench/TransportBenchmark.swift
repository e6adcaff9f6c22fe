import ChatCompletions
import Foundation

/// The transport measurements of issue 11, against the fault server
/// (`scripts/bench-transport` starts it): CPU while waiting for a first byte
/// (libcurl and URLSession, same run), 100 concurrent streams, and a slow
/// consumer's memory. Prints a markdown table.
enum TransportBenchmark {
  static func run(serverURL: URL, slowConsumerMegabytes: Int) async throws {
    var rows: [(String, String)] = []
    for (name, transport) in [
      ("libcurl", CurlTransport() as any HTTPTransport), ("URLSession", URLSessionTransport()),
    ] {
      let cpu = try await idleWaitCPU(serverURL: serverURL, transport: transport)
      rows.append(("idle wait, 10 s for a first byte, client CPU (\(name))", String(format: "%.3f s", cpu)))
      progress("idle wait \(name): \(String(format: "%.3f", cpu)) s CPU")
    }
    let concurrent = try await concurrentStreams(serverURL: serverURL, count: 100)
    rows.append(
      ("100 concurrent streams (5 s wait, 200 tokens each): completed", "\(concurrent.completed) of 100"))
    rows.append(("100 concurrent streams: client CPU", String(format: "%.3f s", concurrent.cpu)))
    rows.append(("100 concurrent streams: wall time", String(format: "%.2f s", concurrent.seconds)))
    rows.append(("100 concurrent streams: peak resident memory", "\(concurrent.peakMegabytes) MB"))
    let slow = try await slowConsumer(serverURL: serverURL, megabytes: slowConsumerMegabytes)
    rows.append(
      (
        "slow consumer, \(slowConsumerMegabytes) MB read at 1 MB/s: resident memory growth",
        "\(slow.growthKilobytes / 1024) MB"
      ))
    rows.append(("slow consumer: bytes read", "\(slow.bytes / 1_000_000) MB"))
    print("| measurement | value |\n|---|---|")
    for (name, value) in rows {
      print("| \(name) | \(value) |")
    }
  }

  /// Client CPU seconds (user + system) spent waiting 10 s for a server that never answers.
  static func idleWaitCPU(serverURL: URL, transport: any HTTPTransport) async throws -> Double {
    let client = ChatCompletionsClient(
      endpoint: EndpointConfiguration(baseURL: serverURL.appendingPathComponent("stall-head")),
      timeouts: ChatCompletionsTimeouts(connect: 5, firstByte: 10, idle: 10), transport: transport)
    let before = ProcessUsage.cpuSeconds()
    do {
      _ = try await client.streamChunks(requestBody: Data("{}".utf8))
    } catch {}
    return ProcessUsage.cpuSeconds() - before
  }

  static func concurrentStreams(
    serverURL: URL, count: Int
  ) async throws -> (completed: Int, cpu: Double, seconds: Double, peakMegabytes: Int) {
    let client = ChatCompletionsClient(
      endpoint: EndpointConfiguration(baseURL: serverURL.appendingPathComponent("slow-start")),
      timeouts: ChatCompletionsTimeouts(60))
    let before = ProcessUsage.cpuSeconds()
    let start = ContinuousClock.now
    let completed = await withTaskGroup(of: Bool.self) { group in
      for _ in 0..<count {
        group.addTask {
          var tokens = 0
          do {
            for try await chunk in try await client.streamChunks(requestBody: Data("{}".utf8)) {
              tokens += chunk.choices.first?.delta.content == nil ? 0 : 1
            }
          } catch {
            progress("stream failed: \(error)")
            return false
          }
          return tokens == 200
        }
      }
      return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
    }
    let elapsed = ContinuousClock.now - start
    return (
      completed, ProcessUsage.cpuSeconds() - before,
      Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18,
      ProcessUsage.peakResidentKilobytes() / 1024
    )
  }

  /// Reads a `megabytes` stream at 1 MB/s and samples the resident memory.
  static func slowConsumer(serverURL: URL, megabytes: Int) async throws -> (growthKilobytes: Int, bytes: Int)
  {
    let endpoint = EndpointConfiguration(
      baseURL: serverURL.appendingPathComponent("bulk"),
      additionalHeaders: ["X-Bulk-Megabytes": String(megabytes)])
    let client = ChatCompletionsClient(endpoint: endpoint, timeouts: ChatCompletionsTimeouts(60))
    let request = endpoint.request(
      url: endpoint.chatCompletionsURL, body: Data("{}".utf8), timeouts: client.timeouts)
    let response = try await client.transport.send(request)
    let baseline = ProcessUsage.residentKilobytes()
    var peak = baseline
    var bytes = 0
    var sinceSleep = 0
    let clock = ContinuousClock()
    let start = clock.now
    for try await piece in response.body {
      bytes += piece.count
      sinceSleep += piece.count
      if sinceSleep >= 64 * 1024 {
        sinceSleep = 0
        // Pace the reading at 1 MB/s.
        let due = start + .milliseconds(bytes / 1_000)
        try await Task.sleep(until: due, clock: clock)
        peak = max(peak, ProcessUsage.residentKilobytes())
      }
    }
    return (peak - baseline, bytes)
  }
}

/// CPU time and memory of this process, from `getrusage` and `/proc/self/statm`.
enum ProcessUsage {
  static func cpuSeconds() -> Double {
    var usage = rusage()
    getrusage(Int32(RUSAGE_SELF.rawValue), &usage)
    return Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
      + Double(usage.ru_stime.tv_sec)
      + Double(usage.ru_stime.tv_usec) / 1e6
  }

  static func peakResidentKilobytes() -> Int {
    var usage = rusage()
    getrusage(Int32(RUSAGE_SELF.rawValue), &usage)
    return usage.ru_maxrss
  }

  static func residentKilobytes() -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
    let fields = text.split(separator: " ")
    guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE))) / 1024
  }
}

/// Writes a progress line to standard error, apart from the table on standard output.
private func progress(_ line: String) {
  FileHandle.standardError.write(Data((line + "\n").utf8))
}
