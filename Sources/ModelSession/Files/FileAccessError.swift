/// Why a file could not be written or read, naming the file.
///
/// ```swift
/// do {
///   try FileWriter.write(Data(html.utf8), to: "/tmp")
/// } catch {
///   print(error)  // cannot write /tmp: it is a folder, not a file
/// }
/// ```
public struct FileAccessError: Error, Sendable, Hashable, CustomStringConvertible {
  /// Whether the file was being written or read.
  public enum Operation: String, Sendable, Hashable {
    /// Writing (``FileWriter``).
    case write
    /// Reading (``FileReader``).
    case read
  }

  /// What was wrong.
  public enum Reason: Sendable, Hashable {
    /// The path names a folder.
    case isAFolder
    /// The path names something that is neither a regular file nor a
    /// character device or FIFO (for writing) or a regular file (for reading);
    /// `kind` says what, such as "a socket".
    case notARegularFile(kind: String)
    /// The path is a symbolic link whose target does not exist.
    case danglingSymbolicLink
    /// The path is a FIFO (named pipe) that no process is reading.
    case fifoWithoutReader
    /// The existing file's owner or group could not be given to the new file,
    /// so the file was left as it was.
    case cannotKeepOwner(String)
    /// The existing file may not be written by this process's user (its
    /// permissions make it read-only for them), so it was left as it was,
    /// as a shell's `>` would.
    case readOnly
    /// The file is larger than the limit given to ``FileReader``.
    case tooLarge(size: Int, limit: Int)
    /// A system call failed: which, and the system's message.
    case system(call: String, message: String)
  }

  /// The path as given.
  public var path: String
  /// Writing or reading.
  public var operation: Operation
  /// What was wrong.
  public var reason: Reason

  /// Creates an error.
  public init(path: String, operation: Operation, reason: Reason) {
    self.path = path
    self.operation = operation
    self.reason = reason
  }

  /// "cannot write PATH: it is a folder, not a file".
  public var description: String {
    "cannot \(operation.rawValue) \(path): " + explanation
  }

  /// What was wrong, without the path: "it is a folder, not a file".
  public var explanation: String {
    switch reason {
    case .isAFolder: "it is a folder, not a file"
    case .notARegularFile(let kind): "it is \(kind), not a regular file"
    case .danglingSymbolicLink: "it is a symbolic link to a file that does not exist"
    case .fifoWithoutReader: "it is a FIFO (named pipe) and nothing is reading it"
    case .cannotKeepOwner(let message):
      "the new file could not be given the existing file's owner (\(message)); the file is unchanged"
    case .readOnly: "it is read-only for this user; it was left as it was"
    case .tooLarge(let size, let limit): "it is \(size) bytes, more than the limit of \(limit)"
    case .system(let call, let message): "\(message) (\(call))"
    }
  }
}
