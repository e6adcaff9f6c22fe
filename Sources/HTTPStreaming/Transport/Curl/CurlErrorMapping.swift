#if canImport(CCurl)
import CCurl

/// Turns libcurl's result codes into ``TransportFailure``s.
enum CurlErrorMapping {
  static func failure(code: CURLcode, detail: String, request: HTTPRequest) -> TransportFailure {
    let url = request.url.absoluteString
    switch code {
    case CURLE_OPERATION_TIMEDOUT:
      // The client sets no total timeout: libcurl only times out the connect.
      return .connectTimeout(seconds: request.timeouts.connect, url: url)
    case CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CONNECT_ERROR, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER,
      CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ISSUER_ERROR, CURLE_SSL_PINNEDPUBKEYNOTMATCH,
      CURLE_SSL_INVALIDCERTSTATUS, CURLE_SSL_ENGINE_NOTFOUND, CURLE_SSL_ENGINE_SETFAILED,
      CURLE_SSL_ENGINE_INITFAILED, CURLE_SSL_CRL_BADFILE, CURLE_SSL_SHUTDOWN_FAILED:
      return .tlsFailed("TLS with \(url) failed: \(detail)")
    case CURLE_UNSUPPORTED_PROTOCOL, CURLE_URL_MALFORMAT, CURLE_WEIRD_SERVER_REPLY,
      CURLE_BAD_CONTENT_ENCODING,
      CURLE_HTTP2, CURLE_HTTP2_STREAM, CURLE_HTTP3:
      return .invalidResponse("unusable response from \(url): \(detail)")
    default:
      return .connectionFailed("connection to \(url) failed: \(detail)")
    }
  }
}
#endif
