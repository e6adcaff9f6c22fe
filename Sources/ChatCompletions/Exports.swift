// The endpoint, its limits, timeouts and redirect policy are part of this
// module's API: code that imports ChatCompletions sees them.
@_exported import HTTPStreaming

/// How long a request may wait to connect, for the first byte, and between
/// reads: the provider-neutral `HTTPTimeouts` under the name this module
/// has always used.
public typealias ChatCompletionsTimeouts = HTTPTimeouts
