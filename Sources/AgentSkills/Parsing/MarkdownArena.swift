import CMark

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A bump allocator for libcmark, one per thread: the nodes of one parsed
/// body are carved out of large chunks and dropped all at once afterwards.
///
/// libcmark allocates every node and text buffer with its own `calloc` and
/// frees each one again; measured in `contextkit-bench` (`skills/load/1000`),
/// those calls took about half of libcmark's time. The tree of a skill's body
/// lives only while ``MarkdownOutline`` reads it, so the allocator hands out
/// memory from the current chunk, ignores `free`, and rewinds when the
/// outline is done. `cmark_mem` carries no context pointer, so the callbacks
/// find their arena through a thread-specific key.
struct MarkdownArena {
  /// The size of a chunk; a larger request gets a chunk of its own size.
  static let chunkSize = 64 * 1024
  /// Room before each block for its size (kept a multiple of 16, for alignment).
  private static let headerSize = 16

  private var chunks: [UnsafeMutableRawPointer] = []
  private var cursor: UnsafeMutableRawPointer?
  private var remaining = 0

  /// `size` bytes, zeroed when asked; `nil` when the system is out of memory.
  mutating func allocate(_ size: Int, zeroed: Bool) -> UnsafeMutableRawPointer? {
    guard size >= 0, size <= Int.max - Self.headerSize - 15 else { return nil }
    let needed = Self.headerSize + ((size + 15) & ~15)
    if needed > remaining {
      guard let chunk = malloc(max(needed, Self.chunkSize)) else { return nil }
      chunks.append(chunk)
      cursor = chunk
      remaining = max(needed, Self.chunkSize)
    }
    guard let block = cursor else { return nil }
    cursor = block + needed
    remaining -= needed
    block.storeBytes(of: size, as: Int.self)
    let pointer = block + Self.headerSize
    if zeroed { memset(pointer, 0, size) }
    return pointer
  }

  /// `pointer`'s block grown (or shrunk) to `size` bytes, its content kept.
  mutating func reallocate(_ pointer: UnsafeMutableRawPointer?, to size: Int) -> UnsafeMutableRawPointer? {
    guard let pointer else { return allocate(size, zeroed: false) }
    let oldSize = (pointer - Self.headerSize).load(as: Int.self)
    if size <= oldSize { return pointer }
    guard let moved = allocate(size, zeroed: false) else { return nil }
    memcpy(moved, pointer, oldSize)
    return moved
  }

  /// Forgets every block; keeps the first chunk for the next parse.
  mutating func rewind() {
    while chunks.count > 1, let chunk = chunks.popLast() { free(chunk) }
    cursor = chunks.first
    remaining = chunks.isEmpty ? 0 : Self.chunkSize
  }

  /// Gives every chunk back to the system.
  mutating func release() {
    for chunk in chunks { free(chunk) }
    chunks = []
    cursor = nil
    remaining = 0
  }

  // MARK: - The thread's arena

  /// The key under which each thread keeps its arena (released when the thread ends).
  private static let key: pthread_key_t = {
    var key = pthread_key_t()
    #if os(Linux)
    pthread_key_create(&key) { pointer in
      if let pointer { MarkdownArena.destroy(pointer) }
    }
    #else
    pthread_key_create(&key) { pointer in MarkdownArena.destroy(pointer) }
    #endif
    return key
  }()

  private static func destroy(_ pointer: UnsafeMutableRawPointer) {
    let arena = pointer.assumingMemoryBound(to: MarkdownArena.self)
    arena.pointee.release()
    arena.deinitialize(count: 1)
    arena.deallocate()
  }

  /// This thread's arena, made on first use. A plain pointer: the allocator's
  /// callbacks reach it without reference counting.
  private static var current: UnsafeMutablePointer<MarkdownArena> {
    if let pointer = pthread_getspecific(key) { return pointer.assumingMemoryBound(to: MarkdownArena.self) }
    let arena = UnsafeMutablePointer<MarkdownArena>.allocate(capacity: 1)
    arena.initialize(to: MarkdownArena())
    pthread_setspecific(key, arena)
    return arena
  }

  /// Runs `body` with a libcmark allocator backed by this thread's arena, then
  /// rewinds it: nothing libcmark allocated through it may be used after `body` returns.
  static func withAllocator<Result>(_ body: (UnsafeMutablePointer<cmark_mem>) -> Result) -> Result {
    let arena = current
    defer { arena.pointee.rewind() }
    var allocator = cmark_mem(
      calloc: { count, size in
        let (total, overflow) = count.multipliedReportingOverflow(by: size)
        return overflow ? nil : MarkdownArena.current.pointee.allocate(total, zeroed: true)
      },
      realloc: { pointer, size in MarkdownArena.current.pointee.reallocate(pointer, to: size) },
      free: { _ in })
    return withUnsafeMutablePointer(to: &allocator, body)
  }
}
