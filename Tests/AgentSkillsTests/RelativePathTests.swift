import Foundation
import TestSupport
import Testing

@testable import AgentSkills

@Suite(.timeLimit(.minutes(10))) struct RelativePathTests {
  @Test(.timeLimit(.minutes(10))) func `relative paths are normalised lexically`() {
    #expect(RelativePath.normalized("a/./b//c") == "a/b/c")
    #expect(RelativePath.normalized("a/../b") == "b")
    #expect(RelativePath.normalized("../a") == nil)
    #expect(RelativePath.normalized("a/../../a") == nil)
    #expect(RelativePath.normalized("/etc/passwd") == nil)
    #expect(RelativePath.normalized("~/x") == nil)
    #expect(RelativePath.normalized(".") == nil)
  }

}
