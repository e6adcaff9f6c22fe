import TestSupport
import Testing

@Suite(.timeLimit(.minutes(10))) struct PropertyCaseCountTests {
  @Test func `the default holds when the variable is unset or empty`() throws {
    #expect(try PropertyCaseCount(default: 200, variable: "CASES", environment: [:]).value == 200)
    #expect(try PropertyCaseCount(default: 200, variable: "CASES", environment: ["CASES": ""]).value == 200)
    #expect(try PropertyCaseCount(default: 200, variable: "CASES", environment: ["OTHER": "7"]).value == 200)
  }

  @Test func `a whole number from 1 up replaces the default`() throws {
    #expect(
      try PropertyCaseCount(default: 200, variable: "CASES", environment: ["CASES": "50000"]).value == 50_000)
    #expect(try PropertyCaseCount(default: 200, variable: "CASES", environment: ["CASES": "1"]).value == 1)
  }

  @Test(arguments: ["0", "-3", "many", "2.5", " 10", "99999999999999999999"])
  func `anything else is an error that names the variable and its value`(text: String) {
    let error = #expect(throws: PropertyCaseCount.InvalidValue.self) {
      try PropertyCaseCount(default: 200, variable: "CASES", environment: ["CASES": text])
    }
    #expect(error?.variable == "CASES")
    #expect(error?.text == text)
  }
}
