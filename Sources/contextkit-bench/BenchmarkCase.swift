/// One measured operation, and optionally a baseline measured beside it in
/// the same run (such as Foundation doing the same work).
///
/// An operation returns a number derived from its result (a count, a length);
/// the harness folds these into a checksum so the work cannot be optimized away.
struct BenchmarkCase {
  /// An operation and the name it is reported under.
  struct Operation {
    /// The name in reports, such as `JSONSerialization`.
    var name: String
    /// Does the work once.
    var run: () throws -> Int
  }

  /// The name in reports and for `--filter`, such as `json/parse/100KB`.
  var name: String
  /// What is measured.
  var operation: Operation
  /// What the operation is compared with, when anything.
  var baseline: Operation?
  /// What one operation is made of, to report the time per unit (per event, per round).
  var unit: BenchmarkUnit?
  /// A line measured during setup and printed with the result (such as memory in use).
  var note: String?
  /// The memory measured during setup, for tools (`--json`).
  var memory: BenchmarkMemory?

  init(
    name: String, run: @escaping () throws -> Int, baseline: Operation? = nil, unit: BenchmarkUnit? = nil,
    note: String? = nil, memory: BenchmarkMemory? = nil
  ) {
    self.name = name
    self.operation = Operation(name: name, run: run)
    self.baseline = baseline
    self.unit = unit
    self.note = note
    self.memory = memory
  }
}

/// Resident memory a case's setup measured: what its input took and what
/// the work kept (growth of the process's resident set, in bytes).
struct BenchmarkMemory: Codable {
  /// The input, such as the records analyzed.
  var inputBytes: Int
  /// What the work kept after one operation, such as the analysis's caches.
  var analysisBytes: Int
}

/// The parts one operation is made of, such as 100,000 events or 200 rounds.
struct BenchmarkUnit: Codable {
  /// The part's name, singular: `event`, `round`.
  var name: String
  /// How many parts one operation has.
  var countPerOperation: Int
}

/// A benchmark case by name, with a factory so that expensive setup (such as
/// generating a 10 MB input) runs only for the cases selected.
struct BenchmarkRegistration {
  /// The case's name, matched by `--filter`.
  var name: String
  /// Builds the case, doing its setup.
  var makeCase: () throws -> BenchmarkCase
}
