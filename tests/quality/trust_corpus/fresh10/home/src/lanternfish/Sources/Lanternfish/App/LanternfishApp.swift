import SwiftUI
import SwiftData

@main
struct LanternfishApp: App {
    var body: some Scene { WindowGroup { ContentView() }.modelContainer(for: [Catch.self, Spot.self, Trip.self]) }
}
