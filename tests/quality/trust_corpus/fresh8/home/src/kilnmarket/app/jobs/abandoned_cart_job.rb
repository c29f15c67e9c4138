class AbandonedCartJob < ApplicationJob
  queue_as :default

  def perform
    Cart.abandoned.where(reminded_at: nil).find_each do |cart|
      CartMailer.reminder(cart.id).deliver_later
      cart.update!(reminded_at: Time.current)
    end
  end
end
