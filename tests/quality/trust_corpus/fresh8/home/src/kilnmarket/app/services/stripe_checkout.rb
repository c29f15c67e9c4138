class StripeCheckout
  def initialize(cart)
    @cart = cart
  end

  def session_url
    Stripe::Checkout::Session.create(
      mode: "payment",
      line_items: @cart.stripe_line_items,
      expires_at: 30.minutes.from_now.to_i,
      success_url: Rails.application.routes.url_helpers.cart_url
    ).url
  end
end
