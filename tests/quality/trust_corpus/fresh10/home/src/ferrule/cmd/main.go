package main

func main() {
	// flags, manager setup, controllers and webhooks are wired here
}
