import Foundation

@testable import ChatCompletions
@testable import HTTPStreaming

/// Whether the platform's default transport survives a server that sends
/// faster than the client reads.
///
/// Linux's URLSession (swift-corelibs-foundation) stops with "Received body
/// data, but no transfer in progress" (NativeProtocol.swift:69) when
/// back-pressure suspends a data task while libcurl is still delivering
/// bytes. The tests that push megabytes through the fault server as fast as
/// it can send run only where that cannot happen: on Apple platforms, and
/// on Linux once the default transport is not URLSession.
let defaultTransportSurvivesFastStreams: Bool = {
  #if canImport(FoundationNetworking)
  let endpoint = EndpointConfiguration(baseURL: URL(fileURLWithPath: "/"))
  return !(ChatCompletionsClient(endpoint: endpoint).transport is URLSessionTransport)
  #else
  return true
  #endif
}()
