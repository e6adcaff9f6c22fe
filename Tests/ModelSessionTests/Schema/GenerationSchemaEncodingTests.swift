import Foundation
import ModelSession
import Testing
