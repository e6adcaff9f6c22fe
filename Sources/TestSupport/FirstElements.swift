/// The first `count` elements of `stream`, or those that came before `limit`
/// passed (or before the stream ended): an element that never comes fails
/// the test's comparison instead of hanging it.
///
/// ```swift
/// #expect(await firstElements(2, of: activations.changes) == expected)
/// ```
public func firstElements<Element: Sendable>(
  _ count: Int, of stream: AsyncStream<Element>, within limit: Duration = .seconds(60)
) async -> [Element] {
  await withTaskGroup(of: [Element]?.self) { group in
    group.addTask {
      var taken: [Element] = []
      for await element in stream {
        taken.append(element)
        if taken.count == count { break }
      }
      return taken
    }
    group.addTask {
      try? await Task.sleep(for: limit)
      return nil
    }
    var result: [Element] = []
    while let finished = await group.next() {
      if let taken = finished { result = taken }
      // Whichever ends first, the other stops: a cancelled stream ends its loop.
      group.cancelAll()
    }
    return result
  }
}
