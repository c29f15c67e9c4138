FactoryBot.define do
  factory :order do
    status { :pending }
    total_cents { 4800 }
  end
end
