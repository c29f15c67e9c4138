module Webhooks
  class StripeController < ActionController::API
    def create
      event = Stripe::Webhook.construct_event(request.body.read, request.headers["Stripe-Signature"], ENV.fetch("STRIPE_WEBHOOK_SECRET"))
      StripeEventJob.perform_later(event.id, event.type)
      head :ok
    end
  end
end
