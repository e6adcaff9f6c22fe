import Foundation

extension EndpointConfiguration {
  /// The URL that chat completion requests are posted to: `chat/completions`
  /// under the versioned API (see `EndpointConfiguration.endpointURL(_:)`).
  ///
  /// ```swift
  /// let endpoint = EndpointConfiguration(baseURL: URL(string: "http://127.0.0.1:8080")!)
  /// endpoint.chatCompletionsURL  // http://127.0.0.1:8080/v1/chat/completions
  /// ```
  public var chatCompletionsURL: URL {
    endpointURL("chat/completions")
  }
}
