import XCTest

final class TideClientTests: XCTestCase {}
