resource "cloudflare_record" "home" {
  name = "home"
}
