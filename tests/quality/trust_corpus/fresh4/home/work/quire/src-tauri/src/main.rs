fn main() {
    quire::run()
}
