import Foundation
import TestSupport
import Testing

@testable import AgentSkills

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@Suite(.timeLimit(.minutes(10))) struct SkillActivationsTests {
  @Test(.timeLimit(.minutes(20))) func `activating and deactivating changes the active set`() async {
    let activations = SkillActivations()
    #expect(activations.activate("b"))
    #expect(activations.activate("a"))
    #expect(!activations.activate("a"))
    #expect(activations.isActive("a"))
    #expect(activations.activeSkillNames == ["a", "b"])
    #expect(activations.deactivate("a"))
    #expect(!activations.deactivate("a"))
    #expect(activations.activeSkillNames == ["b"])
  }

  @Test(.timeLimit(.minutes(20))) func `every subscriber sees each change and no-op changes are silent`()
    async
  {
    let activations = SkillActivations()
    let first = await activations.changes
    let second = await activations.changes
    activations.activate("a")
    activations.activate("a")
    activations.deactivate("missing")
    activations.activate("b")
    activations.deactivate("a")
    activations.restore(SkillActivationsSnapshot(activeSkillNames: ["b"]))
    activations.restore(SkillActivationsSnapshot(activeSkillNames: []))
    let expected: [Set<String>] = [["a"], ["a", "b"], ["b"], []]
    for stream in [first, second] {
      let seen = await firstElements(expected.count, of: stream).map { Set($0.activeSkillNames) }
      #expect(seen == expected)
    }
  }

  @Test(.timeLimit(.minutes(10)))
  func `a restore that changes only the loaded set takes effect and is announced`()
    async
  {
    let activations = SkillActivations(active: ["a"])
    let stream = await activations.changes
    activations.restore(SkillActivationsSnapshot(activeSkillNames: ["a"], loadedSkillNames: ["z"]))
    #expect(activations.loadedSkillNames == ["z"])
    // A later change, so that a missing announcement shows as the wrong first element, not a wait.
    activations.activate("b")
    let first = await firstElements(1, of: stream)
    #expect(first == [SkillActivationsSnapshot(activeSkillNames: ["a"], loadedSkillNames: ["z"])])
  }

  @Test(.timeLimit(.minutes(20))) func `a thousand concurrent activations are all recorded`() async {
    let activations = SkillActivations()
    let stream = await activations.changes
    await withTaskGroup(of: Void.self) { group in
      for index in 0..<1000 {
        group.addTask {
          activations.activate("skill-\(index % 500)")
          if index.isMultiple(of: 7) { activations.activate("skill-\(index % 500)") }
        }
      }
    }
    #expect(activations.activeSkillNames.count == 500)
    // One event per skill that became active, the last with all 500.
    let events = await firstElements(500, of: stream)
    #expect(events.count == 500)
    #expect(events.last?.activeSkillNames.count == 500)
  }

  @Test(.timeLimit(.minutes(20))) func `snapshots restore and survive a save and load`() async throws {
    let fixture = try SkillFixture()
    let file = fixture.url("state/skills.json")
    try FileManager.default.createDirectory(at: fixture.url("state"), withIntermediateDirectories: true)
    let activations = SkillActivations(active: ["writing-commit-messages", "reviewing-sql"])
    let snapshot = activations.snapshot()
    #expect(snapshot.activeSkillNames == ["reviewing-sql", "writing-commit-messages"])
    try await activations.save(to: file)
    let text = try String(contentsOf: file, encoding: .utf8)
    #expect(text.contains("\"activeSkillNames\""))
    #expect(text.contains("\"loadedSkillNames\""))
    #expect(try FileManager.default.contentsOfDirectory(atPath: fixture.url("state").path) == ["skills.json"])

    let restored = SkillActivations()
    try await restored.load(from: file)
    #expect(restored.activeSkillNames == ["reviewing-sql", "writing-commit-messages"])

    activations.deactivate("reviewing-sql")
    try await activations.save(to: file)
    try await restored.load(from: file)
    #expect(restored.activeSkillNames == ["writing-commit-messages"])
  }

  @Test(.timeLimit(.minutes(20))) func `loading a corrupt or missing file throws and changes nothing`()
    async throws
  {
    let fixture = try SkillFixture()
    let activations = SkillActivations(active: ["kept"])
    let corrupt = try fixture.write("{\"activeSkillNames\": [", to: "corrupt.json")
    await #expect(throws: SkillActivationsError.self) { try await activations.load(from: corrupt) }
    await #expect(throws: SkillActivationsError.self) {
      try await activations.load(from: fixture.url("none.json"))
    }
    let future = try fixture.write("{\"activeSkillNames\": [], \"version\": 9}", to: "future.json")
    await #expect(throws: SkillActivationsError.unsupportedVersion(path: future.path, version: 9)) {
      try await activations.load(from: future)
    }
    #expect(activations.activeSkillNames == ["kept"])
    await #expect(throws: SkillActivationsError.self) {
      try await activations.save(to: fixture.url("no/such/folder/skills.json"))
    }
  }

  @Test(.timeLimit(.minutes(20)))
  func `a snapshot written before loaded skills existed still reads, as none loaded`() throws {
    let old = Data(#"{"activeSkillNames":["b","a"],"version":1}"#.utf8)
    let snapshot = try JSONDecoder().decode(SkillActivationsSnapshot.self, from: old)
    #expect(snapshot.activeSkillNames == ["a", "b"])
    #expect(snapshot.loadedSkillNames == [])
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    let written = String(
      decoding: try encoder.encode(
        SkillActivationsSnapshot(activeSkillNames: ["a"], loadedSkillNames: ["c"])),
      as: UTF8.self)
    #expect(written == #"{"activeSkillNames":["a"],"loadedSkillNames":["c"],"version":1}"#)
  }

  @Test(.timeLimit(.minutes(20)))
  func `a state file with an invalid version or skill name is refused and changes nothing`() async throws {
    let fixture = try SkillFixture()
    let activations = SkillActivations(active: ["kept"])
    for version in [-7, 0] {
      let file = try fixture.write(
        "{\"activeSkillNames\": [], \"version\": \(version)}", to: "v\(version).json")
      await #expect(throws: SkillActivationsError.unsupportedVersion(path: file.path, version: version)) {
        try await activations.load(from: file)
      }
    }
    for name in [
      "", "\u{1B}[2J", "line\nbreak", "\u{202E}reversed", "tab\there",
      String(repeating: "a", count: 1_025),
    ] {
      let snapshot =
        "{\"activeSkillNames\": [\"ok\", \(String(decoding: try JSONEncoder().encode(name), as: UTF8.self))], \"version\": 1}"
      let file = try fixture.write(snapshot, to: "names.json")
      await #expect(throws: SkillActivationsError.invalidSkillName(path: file.path, name: name)) {
        try await activations.load(from: file)
      }
    }
    let loaded = try fixture.write(
      #"{"activeSkillNames": [], "loadedSkillNames": ["\u0007x"], "version": 1}"#, to: "loaded.json")
    await #expect(throws: SkillActivationsError.invalidSkillName(path: loaded.path, name: "\u{7}x")) {
      try await activations.load(from: loaded)
    }
    #expect(activations.activeSkillNames == ["kept"])
    #expect(
      SkillActivationsError.unsupportedVersion(path: "s.json", version: -7).description
        == "s.json: skill activations file version -7 is not a valid version "
        + "(versions start at 1; this reader knows 1 to 1)")
    #expect(
      SkillActivationsError.unsupportedVersion(path: "s.json", version: 9).description
        == "s.json: skill activations file version 9 is newer than this reader (1)")
    #expect(
      SkillActivationsError.invalidSkillName(path: "s.json", name: "").description
        == #"s.json: "" cannot be a skill name (it is empty, longer than 1,024 characters, "#
        + "or holds a control character); the file is not loaded")
  }

  @Test(.timeLimit(.minutes(20)))
  func `saving replaces the state file by a rename, so a reader of the old file reads the old state whole`()
    async throws
  {
    let fixture = try SkillFixture()
    try FileManager.default.createDirectory(at: fixture.url("state"), withIntermediateDirectories: true)
    let file = fixture.url("state/skills.json")
    let activations = SkillActivations(active: ["reviewing-sql", "writing-commit-messages"])
    try await activations.save(to: file)
    let old = try Data(contentsOf: file)
    var before = stat()
    #expect(stat(file.path, &before) == 0)
    // Opened before the next save, as another process reading the state would.
    let reader = open(file.path, O_RDONLY)
    #expect(reader >= 0)
    defer { close(reader) }
    activations.deactivate("reviewing-sql")
    try await activations.save(to: file)
    var after = stat()
    #expect(stat(file.path, &after) == 0)
    // A new file took the name: the old one was neither truncated nor rewritten, so a crash
    // in the middle of a save leaves one whole state or the other.
    #expect(after.st_ino != before.st_ino)
    var buffer = [UInt8](repeating: 0, count: old.count + 64)
    let count = read(reader, &buffer, buffer.count)
    #expect(Data(buffer.prefix(max(0, count))) == old)
    let restored = SkillActivations()
    try await restored.load(from: file)
    #expect(restored.activeSkillNames == ["writing-commit-messages"])
    #expect(try FileManager.default.contentsOfDirectory(atPath: fixture.url("state").path) == ["skills.json"])
  }

  @Test(.timeLimit(.minutes(20))) func `saving keeps a 0600 state file 0600 and a symlinked one a link`()
    async throws
  {
    let fixture = try SkillFixture()
    try FileManager.default.createDirectory(at: fixture.url("state"), withIntermediateDirectories: true)
    let file = fixture.url("state/skills.json")
    let activations = SkillActivations(active: ["reviewing-sql"])
    try await activations.save(to: file)
    #expect(chmod(file.path, 0o600) == 0)
    try await activations.save(to: file)
    #expect(try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int == 0o600)
    try fixture.link("state/link.json", to: "skills.json")
    activations.activate("writing-skills")
    try await activations.save(to: fixture.url("state/link.json"))
    #expect(
      try FileManager.default.destinationOfSymbolicLink(atPath: fixture.url("state/link.json").path)
        == "skills.json")
    let restored = SkillActivations()
    try await restored.load(from: file)
    #expect(restored.activeSkillNames == ["reviewing-sql", "writing-skills"])
    #expect(try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int == 0o600)
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: fixture.url("state").path).sorted() == [
        "link.json", "skills.json",
      ])
  }

  @Test(.timeLimit(.minutes(20))) func `loading a folder or a FIFO says what it is`() async throws {
    let fixture = try SkillFixture()
    try FileManager.default.createDirectory(at: fixture.url("state"), withIntermediateDirectories: true)
    let activations = SkillActivations()
    await #expect(
      throws: SkillActivationsError.cannotRead(
        path: fixture.url("state").path, reason: "it is a folder, not a file")
    ) { try await activations.load(from: fixture.url("state")) }
    #expect(mkfifo(fixture.url("state/pipe").path, 0o644) == 0)
    await #expect(
      throws: SkillActivationsError.cannotRead(
        path: fixture.url("state/pipe").path, reason: "it is a FIFO (named pipe), not a regular file")
    ) { try await activations.load(from: fixture.url("state/pipe")) }
  }

  @Test(.timeLimit(.minutes(10)))
  func `synchronous changes from many threads each reach a subscriber once, in the order they were made`()
    async
  {
    let activations = SkillActivations()
    let changes = await activations.changes
    let names = (0..<200).map { "skill-\($0)" }
    await withTaskGroup(of: Void.self) { group in
      for name in names {
        group.addTask { activations.activate(name) }
      }
    }
    let seen = await firstElements(names.count, of: changes)
    // Each change adds one name to the one before: delivered out of order, a
    // snapshot would hold fewer names than the one before it.
    #expect(seen.map(\.activeSkillNames.count) == Array(1...names.count))
    #expect(Set(seen.last?.activeSkillNames ?? []) == Set(names))
    #expect(activations.activeSkillNames.count == names.count)
  }
}

extension SkillActivationsTests {
  @Test(.timeLimit(.minutes(10))) func `a dropped changes stream unsubscribes`() async throws {
    let activations = SkillActivations()
    do {
      let stream = await activations.changes
      _ = stream
    }
    activations.activate("a")
    // The stream's termination handler runs when the stream is released; wait for it with a deadline.
    let deadline = ContinuousClock.now + .seconds(30)
    while activations.subscriberCount > 0, ContinuousClock.now < deadline {
      await Task.yield()
    }
    #expect(activations.subscriberCount == 0)
  }
}
