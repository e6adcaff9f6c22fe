import Foundation
import Testing

@testable import AgentSkills

/// The bounds of a saved activations file, on both sides: its size (16 MiB)
/// and its format version (1 through the current one).
@Suite("Activations file limits", .timeLimit(.minutes(10))) struct SkillActivationsFileLimitTests {
  /// `json` followed by spaces (JSON allows trailing white space) to `size` bytes.
  private func padded(_ json: String, to size: Int) -> Data {
    var data = Data(json.utf8)
    data.append(Data(repeating: UInt8(ascii: " "), count: size - data.count))
    return data
  }

  @Test func `a state file of exactly 16 MiB loads; one byte more is refused`() async throws {
    let fixture = try SkillFixture()
    // 16 × 1,024 × 1,024 = 16,777,216 bytes.
    let json = #"{"activeSkillNames":["sql"],"version":1}"#
    let exact = try fixture.write(padded(json, to: 16_777_216), to: "exact.json")
    let activations = SkillActivations()
    try await activations.load(from: exact)
    #expect(activations.activeSkillNames == ["sql"])
    let over = try fixture.write(padded(json, to: 16_777_217), to: "over.json")
    await #expect(
      throws: SkillActivationsError.cannotRead(
        path: over.path, reason: "it is 16777217 bytes, more than the limit of 16777216")
    ) {
      try await SkillActivations().load(from: over)
    }
  }

  @Test func `the current version loads; the next one is refused as newer`() async throws {
    let fixture = try SkillFixture()
    #expect(SkillActivationsSnapshot.currentVersion == 1)
    let current = try fixture.write(#"{"activeSkillNames":["sql"],"version":1}"#, to: "v1.json")
    let activations = SkillActivations()
    try await activations.load(from: current)
    #expect(activations.activeSkillNames == ["sql"])
    let next = try fixture.write(#"{"activeSkillNames":["other"],"version":2}"#, to: "v2.json")
    await #expect(throws: SkillActivationsError.unsupportedVersion(path: next.path, version: 2)) {
      try await activations.load(from: next)
    }
    #expect(activations.activeSkillNames == ["sql"])
  }
}
