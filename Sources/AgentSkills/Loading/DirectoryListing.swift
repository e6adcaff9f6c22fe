import CDirectoryEntries
import ModelSession

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension FileSystem {
  /// What a directory holds: its entries, and the names that are not valid UTF-8.
  struct Listing {
    /// One name in a directory.
    struct Entry: Equatable {
      /// The name, valid UTF-8.
      var name: String
      /// Whether the directory entry itself says it is a folder (`DT_DIR`): no
      /// `stat` is needed to know. `false` when it is something else or the
      /// file system does not say.
      var isDirectory: Bool
    }

    /// The entries whose names are valid UTF-8, sorted by name, without `.` and `..`.
    var entries: [Entry] = []
    /// The names that are not valid UTF-8, each shown with its bad bytes as `\xHH`.
    var undecodable: [String] = []

    /// The names of ``entries``, sorted.
    var names: [String] { entries.map(\.name) }

    /// Adds a name read from the directory, as bytes, and its `d_type`.
    fileprivate mutating func add(_ bytes: UnsafeRawBufferPointer, type: UInt8) {
      guard let name = String(validating: bytes, as: UTF8.self) else {
        undecodable.append(FileSystem.showingInvalidBytes(Array(bytes)))
        return
      }
      if name != "." && name != ".." {
        entries.append(Entry(name: name, isDirectory: type == FileSystem.directoryType))
      }
    }

    fileprivate mutating func sort() {
      entries.sort { $0.name < $1.name }
      undecodable.sort()
    }
  }

  /// Why a directory could not be listed.
  struct DirectoryError: Error {
    var reason: String
  }

  /// `DT_DIR`, the same on Linux and the BSDs.
  fileprivate static let directoryType: UInt8 = 4

  /// The names in the directory at `path` (symbolic links followed), or why it cannot be listed.
  static func contentsOfDirectory(_ path: String) -> Result<Listing, DirectoryError> {
    let descriptor = path.withCString { open($0, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
    guard descriptor >= 0 else { return .failure(DirectoryError(reason: FileKind.lastError())) }
    defer { close(descriptor) }
    return contentsOfDirectory(descriptor: descriptor)
  }

  /// The names in the open directory `descriptor`, read from its start; the caller closes it.
  ///
  /// On Linux the entries are read with `getdents64` into a buffer on the
  /// stack: `opendir` allocates 32 KB for each folder, which costs more than
  /// the listing itself when a library of skills lists thousands of small
  /// folders on every core.
  static func contentsOfDirectory(descriptor: Int32) -> Result<Listing, DirectoryError> {
    var listing = Listing()
    // 1 KB stays on the stack (a larger temporary allocation goes to the heap); it holds
    // about 30 entries, more than most skill folders have, and a larger folder takes more calls.
    let outcome = withUnsafeTemporaryAllocation(byteCount: 1024, alignment: 8) { buffer in
      readEntries(descriptor, into: buffer, listing: &listing)
    }
    switch outcome {
    case .listed:
      listing.sort()
      return .success(listing)
    case .failed(let reason):
      return .failure(DirectoryError(reason: reason))
    case .unsupported:
      return readEntriesWithDirectoryStream(descriptor)
    }
  }

  private enum ReadOutcome {
    case listed
    case failed(String)
    /// The system has no `getdents64`.
    case unsupported
  }

  /// Reads `linux_dirent64` records: `d_ino` (8 bytes), `d_off` (8),
  /// `d_reclen` (2), `d_type` (1), then the NUL-terminated name.
  private static func readEntries(
    _ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer, listing: inout Listing
  ) -> ReadOutcome {
    guard let base = buffer.baseAddress else { return .failed("no buffer for the folder's entries") }
    let nameOffset = 19
    while true {
      let count = contextkit_read_directory_entries(descriptor, base, buffer.count)
      if count == 0 { return .listed }
      if count < 0 {
        if errno == EINTR { continue }
        if errno == ENOSYS { return .unsupported }
        return .failed(FileKind.lastError())
      }
      var offset = 0
      while offset + nameOffset <= count {
        let record = UnsafeRawPointer(base + offset)
        let length = Int(record.loadUnaligned(fromByteOffset: 16, as: UInt16.self))
        guard length > nameOffset, offset + length <= count else {
          return .failed("the folder's entries could not be decoded")
        }
        let type = record.load(fromByteOffset: 18, as: UInt8.self)
        let field = UnsafeRawBufferPointer(start: record + nameOffset, count: length - nameOffset)
        let name = UnsafeRawBufferPointer(rebasing: field[..<(field.firstIndex(of: 0) ?? field.endIndex)])
        listing.add(name, type: type)
        offset += length
      }
    }
  }

  /// The portable way, where `getdents64` is missing: a directory stream on a copy of the descriptor.
  private static func readEntriesWithDirectoryStream(_ descriptor: Int32) -> Result<Listing, DirectoryError> {
    let copy = dup(descriptor)
    guard copy >= 0, let directory = fdopendir(copy) else {
      let reason = FileKind.lastError()
      if copy >= 0 { close(copy) }
      return .failure(DirectoryError(reason: reason))
    }
    defer { closedir(directory) }
    rewinddir(directory)
    var listing = Listing()
    while let entry = readdir(directory) {
      let type = UInt8(entry.pointee.d_type)
      withUnsafeBytes(of: entry.pointee.d_name) { raw in
        let name = UnsafeRawBufferPointer(rebasing: raw[..<(raw.firstIndex(of: 0) ?? raw.endIndex)])
        listing.add(name, type: type)
      }
    }
    listing.sort()
    return .success(listing)
  }
}
