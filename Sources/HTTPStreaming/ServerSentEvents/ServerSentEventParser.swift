/// An incremental parser for `text/event-stream` bodies, following the
/// Server-Sent Events rules of the HTML standard.
///
/// Feed it bytes in chunks of any size, split anywhere (even between the CR
/// and LF of a line end, or inside a multi-byte UTF-8 character); it returns
/// the events that each chunk completes. Lines may end in LF, CRLF or CR.
/// Comment lines (starting with `:`) are skipped, `data:` works with or without
/// the space after the colon, and multiple `data:` lines join with `\n`.
///
/// ```swift
/// var parser = ServerSentEventParser()
/// var events = parser.parse(Array("data: {\"a\":".utf8))  // []
/// events += parser.parse(Array("1}\r\n\r\n".utf8))          // [data: {"a":1}]
/// parser.finish()
/// ```
///
/// At the end of the stream, call ``finish()``: an event that was not
/// terminated by a blank line is discarded, as the standard requires.
///
/// Memory is bounded: a line longer than ``maximumLineBytes`` or an event
/// whose `data:` lines add up to more than ``maximumEventBytes`` throws
/// ``ServerSentEventLimitError`` before the bytes past the bound are kept.
/// After that error the parser is spent: the stream must be abandoned.
package struct ServerSentEventParser: Sendable {
  /// The longest line kept, in bytes, line end excluded (a byte order mark
  /// that starts the stream counts toward its first line).
  package let maximumLineBytes: Int

  /// The largest event kept, in bytes: its `data:` values and the line feeds that join them.
  package let maximumEventBytes: Int

  private var line: [UInt8] = []
  private var data: [UInt8] = []
  private var hasData = false
  private var eventType = ""
  private var lastEventID = ""
  private var afterCarriageReturn = false
  private var atStreamStart = true

  /// The reconnection time in milliseconds, from the last valid `retry:` line.
  package private(set) var retryMilliseconds: Int?

  /// Creates a parser at the start of a stream, with bounds on a line and on
  /// an event (16 MiB each by default; values below 1 count as 1).
  package init(maximumLineBytes: Int = 16 << 20, maximumEventBytes: Int = 16 << 20) {
    self.maximumLineBytes = max(1, maximumLineBytes)
    self.maximumEventBytes = max(1, maximumEventBytes)
  }

  /// The bytes the parser holds between calls: the pending line and event data.
  package var bufferedByteCount: Int {
    line.count + data.count
  }

  /// Parses the next bytes of the stream and returns the events they complete.
  ///
  /// - Throws: ``ServerSentEventLimitError`` when a line or an event exceeds its bound.
  package mutating func parse(
    _ bytes: some Sequence<UInt8>
  ) throws(ServerSentEventLimitError) -> [ServerSentEvent] {
    var events: [ServerSentEvent] = []
    let outcome: Result<Void, ServerSentEventLimitError>? = bytes.withContiguousStorageIfAvailable { buffer in
      Result { () throws(ServerSentEventLimitError) in try parse(buffer, into: &events) }
    }
    if let outcome {
      try outcome.get()
    } else {
      let copy = Array(bytes)
      try copy.withUnsafeBufferPointer { buffer throws(ServerSentEventLimitError) in
        try parse(buffer, into: &events)
      }
    }
    return events
  }

  /// Splits a buffer into lines: everything up to a line end is appended to
  /// the current line in one step, so that the work per byte is one comparison.
  private mutating func parse(
    _ buffer: UnsafeBufferPointer<UInt8>, into events: inout [ServerSentEvent]
  ) throws(ServerSentEventLimitError) {
    var position = buffer.startIndex
    while position < buffer.endIndex {
      if afterCarriageReturn {
        afterCarriageReturn = false
        if buffer[position] == .lineFeed {
          position += 1
          continue
        }
      }
      var end = position
      while end < buffer.endIndex, buffer[end] != .lineFeed, buffer[end] != .carriageReturn {
        end += 1
      }
      guard line.count + (end - position) <= maximumLineBytes else {
        throw ServerSentEventLimitError(bound: .line, limit: maximumLineBytes)
      }
      line.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[position..<end]))
      guard end < buffer.endIndex else { return }
      afterCarriageReturn = buffer[end] == .carriageReturn
      try endLine(into: &events)
      position = end + 1
    }
  }

  /// Ends the stream.
  ///
  /// Discards a pending event or line that was not completed, as the standard
  /// requires, and returns whether anything other than a comment was discarded,
  /// which means that the stream was cut off in the middle of an event.
  /// The data of the event the stream is in the middle of, as it would be
  /// dispatched: its `data` lines so far, and the last line too when it is a
  /// `data` field the stream ended without a line break. `nil` between events.
  ///
  /// A wire format whose last event is known can read it before ``finish()``
  /// to accept a stream that leaves out the final blank line: OpenAI's
  /// streams end `data: [DONE]`, and servers that stop right after that line
  /// are common.
  package var unterminatedEventData: String? {
    var pending = data
    var pendingHasData = hasData
    if let colon = line.firstIndex(of: .colon), colon > line.startIndex,
      line[..<colon].elementsEqual(Field.data)
    {
      var value = line[(colon + 1)...]
      if value.first == .space { value = value.dropFirst() }
      if pendingHasData { pending.append(.lineFeed) }
      pending.append(contentsOf: value)
      pendingHasData = true
    }
    return pendingHasData ? String(decoding: pending, as: UTF8.self) : nil
  }

  @discardableResult
  package mutating func finish() -> Bool {
    let pendingLineIsComment = line.first == .colon
    let cutOff = hasData || !eventType.isEmpty || (!line.isEmpty && !pendingLineIsComment)
    line.removeAll()
    data.removeAll()
    hasData = false
    eventType = ""
    afterCarriageReturn = false
    return cutOff
  }

  private mutating func endLine(into events: inout [ServerSentEvent]) throws(ServerSentEventLimitError) {
    defer { line.removeAll(keepingCapacity: true) }
    if atStreamStart {
      atStreamStart = false
      if line.starts(with: [0xEF, 0xBB, 0xBF]) {
        line.removeFirst(3)
      }
    }
    if line.isEmpty {
      dispatch(into: &events)
      return
    }
    if line[0] == .colon {
      return
    }
    let field: ArraySlice<UInt8>
    var value: ArraySlice<UInt8>
    if let colon = line.firstIndex(of: .colon) {
      field = line[..<colon]
      value = line[(colon + 1)...]
      if value.first == .space {
        value = value.dropFirst()
      }
    } else {
      field = line[...]
      value = []
    }
    try process(field: field, value: value)
  }

  private mutating func process(
    field: ArraySlice<UInt8>, value: ArraySlice<UInt8>
  ) throws(ServerSentEventLimitError) {
    if field.elementsEqual(Field.data) {
      guard data.count + (hasData ? 1 : 0) + value.count <= maximumEventBytes else {
        throw ServerSentEventLimitError(bound: .event, limit: maximumEventBytes)
      }
      if hasData {
        data.append(.lineFeed)
      }
      data.append(contentsOf: value)
      hasData = true
    } else if field.elementsEqual(Field.event) {
      eventType = String(decoding: value, as: UTF8.self)
    } else if field.elementsEqual(Field.id) {
      if !value.contains(0) {
        lastEventID = String(decoding: value, as: UTF8.self)
      }
    } else if field.elementsEqual(Field.retry) {
      if !value.isEmpty, value.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) {
        retryMilliseconds = Int(String(decoding: value, as: UTF8.self))
      }
    }
  }

  private mutating func dispatch(into events: inout [ServerSentEvent]) {
    defer {
      data.removeAll(keepingCapacity: true)
      hasData = false
      eventType = ""
    }
    guard hasData else { return }
    events.append(
      ServerSentEvent(
        type: eventType.isEmpty ? "message" : eventType,
        data: String(decoding: data, as: UTF8.self),
        lastEventID: lastEventID
      )
    )
  }
}

private enum Field {
  static let data = Array("data".utf8)
  static let event = Array("event".utf8)
  static let id = Array("id".utf8)
  static let retry = Array("retry".utf8)
}

extension UInt8 {
  fileprivate static let lineFeed: UInt8 = 0x0A
  fileprivate static let carriageReturn: UInt8 = 0x0D
  fileprivate static let colon: UInt8 = 0x3A
  fileprivate static let space: UInt8 = 0x20
}
