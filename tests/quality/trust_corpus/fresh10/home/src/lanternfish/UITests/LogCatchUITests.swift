import XCTest

final class LogCatchUITests: XCTestCase {}
