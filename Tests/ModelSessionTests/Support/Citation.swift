import Foundation
import ModelSession
import TestSupport

struct Citation: Transcript.CustomSegment, Equatable {
  static let typeIdentifier = "test.citation"
  var id: String
  var url: String
}
