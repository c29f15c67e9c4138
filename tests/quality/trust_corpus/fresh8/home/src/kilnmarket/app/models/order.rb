class Order < ApplicationRecord
  has_many :order_lines, dependent: :destroy
  enum :status, {pending: 0, paid: 1, shipped: 2, refunded: 3}
  monetize :total_cents
end
