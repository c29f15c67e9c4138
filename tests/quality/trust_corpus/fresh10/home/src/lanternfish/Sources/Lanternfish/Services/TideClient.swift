import Foundation

struct TideClient {
    let baseURL: URL
}
