import ContextKit
import Foundation
import HTTPStreaming

/// `--endpoint URL`, for the commands that talk to a live server: one check
/// of the spelling and one way to print it.
enum EndpointOption {
  /// The URL given, when it is one libcurl and Foundation read alike
  /// (`EndpointURLSpelling`).
  ///
  /// - Throws: a usage error that names the option, with the given text
  ///   redacted (it may hold a key).
  static func url(_ given: String) throws(CommandLineArguments.UsageError) -> URL {
    guard let url = URL(string: given), url.scheme != nil else {
      throw CommandLineArguments.UsageError(
        description: "--endpoint takes a URL, not \"\(Redaction(secrets: []).apply(to: given))\"")
    }
    if let reason = EndpointURLSpelling.problem(with: url) {
      throw CommandLineArguments.UsageError(description: "--endpoint: \(reason)")
    }
    return url
  }

  /// The endpoint as printed: without the URL's password or secret query values.
  static func shown(_ url: URL) -> String {
    EndpointConfiguration(baseURL: url).redactedBaseURL
  }
}
