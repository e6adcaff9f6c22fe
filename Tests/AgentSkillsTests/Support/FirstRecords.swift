import ModelSession

/// The first `count` generation records the stream delivers.
func firstRecords(_ stream: AsyncStream<GenerationRecord>, count: Int) async -> [GenerationRecord] {
  var collected: [GenerationRecord] = []
  for await record in stream {
    collected.append(record)
    if collected.count == count { break }
  }
  return collected
}
