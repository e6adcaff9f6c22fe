import CacheAnalysis
import Foundation
import TestSupport
import Testing

@Suite("Records files are limited to 1 GiB", .timeLimit(.minutes(10))) struct RecordsFileLimitTests {
  @Test func `a records file one byte over 1 GiB is refused, in either reading form`() throws {
    let folder = try TemporaryFolder(named: "records-limit")
    defer { folder.remove() }
    let file = folder.url("records.jsonl")
    // A sparse file of 1 GiB + 1 byte (2^30 + 1 = 1,073,741,825): no block is written.
    #expect(FileManager.default.createFile(atPath: file.path, contents: nil))
    let handle = try FileHandle(forWritingTo: file)
    try handle.truncate(atOffset: (1 << 30) + 1)
    try handle.close()
    let reason = "it is 1073741825 bytes, more than the limit of 1073741824"
    #expect(throws: CacheAnalysisError.unreadableRecords(path: file.path, reason: reason)) {
      try CacheImpactAnalyzer.records(contentsOf: file)
    }
    // A folder's files are read with the same limit.
    #expect(throws: CacheAnalysisError.unreadableRecords(path: file.path, reason: reason)) {
      try CacheImpactAnalyzer.conversations(contentsOf: folder.url)
    }
  }
}
