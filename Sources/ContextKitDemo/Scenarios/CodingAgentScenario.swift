import DemoSupport

/// A coding agent fixing a cancellation bug over 40 turns: it reads files,
/// searches, runs tests, loads the Swift concurrency review skill (a prompt
/// skill) and turns the commit-message rules (an instructions skill) on and
/// off. Budget: 12,000 tokens.
enum CodingAgentScenario {
  static var script: ScenarioScript {
    typealias Call = ScenarioScript.Call
    typealias Turn = ScenarioScript.Turn
    let skill = CorpusGenerator.skillToolName
    return ScenarioScript(
      name: "coding-agent",
      instructions:
        "You are a coding agent working in a Swift package. Read the code before changing it, run the tests "
        + "after every change, and report what you changed in one short paragraph.",
      budget: 12_000,
      tools: [
        ReplayToolSpec(
          name: "read_file", description: "Returns a file of the repository.", parameter: "path",
          parameterDescription: "The path from the repository root."),
        ReplayToolSpec(
          name: "search", description: "Searches the code base and returns matching lines.",
          parameter: "query",
          parameterDescription: "Text or a symbol name."),
        ReplayToolSpec(
          name: "run_tests", description: "Runs a test filter and returns the log.", parameter: "target",
          parameterDescription: "A test target or filter."),
      ],
      usesSkills: true,
      turns: [
        Turn(
          "The upload task sometimes keeps running after the user cancels. Can you find out why?",
          thinks: true,
          [
            [Call("search", "Task.checkCancellation", tokens: 500)],
            [Call("read_file", "Sources/Upload/Uploader.swift", tokens: 1_400)],
          ]),
        Turn(
          "Load the concurrency review guidance before you go further.",
          [[Call(skill, "reviewing-swift-concurrency")]]),
        Turn(
          "Review Uploader.swift against it.", thinks: true,
          [[Call("read_file", "Sources/Upload/Chunker.swift", tokens: 900)]]),
        Turn("Run the upload tests as they are now.", [[Call("run_tests", "UploadTests", tokens: 1_100)]]),
        Turn("Which test shows the bug?"),
        Turn("Show me where the retry loop sleeps.", [[Call("search", "Task.sleep retry", tokens: 400)]]),
        Turn(
          "Make the retry loop check for cancellation before each attempt.", thinks: true,
          [[Call("read_file", "Sources/Upload/RetryPolicy.swift", tokens: 800)]]),
        Turn("Run the tests again.", [[Call("run_tests", "UploadTests#2", tokens: 1_000)]]),
        Turn("One test still fails. What does its log say?"),
        Turn(
          "Look at the test itself.",
          [[Call("read_file", "Tests/UploadTests/CancellationTests.swift", tokens: 1_200)]]),
        Turn("Is the test wrong or the code?", thinks: true),
        Turn(
          "Fix the code, not the test, and run everything.", thinks: true,
          [
            [Call("read_file", "Sources/Upload/Uploader.swift#2", tokens: 1_300)],
            [Call("run_tests", "AllTests", tokens: 1_500)],
          ]),
        Turn("Good. Now switch on the commit message rules.", [[Call(skill, "writing-commit-messages")]]),
        Turn("Write the commit message for this fix."),
        Turn("Shorter subject, please."),
        Turn("We are done committing; turn the rules off.", [[Call(skill, "writing-commit-messages")]]),
        Turn(
          "Next: the progress bar jumps backwards on resume. Where is progress computed?",
          [[Call("search", "fractionCompleted", tokens: 450)]]),
        Turn(
          "Open the progress reporter.",
          [[Call("read_file", "Sources/Upload/ProgressReporter.swift", tokens: 1_000)]]),
        Turn("Why would it go backwards?", thinks: true),
        Turn(
          "Check how resume restores the offset.",
          [[Call("read_file", "Sources/Upload/ResumeStore.swift", tokens: 900)]]),
        Turn("Propose a fix in two sentences."),
        Turn("Apply it and run the progress tests.", [[Call("run_tests", "ProgressTests", tokens: 800)]]),
        Turn(
          "Are there other callers of the old offset API?", [[Call("search", "restoredOffset", tokens: 350)]]),
        Turn(
          "Update them too.", [[Call("read_file", "Sources/Upload/BackgroundSession.swift", tokens: 1_100)]]),
        Turn("Run the whole suite.", [[Call("run_tests", "AllTests#2", tokens: 1_600)]]),
        Turn("Summarize both fixes for the pull request description."),
        Turn(
          "Does the chunker still need its own lock now?", thinks: true,
          [[Call("read_file", "Sources/Upload/Chunker.swift", tokens: 900)]]),
        Turn("Replace the lock with a Mutex from Synchronization.", thinks: true),
        Turn("Build and test.", [[Call("run_tests", "ChunkerTests", tokens: 700)]]),
        Turn("Any data race warnings left?", [[Call("search", "@unchecked Sendable", tokens: 300)]]),
        Turn("Explain the remaining one."),
        Turn("Leave it with a comment for now."),
        Turn(
          "Turn the commit rules back on and write the commit for the Mutex change.",
          [[Call(skill, "writing-commit-messages")]]),
        Turn("Fine. What is left on the original issue?"),
        Turn("Read the issue text again.", [[Call("read_file", "docs/issues/412.md", tokens: 600)]]),
        Turn(
          "Is the background upload path covered by a test?",
          [[Call("search", "BackgroundSessionTests", tokens: 300)]]),
        Turn(
          "Write that test.", thinks: true,
          [[Call("read_file", "Tests/UploadTests/Helpers.swift", tokens: 700)]]),
        Turn("Run it.", [[Call("run_tests", "BackgroundSessionTests", tokens: 600)]]),
        Turn("Last run of everything before I push.", [[Call("run_tests", "AllTests#3", tokens: 1_600)]]),
        Turn("Thanks. Give me a three-line status for the team channel."),
      ],
      answerTokens: 80...320)
  }
}
