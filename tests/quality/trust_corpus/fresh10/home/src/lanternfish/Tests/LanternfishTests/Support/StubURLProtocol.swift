import Foundation

final class StubURLProtocol: URLProtocol {}
