/// One event of a `text/event-stream` body, as dispatched by ``ServerSentEventParser``.
///
/// ```swift
/// var parser = ServerSentEventParser()
/// let events = parser.parse(Array("data: hello\n\n".utf8))
/// // events == [ServerSentEvent(data: "hello")]
/// ```
package struct ServerSentEvent: Sendable, Hashable {
  /// The event type from the `event:` field, `"message"` when the event named none.
  package var type: String

  /// The event's data: the values of its `data:` lines joined with line feeds.
  package var data: String

  /// The last event ID seen on the stream when this event was dispatched (`""` when none).
  package var lastEventID: String

  /// Creates an event.
  package init(type: String = "message", data: String, lastEventID: String = "") {
    self.type = type
    self.data = data
    self.lastEventID = lastEventID
  }

  /// Whether this is the `[DONE]` sentinel that OpenAI-compatible servers send last.
  package var isDone: Bool {
    Self.isDone(data)
  }

  /// Whether `data` is the `[DONE]` sentinel, whitespace around it allowed
  /// (`data:  [DONE]` leaves a space the field's one optional space does not
  /// take; OpenAI's clients and the companion package accept it).
  ///
  /// Only the whitespace at either end is walked: a chunk of megabytes costs
  /// no more to rule out than a short one (splitting all of it took a fifth
  /// of the whole test run's CPU).
  package static func isDone(_ data: String) -> Bool {
    guard let first = data.firstIndex(where: { !$0.isWhitespace }),
      let last = data.lastIndex(where: { !$0.isWhitespace })
    else { return false }
    let word = data[first...last]
    return word.utf8.count == 6 && word == "[DONE]"
  }
}
