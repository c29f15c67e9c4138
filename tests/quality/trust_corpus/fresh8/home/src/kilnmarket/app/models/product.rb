class Product < ApplicationRecord
  KINDS = %w[bowl mug].freeze
  belongs_to :potter
  has_many_attached :photos
  monetize :price_cents
  validates :kind, inclusion: {in: KINDS}
end
