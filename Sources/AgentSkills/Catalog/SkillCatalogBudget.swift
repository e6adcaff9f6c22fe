import ModelSession
import Synchronization

/// A cap on the tokens the skills catalog takes in the instructions.
///
/// The catalog is the lead instruction and one block per skill (see
/// `Skills`); an active skill's block holds its instructions, which count
/// toward the budget and which no step shortens or leaves out. When the
/// text, counted by `tokenCounter`, takes more than `tokens`, the catalog
/// takes these steps, in this order, and stops at the first that fits:
///
/// 1. **Descriptions shortened**: each description is cut to its first
///    sentence and to at most `descriptionCharacterLimit` characters (see
///    ``shortened(_:)``). Skipped when no description gets shorter.
/// 2. **Names only**: every block of a skill that is not active is
///    `Skill: name [state]`, with no description.
/// 3. **Skills left out**: the names-only listing keeps as many skills as fit,
///    in catalog order, and leaves out the rest from the end of that order
///    (active skills always stay); a last paragraph tells the model how many
///    are not listed. They stay in the
///    activation tool's list of names, so the model can still activate them.
///    When not even a catalog that lists no skill fits, the catalog is the
///    smaller of that one and the names-only one (the names-only one when
///    they take the same tokens), and the note says it is still over.
///
/// Every step taken is reported in a `catalogTrimmed` generation note, before
/// every generation whose catalog it shortens; nothing is dropped silently.
///
/// ```swift
/// Skills(activations: activations, skills: library.skills)
///   .catalogBudget(SkillCatalogBudget(tokens: 400))
/// // or 2% of a 4,096-token context window (81 tokens):
///   .catalogBudget(.share(0.02, ofContextWindow: 4_096))
/// ```
///
/// A budget remembers its last few fits (keyed by the catalog's full text),
/// so a counter that asks a server is not asked again before every
/// generation: make the budget once, beside the session.
public struct SkillCatalogBudget: Sendable {
  /// The most tokens the catalog may take (0 or more).
  public let tokens: Int
  /// What counts the catalog's tokens; use the same counter as the history modifiers.
  public let tokenCounter: any TokenCounter
  /// The most characters a shortened description keeps, its ellipsis included (at least 2).
  public let descriptionCharacterLimit: Int
  let memo = SkillCatalogFitMemo()

  /// Creates a budget of `tokens` (a negative value is taken as 0) counted by
  /// `tokenCounter`; shortened descriptions keep at most
  /// `descriptionCharacterLimit` characters (a value below 2 is taken as 2).
  public init(
    tokens: Int, tokenCounter: any TokenCounter = EstimatingTokenCounter(),
    descriptionCharacterLimit: Int = 80
  ) {
    self.tokens = max(0, tokens)
    self.tokenCounter = tokenCounter
    self.descriptionCharacterLimit = max(2, descriptionCharacterLimit)
  }

  /// A budget of `fraction` of a context window of `contextWindow` tokens,
  /// rounded down: `share(0.02, ofContextWindow: 4_096)` is 81 tokens.
  /// A fraction outside 0...1 is clamped into it.
  ///
  /// - Parameters:
  ///   - fraction: The share of the window, such as 0.02 for 2%.
  ///   - contextWindow: The model's context window, in tokens.
  ///   - tokenCounter: What counts the catalog's tokens.
  public static func share(
    _ fraction: Double, ofContextWindow contextWindow: Int,
    tokenCounter: any TokenCounter = EstimatingTokenCounter()
  ) -> SkillCatalogBudget {
    let clamped = fraction.isNaN ? 0 : min(1, max(0, fraction))
    return SkillCatalogBudget(
      tokens: Int((clamped * Double(max(0, contextWindow))).rounded(.down)), tokenCounter: tokenCounter)
  }

  /// The description as the first step shortens it: up to the end of its
  /// first sentence (the first `.`, `!` or `?` followed by a space or a line
  /// break, or the first blank line), with runs of white space made one
  /// space; then, when that is longer than ``descriptionCharacterLimit``, cut
  /// at the last space that keeps it within the limit (or within the word
  /// when there is none) and ended with `…`.
  ///
  /// `"Reviews SQL for injection. Use it before a merge."` becomes
  /// `"Reviews SQL for injection."`.
  public func shortened(_ description: String) -> String {
    SkillCatalogFitter.shortened(description, characterLimit: descriptionCharacterLimit)
  }
}

/// The last few fits of one budget, by the catalog's full text.
final class SkillCatalogFitMemo: Sendable {
  private static let capacity = 8
  private let fits = Mutex<[(key: String, listing: SkillCatalogListing)]>([])

  func listing(for key: String) -> SkillCatalogListing? {
    fits.withLock { fits in fits.first { $0.key == key }?.listing }
  }

  func store(_ listing: SkillCatalogListing, for key: String) {
    fits.withLock { fits in
      fits.removeAll { $0.key == key }
      fits.insert((key, listing), at: 0)
      if fits.count > Self.capacity { fits.removeLast(fits.count - Self.capacity) }
    }
  }
}
