enum Route: Hashable {
    case spot(UUID)
    case trip(UUID)
}
