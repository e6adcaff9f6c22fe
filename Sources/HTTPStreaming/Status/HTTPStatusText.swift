/// Short English texts for HTTP statuses, for error messages when the server
/// sent an empty body.
package enum HTTPStatusText {
  package static func text(for status: Int) -> String {
    switch status {
    case 400: "bad request"
    case 401: "unauthorized (check the API key)"
    case 403: "forbidden"
    case 404: "not found (check the base URL and the model name)"
    case 408: "request timeout"
    case 413: "request too large"
    case 422: "unprocessable request"
    case 429: "too many requests"
    case 500: "internal server error"
    case 502: "bad gateway"
    case 503: "service unavailable"
    case 504: "gateway timeout"
    default: "HTTP status \(status)"
    }
  }
}
