import AgentSkills
import Foundation
import Synchronization
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Files are opened once, relative to the skill folder, without following
/// links and without blocking; what was checked is what is read.
@Suite(.timeLimit(.minutes(10)))
struct SkillFolderReaderTests {
  @Test func `a FIFO named SKILL.md is an error at once, not a hang`() throws {
    let fixture = try SkillFixture()
    try fixture.write("x", to: "piped/placeholder")
    #expect(mkfifo(fixture.url("piped/SKILL.md").path, 0o644) == 0)
    let folder = fixture.url("piped")
    let message = DeadlineThread.run(deadline: .seconds(10)) { inspect(folder).firstError?.message }
    #expect(message == "SKILL.md is a FIFO (named pipe), not a regular file; it is not read")
  }

  @Test func `a symbolic link named SKILL.md is refused, even one that stays inside`() throws {
    let fixture = try SkillFixture()
    try fixture.write("---\nname: linked\ndescription: Inside.\n---\nBody\n", to: "linked/real.md")
    try fixture.link("linked/SKILL.md", to: "real.md")
    let error = try #require(inspect(fixture.url("linked")).firstError)
    #expect(
      error.message
        == "SKILL.md is a symbolic link; it must be a regular file in the skill folder, and is not read")
    #expect(error.path.hasSuffix("linked/SKILL.md"))
  }

  @Test func `SKILL.md swapped with a link to an outside file is never read through the link`() throws {
    let fixture = try SkillFixture()
    // Named like the skill folder, so that reading it would load (and show) it.
    try fixture.write("---\nname: swapped\ndescription: Secret.\n---\nSecret\n", to: "secret/SKILL.md")
    let folder = try fixture.skill("swapped", frontMatter: "name: swapped\ndescription: Inside.")
    try fixture.write("---\nname: swapped\ndescription: Inside.\n---\nBody\n", to: "swapped/regular.tmp")
    try fixture.link("swapped/link.tmp", to: fixture.url("secret/SKILL.md").path)
    let outcome = try race(in: folder, swapping: ["regular.tmp", "link.tmp"])
    #expect(outcome.finished)
    #expect(outcome.descriptions.subtracting(["Inside."]).isEmpty)
    #expect(outcome.loads > 100, "\(outcome.loads) loads")
  }

  @Test func `SKILL.md swapped with a FIFO never blocks the loader`() throws {
    let fixture = try SkillFixture()
    let folder = try fixture.skill("fifo-swap", frontMatter: "name: fifo-swap\ndescription: Inside.")
    try fixture.write("---\nname: fifo-swap\ndescription: Inside.\n---\nBody\n", to: "fifo-swap/regular.tmp")
    #expect(mkfifo(fixture.url("fifo-swap/fifo.tmp").path, 0o644) == 0)
    let outcome = try race(in: folder, swapping: ["regular.tmp", "fifo.tmp"])
    #expect(outcome.finished)
    #expect(outcome.descriptions.subtracting(["Inside."]).isEmpty)
  }

  @Test func `resources: a FIFO, a device and a folder are refused without blocking`() throws {
    let fixture = try SkillFixture()
    let folder = try fixture.skill("odd")
    try fixture.write("x", to: "odd/references/plain.md")
    #expect(mkfifo(fixture.url("odd/references/pipe.md").path, 0o644) == 0)
    try fixture.link("odd/references/null.md", to: "/dev/null")
    let skill = try SkillLoader().load(folder: folder)
    let outcome = DeadlineThread.run(deadline: .seconds(10)) { () -> SkillResourceError? in
      do throws(SkillResourceError) {
        _ = try skill.contentsOfResource("references/pipe.md")
        return nil
      } catch {
        return error
      }
    }
    #expect(outcome == SkillResourceError?.some(.notAFile("references/pipe.md", skill: "odd")))
    #expect(throws: SkillResourceError.outsideSkillFolder("references/null.md", skill: "odd")) {
      try skill.contentsOfResource("references/null.md")
    }
    #expect(throws: SkillResourceError.notAFile("references", skill: "odd")) {
      try skill.contentsOfResource("references")
    }
    #expect(throws: SkillResourceError.notFound("references/plain.md/x", skill: "odd")) {
      try skill.contentsOfResource("references/plain.md/x")
    }
  }

  @Test func `resources: links are resolved inside the folder, step by step`() throws {
    let fixture = try SkillFixture()
    try fixture.write("secret\n", to: "secret.txt")
    let folder = try fixture.skill("links")
    try fixture.write("inside\n", to: "links/references/notes.md")
    try fixture.link("links/assets/up", to: "../references")
    try fixture.link("links/assets/absolute.md", to: fixture.url("links/references/notes.md").path)
    try fixture.link("links/assets/climb.md", to: "../../secret.txt")
    try fixture.link("links/assets/loop.md", to: "loop.md")
    let skill = try SkillLoader().load(folder: folder)
    #expect(try skill.contentsOfResource("assets/up/notes.md") == Data("inside\n".utf8))
    #expect(try skill.contentsOfResource("assets/absolute.md") == Data("inside\n".utf8))
    #expect(throws: SkillResourceError.outsideSkillFolder("assets/climb.md", skill: "links")) {
      try skill.contentsOfResource("assets/climb.md")
    }
    #expect(throws: SkillResourceError.outsideSkillFolder("assets/up/../../../secret.txt", skill: "links")) {
      try skill.contentsOfResource("assets/up/../../../secret.txt")
    }
    #expect(
      throws: SkillResourceError.unreadable(
        "assets/loop.md", skill: "links", reason: "it goes through more than 40 symbolic links")
    ) {
      try skill.contentsOfResource("assets/loop.md")
    }
  }

  // MARK: - The race

  struct RaceOutcome {
    var finished: Bool
    var loads: Int
    var descriptions: Set<String>
  }

  /// Renames the given files over `SKILL.md` in turn on one thread while
  /// another loads the skill again and again, for about two seconds.
  private func race(in folder: URL, swapping names: [String]) throws -> RaceOutcome {
    let stop = StopFlag()
    let stopped = DispatchSemaphore(value: 0)
    let target = folder.appendingPathComponent("SKILL.md").path
    // Hard links keep a spare of each kind, so every rename has something to move.
    let spares = names.map { folder.appendingPathComponent($0).path }
    let swapper = Thread {
      var index = 0
      defer { stopped.signal() }
      while !stop.isSet {
        let spare = spares[index % spares.count]
        let copy = spare + ".swap"
        _ = unlink(copy)
        if link(spare, copy) != 0 { _ = symlinkCopy(spare, copy) }
        _ = rename(copy, target)
        index += 1
      }
    }
    swapper.start()
    defer {
      stop.set()
      _ = stopped.wait(timeout: .now() + 10)
    }
    let result = DeadlineThread.run(deadline: .seconds(30)) { () -> (Int, Set<String>) in
      var names: Set<String> = []
      var loads = 0
      let clock = ContinuousClock()
      let end = clock.now + .seconds(2)
      while clock.now < end {
        if let skill = SkillLoader().inspect(folder: folder).skill { names.insert(skill.description) }
        loads += 1
      }
      return (loads, names)
    }
    guard let result else { return RaceOutcome(finished: false, loads: 0, descriptions: []) }
    return RaceOutcome(finished: true, loads: result.0, descriptions: result.1)
  }
}

/// A flag one thread sets and another reads.
private final class StopFlag: Sendable {
  private let value = Atomic<Bool>(false)
  var isSet: Bool { value.load(ordering: .relaxed) }
  func set() { value.store(true, ordering: .relaxed) }
}

/// Copies a symbolic link (hard links to links are not portable).
private func symlinkCopy(_ link: String, _ copy: String) -> Int32 {
  var buffer = [CChar](repeating: 0, count: 4096)
  let count = readlink(link, &buffer, buffer.count - 1)
  guard count > 0 else { return -1 }
  let target = String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
  return symlink(target, copy)
}
