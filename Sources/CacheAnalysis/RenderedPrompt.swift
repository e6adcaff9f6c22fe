/// What one generation sends, as the canonical sequence of blocks a server's
/// prompt cache compares, with token counts.
///
/// A prompt keeps its blocks in columns (a small rendering id, the token
/// count and the place of each block), with the texts interned once in a
/// table shared by every prompt one ``PromptCacheModel`` renders: copying,
/// extending and comparing prompts then touches a few bytes per block and no
/// string. ``blocks`` builds the blocks with their texts on demand.
///
/// ```swift
/// let prompt = try await model.render(PromptRequest(record: record))
/// print(prompt.tokenCount, prompt.blocks.map(\.location))
/// ```
public struct RenderedPrompt: Sendable {
  /// Where the texts of the blocks are interned.
  let table: RenderingTable
  /// The place of each block.
  private(set) var places: [BlockPlace] = []
  /// The rendering id of each block in `table`: equal ids, same text and token count.
  private(set) var renderingIDs: [Int] = []
  /// The tokens of each block.
  private(set) var tokenCounts: [Int] = []
  /// The locations that places do not hold themselves, indexed by their places' values.
  private var otherLocations: [PromptBlock.Location] = []
  /// One more than the highest entry index of the blocks, 0 when no block is an entry.
  private(set) var entryIndexEnd = 0
  /// The tokens of every block.
  public private(set) var tokenCount = 0

  /// An empty prompt whose blocks are interned in `table`.
  init(table: RenderingTable) {
    self.table = table
  }

  /// Creates a rendered prompt from blocks.
  public init(blocks: [PromptBlock]) {
    self.init(blocks: blocks, table: RenderingTable())
  }

  /// A prompt of `blocks` whose texts are interned in `table`.
  init(blocks: [PromptBlock], table: RenderingTable) {
    self.table = table
    append(blocks)
  }

  /// The blocks, in the order a server reads them.
  public var blocks: [PromptBlock] {
    get {
      zip(table.renderings(renderingIDs), places.indices).map { rendering, index in
        PromptBlock(location: location(at: index), text: rendering.text, tokenCount: rendering.tokenCount)
      }
    }
    set {
      self = RenderedPrompt(blocks: newValue, table: table)
    }
  }

  /// The number of blocks.
  var blockCount: Int { places.count }

  /// The location of the block at `index`.
  func location(at index: Int) -> PromptBlock.Location {
    places[index].entryLocation ?? otherLocations[places[index].value]
  }

  /// The tokens of the block at `index`.
  func tokenCount(at index: Int) -> Int {
    tokenCounts[index]
  }

  /// The rendering id of the block at `index` in ``table``, and its text and token count.
  func rendering(at index: Int) -> (id: Int, rendering: RenderingTable.Rendering) {
    (renderingIDs[index], table.renderings([renderingIDs[index]])[0])
  }

  /// Reserves room for `count` more blocks.
  mutating func reserveCapacity(adding count: Int) {
    places.reserveCapacity(places.count + count)
    renderingIDs.reserveCapacity(renderingIDs.count + count)
    tokenCounts.reserveCapacity(tokenCounts.count + count)
  }

  /// Appends a block at `location` whose rendering `table` knows as `id`.
  mutating func append(_ location: PromptBlock.Location, rendering id: Int, tokenCount count: Int) {
    if let place = BlockPlace(location) {
      append(place, rendering: id, tokenCount: count)
    } else {
      if case .entry(let index, _) = location { entryIndexEnd = max(entryIndexEnd, index + 1) }
      otherLocations.append(location)
      append(BlockPlace(kind: 0, value: otherLocations.count - 1), rendering: id, tokenCount: count)
    }
  }

  /// Appends a block at `place` (an entry or a location kept aside) whose rendering `table` knows as `id`.
  mutating func append(_ place: BlockPlace, rendering id: Int, tokenCount count: Int) {
    if place.kind != 0 { entryIndexEnd = max(entryIndexEnd, place.value + 1) }
    places.append(place)
    renderingIDs.append(id)
    tokenCounts.append(count)
    tokenCount += count
  }

  /// Sets the rendering of the block at `index` (one appended before its tokens were counted).
  mutating func setRendering(at index: Int, id: Int, tokenCount count: Int) {
    tokenCount += count - tokenCounts[index]
    renderingIDs[index] = id
    tokenCounts[index] = count
  }

  /// Appends blocks, interning their texts in `table`.
  mutating func append(_ blocks: [PromptBlock]) {
    let ids = table.ids(of: blocks.map { RenderingTable.Rendering(text: $0.text, tokenCount: $0.tokenCount) })
    reserveCapacity(adding: blocks.count)
    for (block, id) in zip(blocks, ids) {
      append(block.location, rendering: id, tokenCount: block.tokenCount)
    }
  }

  /// The prompt followed by more blocks (such as the output the generation
  /// produced): what a server's cache holds after the generation.
  public func appending(_ more: [PromptBlock]) -> RenderedPrompt {
    var prompt = self
    prompt.append(more)
    return prompt
  }

  /// The number of leading blocks the two prompts render the same.
  public func commonBlockCount(with other: RenderedPrompt) -> Int {
    let limit = min(blockCount, other.blockCount)
    guard table === other.table else {
      // Prompts of two tables: compare the texts.
      let mine = table.renderings(Array(renderingIDs.prefix(limit)))
      let theirs = other.table.renderings(Array(other.renderingIDs.prefix(limit)))
      return zip(mine, theirs).prefix { $0 == $1 }.count
    }
    return renderingIDs.withUnsafeBufferPointer { mine in
      other.renderingIDs.withUnsafeBufferPointer { theirs in
        var count = 0
        while count < limit, mine[count] == theirs[count] { count += 1 }
        return count
      }
    }
  }

  /// The tokens of the first `blockCount` blocks.
  public func tokenCount(ofFirst blockCount: Int) -> Int {
    tokenCounts.prefix(blockCount).reduce(0, +)
  }
}

extension RenderedPrompt: Hashable {
  /// Whether both prompts have the same blocks (locations, texts and token counts).
  public static func == (lhs: RenderedPrompt, rhs: RenderedPrompt) -> Bool {
    lhs.blockCount == rhs.blockCount && lhs.commonBlockCount(with: rhs) == lhs.blockCount
      && lhs.places.indices.allSatisfy { lhs.location(at: $0) == rhs.location(at: $0) }
  }

  /// Hashes the blocks.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(blocks)
  }
}

extension RenderedPrompt: Codable {
  private enum CodingKeys: String, CodingKey {
    case blocks
  }

  /// Decodes a prompt from its blocks.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.init(blocks: try container.decode([PromptBlock].self, forKey: .blocks))
  }

  /// Encodes the prompt's blocks.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(blocks, forKey: .blocks)
  }
}
